"""What a person hands the program, read with bounds: a file named on the command line (only a
regular file, and no more of it than a limit), lines from a pipe or a terminal (each at most a
limit long), and the words that say what kind of JSON value was given where another was wanted.

A device or a FIFO named as a file would be read for ever (`/dev/zero` never ends, a FIFO without
a writer never answers), a file of gigabytes would be read into memory: each is refused with one
line naming it, before anything is parsed.
"""
import os
import stat

MAX_RECORD_BYTES = 1 << 20  # a game record: a finished game of 8 players is about 40 KiB
MAX_BATCH_LINE = 256 * 1024  # one question of `advise --batch` (the web app's body limit too)
MAX_TYPED_LINE = 4096  # a line typed at `kniffel play` (a terminal's own line is at most 4096)


class FileRefused(ValueError):
    """A file that is not read: not a regular file, larger than its limit, or not openable."""


def _size_text(limit):
    return f"{limit // (1 << 20)} MiB" if limit % (1 << 20) == 0 else f"{limit // 1024} KiB"


def open_regular(path, what="file"):
    """`path` opened to read (binary) if it is a regular file, else FileRefused naming it.  The
    check is made on the opened file (fstat), and the open does not wait (O_NONBLOCK): a FIFO
    is refused at once, never waited on, and nothing swapped in after a check is read."""
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
             | getattr(os, "O_BINARY", 0))
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefused(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket")
            raise FileRefused(f"{what} {path} is {kind}, not a regular file")
        set_blocking = getattr(os, "set_blocking", None)  # not on every platform
        if set_blocking is not None:
            set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path, limit, what="file"):
    """The bytes of the regular file `path`, at most `limit` of them; FileRefused naming `what`
    for anything else (open_regular) or a larger file."""
    try:
        with open_regular(path, what) as handle:
            data = handle.read(limit + 1)
    except OSError as exc:  # a read error of an opened file (EIO, EISDIR on some systems)
        raise FileRefused(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise FileRefused(f"{what} {path} is larger than {_size_text(limit)}: not a {what}")
    return data


def json_kind(value):
    """What kind of JSON value `value` is, as a message says it: "a string", "a number", ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
