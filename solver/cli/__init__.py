"""The `kniffel` command: click only.  Each command parses its input, calls the library and prints
text or JSON; one module per command or group of commands, no game logic here."""
import importlib
import sys

import click

from ..version import __version__
from .common import EXIT_USAGE

# name -> (module, function): a command's module is imported when that command runs (or the
# help lists it), so that `kniffel advise` does not load what serve, play or solve need
COMMANDS = {
    "solve": ("solve", "solve_command"), "advise": ("advise", "advise_command"),
    "simulate": ("stats", "simulate_command"), "distribution": ("stats", "distribution_command"),
    "play": ("game", "play_command"), "analyze": ("game", "analyze_command"),
    "tables": ("tables", "tables_command"), "bench": ("bench", "bench_command"),
    "rules": ("solve", "rules_command"), "serve": ("serve", "serve_command"),
    "chances": ("chances", "chances_command"), "history": ("history", "history_command"),
    "drill": ("drill", "drill_command"),
}


class _LazyGroup(click.Group):
    """A click group whose commands are imported on first use (COMMANDS)."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, attr = COMMANDS[name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), attr)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kniffel")
def cli():
    """Exact optimal strategy for Kniffel, Yahtzee and relatives.

    \b
    Example:
      kniffel advise --dice 1,3,3,5,6 --rolls-left 2
    """


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (the terminal closed): stopped as Ctrl-C stops, its code 128 + signal."""

    def __init__(self, signum):
        super().__init__(signum)
        self.code = 128 + signum


def _stop_on_signals():
    """SIGTERM and SIGHUP end a command as Ctrl-C does: through its `finally` blocks (a file
    being written removed, a build's lock released, its checkpoint kept), never half-way."""
    import signal

    def stop(signum, frame):
        raise Terminated(signum)

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)  # no SIGHUP on Windows
        if number is not None:
            signal.signal(number, stop)


def _leave(code):
    """End now with `code`: the kernels' threads may still be in a level, which nothing waits
    for (its work is lost; what was written is whole or removed)."""
    import os

    from ..engine.store import remove_unfinished_writes
    remove_unfinished_writes()  # a thread's file half-written when the signal came
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def main(argv=None):
    """Console entry point: one-line errors with exit code 2, never a traceback for bad input;
    Ctrl-C, SIGTERM and SIGHUP end it cleanly (exit 130, 143, 129)."""
    from ..presets import OWN_PRESET_ERRORS  # a preset file of one's own that could not be read
    entry = argv is None  # the process's own command (not a caller's, such as a test's)
    if entry:
        _stop_on_signals()
    for message in OWN_PRESET_ERRORS:
        click.echo(f"kniffel: warning: {message}", err=True)
    if not (sys.argv[1:] if argv is None else argv):
        # `kniffel` alone asks what there is: the help, exit 0 (click 8.2+ makes it a usage error)
        click.echo(cli.get_help(click.Context(cli, info_name="kniffel")))
        return
    try:
        cli.main(args=argv, prog_name="kniffel", standalone_mode=False)
    except click.exceptions.UsageError as exc:
        click.echo(f"kniffel: error: {exc.format_message()}", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        click.echo("kniffel: interrupted", err=True)
        cause = exc if isinstance(exc, Terminated) else exc.__cause__ or exc.__context__
        code = cause.code if isinstance(cause, Terminated) else 130
        if entry:
            _leave(code)
        sys.exit(code)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:  # e.g. a table store that cannot be written, a full disk
        # never "[Errno None] None": an OSError without its words says what it has
        reason = exc.strerror or next((str(a) for a in exc.args if a), type(exc).__name__)
        click.echo(f"kniffel: error: {reason}: {exc.filename or ''}".rstrip(": "), err=True)
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
