"""The target objective's kernels: W(s, d), the best chance that the points still to come from
the turn start s reach d, and E(s, d), the expected points still to come under that same play.

Play maximises W; options whose W round to the same multiple of 1/GRAIN (about 1e-9) are a
tie, broken by the higher E (so a player whose target is safe, W = 1, or out of reach, W = 0,
plays for points).  Rounding, not "closer than", keeps the order transitive, so the best of a
lattice of keeps is the same whichever way it is taken.  The price: a tie may give up less than
the grain of chance for more points, so W is the best chance to within about 1e-9 a decision.  Outside a
state's stored range the values are known: W(s, d <= 0) = 1 and W(s, d > span) = 0 (below
CUT), and there every option ties, so E is the expected-score value V(s).

A column is (state, d).  A filled-box set's states (its aux and upper-total classes, as the
expected-score solve groups them, expected._set_columns) are solved over the same number of d,
width[filled]: d = base[g] + 1 .. base[g] + width, where base is 0 and width the most points
still to come that can matter, but in a sub-game asked about one position, where each state
solves the d that can follow it only (target_ranges.py); once a level is solved, each state keeps
its d up to its last chance >= CUT (span[g] of them).  Columns are solved in tiles of
whole states (all joker levels of a state together, so a Knobeln joker's column is `shift`
columns to the left), in C-contiguous row blocks (see _solve_sets).  The averaging steps of
the keep lattice are the turn widget's own (turn._keep_values, run on both planes); the
best-keep steps compare (W, E) pairs, so they have their own loops here.  Entering a box's
points p shifts the next state's vectors: W(s', d - p).
"""
import numpy as np

from ..dice import N_KEEPS, N_ROLLS
from ..rules import scoring
from .expected import (P_BONUS, P_N_BOXES, P_THRESHOLD, P_UPPER_BONUS, _fives_score_plain,
                       _kniffel_roll, _next_aux, _set_columns)
from .jit import FAST, _popcount, njit
from .turn import _apply_jokers, _keep_values, _turn_stages

GRAIN = 2.0 ** 30  # chances equal at this grain (about 1e-9) are a tie, broken by the expected score
CUT = 1e-12  # chances below this are stored as 0 (and end a state's range)
TILE = 128  # states with short ranges share a tile of up to this many columns (a long one: alone)
LOW = -1.0  # below every chance: "no option yet"


@njit(cache=True)
def _shifted(dst_w, dst_e, w_next, e_next, offset, base, span, row_of, expected, after, aux, upper,
             start, shift, n):
    """dst[i] := (W, shift + E) of the state (after, aux, upper) at d = start + i + 1 - shift,
    i < n.  Below that state's band (d <= base) it reads as reached, as d <= 0 does: such a d
    cannot follow the position its sub-game was solved for, so no value read from there counts."""
    g = row_of[after, aux, upper]
    v = shift + expected[after, aux, upper]
    lo = base[g]
    off = offset[g] + start - shift - lo
    n1 = max(0, min(n, lo + shift - start))  # d - shift <= lo: reached (or out of the band)
    n2 = min(n, lo + span[g] + shift - start)
    for i in range(n1):
        dst_w[i] = 1.0
        dst_e[i] = v
    for i in range(n1, n2):
        dst_w[i] = w_next[off + i]
        dst_e[i] = shift + e_next[off + i]
    for i in range(max(n1, n2), n):
        dst_w[i] = 0.0
        dst_e[i] = v


@njit(cache=True, fastmath=FAST)
def _lex_max(row_w, row_e, other_w, other_e):
    """row := other where other is better: a higher chance, or a tie and more points."""
    for j in range(row_w.shape[0]):
        a, b = row_w[j], other_w[j]
        ae, be = row_e[j], other_e[j]
        qa, qb = np.floor(a * GRAIN + 0.5), np.floor(b * GRAIN + 0.5)
        better = (qb > qa) | ((qb == qa) & (be > ae))
        row_w[j] = b if better else a
        row_e[j] = be if better else ae


@njit(cache=True, fastmath=FAST)
def _lex_pair(dst_w, dst_e, a_w, a_e, b_w, b_e, b_at, points):
    """dst := a, or where it is better the candidate b read from b_at on with `points` added
    to its E (a higher chance, or a tie and more points).  dst is never a or b: LLVM vectorises
    this loop, where an update of a row in place becomes masked stores (slow on AMD cores)."""
    for j in range(dst_w.shape[0]):
        x, xe = a_w[j], a_e[j]
        y, ye = b_w[b_at + j], points + b_e[b_at + j]
        qa, qb = np.floor(x * GRAIN + 0.5), np.floor(y * GRAIN + 0.5)
        better = (qb > qa) | ((qb == qa) & (ye > xe))
        dst_w[j] = y if better else x
        dst_e[j] = ye if better else xe


