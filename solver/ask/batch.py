"""Many questions, one a line (`kniffel advise --batch`): each line is read by read_request and
answered in order, whatever its game and goal.  The lines that ask a scorecard position for
points are answered together by the compiled kernel (advice/batch.py: the same JSON, byte for
byte); every other line by the one door (answer.py).  A line that is not a question gets
{"error": "line N: ..."}: nothing a line holds can end the batch or lose another line.

Input larger than one chunk is shared out among worker processes, each answering whole chunks;
the answers keep the input's order.  Input that comes a line at a time (a terminal, a pipe kept
open by a program that waits for each answer) is answered a line at a time: a chunk ends early
where the input stops for now (InputLines).
"""
import multiprocessing
from collections import deque
from itertools import chain

import orjson

from ..advice.batch import points_json
from ..advice.goal import POINTS
from ..engine.store import TableError
from ..engine.threads import default_threads
from ..inputs import MAX_BATCH_LINE
from ..rules import RulesError
from .answer import answer
from .request import read_request

ERRORS = (ValueError, TypeError, RulesError, TableError, OSError)
MAX_DEPTH = 64  # lists and objects within each other: a question or a game record needs under 12


def nested_deeper(value, limit=MAX_DEPTH):
    """Whether the JSON value `value` holds lists and objects more than `limit` deep (counted
    without recursion: a value nested a thousand deep would break whatever recursed into it, an
    error message's repr too)."""
    stack = [(value, 1)]
    while stack:
        value, depth = stack.pop()
        inner = value.values() if isinstance(value, dict) else value \
            if isinstance(value, list) else ()
        if inner and depth > limit:
            return True
        stack.extend((item, depth + 1) for item in inner)
    return False


def read_line(line, default_rules, files=True, game=None):
    """The Request of one line (bytes or str of a JSON object), of `game` when it is given;
    ValueError naming what is wrong (not UTF-8, not JSON, not a question)."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8 text (byte {exc.start + 1} of the line)") from None
    if not line.strip():
        raise ValueError("empty line")  # still answered: output line N is input line N
    try:
        fields = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(fields, dict):
        raise ValueError("each line must be a JSON object")
    if nested_deeper(fields):
        raise ValueError(f"lists and objects nested more than {MAX_DEPTH} deep: not a question")
    return read_request(fields, default_rules, files=files, game=game)


def _answer_block(block, default_rules, tables, top, threads=None):
    """[(line number, text)] -> [JSON bytes]: each line's answer, or its {"error": ...}."""
    results, points, where = [], [], []
    for number, line in block:
        try:
            request = read_line(line, default_rules, game=default_rules.game)
            if request.goal is POINTS and request.rules.game == "scorecard" \
                    and not request.why:  # the kernel answers options, not their why
                tables(request.rules)  # loaded or solved here: a failure stays on its line
                points.append(request.query)
                where.append(len(results))
                results.append(None)
            else:
                results.append(orjson.dumps(answer(request, tables).as_dict(top)))
        except ERRORS as exc:
            results.append(orjson.dumps({"error": f"line {number}: {exc}"}))
    for slot, text in zip(where, points_json(points, tables, top, threads)):
        results[slot] = text
    return results


_WORKER = {}  # what forked worker processes inherit: (default_rules, tables, top)


