"""The final roll of a turn: for every roll, the best box to enter it in (its points, the bonuses
it earns and the value of the state it leads to), for the columns of one filled-box set.

Two kernels, side by side, because numba needs one per compare (see turn.py): the expected
score's final_roll_values (the plain max of points + the next state's value) and the target
objective's final_tile (the (W, E) compare, where a box's points shift the next state's vectors
over the points still needed, d).  They share every step that picks nothing: the compiled
scoring rules of rules/scoring.py (which upper total and bonus entering a box gives, enter_upper;
what a five of a kind may go where and pays) and _fives_box.  Every kernel of the package enters
a box through them: enter_box, the whole step, where one box is entered at a time.

`game` is the rules as data (a scoring.RuleArrays named tuple, Rules.kernel_arrays()), `moves` the
dice tables (a dice.Moves named tuple).  Nothing here does I/O.
"""
from collections import namedtuple

import numpy as np

from ..dice import N_ROLLS
from ..rules import scoring
from .jit import njit, popcount, register_jitable
from .turn import lex_max, lex_pair

kniffel_roll = njit(cache=True)(scoring.kniffel_roll)
next_aux = njit(cache=True)(scoring.next_aux)
fives_score_plain = njit(cache=True)(scoring.fives_score_plain)
# The scoring rules as a kernel calls them (enter_box calls the others); the small ones inlined.
register_jitable(scoring.kniffel_roll)
register_jitable(scoring.next_aux)
register_jitable(inline="always")(scoring.upper_bonus_reached)
register_jitable(inline="always")(scoring.capped_upper)
register_jitable(inline="always")(scoring.completes_upper_bonus)
register_jitable(inline="always")(scoring.enter_upper)
register_jitable(inline="always")(scoring.enter_box)
upper_bonus_reached, capped_upper, completes_upper_bonus, enter_upper, enter_box = (
    scoring.upper_bonus_reached, scoring.capped_upper, scoring.completes_upper_bonus,
    scoring.enter_upper, scoring.enter_box)

NO_CHANCE = -1.0  # below every chance: "no option yet"
NO_POINTS = -1e300  # below every expected score, with NO_CHANCE


@njit(inline="always")
def _fives_box(box, face, r, filled, aux, n_open, game):
    """A five of a kind of `face` (roll r) entered in `box` at aux: (allowed, points, the aux
    after, the points with the extra-Kniffel bonus paid); not allowed in a filled box.
    final_roll_values writes this step out: there, as a call, it costs a quarter of the
    kernel's time (LLVM no longer inlines the scoring rules into its loop)."""
    params = game.params
    if (filled >> box) & 1:
        return False, 0, 0, 0
    allowed, points, paid = kniffel_roll(box, face, r, filled, aux, n_open, params,
                                          game.plain_score, game.joker_score, game.box_face)
    if not allowed:
        return False, 0, 0, 0
    aux_after = next_aux(aux, box, points, paid, n_open - 1, params)
    return True, points, aux_after, points + paid * params[scoring.P_BONUS]