@njit(inline="always", fastmath=FAST)
def _lex_step(bw, be, bq, x, xe):
    """One compare of _lex_best_of: (W, E, W at the grain) of the better of best and x."""
    q = np.floor(x * GRAIN + 0.5)
    better = (q > bq) | ((q == bq) & (xe > be))
    return (x if better else bw), (xe if better else be), (q if better else bq)


@njit(cache=True, fastmath=FAST)
def _lex_best_of(dst_w, dst_e, own_w, own_e, rows_w, rows_e, subs, count):
    """dst := the best of own and rows subs[0 .. count - 1] (1 to 5 of them) of rows, compared
    in that order, with the running best in registers and dst written once (see _lex_pair).
    One loop per count: a loop that tested the count inside would compare five times."""
    s0, s1, s2, s3, s4 = subs[0], subs[1], subs[2], subs[3], subs[4]
    n = dst_w.shape[0]
    if count == 1:
        for j in range(n):
            bw, be = own_w[j], own_e[j]
            bw, be, bq = _lex_step(bw, be, np.floor(bw * GRAIN + 0.5), rows_w[s0, j], rows_e[s0, j])
            dst_w[j], dst_e[j] = bw, be
    elif count == 2:
        for j in range(n):
            bw, be = own_w[j], own_e[j]
            bw, be, bq = _lex_step(bw, be, np.floor(bw * GRAIN + 0.5), rows_w[s0, j], rows_e[s0, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s1, j], rows_e[s1, j])
            dst_w[j], dst_e[j] = bw, be
    elif count == 3:
        for j in range(n):
            bw, be = own_w[j], own_e[j]
            bw, be, bq = _lex_step(bw, be, np.floor(bw * GRAIN + 0.5), rows_w[s0, j], rows_e[s0, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s1, j], rows_e[s1, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s2, j], rows_e[s2, j])
            dst_w[j], dst_e[j] = bw, be
    elif count == 4:
        for j in range(n):
            bw, be = own_w[j], own_e[j]
            bw, be, bq = _lex_step(bw, be, np.floor(bw * GRAIN + 0.5), rows_w[s0, j], rows_e[s0, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s1, j], rows_e[s1, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s2, j], rows_e[s2, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s3, j], rows_e[s3, j])
            dst_w[j], dst_e[j] = bw, be
    else:
        for j in range(n):
            bw, be = own_w[j], own_e[j]
            bw, be, bq = _lex_step(bw, be, np.floor(bw * GRAIN + 0.5), rows_w[s0, j], rows_e[s0, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s1, j], rows_e[s1, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s2, j], rows_e[s2, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s3, j], rows_e[s3, j])
            bw, be, bq = _lex_step(bw, be, bq, rows_w[s4, j], rows_e[s4, j])
            dst_w[j], dst_e[j] = bw, be


@njit(cache=True)
def _padded_smaller(smaller, n_smaller):
    """smaller[k] padded to five entries by repeating its last (the empty keep: itself), so
    that _lex_best_of may read all five."""
    out = np.empty((smaller.shape[0], 5), dtype=np.int64)
    for k in range(smaller.shape[0]):
        for t in range(5):
            out[k, t] = smaller[k, min(t, n_smaller[k] - 1)] if n_smaller[k] > 0 else k
    return out


