"""`kniffel serve`: the coach in a browser (the web extra: Starlette and uvicorn)."""
import ipaddress

import click

from .common import (CommandError, InputError, tables_option)


def _loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; another than loopback (for a phone on the same Wi-Fi) "
                   "needs the access token in the URL.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@tables_option()
def serve(host, port, open_browser, tables):
    """Serve the coach as a web page: the card, the dice, the ranked choices, several players.

    The page holds the game (and keeps it in the browser); the server only computes, from tables
    loaded once.  Stop it with Ctrl-C.

    \b
    Example:
      kniffel serve --open
      kniffel serve --host 0.0.0.0 --port 8765   # for a phone on the same Wi-Fi
    """
    try:
        import uvicorn
        from ..web.app import create_app
    except ImportError as exc:
        raise CommandError(f"kniffel serve needs the web extra: pip install 'kniffel[web]' ({exc})") from None
    import secrets
    import socket
    token = None
    if not _loopback(host):
        token = secrets.token_urlsafe(16)
        click.echo(f"kniffel: warning: listening on {host}, not loopback: anyone on the network who "
                   "has the URL below can use it (it holds a random access token)", err=True)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:  # bound here, so a port in use is a one-line error before any URL is printed
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    port = sock.getsockname()[1]
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    url = f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/" + (f"?token={token}" if token else "")
    server = uvicorn.Server(uvicorn.Config(create_app(tables, token=token), log_level="warning",
                                           access_log=False))
    click.echo(f"kniffel serve: {url}")
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    server.run(sockets=[sock])


def _lan_address():
    """This machine's address (or name) on the local network, for the URL a phone opens."""
    import socket
    name = socket.gethostname()
    try:
        address = socket.gethostbyname(name)
    except OSError:
        return name
    return name if _loopback(address) else address