def _worker_start():
    """A worker process leaves Ctrl-C to the command, which ends it (SIGTERM, by default its
    end): no worker prints a traceback of an interrupt."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):  # SIGHUP: none on Windows
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)


def _worker_block(block):
    default_rules, tables, top = _WORKER["job"]
    return b"\n".join(_answer_block(block, default_rules, tables, top, threads=1))


class InputLines:
    """The lines of a binary stream (nothing read from it yet) as they come: iterating yields
    each line; `ready()` says whether another comes without waiting for the writer (more than
    `wait` seconds: a program writing a large batch fills the pipe again at once, one waiting
    for an answer does not).  A stream without a file descriptor (or where select cannot tell)
    is always ready.

    A line longer than `limit` bytes is no question, and holding it would take memory without
    end (`cat /dev/zero | kniffel advise --batch -` never sends a newline): the lines end
    before it, and `too_long` is its number (None while every line fits)."""

    def __init__(self, stream, size=1 << 16, wait=0.05, limit=MAX_BATCH_LINE):
        self.stream, self.size, self.wait, self.limit = stream, size, wait, limit
        self.lines, self.part = deque(), []  # whole lines read, and the start of the next one
        self.given, self.too_long = 0, None  # lines yielded; the number of the line too long
        try:
            self.fd = stream.fileno()
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
            self.fd = None

    def ready(self):
        if self.lines or self.fd is None:
            return True
        import select
        try:
            return bool(select.select([self.fd], [], [], self.wait)[0])
        except (OSError, ValueError):  # e.g. a pipe on Windows
            return True

    def __iter__(self):
        return self

    def __next__(self):
        if self.too_long is not None and not self.lines:
            raise StopIteration
        while not self.lines:
            data = self._read()
            if not data:  # the end: a last line without its newline, if any
                if not self.part:
                    raise StopIteration
                line, self.part = b"".join(self.part), []
                return self._given(line)
            first, *more = data.split(b"\n")
            self.part.append(first)
            if more:
                self.lines.append(b"".join(self.part) + b"\n")
                self.lines.extend(line + b"\n" for line in more[:-1])
                self.part = [more[-1]] if more[-1] else []
            long = next((i for i, line in enumerate(self.lines) if len(line) > self.limit + 1),
                        None)
            if long is None and sum(map(len, self.part)) > self.limit:
                long = len(self.lines)  # the line still coming is too long already
            if long is not None:  # the lines before it are answered, then the batch ends
                self.too_long = self.given + long + 1
                for _ in range(len(self.lines) - long):
                    self.lines.pop()
                self.part = []
                if not self.lines:
                    raise StopIteration
        return self._given(self.lines.popleft())

    def _given(self, line):
        self.given += 1
        return line

    def _read(self):
        if self.fd is None:
            return self.stream.read(self.size)
        import os
        return os.read(self.fd, self.size)  # what the writer has written, up to `size`


def _blocks(numbered, chunk, ready):
    """Blocks of up to `chunk` numbered lines, a block ending early where `ready()` says the
    input stops for now."""
    while True:
        block = []
        for item in numbered:
            block.append(item)
            if len(block) == chunk or not ready():
                break
        if not block:
            return
        yield block


def answer_lines(lines, default_rules, tables, top=None, chunk=1024, processes=None, start=1,
                 ready=None):
    """Yield UTF-8 texts (bytes) of JSON lines, one line per input line and several lines a
    text: each line's answer as `kniffel advise --json` prints it (its `top` best options), or
    {"error": "line N: ..."}; a run answers the game of `default_rules` (a line of the other
    game is such an error).  `lines` are bytes (or str), each read on its own; bytes out,
    because a batch can be hundreds of megabytes.  tables: the cache (ask/tables.Tables);
    `start` is the first line's number (in error messages); ready(): whether more input comes
    without waiting (InputLines.ready: what came is answered before the next line is waited
    for; default: all of it is there)."""
    ready = ready or (lambda: True)
    blocks = _blocks(enumerate(lines, start), chunk, ready)
    processes = processes or default_threads()
    pooled = processes > 1 and "fork" in multiprocessing.get_all_start_methods()
    for block in blocks:
        if pooled and len(block) == chunk:  # input enough for the workers: they take over
            tables(default_rules)  # load (or solve) once, before the workers are forked
            _WORKER["job"] = (default_rules, tables, top)
            yield from _on_workers(chain([block], blocks), processes, ready)
            return
        yield b"\n".join(_answer_block(block, default_rules, tables, top))


def _on_workers(blocks, processes, ready):
    """The answers of `blocks` computed by forked worker processes, in order, each as soon as
    it and those before it are done.  The blocks are read here, in the caller's thread, never in
    the pool's: an interrupt while the input waits ends the pool at once (a pool's own reader
    thread would be joined, and wait with it).  While no input is ready the answers are
    awaited instead, so what came is answered before more is waited for."""
    pending = deque()
    with multiprocessing.get_context("fork").Pool(processes, _worker_start) as pool:
        for block in blocks:
            pending.append(pool.apply_async(_worker_block, (block,)))
            while pending and (len(pending) > 2 * processes or pending[0].ready()):
                yield pending.popleft().get()
            while pending and not ready():  # ready() waits a moment for input
                if pending[0].ready():
                    yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
