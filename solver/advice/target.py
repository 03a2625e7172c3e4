"""Ranked choices for one position when playing for a target score T: every option's chance of a
final score >= T with optimal play for T afterwards, and its expected final score under that
same play.  Ranked by the chance, ties (at the grain of engine/target.py) by the expected score.

Plain numpy on one (state, points still needed) column, from a saved target table; the turn is
worked as the kernels work it (the box options, Knobeln jokers, the keep lattice), comparing
(chance, expected) pairs.
"""
from dataclasses import replace

import numpy as np

from .. import dice as _dice
from ..engine.grain import GRAIN
from ..rules import scoring
from .position import checked_query, joker_targets, score_options, sub_keep_indices, sub_keep_rerolls


def _better(aw, ae, bw, be):
    """Where (bw, be) beats (aw, ae): a higher chance at the grain, or a tie and more points."""
    qa, qb = np.floor(aw * GRAIN + 0.5), np.floor(bw * GRAIN + 0.5)
    return (qb > qa) | ((qb == qa) & (be > ae))


def _lex_max(aw, ae, bw, be):
    take = _better(aw, ae, bw, be)
    return np.where(take, bw, aw), np.where(take, be, ae)


def _lookup(table, filled, aux, upper, need):
    """(W, E) arrays of the turn start (filled, aux, upper) for an int array of points needed."""
    need = np.asarray(need, dtype=np.int64)
    v = float(table.expected[filled, aux, upper])
    g = table.row_of[filled, aux, upper]
    lo = int(table.base[g]) if g >= 0 else 0  # below a state's band: reached (target_table.py)
    n = int(table.span[g]) if g >= 0 else 0
    w = np.where(need <= lo, 1.0, 0.0)
    e = np.full(need.shape, v)
    inside = (need > lo) & (need <= lo + n)
    if inside.any():
        k = table.offset[g] + need[inside] - lo - 1
        w[inside] = table.w[k]
        e[inside] = table.e[k]
    return w, e


def box_pairs(state, table, need, rolls=None):
    """(W, E, points, bonus) per box and roll in `rolls` (default all 252): entering the roll in
    the box now, with `need` points still needed; W = -1 where the box is filled or forbidden.
    E is the points of the box and bonuses plus the expected points after it."""
    rules = table.rules
    params = rules.params()
    rolls = np.arange(_dice.N_ROLLS) if rolls is None else np.asarray(rolls)
    shape = (rules.n_boxes, len(rolls))
    w, e = np.full(shape, -1.0), np.full(shape, -1e300)
    points, bonus = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    threshold = rules.upper_bonus_threshold
    n_after = state.n_open - 1
    fives = np.flatnonzero(_dice.KNIFFEL_FACE[rolls]).tolist()
    for box in range(rules.n_boxes):
        if state.filled >> box & 1:
            continue
        after = state.filled | (1 << box)
        aux = scoring.next_aux(state.aux, box, 0, 0, n_after, params)
        pts = rules.plain_score[box, rolls].astype(np.int64)
        extra = np.zeros(len(rolls), dtype=np.int64)
        uppers = np.full(len(rolls), state.upper)
        if rules.box_face[box]:
            extra = np.where((state.upper < threshold) & (state.upper + pts >= threshold),
                             rules.upper_bonus, 0)
            uppers = np.minimum(threshold, state.upper + pts)
        for upper in sorted(set(uppers.tolist())):  # few: one lookup per next state
            at = uppers == upper
            bw, be = _lookup(table, after, aux, upper, need - pts[at] - extra[at])
            w[box, at], e[box, at] = bw, pts[at] + extra[at] + be
        points[box], bonus[box] = pts, extra
        for i in fives:  # five of a kind: the rules of scoring.py decide
            r = int(rolls[i])
            allowed, p, paid = scoring.kniffel_roll(box, _dice.KNIFFEL_FACE[r], r, state.filled,
                                                    state.aux, state.n_open, params, rules.plain_score,
                                                    rules.joker_score, rules.box_face)
            if not allowed:
                w[box, i], e[box, i], points[box, i], bonus[box, i] = -1.0, -1e300, 0, 0
                continue
            p = int(p)
            gain_extra = paid * rules.extra_bonus
            upper = state.upper
            if rules.box_face[box]:
                if upper < threshold <= upper + p:
                    gain_extra += rules.upper_bonus
                upper = min(threshold, upper + p)
            aux_k = scoring.next_aux(state.aux, box, p, paid, n_after, params)
            bw, be = _lookup(table, after, aux_k, upper, [need - p - gain_extra])
            w[box, i], e[box, i] = bw[0], p + gain_extra + be[0]
            points[box, i], bonus[box, i] = p, gain_extra
    return w, e, points, bonus


def _best_boxes(w, e):
    """The best box of each roll (rows: boxes, in order)."""
    bw, be = w[0].copy(), e[0].copy()
    for b in range(1, w.shape[0]):
        bw, be = _lex_max(bw, be, w[b], e[b])
    return bw, be


def _best_one_die_change(w, e):
    """For every roll, the best pair among the rolls one die different (a Knobeln joker)."""
    four = _dice.SIZE_SLICES[4]
    children = _dice.ADD_DIE[four]
    bw, be = w[children[:, 0]], e[children[:, 0]]
    for face in range(1, _dice.FACES):
        bw, be = _lex_max(bw, be, w[children[:, face]], e[children[:, face]])
    out_w, out_e = np.full(_dice.N_ROLLS, -1.0), np.full(_dice.N_ROLLS, -1e300)
    for t in range(_dice.DICE):
        present = t < _dice.N_SMALLER[: _dice.N_ROLLS]
        sub = np.where(present, _dice.SMALLER[: _dice.N_ROLLS, t] - four.start, 0)
        cw = np.where(present, bw[sub], -1.0)
        ce = np.where(present, be[sub], -1e300)
        out_w, out_e = _lex_max(out_w, out_e, cw, ce)
    return out_w, out_e


