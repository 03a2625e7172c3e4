"""What keeps other web pages and slow clients away from `kniffel serve`.

Another page the user visits can send requests to a server on loopback: a form or a `text/plain`
fetch needs no CORS preflight, and a DNS-rebinding page reaches it under a name of its own.  So:
- the Host header must name the address the server listens on (or localhost; any address of
  this machine, not a name, when it listens on every interface), or the name `--host` gave;
- the Origin, where a browser sends one, must be the Host the request came to;
- a POST body must be declared application/json (415 otherwise): a cross-site page cannot send
  that without a preflight, which this server never answers.
- the Host header is a host and a port, nothing else (no "user@" part), and a request that
  sends Host, Origin or Content-Type twice is refused: which one would a check believe?
A client that sends its headers or body too slowly is cut off (HEADER_SECONDS, BODY_SECONDS),
and one that disconnects mid-request leaves one quiet line in the log, no traceback; neither
idle connections nor slow senders can crowd out real requests, and every request gets an HTTP
answer, a 503 with Retry-After at worst, never a reset (timed_protocol); a warning that repeats
is logged once a minute with its count (RepeatFilter).
"""
import asyncio
import ipaddress
import logging
import re
import socket
import time
from urllib.parse import urlsplit

from starlette.responses import JSONResponse

# from a request's first byte to the end of its headers (serve --client-timeout)
HEADER_SECONDS = 10
BODY_SECONDS = 10  # from the end of the headers to the end of the body (the same)
LOG = logging.getLogger("uvicorn.error")


def _ip(text):
    try:
        return ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None


def allowed_hosts(host):
    """(names, any_address) the Host header may give for a server listening on `host`:
    localhost and the listening address or name; any_address when it listens on every
    interface (any IP address, this machine's name, never another name)."""
    names = {"localhost", "127.0.0.1", "::1"}
    address = _ip(host)
    if address is not None and address.is_unspecified:
        name = socket.gethostname().lower()
        return names | {name, f"{name}.local"}, True
    return names | {host.lower().strip("[]")}, False


# A Host header's value: a name or an IPv4 address, or an IPv6 address in brackets, and a port;
# nothing else (no "user@" part, which a URL parser would drop: "evil.com@127.0.0.1")
HOST_VALUE = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")
ONCE = ("host", "origin", "content-type")  # headers a request must not send twice


def host_name(value):
    """The name or address of a Host header value (without its port), lower case; None when
    it is not a host at all."""
    if not HOST_VALUE.fullmatch(value):
        return None
    try:
        parts = urlsplit("//" + value)
        name = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    return name.lower() if name else None


class Guard:
    """ASGI middleware: Host, Origin and Content-Type checks (module docstring)."""

    def __init__(self, app, host="127.0.0.1"):
        self.app = app
        self.names, self.any_address = allowed_hosts(host)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            refusal = self.refusal(scope)
            if refusal is not None:
                status, message = refusal
                await JSONResponse({"error": message}, status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope):
        """(status, message) of a request to refuse, else None."""
        headers = {}
        for key, value in scope.get("headers", []):
            name = key.decode("latin-1").lower()
            if name in headers and name in ONCE:  # which of two would a check believe?
                return 400, f"a request with two {name.title()} headers is not answered"
            headers[name] = value.decode("latin-1")
        host = headers.get("host", "")
        name = host_name(host)
        if name is None or not (name in self.names or (self.any_address and _ip(name) is not None)):
            return 403, (f"this server does not answer for the host {host[:80]!r}: open it at the "
                         "address kniffel serve printed")
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
                return 403, f"requests from another page ({origin[:80]}) are not answered"
        if scope.get("method") == "POST":
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, "the body must be sent as Content-Type: application/json"
        return None


async def read_body(request, limit, seconds=None):
    """The whole body of `request`, at most `limit` bytes, within `seconds` (default
    BODY_SECONDS); BodyError (413, 408) otherwise."""
    seconds = seconds or BODY_SECONDS
    if int(request.headers.get("content-length") or 0) > limit:
        raise BodyError(f"request larger than {limit} bytes", 413)

    async def read():
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise BodyError(f"request larger than {limit} bytes", 413)
        return body

    try:
        return await asyncio.wait_for(read(), seconds)
    except asyncio.TimeoutError:
        raise BodyError(f"the request body did not arrive within {seconds} s", 408) from None


