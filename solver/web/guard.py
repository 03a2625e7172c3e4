"""What keeps other web pages and slow clients away from `kniffel serve`.

Another page the user visits can send requests to a server on loopback: a form or a `text/plain`
fetch needs no CORS preflight, and a DNS-rebinding page reaches it under a name of its own.  So:
- the Host header must name the address the server listens on (or localhost; any address of
  this machine, not a name, when it listens on every interface), or the name `--host` gave;
- the Origin, where a browser sends one, must be the Host the request came to;
- a POST body must be declared application/json (415 otherwise): a cross-site page cannot send
  that without a preflight, which this server never answers.
A client that sends its headers or body too slowly is cut off (HEADER_SECONDS, BODY_SECONDS),
and one that disconnects mid-request leaves one quiet line in the log, no traceback.
"""
import asyncio
import ipaddress
import logging
import socket
from urllib.parse import urlsplit

from starlette.responses import JSONResponse

HEADER_SECONDS = 10  # from a request's first byte to the end of its headers (serve --client-timeout)
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


def host_name(value):
    """The name or address of a Host header value (without its port), lower case; None when
    it is not a host at all."""
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
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
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
    LOG.warning("kniffel serve: a client disconnected during %s %s", request.method, request.url.path)


async def disconnected(request):
    """Return when the client of `request` (whose body is read) disconnects."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def timed_protocol():
    """uvicorn's HTTP protocol (h11) with a time limit on a request's headers: the connection
    is closed when they are not complete HEADER_SECONDS after their first byte (uvicorn's
    keep-alive timeout covers an idle connection, nothing a started request line); and with
    TCP_NODELAY, which asyncio sets only on sockets made with proto IPPROTO_TCP."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11Protocol(H11Protocol):
        header_timer = None

        def connection_made(self, transport):
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            try:  # uvicorn writes a response's head and body apart: without this, the body
                # of a keep-alive answer waits for the client's delayed ACK (40 ms on Linux)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except (OSError, AttributeError):
                pass

        def data_received(self, data):
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
            super().connection_lost(exc)

        def headers_too_slow(self):
            self.header_timer = None
            if self.conn.their_state == h11.IDLE and not self.transport.is_closing():
                LOG.warning("kniffel serve: closed a connection whose request headers took over %s s",
                            HEADER_SECONDS)
                self.transport.close()

    return TimedH11Protocol
