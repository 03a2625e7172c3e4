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
and one that disconnects mid-request leaves one quiet line in the log, no traceback; idle
connections cannot crowd out real requests (timed_protocol), and a warning that repeats is
logged once a minute with its count (RepeatFilter).
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


PER_CLIENT = 16  # connections one client address may hold (a browser opens at most 6)
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


def timed_protocol():
    """uvicorn's HTTP protocol (h11) that an idle or slow client cannot starve (TimedConnection)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol
    return type("TimedH11Protocol", (TimedConnection, H11Protocol), {})


class TimedConnection:
    """What timed_protocol adds to uvicorn's H11Protocol (a mixin: uvicorn is imported only
    when the server starts):
    - a connection is closed when its request headers are not complete HEADER_SECONDS after it
      was accepted (or, on a kept-alive connection, after the next request's first byte; the
      keep-alive timeout covers the wait for it): a socket that sends nothing costs nothing;
    - a client address holds at most PER_CLIENT connections, and the server no more than its
      connection limit: a new connection beyond either closes the idle one (no request being
      answered) that was quiet the longest, so hundreds of idle sockets cannot push a real
      request into uvicorn's 503 (it refuses requests while the limit is reached);
    - TCP_NODELAY, which asyncio sets only on sockets made with proto IPPROTO_TCP."""

    header_timer = None
    active = 0.0  # loop time of the last byte received (or of the accept)

    def connection_made(self, transport):
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        try:  # uvicorn writes a response's head and body apart: without this, the body
            # of a keep-alive answer waits for the client's delayed ACK (40 ms on Linux)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (OSError, AttributeError):
            pass
        self.active = self.loop.time()
        # from the accept, not the first byte: a client that sends nothing is cut off too
        self.header_timer = self.loop.call_later(HEADER_SECONDS, self.headers_too_slow)
        self.make_room()

    def idle(self):
        """No request of this connection is being read or answered (its headers may be coming
        in, slowly)."""
        return ((self.cycle is None or self.cycle.response_complete)
                and not self.transport.is_closing())

    def make_room(self):
        """Close the longest quiet idle connections of this client beyond PER_CLIENT, and of all
        clients beyond the server's limit (this new one is never closed here)."""
        address = self.client[0] if self.client else None
        others = [c for c in self.connections if c is not self and isinstance(c, TimedConnection)
                  and not c.transport.is_closing()]  # closed ones leave at the next turn
        mine = [c for c in others if (c.client[0] if c.client else None) == address]
        closed = _close_quietest(mine, len(mine) + 1 - PER_CLIENT)
        if self.limit_concurrency:  # uvicorn answers 503 once the connections reach it
            closed += _close_quietest(others, len(others) + 1 - closed - self.limit_concurrency + 1)
        if closed:
            LOG.warning("kniffel serve: closed %d idle connection(s) to make room: more than "
                        "%d from one address, or the server's limit", closed, PER_CLIENT)

    def data_received(self, data):
        import h11
        self.active = self.loop.time()
        super().data_received(data)
        waiting = self.conn.their_state == h11.IDLE and not self.transport.is_closing()
        if waiting and self.header_timer is None:
            self.header_timer = self.loop.call_later(HEADER_SECONDS, self.headers_too_slow)
        elif not waiting and self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def connection_lost(self, exc):
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None
        super().connection_lost(exc)

    def headers_too_slow(self):
        import h11
        self.header_timer = None
        if self.conn.their_state == h11.IDLE and not self.transport.is_closing():
            LOG.warning("kniffel serve: closed a connection that sent no complete request "
                        "headers within %s s", HEADER_SECONDS)
            self.transport.close()


def _close_quietest(connections, n):
    """Close the `n` idle connections of `connections` quiet the longest: how many."""
    if n <= 0:
        return 0
    idle = sorted((c for c in connections if c.idle()), key=lambda c: c.active)[:n]
    for connection in idle:
        connection.transport.close()
    return len(idle)
