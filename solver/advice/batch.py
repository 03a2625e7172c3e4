"""The expected-score advice of many positions at once (`kniffel advise --batch`, whose lines
ask/batch.py reads).

The turn arithmetic of a chunk of positions runs in numba (batch_kernels.py), on every CPU, and
each answer's JSON is written from cached option texts: the same bytes as orjson gives for the
single question's advice (position.ranked), which tests/test_cli.py checks.
"""
import math
from functools import lru_cache

import numpy as np
import orjson

from .. import dice
from ..dice import joker_targets, sub_keep_indices, sub_keep_rerolls
from ..engine.threads import run_parallel
from . import batch_kernels as kernels
from .goal import POINTS
from .position import position_facts, ranked


def points_json(queries, tables, top=None, threads=None):
    """The JSON (bytes) of the expected-score advice of each checked scorecard Query
    (advice/position.Query), as Advice.as_dict(top) would give it, byte for byte; tables(rules)
    the expected-score table of a rule set."""
    queries = [(q.rules, q.state, q.roll, q.rolls_left,
                position_facts(q.position.card, q.position.kniffel_bonuses, q.state, q.rules,
                               q.roll, q.rolls_left), q) for q in queries]
    answers = [None] * len(queries)
    by_rules = {}
    for i, (rules, state, roll, rolls_left, facts, _) in enumerate(queries):
        if roll is None:  # the turn's start: one value, no options to rank
            answers[i] = orjson.dumps(ranked(queries[i][5], tables(rules), POINTS).as_dict(top))
        else:
            by_rules.setdefault(rules, []).append(i)
    for rules, members in by_rules.items():
        # One kernel row per query, plus one per Knobeln joker move (the roll it makes, scored
        # with the jokers it leaves) when a query has no rolls left and jokers in hand.  A
        # query's rows are consecutive: its own, then its joker moves.
        rows = []  # (filled, aux, upper, roll, rolls_left)
        first_row = []  # per member
        closes = []  # per row: what follows the number of its score options, comma included
        bases = []  # per row: the query's card total
        for i in members:
            _, state, roll, left, _, _ = queries[i]
            first_row.append(len(rows))
            rows.append((state.filled, state.aux, state.upper, roll, left))
            closes.append(b"},")
            in_hand = state.aux // rules.aux_block
            if left == 0 and in_hand:
                moves = _joker_moves(roll, min(in_hand, rules.jokers_per_turn))
                rows += [(state.filled, state.aux - used * rules.aux_block, state.upper, target, 0)
                         for (target, used), _ in moves]
                closes += [close for _, close in moves]
            bases += [state.card_total] * (len(rows) - len(bases))
        first_row.append(len(rows))
        rows = np.array(rows, dtype=np.int64)
        values, points, bonus, paid, keeps = _kernel_rows(rules, tables(rules), rows, threads)
        options = _score_options(rules, values, points, bonus, paid, rows[:, 3],
                                 np.array(bases, dtype=np.float64), np.array(closes, dtype=object))
        for m, i in enumerate(members):
            _, state, roll, left, facts, _ = queries[i]
            answers[i] = _advice_json(rules, state.card_total, roll, left, facts,
                                      keeps[first_row[m]], options, first_row[m], first_row[m + 1],
                                      top)
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
    return values, points, bonus, paid, keeps


@lru_cache(maxsize=None)
def _joker_moves(roll, changes):
    """[((target roll, jokers used), text closing a score option, with the comma after it)] in
    advice.assemble's order."""
    targets = joker_targets(dice.KEEPS[roll], changes)
    return [((dice.KEEP_INDEX[target], len(taken)),
             b',"joker":' + orjson.dumps({"from": taken[0], "to": given[0]} if len(taken) == 1
                                         else {"from": list(taken), "to": list(given)}) + b"},")
            for target, (taken, given) in targets.items()]


# The JSON of an advice without building its dicts: option texts (bytes) looked up by arrays for
# a whole chunk at once, each answer's options ordered by one stable argsort and their numbers
# formatted by one orjson call.  It must equal orjson.dumps(assemble(...).as_dict(top)) byte for
# byte (tests/test_cli.py checks it).
# rules -> object array [box, points, upper bonus paid, extra bonus paid, Kniffel joker] of
# option texts (None: not yet)
_SCORE_PREFIXES = {}


