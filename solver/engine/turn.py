"""The turn "widget" every objective shares: from final-roll values, the keep lattice (the mean
over the dice a keep rerolls, then the best keep of each roll) back to the turn's start.

Kernels work on `work[keep, column]` arrays and treat every column alike: what a column stands
for (one state's expected score, one state and target, a Dice Duel state) is the caller's.
`moves` is the dice tables from dice.kernel_arrays() (a dice.Moves named tuple).

Two compares, side by side: the plain max of one value plane (the expected score, a chance
alone) and the lexicographic (W, E) compare of the target objective (a higher chance at the grain
of grain.py, or a tie and more points), which carries two planes.  numba compiles a loop for one
compare; a compare passed in as a function would not be inlined and its loops would not
vectorise, so each step that picks a best (the joker pass, the best sub-keeps) has a kernel per
compare, next to each other here.  Every step that picks nothing is shared: the mean over the
dice a keep rerolls (keep_means, run on each plane), the weighting of the rolls at the turn's
start (_turn_start_values), the order of the stages and the four-dice keeps of the joker pass.
"""
import numpy as np

from ..dice import N_FOUR_KEEPS, N_KEEPS, N_ROLLS
from .grain import quantise
from .jit import FAST, njit

_quantise = njit(inline="always", fastmath=FAST)(quantise)


@njit(cache=True, fastmath=FAST)
def keep_means(work, add_die):
    """Rows of keeps with < 5 dice := the mean over the six ways to add one die."""
    n_cols = work.shape[1]
    for k in range(N_ROLLS, N_KEEPS):  # children (one die more) have smaller indices
        a0, a1, a2, a3, a4, a5 = (add_die[k, 0], add_die[k, 1], add_die[k, 2], add_die[k, 3],
                                  add_die[k, 4], add_die[k, 5])
        for j in range(n_cols):
            work[k, j] = (work[a0, j] + work[a1, j] + work[a2, j] + work[a3, j] + work[a4, j]
                          + work[a5, j]) / 6.0


@njit(cache=True, fastmath=FAST)
def best_sub_keeps(work, smaller, n_smaller, stop, roll_prob, expected):
    """Every row := the best keep value over its sub-multisets (remove one die at a time).

    A roll's own value (keeping all five dice ends the turn) is read from stop[r]: `stop` may be
    `work` itself, or the stop values, which saves copying them into the rows first.  Unless
    `expected` is empty, also expected[j] := sum over rolls of roll_prob[r] * work[r, j], while
    each row is at hand (the value before the turn's first roll, as _turn_start_values gives).
    Every argument is always an array, so numba compiles this once."""
    n_cols = work.shape[1]
    for k in range(N_KEEPS - 1, N_ROLLS - 1, -1):  # smaller keeps have larger indices
        row = work[k]
        for t in range(n_smaller[k]):
            other = work[smaller[k, t]]
            for j in range(n_cols):
                a = row[j]
                b = other[j]
                row[j] = a if a >= b else b
    total = expected.shape[0] > 0
    expected[:] = 0.0
    for r in range(N_ROLLS):  # the rolls need only the keeps above, in any order
        row = work[r]
        own = stop[r]
        other = work[smaller[r, 0]]
        for j in range(n_cols):
            a = own[j]
            b = other[j]
            row[j] = a if a >= b else b
        for t in range(1, n_smaller[r]):
            other = work[smaller[r, t]]
            for j in range(n_cols):
                a = row[j]
                b = other[j]
                row[j] = a if a >= b else b
        if total:
            p = roll_prob[r]
            for j in range(n_cols):
                expected[j] += p * row[j]


@njit(cache=True)
def _turn_start_values(work, roll_prob, expected):
    """expected[j] := the value before the first roll, from the values of the 252 rolls.

    Weighting each roll by its probability costs 252 rows, where filling all 210 smaller keeps
    just to read the empty one would cost 1260."""
    expected[:] = 0.0
    for r in range(N_ROLLS):
        p = roll_prob[r]
        for j in range(expected.shape[0]):
            expected[j] += p * work[r, j]