@njit(cache=True)
def _final_tile(f, cols, bases, col_aux, col_upper, n, data, out_w, out_e, succ_w, succ_e,
                tmp_w, tmp_e, game, moves, scores, most, pad_w, pad_e, alt_w, alt_e):
    """out[r, t * n + i]: the best box for final roll r in the tile's state t = cols[t] at
    d = bases[t] + i + 1 (W and E).  data = (w_next, e_next, offset, base, span, row_of,
    expected).

    scores[box, r]: whether roll r scores in box (else it is a scratch, in sw).  A box without
    a face reads its next state's vectors shifted by the roll's points: pad[box] holds them per
    state t from t * (P + n) on, from P points below the tile's first d (P: the most points a
    box scores).  alt: a row to alternate with, so that no kernel updates a row in place."""
    w_next, e_next, offset, base, span, row_of, expected = data
    params, plain_score, joker_score, box_face = game[0], game[1], game[2], game[3]
    roll_counts, kniffel_face = moves[0], moves[1]
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    upper_bonus = params[P_UPPER_BONUS]
    n_open = n_boxes - _popcount(f)
    m = cols.shape[0]
    width = m * n
    sw = tmp_w[:width]
    se = tmp_e[:width]
    sw[:] = LOW
    se[:] = -1e300
    for box in range(n_boxes):
        if (f >> box) & 1:
            continue
        after = f | (1 << box)
        face = box_face[box]
        for t in range(m):
            j = cols[t]
            aux_after = _next_aux(col_aux[j], box, 0, 0, n_open - 1, params)
            upper = col_upper[j]
            for c in range(6 if face > 0 else 1):
                points = c * face
                bonus = upper_bonus if (upper < threshold and upper + points >= threshold) else 0
                _shifted(succ_w[box, c, t * n:(t + 1) * n], succ_e[box, c, t * n:(t + 1) * n],
                         w_next, e_next, offset, base, span, row_of, expected, after, aux_after,
                         min(threshold, upper + points), bases[t], points + bonus, n)
            if face == 0:  # the next state from `most` points below the tile's d on
                at = t * (most + n)
                _shifted(pad_w[box, at:at + most + n], pad_e[box, at:at + most + n], w_next,
                         e_next, offset, base, span, row_of, expected, after, aux_after, upper,
                         bases[t] - most, 0, most + n)
        _lex_max(sw, se, succ_w[box, 0, :width], succ_e[box, 0, :width])  # a 0 anywhere
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
                dst_w, dst_e = alt_w[:width], alt_e[:width]
            count -= 1
            face = box_face[box]
            if face > 0:
                c = roll_counts[r, face - 1]
                _lex_pair(dst_w, dst_e, src_w, src_e, succ_w[box, c, :width],
                          succ_e[box, c, :width], 0, 0)
            else:
                points = plain_score[box, r]
                for t in range(m):
                    _lex_pair(dst_w[t * n:(t + 1) * n], dst_e[t * n:(t + 1) * n],
                              src_w[t * n:(t + 1) * n], src_e[t * n:(t + 1) * n],
                              pad_w[box], pad_e[box], t * (most + n) + most - points, points)
            src_w, src_e = dst_w, dst_e
    if _fives_score_plain(params):
        return
    # Five of a kind: where it may go and what it pays depend on aux (see expected.py)
    one_w, one_e = tmp_w[width:width + n], tmp_e[width:width + n]
    first_kniffel = (f >> params[scoring.P_KNIFFEL_BOX]) & 1 == 0
    for r in range(N_ROLLS):
        face = kniffel_face[r]
        if face == 0:
            continue
        for t in range(m):
            j = cols[t]
            aux, upper = col_aux[j], col_upper[j]
            row_w, row_e = out_w[r, t * n:(t + 1) * n], out_e[r, t * n:(t + 1) * n]
            if first_kniffel:  # a 0 in any box stays open (it can be the better bet on E)
                row_w[:] = sw[t * n:(t + 1) * n]
                row_e[:] = se[t * n:(t + 1) * n]
            else:
                row_w[:] = LOW
                row_e[:] = -1e300
            for box in range(n_boxes):
                if (f >> box) & 1:
                    continue
                allowed, points, paid = _kniffel_roll(box, face, r, f, aux, n_open, params,
                                                      plain_score, joker_score, box_face)
                if not allowed:
                    continue
                aux_after = _next_aux(aux, box, points, paid, n_open - 1, params)
                gain = points + paid * params[P_BONUS]
                upper_after = upper
                if box_face[box] > 0:
                    if upper < threshold and upper + points >= threshold:
                        gain += upper_bonus
                    upper_after = min(threshold, upper + points)
                _shifted(one_w, one_e, w_next, e_next, offset, base, span, row_of, expected,
                         f | (1 << box), aux_after, upper_after, bases[t], gain, n)
                _lex_max(row_w, row_e, one_w, one_e)


