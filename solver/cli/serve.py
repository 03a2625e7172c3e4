"""`kniffel serve`: the coach in a browser (the web extra: Starlette and uvicorn)."""
import ipaddress

import click

from .common import TABLES_HELP, CommandError, InputError


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
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
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
    token = None
    shown = host
    if not _loopback(host):
        token = secrets.token_urlsafe(16)
        click.echo(f"kniffel: warning: listening on {host}, not loopback: anyone on the network who "
                   "has the URL below can use it (it holds a random access token)", err=True)
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown if host not in ('0.0.0.0', '::') else _lan_address()}:{port}/"
    if token:
        url += f"?token={token}"
    app = create_app(tables, token=token)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    click.echo(f"kniffel serve: {url}")
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    try:
        server.run()
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _lan_address():
    """This machine's name on the local network, for the URL a phone opens."""
    import socket
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return socket.gethostname()