@njit(cache=True, fastmath=FAST)
def apply_jokers(work, stop, shift, passes, add_die, smaller, n_smaller):
    """Knobeln jokers: rows 0..251 of work := the final-roll values when, after the last roll,
    one die may be set to any face (up to `passes` times); `stop` holds them without a joker.

    Columns are grouped by jokers left, `shift` columns a group, so column j - shift is the same
    state with one joker fewer.  For each four-dice keep, find the best face to add (in the
    fewer-jokers columns); a roll may then use the best over its four-dice sub-keeps."""
    n_cols = work.shape[1]
    width = max(0, n_cols - shift)
    best_add = np.empty((N_FOUR_KEEPS, width))  # one row per four-dice keep (after the rolls)
    before = stop
    for done in range(passes):
        if done > 0:
            before = work[:N_ROLLS].copy()
        for i in range(N_FOUR_KEEPS):
            k = N_ROLLS + i
            row = best_add[i]
            r0, r1, r2 = before[add_die[k, 0]], before[add_die[k, 1]], before[add_die[k, 2]]
            r3, r4, r5 = before[add_die[k, 3]], before[add_die[k, 4]], before[add_die[k, 5]]
            for j in range(width):
                a, b, c, d, e, f = r0[j], r1[j], r2[j], r3[j], r4[j], r5[j]
                ab = a if a >= b else b
                cd = c if c >= d else d
                ef = e if e >= f else f
                abcd = ab if ab >= cd else cd
                row[j] = abcd if abcd >= ef else ef
        for r in range(N_ROLLS):
            row = work[r]
            own = before[r]
            for j in range(min(shift, n_cols)):  # no joker left: the roll stands
                row[j] = own[j]
            if width == 0:
                continue
            # views from column `shift` on: LLVM vectorises these loops, not row[shift + j]
            row, own = row[shift:], own[shift:]
            other = best_add[smaller[r, 0] - N_ROLLS]
            for j in range(width):
                a = own[j]
                b = other[j]
                row[j] = a if a >= b else b
            for t in range(1, n_smaller[r]):
                other = best_add[smaller[r, t] - N_ROLLS]
                for j in range(width):
                    a = row[j]
                    b = other[j]
                    row[j] = a if a >= b else b


@njit(cache=True)
def turn_stages(work, stop, moves, rolls_per_turn, expected):
    """From final-roll values in rows 0..251: keep and best-keep passes for each earlier roll.

    Keeping all five dice ends the turn at once (`stop`: no further roll and, in Knobeln, no
    joker, which needs every roll thrown).  Without jokers, stopping is already the value the
    later stages give a kept roll, so `stop` may be `work` itself.  expected[j] := the value
    before the first roll."""
    add_die, smaller, n_smaller, roll_prob = (moves.add_die, moves.smaller, moves.n_smaller,
                                              moves.roll_prob)
    if rolls_per_turn == 1:
        _turn_start_values(work, roll_prob, expected)
    for stage in range(rolls_per_turn - 1):
        keep_means(work, add_die)
        # the turn's first roll (the last stage) weights the rolls on the way
        last = stage == rolls_per_turn - 2
        best_sub_keeps(work, smaller, n_smaller, stop, roll_prob,
                       expected if last else expected[:0])


# The lexicographic (W, E) compare: the same steps for the target objective (module docstring).

@njit(inline="always", fastmath=FAST)
def lex_beats(qa, ae, qb, be):
    """Whether (qb, be) beats (qa, ae), chances at the grain: a higher chance, or a tie and more
    points.  The one (W, E) compare of every kernel below and of the tournaments' coach."""
    return (qb > qa) | ((qb == qa) & (be > ae))


@njit(inline="always", fastmath=FAST)
def lex_better(aw, ae, bw, be):
    """Whether (bw, be) beats (aw, ae): lex_beats of the chances rounded to the grain."""
    return lex_beats(_quantise(aw), ae, _quantise(bw), be)


