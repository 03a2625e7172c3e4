"""Advice for many positions at once (`kniffel advise --batch`).

The turn arithmetic of a chunk of positions runs in numba (kernels.py), on every CPU; the
options are then put together exactly as for a single query (advice.assemble).
"""
import math
import multiprocessing
import os
from functools import lru_cache
from itertools import chain, islice
from operator import itemgetter

import numpy as np
import orjson

from . import dice, kernels
from .advice import Advice, _sub_keeps, assemble, checked_query
from .rules import RulesError, resolve_rules
from .state import Position
from .threads import default_threads, run_parallel

FIELDS = {"rules", "card", "dice", "rolls_left", "kniffel_bonuses", "jokers_left"}


def _query(line, default_rules):
    """One JSON line -> (rules, state, roll, rolls_left); ValueError/RulesError if bad."""
    query = orjson.loads(line)
    if not isinstance(query, dict):
        raise ValueError("each line must be a JSON object")
    unknown = set(query) - FIELDS
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    rules = resolve_rules(query["rules"]) if "rules" in query else default_rules
    card = query.get("card", {})
    if not isinstance(card, dict):
        raise ValueError("card must be an object of box: points")
    position = Position(card, query.get("kniffel_bonuses", 0), query.get("jokers_left"))
    return (rules,) + checked_query(position, rules, query.get("dice"), query.get("rolls_left"))


def _answer_chunk(queries, tables, top=None, threads=None):
    """queries: [(rules, state, roll, rolls_left)] -> [JSON text of the advice]."""
    answers = [None] * len(queries)
    by_rules = {}
    for i, (rules, state, roll, rolls_left) in enumerate(queries):
        if roll is None:
            table = tables(rules)
            advice = Advice(rules.key, state.card_total, state.card_total + table.value(state), [])
            answers[i] = orjson.dumps(advice.as_dict(top)).decode()
        else:
            by_rules.setdefault(rules, []).append(i)
    for rules, members in by_rules.items():
        table = tables(rules)
        n = len(members)
        filled = np.array([queries[i][1].filled for i in members], dtype=np.int64)
        aux = np.array([queries[i][1].aux for i in members], dtype=np.int64)
        upper = np.array([queries[i][1].upper for i in members], dtype=np.int64)
        rolls = np.array([queries[i][2] for i in members], dtype=np.int64)
        rolls_left = np.array([queries[i][3] for i in members], dtype=np.int64)
        keeps = np.empty((n, dice.N_KEEPS))
        box_value = np.empty((n, rules.n_boxes))
        box_points = np.empty((n, rules.n_boxes), dtype=np.int64)
        box_bonus = np.empty((n, rules.n_boxes), dtype=np.int64)
        box_paid = np.empty((n, rules.n_boxes), dtype=np.int64)
        game, moves = rules.kernel_arrays(), dice.kernel_arrays()

        def advise_rows(rows):
            kernels._advise_batch(filled[rows], aux[rows], upper[rows], rolls[rows], rolls_left[rows],
                                  table.values, game, moves, rules.rolls_per_turn, keeps[rows],
                                  box_value[rows], box_points[rows], box_bonus[rows], box_paid[rows])

        run_parallel(advise_rows, n, threads, per_thread=1)
        for row, i in enumerate(members):
            _, state, roll, left = queries[i]
            if left == 0 and state.aux >= rules.aux_block:  # Knobeln jokers in hand: joker moves too
                advice = assemble(table, state, roll, left, box_value[row], box_points[row],
                                  box_bonus[row], None)
                answers[i] = orjson.dumps(advice.as_dict(top)).decode()
            else:
                answers[i] = _advice_json(rules, state.card_total, roll, left, box_value[row],
                                          box_points[row], box_bonus[row], keeps[row], top)
    return answers


# The JSON of an advice without building its dicts: option texts from cached prefixes.  It must
# equal orjson.dumps(assemble(...).as_dict(top)) byte for byte (tests/test_cli.py checks it).
_SCORE_PREFIX = {}


def _score_prefix(box, points, bonus):
    key = (box, points, bonus)
    if key not in _SCORE_PREFIX:
        _SCORE_PREFIX[key] = (f'{{"action":"score","box":"{box}","points":{points},"bonus":{bonus},'
                              '"expected_final_score":')
    return _SCORE_PREFIX[key]


@lru_cache(maxsize=None)
def _keep_prefixes(roll):
    keeps, indices = _sub_keeps(roll)
    return [f'{{"action":"keep","keep":{orjson.dumps(list(k)).decode()},"expected_final_score":'
            for k in keeps], indices


def _advice_json(rules, base, roll, rolls_left, values, points, bonus, keeps, top):
    options = [(base + v, _score_prefix(box, p, b))
               for box, v, p, b in zip(rules.boxes, values.tolist(), points.tolist(), bonus.tolist())
               if v != -math.inf]
    if rolls_left:
        prefixes, indices = _keep_prefixes(roll)
        options += [(base + v, prefix) for prefix, v in zip(prefixes, keeps[indices].tolist())]
    options.sort(key=_first, reverse=True)  # stable, as in advice.assemble
    shown = options if top is None else options[:top]
    texts = ",".join([f"{prefix}{orjson.dumps(value).decode()}}}" for value, prefix in shown])
    return (f'{{"rules":{orjson.dumps(rules.key).decode()},"card_total":{base},'
            f'"expected_final_score":{orjson.dumps(options[0][0]).decode()},"options":[{texts}]}}')


_first = itemgetter(0)


def _answer_lines(block, default_rules, tables, top, threads=None):
    """[(line number, text)] -> [JSON text]: the advice, or {"error": ...} for a bad line."""
    results, queries, where = [], [], []
    for number, line in block:
        try:
            queries.append(_query(line, default_rules))
            where.append(len(results))
            results.append(None)
        except (ValueError, RulesError, TypeError, orjson.JSONDecodeError) as exc:
            results.append({"error": f"line {number}: {exc}"})
    for slot, text in zip(where, _answer_chunk(queries, tables, top, threads)):
        results[slot] = text
    return [orjson.dumps(r).decode() if isinstance(r, dict) else r for r in results]


_WORKER = {}  # what forked worker processes inherit: (default_rules, tables, top)


def _worker_lines(block):
    default_rules, tables, top = _WORKER["job"]
    return "\n".join(_answer_lines(block, default_rules, tables, top, threads=1))


def advise_lines(lines, default_rules, tables, top=None, chunk=1024, processes=None):
    """Yield texts of JSON lines (one line per non-blank input line, several lines a text):
    the advice, or {"error": ...} for a bad line.  tables(rules) returns the ValueTable of a
    rule set.

    Input of more than one chunk is shared out among `processes` worker processes (default:
    one per CPU), each answering whole chunks; the answers keep the input order."""
    numbered = ((n, line) for n, line in enumerate(lines, 1) if line.strip())
    blocks = iter(lambda: list(islice(numbered, chunk)), [])
    first = next(blocks, None)
    if first is None:
        return
    processes = processes or default_threads()
    if len(first) < chunk or processes == 1 or not hasattr(os, "fork"):
        for block in chain([first], blocks):
            yield "\n".join(_answer_lines(block, default_rules, tables, top))
        return
    tables(default_rules)  # load (or solve) once, before the workers are forked
    _WORKER["job"] = (default_rules, tables, top)
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        yield from pool.imap(_worker_lines, chain([first], blocks))