@njit(cache=True, fastmath=FAST)
def _lex_jokers(work_w, work_e, stop_w, stop_e, shift, passes, add_die, smaller, n_smaller, best_w, best_e):
    """Knobeln jokers (turn._apply_jokers, comparing (W, E) pairs): rows 0..251 of work := the
    final-roll values when one die may be set to any face, up to `passes` times; column
    j - shift is the same state and d with one joker fewer."""
    n_cols = work_w.shape[1]
    width = max(0, n_cols - shift)
    before_w, before_e = stop_w, stop_e
    for done in range(passes):
        if done > 0:
            before_w, before_e = work_w[:N_ROLLS].copy(), work_e[:N_ROLLS].copy()
        for i in range(126):
            k = N_ROLLS + i
            bw, be = best_w[i, :width], best_e[i, :width]
            bw[:] = before_w[add_die[k, 0], :width]
            be[:] = before_e[add_die[k, 0], :width]
            for face in range(1, 6):
                _lex_max(bw, be, before_w[add_die[k, face], :width], before_e[add_die[k, face], :width])
        for r in range(N_ROLLS):
            work_w[r] = before_w[r]
            work_e[r] = before_e[r]
            if width == 0:
                continue
            for t in range(n_smaller[r]):
                i = smaller[r, t] - N_ROLLS
                _lex_max(work_w[r, shift:], work_e[r, shift:], best_w[i, :width], best_e[i, :width])


@njit(cache=True)
def _lex_turn_stages(work_w, work_e, two_w, two_e, stop_w, stop_e, moves, padded,
                     rolls_per_turn, res_w, res_e):
    """turn._turn_stages for (W, E) pairs: res := the values before the turn's first roll.

    Each best-keep step writes its rows into the other of work and two (their roles swap
    every stage), so no row is updated in place.  A roll kept whole ends the turn: it is worth
    stop (the best box now; in Knobeln with no joker, which needs every roll thrown), never the
    roll's value one stage later.  For the expected score the two are equal, but under the tie
    rule "keep all five and choose at the next roll" can win a tie that no legal move wins."""
    add_die, n_smaller, roll_prob = moves[2], moves[4], moves[5]
    if rolls_per_turn == 1:
        res_w[:] = 0.0
        res_e[:] = 0.0
        for r in range(N_ROLLS):
            p = roll_prob[r]
            for j in range(res_w.shape[0]):
                res_w[j] += p * work_w[r, j]
                res_e[j] += p * work_e[r, j]
    a_w, a_e, b_w, b_e = work_w, work_e, two_w, two_e
    for stage in range(rolls_per_turn - 1):
        _keep_values(a_w, add_die)
        _keep_values(a_e, add_die)
        for k in range(N_KEEPS - 1, N_ROLLS - 1, -1):  # smaller keeps have larger indices
            if n_smaller[k] == 0:
                b_w[k] = a_w[k]
                b_e[k] = a_e[k]
            else:
                _lex_best_of(b_w[k], b_e[k], a_w[k], a_e[k], b_w, b_e, padded[k], n_smaller[k])
        for r in range(N_ROLLS):
            _lex_best_of(b_w[r], b_e[r], stop_w[r], stop_e[r], b_w, b_e, padded[r], n_smaller[r])
        if stage == rolls_per_turn - 2:
            res_w[:] = 0.0
            res_e[:] = 0.0
            for r in range(N_ROLLS):
                p = roll_prob[r]
                row_w, row_e = b_w[r], b_e[r]
                for j in range(res_w.shape[0]):
                    res_w[j] += p * row_w[j]
                    res_e[j] += p * row_e[j]
        a_w, a_e, b_w, b_e = b_w, b_e, a_w, a_e