class BodyError(Exception):
    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


def quiet_disconnect(request):
    """One log line for a client that disconnected before its request was read."""
    LOG.warning("kniffel serve: a client disconnected during %s %s", request.method,
                request.url.path)


async def disconnected(request):
    """Return when the client of `request` (whose body is read) disconnects."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


REPEAT_SECONDS = 60  # a warning that repeats is logged once in this time, with its count


class RepeatFilter(logging.Filter):
    """A logging filter that lets the first record of each message through, then at most one a
    REPEAT_SECONDS with the number held back since: a slowloris run of 300 sockets must not
    write 300 lines (the server's own warnings and uvicorn's, "Invalid HTTP request", ...)."""

    def __init__(self, seconds=None):
        super().__init__()
        self.seconds = seconds
        self.seen = {}  # message template -> [time of its last line, records held back]

    def filter(self, record):
        now = time.monotonic()
        seen = self.seen.setdefault(record.msg, [None, 0])
        last, held = seen
        if last is not None and now - last < (self.seconds or REPEAT_SECONDS):
            seen[1] += 1
            return False
        seen[:] = [now, 0]
        if held and isinstance(record.msg, str) and isinstance(record.args or (), tuple):
            record.msg = record.msg + " (and %d more like it in the last %.0f s)"
            record.args = tuple(record.args or ()) + (held, now - last)
        if len(self.seen) > 1000:  # messages with their own text each: keep the memory bounded
            self.seen.clear()
        return True


def quiet_repeats(logger=LOG):
    """Install RepeatFilter on `logger` (once; after uvicorn has configured its logging)."""
    if not any(isinstance(f, RepeatFilter) for f in logger.filters):
        logger.addFilter(RepeatFilter())


# --- connections: room for every client ---------------------------------------------------------

CONNECTIONS = 256  # connections the server holds before it makes room (closes, cuts, waits)
PER_CLIENT = 16  # idle connections one client address may hold (a browser opens at most 6)
SENDING = 64  # connections part-way through sending a request (headers or body), all clients
SENDING_PER_CLIENT = 16  # the same, of one client address
QUIET_SECONDS = 0.5  # a connection quiet this long, nothing waiting in its socket, may be closed
ADMIT_SECONDS = 2.0  # a request over CONNECTIONS waits this long for room before its 503
HARD_LIMIT = 4 * CONNECTIONS  # beyond it a new connection gets its 503 at once, unread


def timed_protocol(limit=CONNECTIONS):
    """uvicorn's HTTP protocol (h11) that an idle or slow client cannot starve (TimedConnection),
    holding `limit` connections before it makes room (uvicorn's own limit_concurrency stays
    off: its 503 has no Retry-After and comes even when idle connections could make room)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol
    return type("TimedH11Protocol", (TimedConnection, H11Protocol), {"limit": limit})


