"""`kniffel serve`: the coach in a browser (the web extra: Starlette and uvicorn)."""
import ipaddress
import sys

import click

from .common import CommandError, InputError, tables_option


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
@click.option("--budget", type=click.FloatRange(min=0.1, max=3600), default=10, show_default=True,
              help="Seconds of work one request may take: a win request predicted over it is "
                   "refused (the page then advises for points), work running past it stopped.")
@click.option("--workers", type=click.IntRange(1, 64),
              help="Requests computed at once, each in a process of its own (default: one per "
                   "core).")
@click.option("--client-timeout", type=click.FloatRange(min=0.1, max=600), default=10,
              show_default=True, help="Seconds a client may take to send a request's headers "
                                      "(from its connection's accept), and again its body, before "
                                      "it is cut off.")
@click.option("--no-prepare", is_flag=True, help="Do not start building the win coach's missing "
              "tables (target table, opponents' store) of the scorecard presets at start-up; "
              "by default a background process builds them, one preset after the other (minutes "
              "each, once), and until a preset's are there its win advice is an estimate and "
              "the page says how far the build is.")
def serve_command(host, port, open_browser, tables, budget, workers, client_timeout, no_prepare):
    """Serve the coach as a web page: the card, the dice, the ranked choices, several players.

    The page holds the game (and keeps it in the browser); the server only computes, in worker
    processes, from tables loaded once.  Stop it with Ctrl-C.

    \b
    Example:
      kniffel serve --open
      kniffel serve --host 0.0.0.0 --port 8765   # for a phone on the same Wi-Fi
      kniffel serve --budget 30                  # allow slower win advice
      kniffel serve --no-prepare                 # build no win tables in the background
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
    token = _token(host)
    sock = _listening(host, port)
    port = sock.getsockname()[1]
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    url = (f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/"
           + (f"?token={token}" if token else ""))
    guard.HEADER_SECONDS = guard.BODY_SECONDS = client_timeout
    size = workers or work.default_workers()
    pool = work.Pool(size, 16 * size, budget, SERVICE, tables_dir=tables)
    app = create_app(tables, token=token, host=host, pool=pool)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            http=guard.timed_protocol(), timeout_keep_alive=5,
                            timeout_graceful_shutdown=1, limit_concurrency=256)
    guard.quiet_repeats()  # after uvicorn.Config, which sets its logging up
    server = _Server(config, pool)
    if not no_prepare:
        _prepare(tables)
    click.echo(f"kniffel serve: {url}")
    if not _loopback(host):  # for a phone on the table: the address to open, as a QR code too
        click.echo("kniffel serve: on a phone in the same network, open the address above or scan:")
        click.echo(qr_text(url), nl=False)
    sys.stdout.flush()  # a pipe reading the URL gets it now
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    server.run(sockets=[sock])  # after a signal, uvicorn raises it again: the usual exit


def _token(host):
    """The access token of a server that listens beyond loopback (None on loopback), with the
    warning that anyone who has the URL can use it."""
    if _loopback(host):
        return None
    import secrets
    click.echo(f"kniffel: warning: listening on {host}, not loopback: anyone on the network who "
               "has the URL below can use it (it holds a random access token)", err=True)
    return secrets.token_urlsafe(16)


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


def _prepare(tables):
    """Start the background build of the presets' missing win tables (advice/win/prepare.py):
    the default preset first, the others after it; a build already running is left to run."""
    from ..advice.win.prepare import start
    from ..rules import PRESETS
    presets = [r for r in PRESETS.values() if r.game == "scorecard"]
    presets.sort(key=lambda r: r.key != "kniffel")
    if start(presets, tables) is not None:
        click.echo("kniffel serve: building the missing win tables in the background "
                   "(--no-prepare to skip)")


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