def _score_prefixes(rules, box, points, upper, paid, joker):
    """The text before the number of each score option (arrays of box, points and 0/1 for the
    upper bonus, the extra-Kniffel bonus and the joker mark, as position.score_options writes)."""
    table = _SCORE_PREFIXES.get(rules)
    if table is None:
        most = max(max(rules.possible_points(b)) for b in rules.boxes)
        table = _SCORE_PREFIXES[rules] = np.full((rules.n_boxes, most + 1, 2, 2, 2), None,
                                                 dtype=object)
    found = table[box, points, upper, paid, joker]
    for i in np.flatnonzero(np.equal(found, None)):
        upper_bonus, extra_bonus = upper[i] * rules.upper_bonus, paid[i] * rules.extra_bonus
        mark = '"kniffel_joker":true,' if joker[i] else ""
        found[i] = table[box[i], points[i], upper[i], paid[i], joker[i]] = (
            f'{{"action":"score","box":"{rules.boxes[box[i]]}","points":{points[i]},'
            f'"bonus":{upper_bonus + extra_bonus},"upper_bonus":{upper_bonus},'
            f'"extra_bonus":{extra_bonus},{mark}"expected_final_score":').encode()
    return found


def _score_options(rules, values, points, bonus, paid, rolls, bases, closes):
    """The score options of every kernel row (its final roll in `rolls`), row by row and box by
    box: (offsets, expected final scores, texts before and after the number); row r's are
    [offsets[r], offsets[r + 1])."""
    allowed = values != -math.inf
    offsets = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(allowed.sum(axis=1), out=offsets[1:])
    row, box = np.nonzero(allowed)
    points, paid, roll = points[row, box], paid[row, box], rolls[row]
    upper = (bonus[row, box] != paid * rules.extra_bonus).astype(np.int64)
    joker = ((dice.KNIFFEL_FACE[roll] > 0)
             & (points != rules.plain_score[box, roll])).astype(np.int64)
    prefixes = _score_prefixes(rules, box, points, upper, paid, joker)
    return offsets, bases[row] + values[row, box], prefixes, closes[row]


@lru_cache(maxsize=None)
def _keep_prefixes(roll):
    keeps, indices = sub_keep_indices(roll)
    texts = np.array([f'{{"action":"keep","keep":{orjson.dumps(list(k)).decode()},'
                      f'"reroll":{orjson.dumps(list(r)).decode()},"expected_final_score":'.encode()
                      for k, r in zip(keeps, sub_keep_rerolls(roll))], dtype=object)
    return texts, indices, np.full(len(keeps), b"},", dtype=object)


def _advice_json(rules, base, roll, rolls_left, facts, keeps, options, first, stop, top):
    """The advice JSON (bytes) of the query whose kernel rows are first..stop-1: its own row's
    score options, then its joker moves' (see _score_options), after its keeps when rolls are
    left (keeps: the keep values of its own row); facts: its position_facts()."""
    offsets, values, prefixes, closes = options
    a, b = offsets[first], offsets[stop]
    value, prefix, close = values[a:b], prefixes[a:b], closes[a:b]
    if rolls_left:  # keeps first, as in advice.assemble
        keep_prefix, indices, keep_close = _keep_prefixes(roll)
        value = np.concatenate([base + keeps[indices], value])
        prefix = np.concatenate([keep_prefix, prefix])
        close = np.concatenate([keep_close, close])
    order = np.argsort(-value, kind="stable")  # best first, ties in the order above
    shown = order if top is None else order[:top]
    head = (f'{{"rules":{orjson.dumps(rules.key).decode()},"card_total":{base},'
            f'"expected_final_score":{orjson.dumps(float(value[order[0]])).decode()},"position":')
    # One join of every piece: head, then text, number and close of each option in turn
    parts = [None] * (3 * len(shown) + 4)
    parts[:3] = head.encode(), orjson.dumps(facts), b',"options":['
    parts[3:-1:3] = prefix[shown].tolist()
    parts[4:-1:3] = orjson.dumps(value[shown].tolist())[1:-1].split(b",")
    parts[5:-1:3] = close[shown].tolist()
    if len(shown):
        parts[-2] = parts[-2][:-1]  # the last option's close, without its comma
    parts[-1] = b"]}"
    return b"".join(parts)