@njit(cache=True)
def final_roll_values(filled, col_aux, col_upper, values, out, game, moves, successor):
    """out[r, j]: best box value for final roll r in column j (score + bonuses + next state).
    successor: scratch of shape (n_boxes, 6, n_cols).  Long: the boxes, then the five of a kind."""
    params, plain_score, box_face = game.params, game.plain_score, game.box_face
    n_boxes = params[scoring.P_N_BOXES]
    threshold, upper_bonus = params[scoring.P_THRESHOLD], params[scoring.P_UPPER_BONUS]
    n_cols = col_aux.shape[0]
    n_open = n_boxes - popcount(filled)
    # successor[box, c]: value of entering `box` with c dice of its face (lower boxes: c = 0 and
    # the points are added per roll).  Entering 0 anywhere ("scratch") is the same for every roll,
    # so each box then only visits the rolls it scores points for.
    scratch = np.full(n_cols, -np.inf)
    aux_after = np.empty(n_cols, dtype=np.int64)
    for box in range(n_boxes):
        if (filled >> box) & 1:
            continue
        after = filled | (1 << box)
        face = box_face[box]
        for j in range(n_cols):
            aux_after[j] = next_aux(col_aux[j], box, 0, 0, n_open - 1, params)
        for c in range(6 if face > 0 else 1):
            points = c * face
            for j in range(n_cols):
                upper, bonus = enter_upper(col_upper[j], points, threshold, upper_bonus)
                successor[box, c, j] = values[after, aux_after[j], upper] + points + bonus
        for j in range(n_cols):
            scratch[j] = max(scratch[j], successor[box, 0, j])
    for r in range(N_ROLLS):
        for j in range(n_cols):
            out[r, j] = scratch[j]
    for box in range(n_boxes):
        if (filled >> box) & 1:
            continue
        face = box_face[box]
        for t in range(game.n_scoring_rolls[box]):
            r = game.scoring_rolls[box, t]
            row = out[r]
            if face > 0:
                best = successor[box, moves.roll_counts[r, face - 1]]
                for j in range(n_cols):
                    row[j] = max(row[j], best[j])
            else:
                points = plain_score[box, r]
                best = successor[box, 0]
                for j in range(n_cols):
                    row[j] = max(row[j], best[j] + points)
    # Five of a kind: bonus and joker rules depend on aux, so go one aux group at a time
    # (columns are aux-major, so each group is a contiguous run of upper totals).  Without a
    # bonus or a joker a five of a kind scores by the plain table, done above.
    start = n_cols if fives_score_plain(params) else 0
    while start < n_cols:
        aux = col_aux[start]
        stop = start
        while stop < n_cols and col_aux[stop] == aux:
            stop += 1
        for r in range(N_ROLLS):
            face = moves.kniffel_face[r]
            if face == 0:
                continue
            for j in range(start, stop):
                out[r, j] = -np.inf
            for box in range(n_boxes):  # _fives_box, written out (see there)
                if (filled >> box) & 1:
                    continue
                allowed, points, paid = kniffel_roll(box, face, r, filled, aux, n_open, params,
                                                      plain_score, game.joker_score, box_face)
                if not allowed:
                    continue
                after = filled | (1 << box)
                aux_after = next_aux(aux, box, points, paid, n_open - 1, params)
                gain = points + paid * params[scoring.P_BONUS]
                if box_face[box] > 0:
                    for j in range(start, stop):
                        upper, bonus = enter_upper(col_upper[j], points, threshold, upper_bonus)
                        out[r, j] = max(out[r, j], gain + bonus + values[after, aux_after, upper])
                else:
                    for j in range(start, stop):
                        out[r, j] = max(out[r, j], gain + values[after, aux_after, col_upper[j]])
        start = stop


@njit(cache=True)
def _shifted(dst_w, dst_e, data, after, aux, upper, start, shift, n):
    """dst[i] := (W, shift + E) of the state (after, aux, upper) at d = start + i + 1 - shift,
    i < n, from data (a TargetData: the level above).  Below that state's band (d <= base) it
    reads as reached, as d <= 0 does: such a d cannot follow the position its sub-game was solved
    for, so no value read from there counts."""
    g = data.row_of[after, aux, upper]
    v = shift + data.expected[after, aux, upper]
    lo = data.base[g]
    off = data.offset[g] + start - shift - lo
    n1 = max(0, min(n, lo + shift - start))  # d - shift <= lo: reached (or out of the band)
    n2 = min(n, lo + data.span[g] + shift - start)
    w_next, e_next = data.w_next, data.e_next
    for i in range(n1):
        dst_w[i] = 1.0
        dst_e[i] = v
    for i in range(n1, n2):
        dst_w[i] = w_next[off + i]
        dst_e[i] = shift + e_next[off + i]
    for i in range(max(n1, n2), n):
        dst_w[i] = 0.0
        dst_e[i] = v


TargetData = namedtuple("TargetData", "w_next e_next offset base span row_of expected")
TargetData.__doc__ = """What the target kernels read of the level above: its packed (W, E), each
state's offset, base and span in them (target_ranges.py), the state index row_of[filled, aux,
upper] and the expected-score values (E outside a state's range)."""

TileScratch = namedtuple("TileScratch", "succ_w succ_e tmp_w tmp_e pad_w pad_e alt_w alt_e")
TileScratch.__doc__ = """final_tile's scratch rows (see its docstring), reused tile after tile."""