@njit(cache=True, fastmath=FAST)
def lex_max(row_w, row_e, other_w, other_e):
    """row := other where other is better: a higher chance, or a tie and more points."""
    for j in range(row_w.shape[0]):
        a, b = row_w[j], other_w[j]
        ae, be = row_e[j], other_e[j]
        better = lex_better(a, ae, b, be)
        row_w[j] = b if better else a
        row_e[j] = be if better else ae


@njit(cache=True, fastmath=FAST)
def lex_pair(dst_w, dst_e, a_w, a_e, b_w, b_e, b_at, points):
    """dst := a, or where it is better the candidate b read from b_at on with `points` added
    to its E (a higher chance, or a tie and more points).  dst is never a or b: LLVM vectorises
    this loop, where an update of a row in place becomes masked stores (slow on AMD cores)."""
    for j in range(dst_w.shape[0]):
        x, xe = a_w[j], a_e[j]
        y, ye = b_w[b_at + j], points + b_e[b_at + j]
        better = lex_better(x, xe, y, ye)
        dst_w[j] = y if better else x
        dst_e[j] = ye if better else xe


@njit(inline="always", fastmath=FAST)
def _lex_step(bw, be, bq, x, xe):
    """One compare of _lex_best_of: (W, E, W at the grain) of the better of best and x."""
    q = _quantise(x)
    better = lex_beats(bq, be, q, xe)
    return (x if better else bw), (xe if better else be), (q if better else bq)


@njit(inline="always", fastmath=FAST)
def _lex_first(bw, be, rows_w, rows_e, s, j):
    """The first compare of _lex_best_of: own (bw, be) against row s at column j."""
    return _lex_step(bw, be, _quantise(bw), rows_w[s, j], rows_e[s, j])


@njit(inline="always", fastmath=FAST)
def _lex_three(bw, be, rows_w, rows_e, s0, s1, s2, j):
    """Own against rows s0, s1, s2 (in that order) at column j."""
    bw, be, bq = _lex_first(bw, be, rows_w, rows_e, s0, j)
    bw, be, bq = _lex_step(bw, be, bq, rows_w[s1, j], rows_e[s1, j])
    return _lex_step(bw, be, bq, rows_w[s2, j], rows_e[s2, j])


@njit(cache=True, fastmath=FAST)
def _lex_best_of(dst_w, dst_e, own_w, own_e, rows_w, rows_e, subs, count):
    """dst := the best of own and rows subs[0 .. count - 1] (1 to 5 of them) of rows, compared
    in that order, with the running best in registers and dst written once (see lex_pair).
    One loop per count: a loop that tested the count inside would compare five times."""
    s0, s1, s2, s3, s4 = subs[0], subs[1], subs[2], subs[3], subs[4]
    n = dst_w.shape[0]
    if count == 1:
        for j in range(n):
            dst_w[j], dst_e[j], _ = _lex_first(own_w[j], own_e[j], rows_w, rows_e, s0, j)
    elif count == 2:
        for j in range(n):
            bw, be, bq = _lex_first(own_w[j], own_e[j], rows_w, rows_e, s0, j)
            dst_w[j], dst_e[j], _ = _lex_step(bw, be, bq, rows_w[s1, j], rows_e[s1, j])
    elif count == 3:
        for j in range(n):
            dst_w[j], dst_e[j], _ = _lex_three(own_w[j], own_e[j], rows_w, rows_e, s0, s1, s2, j)
    elif count == 4:
        for j in range(n):
            bw, be, bq = _lex_three(own_w[j], own_e[j], rows_w, rows_e, s0, s1, s2, j)
            dst_w[j], dst_e[j], _ = _lex_step(bw, be, bq, rows_w[s3, j], rows_e[s3, j])
    else:
        for j in range(n):
            bw, be, bq = _lex_three(own_w[j], own_e[j], rows_w, rows_e, s0, s1, s2, j)
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s3, j], rows_e[s3, j])
            dst_w[j], dst_e[j], _ = _lex_step(bw, be, bq, rows_w[s4, j], rows_e[s4, j])


@njit(cache=True)
def padded_smaller(smaller, n_smaller):
    """smaller[k] padded to five entries by repeating its last (the empty keep: itself), so
    that _lex_best_of may read all five."""
    out = np.empty((smaller.shape[0], 5), dtype=np.int64)
    for k in range(smaller.shape[0]):
        for t in range(5):
            out[k, t] = smaller[k, min(t, n_smaller[k] - 1)] if n_smaller[k] > 0 else k
    return out