class TimedConnection:
    """What timed_protocol adds to uvicorn's H11Protocol (a mixin: uvicorn is imported only
    when the server starts).  Each connection is, at any moment, one of
    - busy: its request has come and is being answered: never closed here;
    - sending: part of a request has come (headers or body), the rest has not;
    - idle: no byte of a request (just accepted, or kept alive between requests).
    So that every client gets an HTTP answer and no crowd of sockets locks others out:
    - a connection's request headers must be complete HEADER_SECONDS after its accept (or, kept
      alive, after the next request's first byte); the body has BODY_SECONDS more (read_body);
    - an idle connection is closed to make room (beyond PER_CLIENT of its address, or beyond
      the server's `limit`), the quietest first, but only when it has been quiet QUIET_SECONDS
      and nothing waits in its socket: a request on its way is never cut off;
    - beyond SENDING connections still sending (SENDING_PER_CLIENT of one address), the slowest
      sender (bytes a second, once it has sent for QUIET_SECONDS) gets a 408 and is closed:
      hundreds of bodies dribbled a byte a second cannot hold every place;
    - a request that comes while the server holds more than `limit` connections waits up to
      ADMIT_SECONDS for room to be made, then gets a 503 with Retry-After (never a reset);
    - TCP_NODELAY, which asyncio sets only on sockets made with proto IPPROTO_TCP."""

    limit = CONNECTIONS
    header_timer = None
    active = 0.0  # loop time of the last byte received, the accept, or the last answer sent
    sending_since = None  # loop time of the first byte of the request still coming in
    sent = 0  # bytes of that request received so far
    refused = False  # answered by refuse(): what still comes is dropped until it closes
    fd = -1  # its socket's file descriptor (pending() asks it)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.limit_concurrency = None  # uvicorn's own 503 (no Retry-After): _admitting's instead
        self.app = _admitting(self.app, self)

    def connection_made(self, transport):
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        try:  # uvicorn writes a response's head and body apart: without this, the body
            # of a keep-alive answer waits for the client's delayed ACK (40 ms on Linux)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (OSError, AttributeError):
            pass
        self.fd = sock.fileno() if sock is not None else -1
        self.active = self.loop.time()
        # from the accept, not the first byte: a client that sends nothing is cut off too
        self.header_timer = self.loop.call_later(HEADER_SECONDS, self.headers_too_slow)
        make_room(self.others(), self.loop.time(), self.limit, self)
        if len(self.open_connections()) > HARD_LIMIT:  # no room even after that: say so
            self.refuse(503, "the server has too many connections open; try again in a moment")

    # what a connection is doing ------------------------------------------------------------

    def address(self):
        return self.client[0] if self.client else None

    def open_connections(self):
        """The server's connections that hold a place: not closing, not refused."""
        return [c for c in self.connections if isinstance(c, TimedConnection)
                and not c.transport.is_closing() and not c.refused]

    def others(self):
        return [c for c in self.open_connections() if c is not self]

    def sending(self):
        """Part of a request has come, not all of it."""
        return (self.sending_since is not None and not self.transport.is_closing()
                and not self.refused)

    def idle(self):
        """No request of this connection is coming in, being read or answered."""
        return ((self.cycle is None or self.cycle.response_complete) and not self.sending()
                and not self.transport.is_closing() and not self.refused)

    def pending(self):
        """Bytes that have arrived in this connection's socket and are not read yet."""
        try:
            import array
            import fcntl
            import termios
            count = array.array("i", [0])
            fcntl.ioctl(self.fd, termios.FIONREAD, count)
            return count[0]
        except (ImportError, OSError, AttributeError):  # not on this platform: assume none
            return 0

    def closable(self, now):
        """Idle, quiet for QUIET_SECONDS and nothing in its socket: no request on its way."""
        return self.idle() and now - self.active >= QUIET_SECONDS and not self.pending()

    def rate(self, now):
        """Bytes a second of the request being sent."""
        return self.sent / max(now - self.sending_since, 1e-3)

    # events ---------------------------------------------------------------------------------

    def data_received(self, data):
        import h11
        if self.refused:  # answered already (refuse): the rest of its request is dropped
            return
        now = self.loop.time()
        self.active = now
        super().data_received(data)
        waiting = self.conn.their_state == h11.IDLE and not self.transport.is_closing()
        if waiting and self.header_timer is None:
            self.header_timer = self.loop.call_later(HEADER_SECONDS, self.headers_too_slow)
        elif not waiting and self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            if self.sending_since is None:  # the first bytes of a request: a sender now
                self.sending_since, self.sent = now, 0
                self.sent += len(data)
                cut_slowest(self.others() + [self], now)
            else:
                self.sent += len(data)
        else:
            self.sending_since, self.sent = None, 0

    def on_response_complete(self):
        self.active = self.loop.time()  # quiet from the answer on, not from the request
        super().on_response_complete()

    def connection_lost(self, exc):
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None
        super().connection_lost(exc)

    def headers_too_slow(self):
        import h11
        self.header_timer = None
        if self.conn.their_state == h11.IDLE and not self.transport.is_closing() \
                and not self.refused:  # a refused one has its answer, and closes anyway
            LOG.warning("kniffel serve: closed a connection that sent no complete request "
                        "headers within %s s", HEADER_SECONDS)
            self.transport.close()

    def refuse(self, status, message, retry_after=1):
        """Answer `status` with {"error": message} straight on the socket, then stop sending
        and close a second later, reading and dropping what still comes meanwhile (closed at
        once, the client's next bytes would reset the connection and could take the answer
        with them).  A response already under way is not interrupted by another: closed."""
        self.refused = True
        if self.cycle is not None and self.cycle.response_started \
                and not self.cycle.response_complete:
            self.transport.close()
            return
        import json
        body = json.dumps({"error": message}).encode()
        reason = {408: "Request Timeout", 503: "Service Unavailable"}.get(status, "Error")
        head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
                f"content-length: {len(body)}\r\nretry-after: {retry_after}\r\n"
                "connection: close\r\n\r\n")
        self.transport.write(head.encode() + body)
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(1.0, self.transport.close)