@njit(cache=True)
def final_tile(f, cols, bases, col_aux, col_upper, n, data, out_w, out_e, game, moves, scores,
                most, scratch):
    """out[r, t * n + i]: the best box for final roll r in the tile's state t = cols[t] at
    d = bases[t] + i + 1 (W and E), reading the level above from data (a TargetData).

    scores[box, r]: whether roll r scores in box (else it is a scratch, in sw).  A box without
    a face reads its next state's vectors shifted by the roll's points: pad[box] holds them per
    state t from t * (P + n) on, from P points below the tile's first d (P: the most points a
    box scores).  alt: a row to alternate with, so that no kernel updates a row in place.
    Long: the successors, then each roll's best box, in one pass over the tile's rows."""
    succ_w, succ_e, pad_w, pad_e = scratch.succ_w, scratch.succ_e, scratch.pad_w, scratch.pad_e
    params, box_face = game.params, game.box_face
    n_boxes = params[scoring.P_N_BOXES]
    threshold, upper_bonus = params[scoring.P_THRESHOLD], params[scoring.P_UPPER_BONUS]
    n_open = n_boxes - popcount(f)
    m = cols.shape[0]
    width = m * n
    sw = scratch.tmp_w[:width]
    se = scratch.tmp_e[:width]
    sw[:] = NO_CHANCE
    se[:] = NO_POINTS
    for box in range(n_boxes):
        if (f >> box) & 1:
            continue
        face = box_face[box]
        for t in range(m):  # the next state's vectors, shifted by the points and bonus
            aux_after = next_aux(col_aux[cols[t]], box, 0, 0, n_open - 1, params)
            for c in range(6 if face > 0 else 1):
                upper, bonus = enter_upper(col_upper[cols[t]], c * face, threshold, upper_bonus)
                _shifted(succ_w[box, c, t * n:(t + 1) * n], succ_e[box, c, t * n:(t + 1) * n],
                         data, f | (1 << box), aux_after, upper, bases[t], c * face + bonus, n)
            if face == 0:  # the next state from `most` points below the tile's d on
                at = t * (most + n)
                _shifted(pad_w[box, at:at + most + n], pad_e[box, at:at + most + n], data,
                         f | (1 << box), aux_after, col_upper[cols[t]], bases[t] - most, 0,
                         most + n)
        lex_max(sw, se, succ_w[box, 0, :width], succ_e[box, 0, :width])  # a 0 anywhere
    for r in range(N_ROLLS):  # the boxes a roll scores in, in box order, after sw
        count = 0
        for box in range(n_boxes):
            if (f >> box) & 1 == 0 and scores[box, r]:
                count += 1
        src_w, src_e = sw, se
        if count == 0:
            out_w[r, :width] = sw
            out_e[r, :width] = se
        for box in range(n_boxes):
            if (f >> box) & 1 or not scores[box, r]:
                continue
            if count % 2 == 1:  # alternate so that the last best lands in out[r]
                dst_w, dst_e = out_w[r, :width], out_e[r, :width]
            else:
                dst_w, dst_e = scratch.alt_w[:width], scratch.alt_e[:width]
            count -= 1
            face = box_face[box]
            if face > 0:
                c = moves.roll_counts[r, face - 1]
                lex_pair(dst_w, dst_e, src_w, src_e, succ_w[box, c, :width],
                          succ_e[box, c, :width], 0, 0)
            else:
                points = game.plain_score[box, r]
                for t in range(m):
                    lex_pair(dst_w[t * n:(t + 1) * n], dst_e[t * n:(t + 1) * n],
                              src_w[t * n:(t + 1) * n], src_e[t * n:(t + 1) * n],
                              pad_w[box], pad_e[box], t * (most + n) + most - points, points)
            src_w, src_e = dst_w, dst_e
    if not fives_score_plain(params):
        _tile_fives(f, cols, bases, col_aux, col_upper, n, data, out_w, out_e, game, moves,
                    sw, se, scratch.tmp_w[width:width + n], scratch.tmp_e[width:width + n])


@njit(cache=True)
def _tile_fives(f, cols, bases, col_aux, col_upper, n, data, out_w, out_e, game, moves, sw, se,
                one_w, one_e):
    """final_tile's five of a kind: where it may go and what it pays depend on aux (see
    final_roll_values); sw/se: the best scratch, one: a row of scratch."""
    n_boxes = game.params[scoring.P_N_BOXES]
    threshold, upper_bonus = game.params[scoring.P_THRESHOLD], game.params[scoring.P_UPPER_BONUS]
    n_open = n_boxes - popcount(f)
    first_kniffel = (f >> game.params[scoring.P_KNIFFEL_BOX]) & 1 == 0
    for r in range(N_ROLLS):
        face = moves.kniffel_face[r]
        if face == 0:
            continue
        for t in range(cols.shape[0]):
            j = cols[t]
            aux = col_aux[j]
            row_w, row_e = out_w[r, t * n:(t + 1) * n], out_e[r, t * n:(t + 1) * n]
            if first_kniffel:  # a 0 in any box stays open (it can be the better bet on E)
                row_w[:] = sw[t * n:(t + 1) * n]
                row_e[:] = se[t * n:(t + 1) * n]
            else:
                row_w[:] = NO_CHANCE
                row_e[:] = NO_POINTS
            for box in range(n_boxes):
                allowed, points, aux_after, gain = _fives_box(box, face, r, f, aux, n_open, game)
                if not allowed:
                    continue
                upper_points = points if game.box_face[box] > 0 else 0  # a lower box: no change
                upper, bonus = enter_upper(col_upper[j], upper_points, threshold, upper_bonus)
                _shifted(one_w, one_e, data, f | (1 << box), aux_after, upper, bases[t],
                         gain + bonus, n)
                lex_max(row_w, row_e, one_w, one_e)