@njit(cache=True, fastmath=FAST)
def lex_jokers(work_w, work_e, stop_w, stop_e, shift, passes, add_die, smaller, n_smaller,
                best_w, best_e):
    """apply_jokers comparing (W, E) pairs: rows 0..251 of work := the final-roll values when
    one die may be set to any face, up to `passes` times; column j - shift is the same state
    and d with one joker fewer.  best: scratch, a row per four-dice keep."""
    n_cols = work_w.shape[1]
    width = max(0, n_cols - shift)
    before_w, before_e = stop_w, stop_e
    for done in range(passes):
        if done > 0:
            before_w, before_e = work_w[:N_ROLLS].copy(), work_e[:N_ROLLS].copy()
        for i in range(N_FOUR_KEEPS):
            k = N_ROLLS + i
            bw, be = best_w[i, :width], best_e[i, :width]
            bw[:] = before_w[add_die[k, 0], :width]
            be[:] = before_e[add_die[k, 0], :width]
            for face in range(1, 6):
                lex_max(bw, be, before_w[add_die[k, face], :width],
                        before_e[add_die[k, face], :width])
        for r in range(N_ROLLS):
            work_w[r] = before_w[r]
            work_e[r] = before_e[r]
            if width == 0:
                continue
            for t in range(n_smaller[r]):
                i = smaller[r, t] - N_ROLLS
                lex_max(work_w[r, shift:], work_e[r, shift:], best_w[i, :width], best_e[i, :width])


@njit(cache=True)
def lex_stage(a_w, a_e, b_w, b_e, stop_w, stop_e, add_die, n_smaller, padded):
    """One stage of lex_turn_stages: a's keeps := the mean over the dice they reroll (in place,
    from a's rolls: their values one stage later), then b := the best keep of every keep and
    roll (a roll kept whole: stop), written into b so that no row is updated in place."""
    keep_means(a_w, add_die)
    keep_means(a_e, add_die)
    for k in range(N_KEEPS - 1, N_ROLLS - 1, -1):  # smaller keeps have larger indices
        if n_smaller[k] == 0:
            b_w[k] = a_w[k]
            b_e[k] = a_e[k]
        else:
            _lex_best_of(b_w[k], b_e[k], a_w[k], a_e[k], b_w, b_e, padded[k], n_smaller[k])
    for r in range(N_ROLLS):
        _lex_best_of(b_w[r], b_e[r], stop_w[r], stop_e[r], b_w, b_e, padded[r], n_smaller[r])


@njit(cache=True)
def lex_turn_stages(work_w, work_e, two_w, two_e, stop_w, stop_e, moves, padded,
                     rolls_per_turn, res_w, res_e):
    """turn_stages for (W, E) pairs: res := the values before the turn's first roll.

    Each stage (lex_stage) writes its rows into the other of work and two (their roles swap
    every stage).  A roll kept whole ends the turn: it is worth stop (the best box now; in
    Knobeln with no joker, which needs every roll thrown), never the roll's value one stage
    later.  For the expected score the two are equal, but under the tie rule "keep all five and
    choose at the next roll" can win a tie that no legal move wins."""
    add_die, n_smaller, roll_prob = moves.add_die, moves.n_smaller, moves.roll_prob
    if rolls_per_turn == 1:
        _turn_start_values(work_w, roll_prob, res_w)
        _turn_start_values(work_e, roll_prob, res_e)
    a_w, a_e, b_w, b_e = work_w, work_e, two_w, two_e
    for stage in range(rolls_per_turn - 1):
        lex_stage(a_w, a_e, b_w, b_e, stop_w, stop_e, add_die, n_smaller, padded)
        if stage == rolls_per_turn - 2:
            _turn_start_values(b_w, roll_prob, res_w)
            _turn_start_values(b_e, roll_prob, res_e)
        a_w, a_e, b_w, b_e = b_w, b_e, a_w, a_e
