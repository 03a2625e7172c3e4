"""Advice for many positions at once (`kniffel advise --batch`).

The turn arithmetic of a chunk of positions runs in numba (kernels.py), on every CPU, and each
answer's JSON is written from cached option texts: the same bytes as orjson gives for the single
query's advice (advice.assemble), which tests/test_cli.py checks.  Input larger than one chunk is
shared out among worker processes.
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
from .advice import Advice, checked_query, joker_targets, sub_keep_indices
from .rules import RulesError
from .query import read_query
from .state import Position
from .threads import default_threads, run_parallel

FIELDS = {"rules", "card", "dice", "rolls_left", "kniffel_bonuses", "jokers_left"}


def _query(line, default_rules):
    """One JSON line -> (rules, state, roll, rolls_left); ValueError/RulesError if bad."""
    query, rules = read_query(line, FIELDS, default_rules, "scorecard",
                              lambda r: f"{r.key} has no scorecard; ask with --rules {r.key}")
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
        # One kernel row per query, plus one per Knobeln joker move (the roll it makes, scored
        # with the jokers it leaves) when a query has no rolls left and jokers in hand.
        rows = []  # (filled, aux, upper, roll, rolls_left)
        row_of = {}  # query -> its row
        jokers = {}  # query -> [(row, joker json)] of its joker moves
        for i in members:
            _, state, roll, left = queries[i]
            row_of[i] = len(rows)
            rows.append((state.filled, state.aux, state.upper, roll, left))
            in_hand = state.aux // rules.aux_block
            if left == 0 and in_hand:
                moves = _joker_moves(roll, min(in_hand, rules.jokers_per_turn))
                jokers[i] = [(len(rows) + k, text) for k, (_, text) in enumerate(moves)]
                rows += [(state.filled, state.aux - used * rules.aux_block, state.upper, target, 0)
                         for (target, used), _ in moves]
        results = _kernel_rows(rules, tables(rules), np.array(rows, dtype=np.int64), threads)
        values, points, bonus, keeps = results
        for i in members:
            _, state, roll, left = queries[i]
            answers[i] = _advice_json(rules, state.card_total, roll, left, values, points, bonus,
                                      keeps, row_of[i], jokers.get(i, []), top)
    return answers


def _kernel_rows(rules, table, rows, threads):
    """Box options (and keep values when rolls are left) for each row of
    (filled, aux, upper, roll, rolls_left)."""
    n = len(rows)
    keeps = np.empty((n, dice.N_KEEPS))
    values = np.empty((n, rules.n_boxes))
    points = np.empty((n, rules.n_boxes), dtype=np.int64)
    bonus = np.empty((n, rules.n_boxes), dtype=np.int64)
    paid = np.empty((n, rules.n_boxes), dtype=np.int64)
    filled, aux, upper, rolls, rolls_left = (np.ascontiguousarray(column) for column in rows.T)
    game, moves = rules.kernel_arrays(), dice.kernel_arrays()

    def advise_rows(part):
        kernels._advise_batch(filled[part], aux[part], upper[part], rolls[part], rolls_left[part],
                              table.values, game, moves, rules.rolls_per_turn, keeps[part],
                              values[part], points[part], bonus[part], paid[part])

    run_parallel(advise_rows, n, threads, per_thread=1)
    return values, points, bonus, keeps


@lru_cache(maxsize=None)
def _joker_moves(roll, changes):
    """[((target roll, jokers used), joker json)] in advice.assemble's order."""
    targets = joker_targets(dice.KEEPS[roll], changes)
    return [((dice.KEEP_INDEX[target], len(taken)),
             orjson.dumps({"from": taken[0], "to": given[0]} if len(taken) == 1
                          else {"from": list(taken), "to": list(given)}).decode())
            for target, (taken, given) in targets.items()]


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
    keeps, indices = sub_keep_indices(roll)
    return [f'{{"action":"keep","keep":{orjson.dumps(list(k)).decode()},"expected_final_score":'
            for k in keeps], indices


def _score_texts(rules, base, values, points, bonus, suffix="}"):
    return [(base + v, _score_prefix(box, p, b), suffix)
            for box, v, p, b in zip(rules.boxes, values.tolist(), points.tolist(), bonus.tolist())
            if v != -math.inf]


def _advice_json(rules, base, roll, rolls_left, values, points, bonus, keeps, row, jokers, top):
    """The advice JSON for kernel row `row`; jokers: [(kernel row, joker json)] of its moves."""
    options = _score_texts(rules, base, values[row], points[row], bonus[row])
    for joker_row, joker in jokers:
        options += _score_texts(rules, base, values[joker_row], points[joker_row], bonus[joker_row],
                                f',"joker":{joker}}}')
    if rolls_left:  # keeps first, as in advice.assemble
        prefixes, indices = _keep_prefixes(roll)
        options = [(base + v, prefix, "}") for prefix, v in zip(prefixes, keeps[row][indices].tolist())] + options
    options.sort(key=_first, reverse=True)  # stable, as in advice.assemble
    shown = options if top is None else options[:top]
    texts = ",".join([f"{prefix}{orjson.dumps(value).decode()}{suffix}" for value, prefix, suffix in shown])
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
