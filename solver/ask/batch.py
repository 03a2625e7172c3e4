"""Many questions, one a line (`kniffel advise --batch`): each line is read by read_request and
answered in order, whatever its game and goal.  The lines that ask a scorecard position for
points are answered together by the compiled kernel (advice/batch.py: the same JSON, byte for
byte); every other line by the one door (answer.py).  A line that is not a question gets
{"error": "line N: ..."}: nothing a line holds can end the batch or lose another line.

Input larger than one chunk is shared out among worker processes, each answering whole chunks;
the answers keep the input's order.
"""
import multiprocessing
from itertools import chain, islice

import orjson

from ..advice.batch import points_json
from ..advice.goal import POINTS
from ..engine.store import TableError
from ..engine.threads import default_threads
from ..rules import RulesError
from .answer import answer
from .request import read_request

ERRORS = (ValueError, TypeError, RulesError, TableError, OSError)


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
    return read_request(fields, default_rules, files=files, game=game)


def _answer_block(block, default_rules, tables, top, threads=None):
    """[(line number, text)] -> [JSON bytes]: each line's answer, or its {"error": ...}."""
    results, points, where = [], [], []
    for number, line in block:
        try:
            request = read_line(line, default_rules, game=default_rules.game)
            if request.goal is POINTS and request.rules.game == "scorecard":
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


def _worker_block(block):
    default_rules, tables, top = _WORKER["job"]
    return b"\n".join(_answer_block(block, default_rules, tables, top, threads=1))


def answer_lines(lines, default_rules, tables, top=None, chunk=1024, processes=None, start=1):
    """Yield UTF-8 texts (bytes) of JSON lines, one line per input line and several lines a
    text: each line's answer as `kniffel advise --json` prints it (its `top` best options), or
    {"error": "line N: ..."}; a run answers the game of `default_rules` (a line of the other
    game is such an error).  `lines` are bytes (or str), each read on its own; bytes out,
    because a batch can be hundreds of megabytes.  tables: the cache (ask/tables.Tables);
    `start` is the first line's number (in error messages)."""
    numbered = enumerate(lines, start)
    blocks = iter(lambda: list(islice(numbered, chunk)), [])
    first = next(blocks, None)
    if first is None:
        return
    processes = processes or default_threads()
    if len(first) < chunk or processes == 1 \
            or "fork" not in multiprocessing.get_all_start_methods():
        for block in chain([first], blocks):
            yield b"\n".join(_answer_block(block, default_rules, tables, top))
        return
    tables(default_rules)  # load (or solve) once, before the workers are forked
    _WORKER["job"] = (default_rules, tables, top)
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        yield from pool.imap(_worker_block, chain([first], blocks))