def make_room(others, now, limit, new=None):
    """Close the idle connections (of `others`) that may be closed (TimedConnection.closable),
    quietest first: beyond PER_CLIENT of `new`'s address, and beyond `limit` in all (the
    connection `new` counted too); the slowest senders beyond SENDING are cut (cut_slowest)."""
    closed = 0
    if new is not None:
        mine = [c for c in others if c.address() == new.address()]
        closed += _close_quietest(mine, len(mine) + 1 - PER_CLIENT, now)
    over = len([c for c in others if not c.transport.is_closing() and not c.refused]) \
        + (new is not None) - limit
    closed += _close_quietest(others, over, now)
    if closed:
        LOG.warning("kniffel serve: closed %d idle connection(s) to make room: more than "
                    "%d from one address, or the server's limit", closed, PER_CLIENT)
    cut_slowest(others + ([new] if new is not None else []), now)


def _close_quietest(connections, n, now):
    """Close the `n` closable connections of `connections` quiet the longest: how many."""
    if n <= 0:
        return 0
    quiet = sorted((c for c in connections if c.closable(now)), key=lambda c: c.active)[:n]
    for connection in quiet:
        connection.transport.close()
    return len(quiet)


def cut_slowest(connections, now):
    """Cut the slowest senders (a 408, then closed) beyond SENDING of `connections` in all and
    SENDING_PER_CLIENT of one address; only those that have sent for QUIET_SECONDS (a request
    just begun has had no time to be fast).  How many."""
    senders = [c for c in connections if c.sending()]
    cut = _cut(senders, len(senders) - SENDING, now)
    by_address = {}
    for c in senders:
        if c.sending():
            by_address.setdefault(c.address(), []).append(c)
    for mine in by_address.values():
        cut += _cut(mine, len(mine) - SENDING_PER_CLIENT, now)
    if cut:
        LOG.warning("kniffel serve: cut %d connection(s) sending their request slowest: more "
                    "than %d were sending at once (%d from one address)", cut, SENDING,
                    SENDING_PER_CLIENT)
    return cut


def _cut(senders, n, now):
    if n <= 0:
        return 0
    ripe = sorted((c for c in senders if c.sending() and now - c.sending_since >= QUIET_SECONDS),
                  key=lambda c: c.rate(now))[:n]
    for connection in ripe:
        connection.refuse(408, f"the request came too slowly ({connection.sent} bytes in "
                               f"{now - connection.sending_since:.0f} s) while others waited: "
                               "send it again")
    return len(ripe)


def _admitting(app, connection):
    """The ASGI app `app` behind the server's connection limit: a request that comes while the
    server holds more than its limit waits (up to ADMIT_SECONDS) for room to be made, then is
    answered 503 with Retry-After and the connection closed."""

    async def admitted(scope, receive, send):
        if scope["type"] == "http" and len(connection.open_connections()) > connection.limit:
            loop = asyncio.get_running_loop()
            end = loop.time() + ADMIT_SECONDS
            while len(connection.open_connections()) > connection.limit and loop.time() < end:
                make_room(connection.others(), loop.time(), connection.limit, connection)
                await asyncio.sleep(0.05)
            if len(connection.open_connections()) > connection.limit:
                LOG.warning("kniffel serve: answered 503: more than %d connections open and "
                            "none could be closed", connection.limit)
                await JSONResponse(
                    {"error": "the server has too many connections open; try again in a moment"},
                    503, {"retry-after": "1", "connection": "close"})(scope, receive, send)
                return

        async def unless_refused(message):
            # refuse() has answered this request on the socket and ended its sending: the app's
            # own answer to it (say the 408 of its body's timeout) is dropped, not written after
            if not connection.refused:
                await send(message)

        await app(scope, receive, unless_refused)

    return admitted
