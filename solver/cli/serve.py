"""`kniffel serve`: the coach in a browser (the web extra: Starlette and uvicorn)."""
import ipaddress
import sys

import click

from .common import CommandError, InputError, history_options, history_ready, tables_option


def _loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; another than loopback (for a phone on the same Wi-Fi) "
                   "needs the access token in the URL.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@tables_option()
@click.option("--time-limit", "time_limit", type=click.FloatRange(min=0.1, max=3600), default=10,
              show_default=True,
              help="Seconds one request may compute before it is stopped: a guard for the "
                   "server, which never changes an answer (each request's own budget is counted "
                   "in work); a win request stopped by it is answered for points, and says so.")
@click.option("--workers", type=click.IntRange(1, 64),
              help="Requests computed at once, each in a process of its own (default: one per "
                   "core).")
@click.option("--client-timeout", type=click.FloatRange(min=0.1, max=600), default=10,
              show_default=True, help="Seconds a client may take to send a request's headers "
                                      "(from its connection's accept), and again its body, before "
                                      "it is cut off.")
@click.option("--new-token", is_flag=True,
              help="With --host beyond loopback: make a new access token, so that the links and "
                   "QR codes given out before stop working (the token is kept in the user's "
                   "config folder, kniffel/token, and is the same at every start).")
@history_options
def serve_command(host, port, open_browser, tables, time_limit, workers, client_timeout,
                  new_token, db, no_history):
    """Serve the coach as a web page: the card, the dice, the ranked choices, several players.

    The page holds the game (and keeps it in the browser); the server only computes, in worker
    processes, from tables loaded once.  Stop it with Ctrl-C.

    \b
    Example:
      kniffel serve --open
      kniffel serve --host 0.0.0.0 --port 8765   # for a phone on the same Wi-Fi
      kniffel serve --time-limit 30              # let a request compute up to 30 s
    """
    if not host.strip():
        raise InputError('--host "" would listen on every interface: name the address '
                         "(0.0.0.0 for every interface, if that is meant)")
    try:
        import uvicorn

        from ..web import guard, work
        from ..web.app import SERVICE, create_app
    except ImportError as exc:
        raise CommandError(f"kniffel serve needs the web extra: pip install 'kniffel[web]' "
                           f"({exc})") from None
    kept = history_ready(db, no_history)  # the finished games of the page: kept there
    token = _token(host, new_token)
    sock = _listening(host, port)
    port = sock.getsockname()[1]
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    url = (f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/"
           + (f"?token={token}" if token else ""))
    guard.HEADER_SECONDS = guard.BODY_SECONDS = client_timeout
    size = workers or work.default_workers()
    pool = work.Pool(size, 16 * size, time_limit, SERVICE, tables_dir=tables)
    app = create_app(tables, token=token, host=host, pool=pool, history=kept)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            http=guard.timed_protocol(), timeout_keep_alive=5,
                            timeout_graceful_shutdown=1)  # its limits: web/guard.py's
    guard.quiet_repeats()  # after uvicorn.Config, which sets its logging up
    server = _Server(config, pool)
    click.echo(f"kniffel serve: {url}")
    if not _loopback(host):  # for a phone on the table: the address to open, as a QR code too
        click.echo("kniffel serve: on a phone in the same network, open the address above or scan:")
        click.echo(qr_text(url), nl=False)
    sys.stdout.flush()  # a pipe reading the URL gets it now
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    import signal
    hang_up = getattr(signal, "SIGHUP", None)  # the terminal closed (none on Windows): stop as
    if hang_up is not None:  # for Ctrl-C (uvicorn takes SIGINT and SIGTERM itself)
        signal.signal(hang_up, server.handle_exit)
    server.run(sockets=[sock])  # after a signal, uvicorn raises it again: the usual exit


def _token(host, new=False):
    """The access token of a server that listens beyond loopback (None on loopback), with the
    warning that anyone who has the URL can use it: the token kept in the user's config folder
    (token_path), so that a phone's bookmark still works after a restart; a new one, kept there,
    when there is none, it is not one, or `new` asks for it."""
    if _loopback(host):
        if new:
            raise InputError("--new-token goes with a --host beyond loopback (on loopback the "
                             "server needs no token)")
        return None
    path = token_path()
    token = None if new else _read_token(path)
    kept = f"kept in {path} for the next start; --new-token makes a new one"
    if token is None:
        import secrets
        token = secrets.token_urlsafe(16)
        try:
            _write_token(path, token)
        except OSError as exc:
            kept = f"a new one at every start: it cannot be kept in {path}: {exc.strerror or exc}"
    click.echo(f"kniffel: warning: listening on {host}, not loopback: anyone on the network who "
               f"has the URL below can use it (it holds the access token, {kept})", err=True)
    return token


def token_path():
    """Where `kniffel serve` keeps its access token: kniffel/token in the user's config folder
    ($XDG_CONFIG_HOME, else ~/.config)."""
    import os
    from pathlib import Path
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "kniffel" / "token"


def _read_token(path):
    """The token kept in `path`, or None when there is none or it is not one (empty, cut short,
    not a regular file of its own, or readable by others on this machine: then a new one)."""
    import os
    import re
    import stat
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode) or (os.name == "posix" and mode & 0o077):
            return None
        text = handle.read(256).decode("ascii", "replace").strip()
    return text if re.fullmatch(r"[A-Za-z0-9_-]{16,128}", text) else None


def _write_token(path, token):
    """Keep `token` in `path`, readable by this user only (0600, a new folder 0700), written to
    a temporary file and renamed: never half a token, whatever stops it."""
    import os
    import tempfile
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".token.", suffix=".tmp")  # 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(token + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _listening(host, port):
    """A socket bound to (host, port), so that a port in use is a one-line error before any
    URL is printed."""
    import socket
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _server_class():
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server that kills the worker processes as soon as a signal comes: their
        kernels cannot be interrupted, and nothing should wait for them."""

        def __init__(self, config, pool):
            super().__init__(config)
            self.pool = pool

        def handle_exit(self, sig, frame):
            self.pool.stop()
            super().handle_exit(sig, frame)

    return Server


def _Server(config, pool):
    return _server_class()(config, pool)


def qr_text(url):
    """`url` as a QR code for a terminal (segno, of the web extra: two rows of modules a line,
    light on dark as a phone's camera reads it from a dark terminal too); without segno a line
    saying how to get one."""
    try:
        import segno
    except ImportError:
        return "(pip install segno for a QR code of this address)\n"
    import io
    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True)
    return out.getvalue()


def _lan_address():
    """This machine's address on the local network, for the URL a phone opens: the address its
    route to the outside leaves from (a UDP socket "connected" sends nothing), else the name's
    address, else the name."""
    import socket
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet is sent for a UDP connect
            address = probe.getsockname()[0]
        if not _loopback(address) and address != "0.0.0.0":
            return address
    except OSError:
        pass
    name = socket.gethostname()
    try:
        address = socket.gethostbyname(name)
    except OSError:
        return name
    return name if _loopback(address) else address