@njit(cache=True, nogil=True)
def _solve_sets(sets, out_w, out_e, width, data, upper_reach, aux_reach, game, moves,
                rolls_per_turn, tile, tie_break):
    """Solve the filled-box sets `sets` (one level; the state g of set f at d = base[g] + 1 ..
    base[g] + width[f]) into out_w/out_e at offset[g] (the level's buffers), reading the level
    above through data = (w_next, e_next, offset, base, span, row_of, expected).  Releases the
    GIL; a column's values do not depend on its tile.  Without `tie_break` only W is solved, by
    turn._turn_stages (to measure what E costs)."""
    offset, base, row_of = data[2], data[3], data[5]
    params = game[0]
    levels = params[scoring.P_JOKERS] + 1
    n_boxes = params[P_N_BOXES]
    n_max = 1
    for s in range(sets.shape[0]):
        n_max = max(n_max, width[sets[s]])
    cap = max(tile, levels * n_max)
    most = 0  # the most points a box without a face scores: how far its vectors shift
    scores = np.zeros((n_boxes, N_ROLLS), dtype=np.bool_)
    for box in range(n_boxes):
        for k in range(game[5][box]):
            scores[box, game[4][box, k]] = True
            if game[3][box] == 0:
                most = max(most, game[1][box, game[4][box, k]])
    padded = _padded_smaller(moves[3], moves[4])
    # A tile's row blocks are flat buffers reshaped to (rows, width): C-contiguous, so numba
    # knows every row is contiguous and LLVM vectorises the loops (a [:, :width] slice of a
    # wider array is typed "any layout", and its loops run one value at a time).
    work_w, work_e = np.empty(N_KEEPS * cap), np.empty(N_KEEPS * cap)
    two_w, two_e = np.empty(N_KEEPS * cap), np.empty(N_KEEPS * cap)
    stop_w, stop_e = np.empty(N_ROLLS * cap), np.empty(N_ROLLS * cap)
    pad_w, pad_e = np.empty((n_boxes, cap + tile * most)), np.empty((n_boxes, cap + tile * most))
    alt_w, alt_e = np.empty(cap), np.empty(cap)
    succ_w, succ_e = np.empty((n_boxes, 6, cap)), np.empty((n_boxes, 6, cap))
    tmp_w, tmp_e = np.empty(cap + n_max), np.empty(cap + n_max)
    res_w, res_e = np.empty(cap), np.empty(cap)
    best_w, best_e = np.empty((126, cap)), np.empty((126, cap))
    for s in range(sets.shape[0]):
        f = sets[s]
        n = width[f]
        if n == 0:
            continue
        class_of, col_aux, col_upper = _set_columns(f, upper_reach, aux_reach, game)
        first = row_of[f, col_aux[0], col_upper[0]]
        n_rest = col_aux.shape[0] // levels
        per = max(1, tile // (levels * n))
        for a in range(0, n_rest, per):
            b = min(n_rest, a + per)
            cols = np.empty((b - a) * levels, dtype=np.int64)
            for level in range(levels):
                for i in range(a, b):
                    cols[level * (b - a) + i - a] = level * n_rest + i
            bases = np.empty(cols.shape[0], dtype=np.int64)
            for t in range(cols.shape[0]):
                bases[t] = base[first + cols[t]]
            cells = cols.shape[0] * n
            ww = work_w[:N_KEEPS * cells].reshape((N_KEEPS, cells))
            we = work_e[:N_KEEPS * cells].reshape((N_KEEPS, cells))
            if levels > 1:
                sw = stop_w[:N_ROLLS * cells].reshape((N_ROLLS, cells))
                se = stop_e[:N_ROLLS * cells].reshape((N_ROLLS, cells))
                _final_tile(f, cols, bases, col_aux, col_upper, n, data, sw, se, succ_w, succ_e,
                            tmp_w, tmp_e, game, moves, scores, most, pad_w, pad_e, alt_w, alt_e)
                _lex_jokers(ww, we, sw, se, (b - a) * n, params[scoring.P_JOKERS_PER_TURN],
                            moves[2], moves[3], moves[4], best_w, best_e)
            else:
                _final_tile(f, cols, bases, col_aux, col_upper, n, data, ww, we, succ_w, succ_e,
                            tmp_w, tmp_e, game, moves, scores, most, pad_w, pad_e, alt_w, alt_e)
                sw, se = ww, we  # turn._turn_stages may read stop from work itself
                if tie_break:  # the (W, E) stages overwrite work's roll rows: stop outlives them
                    sw = stop_w[:N_ROLLS * cells].reshape((N_ROLLS, cells))
                    se = stop_e[:N_ROLLS * cells].reshape((N_ROLLS, cells))
                    sw[:] = ww[:N_ROLLS]
                    se[:] = we[:N_ROLLS]
            rw, re = res_w[:cells], res_e[:cells]
            if tie_break:
                _lex_turn_stages(ww, we, two_w[:N_KEEPS * cells].reshape((N_KEEPS, cells)),
                                 two_e[:N_KEEPS * cells].reshape((N_KEEPS, cells)), sw, se,
                                 moves, padded, rolls_per_turn, rw, re)
            else:  # the chances alone, by the shared widget (E is then not computed)
                if levels > 1:
                    _apply_jokers(ww, sw, (b - a) * n, params[scoring.P_JOKERS_PER_TURN],
                                  moves[2], moves[3], moves[4])
                _turn_stages(ww, sw, moves, rolls_per_turn, rw)
                re[:] = np.nan
            for t in range(cols.shape[0]):
                dst = offset[first + cols[t]]
                out_w[dst:dst + n] = rw[t * n:(t + 1) * n]
                out_e[dst:dst + n] = re[t * n:(t + 1) * n]