def final_pairs(state, table, need):
    """(stop, final): per roll, the best box now, and the best with the jokers a turn that threw
    every roll may still play (equal without jokers); each a (W, E) pair of arrays."""
    rules = table.rules
    jokers = state.aux // rules.aux_block
    levels = [_best_boxes(*box_pairs(replace(state, aux=state.aux - used * rules.aux_block),
                                     table, need)[:2])
              for used in range(min(jokers, rules.jokers_per_turn) + 1)]
    with_jokers = list(levels)
    for passes in range(1, len(levels)):
        with_jokers = [_lex_max(*with_jokers[i], *_best_one_die_change(*with_jokers[i + 1]))
                       for i in range(len(levels) - passes)] + with_jokers[len(levels) - passes:]
    return levels[0], with_jokers[0]


def keep_pairs(stop, final, rolls_left):
    """(W, E) of every keep (462) with `rolls_left` rolls to come (position.keep_values with
    (chance, expected) pairs)."""
    w, e = np.empty(_dice.N_KEEPS), np.empty(_dice.N_KEEPS)
    w[: _dice.N_ROLLS], e[: _dice.N_ROLLS] = final
    for stage in range(rolls_left):
        for size in range(_dice.DICE - 1, -1, -1):
            rows = _dice.SIZE_SLICES[size]
            children = _dice.ADD_DIE[rows]
            tw, te = w[children[:, 0]].copy(), e[children[:, 0]].copy()
            for face in range(1, _dice.FACES):
                tw += w[children[:, face]]
                te += e[children[:, face]]
            w[rows], e[rows] = tw / 6.0, te / 6.0
        w[: _dice.N_ROLLS], e[: _dice.N_ROLLS] = stop
        if stage == rolls_left - 1:
            return w, e
        for size in range(1, _dice.DICE + 1):  # best sub-keep, growing one die at a time
            rows = _dice.SIZE_SLICES[size]
            subs = _dice.REMOVE_DIE[rows]
            for t in range(_dice.FACES):
                ok = subs[:, t] >= 0
                s = np.maximum(subs[:, t], 0)
                cw = np.where(ok, w[s], -1.0)
                ce = np.where(ok, e[s], -1e300)
                w[rows], e[rows] = _lex_max(w[rows], e[rows], cw, ce)
    return w, e


def advise_target(position, table, target, dice=None, rolls_left=None):
    """Every choice for `position` when playing for a final score >= `target`, as a dict:
    options with "probability" and "expected_final_score", best first."""
    rules = table.rules
    state, roll, rolls_left = checked_query(position, rules, dice, rolls_left)
    base = state.card_total
    need = int(target) - base
    result = {"rules": rules.key, "card_total": base, "objective": {"target": int(target)}}
    if roll is None:
        w, e = _lookup(table, state.filled, state.aux, state.upper, [need])
        return dict(result, probability=float(w[0]), expected_final_score=base + float(e[0]), options=[])
    w, e, points, bonus = box_pairs(state, table, need, [roll])
    options = _score_options(rules, w[:, 0], e[:, 0], points[:, 0], bonus[:, 0], base, state.upper, roll)
    jokers = state.aux // rules.aux_block
    if rolls_left == 0 and jokers:
        for target_roll, (taken, given) in joker_targets(_dice.KEEPS[roll],
                                                         min(jokers, rules.jokers_per_turn)).items():
            after = replace(state, aux=state.aux - len(taken) * rules.aux_block)
            changed = _dice.KEEP_INDEX[target_roll]
            jw, je, jp, jb = box_pairs(after, table, need, [changed])
            joker = ({"from": taken[0], "to": given[0]} if len(taken) == 1
                     else {"from": list(taken), "to": list(given)})
            options += [dict(o, joker=joker)
                        for o in _score_options(rules, jw[:, 0], je[:, 0], jp[:, 0], jb[:, 0], base,
                                                    state.upper, changed)]
    if rolls_left:
        kw, ke = keep_pairs(*final_pairs(state, table, need), rolls_left)
        keeps, indices = sub_keep_indices(roll)
        options = [{"action": "keep", "keep": list(k), "reroll": list(r), "probability": float(kw[i]),
                    "expected_final_score": base + float(ke[i])}
                   for k, r, i in zip(keeps, sub_keep_rerolls(roll), indices.tolist())] + options
    options = rank(options)
    return dict(result, probability=options[0]["probability"],
                expected_final_score=options[0]["expected_final_score"], options=options)


def rank(options):
    """Options best first: by the chance at the grain, then by the expected final score."""
    return sorted(options, key=lambda o: (np.floor(o["probability"] * GRAIN + 0.5),
                                          o["expected_final_score"]), reverse=True)


def _score_options(rules, w, e, points, bonus, base, upper, roll):
    """The score options as position.score_options writes them (bonus split, joker mark), each
    with its "probability"; w < 0 marks a box that is filled or forbidden."""
    allowed = w >= 0
    options = score_options(rules, np.where(allowed, e, -np.inf), points, bonus, base, upper, roll)
    for option, chance in zip(options, w[allowed].tolist()):
        option["probability"] = float(chance)
    return options
