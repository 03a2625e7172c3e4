"""numba kernels of the win coach's approximate policy (candidate (a) of issue 24, the policy of
advice/win_approx.MixtureView) for tournaments of many whole games, and of the risk dial it is
measured against (candidate (c): dlangk/yatzy's variance-scaled exponential utility).

The Python coach (advice/win_coach.advise_win) answers one decision in about 9 ms; a tournament
of 100,000 games asks for millions.  Here one compiled call plays a turn of every game: the
chance to win u(x) of each final score x against the others' cards as they stand (their final
scores' exact distributions from a StateDistributions store, ties shared), then the turn in hand
exactly against high(s') = u(0) + sum_T q(T) W*(s', T - c') for every turn start s' it can end
in (W* the target table, q(T) = u(T) - u(T - 1)), and the keeps and the box by that value.
The compare is MixtureView's, the target objective's (W, E) compare of engine/turn.py (the chance
at the grain, ties by the expected score), and the keep lattice is its stages (turn.lex_stage).
tests/test_coach_kernels.py checks every option's value against advise_win's.

Candidate (c) plays each turn for one exponential utility exp(theta x), theta chosen per turn
from the expected final scores and their variances (risk_dial), with the tables of
objective.CertaintyEquivalent for a grid of theta (risk_plan).

Rules with Knobeln jokers are not played here (the tournament's presets have none).
"""
import numpy as np

from ..dice import N_KEEPS, N_ROLLS
from ..engine.final_rolls import enter_box
from ..engine.jit import njit, popcount
from ..engine.positions import after_box, box_options
from ..engine.seeded_dice import complete_roll
from ..engine.turn import lex_better, lex_stage, padded_smaller
from ..rules import scoring

MAX_POINTS = 128  # a box's points are below this in every preset played here (memo size)


@njit(cache=True)
def utility(totals, flats, done, keys, low, start, probs, U):
    """U[x] := the chance that a final score x beats the opponents, ties shared (win.win_utility
    then win_approx.utility_of_score): opponent i has totals[i] on the card and the turn start
    flats[i] (finished where done[i]); its points to come are read from the store (keys, low,
    start, probs).  U must be long enough for every score; returns M, the lowest score sure to
    win (U[M:] = 1)."""
    n = totals.shape[0]
    lows = np.empty(n, dtype=np.int64)
    firsts = np.empty(n, dtype=np.int64)
    lens = np.empty(n, dtype=np.int64)
    for i in range(n):
        if done[i]:
            lows[i], firsts[i], lens[i] = totals[i], -1, 1
            continue
        at = np.searchsorted(keys, flats[i])
        if at == keys.shape[0] or keys[at] != flats[i]:
            raise ValueError("an opponent's state is not in the store")
        lows[i], firsts[i], lens[i] = totals[i] + low[at], start[at], start[at + 1] - start[at]
    lowest = lows.min()
    M = 0
    for i in range(n):
        M = max(M, lows[i] + lens[i])
    less = np.zeros(n)  # P(X_i < x), x rising
    poly = np.empty(n + 1)
    U[:lowest] = 0.0
    U[M:] = 1.0
    for x in range(lowest, M):
        poly[0] = 1.0
        for i in range(n):  # prod_i (a_i + b_i t), then its integral over t in [0, 1]
            k = x - lows[i]
            b = 0.0
            if 0 <= k < lens[i]:
                b = 1.0 if firsts[i] < 0 else probs[firsts[i] + k]
            a = less[i]
            poly[i + 1] = 0.0
            for j in range(i + 1, 0, -1):
                poly[j] = poly[j] * a + poly[j - 1] * b
            poly[0] = poly[0] * a
            less[i] = a + b
        u = 0.0
        for j in range(n + 1):
            u += poly[j] / (j + 1)
        U[x] = u
    return M


@njit(cache=True)
def _mixture(f, a, up, need_of, q, u0, gain, row_of, base, span, offset, w, expected):
    """(high, E) of the turn start (f, a, up) after `gain` points: u0 + sum_i q[i] W*(s, need_of[i]
    - gain), capped at 1, and gain + the expected-score value there."""
    g = row_of[f, a, up]
    lo, n, off = 0, 0, 0
    if g >= 0:
        lo, n, off = base[g], span[g], offset[g]
    total = 0.0
    for i in range(need_of.shape[0]):
        need = need_of[i] - gain
        if need <= lo:
            total += q[i]
        elif need <= lo + n:
            total += q[i] * np.float64(w[off + need - lo - 1])
        else:
            break  # need_of rises: every later T is out of reach too
    return min(1.0, u0 + total), gain + np.float64(expected[f, a, up])


@njit(cache=True)
def turn_plan(filled, aux, upper, card_total, U, M, row_of, base, span, offset, w, expected, game,
              moves, sub_keeps, rolls_per_turn, fin_w, fin_e, fin_box, stage_w, stage_e):
    """The turn from the state (filled, aux, upper) with card_total points against u = U[:M + 1]:
    fin_*[r] the final roll r's best box (its (high, E) and the box), stage_*[left, k] the value
    of keep k with `left` rolls to come (rows < N_ROLLS: stopping with that roll).  sub_keeps
    is not read (the keep lattice is turn.lex_stage's, over moves); risk_plan's argument list,
    which its callers and tests/test_coach_kernels.py share."""
    n_boxes = game.params[scoring.P_N_BOXES]
    n_open = n_boxes - popcount(filled)
    steps = 0
    for x in range(1, M + 1):
        if U[x] - U[x - 1] > 0:
            steps += 1
    need_of = np.empty(steps, dtype=np.int64)
    q = np.empty(steps)
    steps = 0
    for x in range(1, M + 1):
        if U[x] - U[x - 1] > 0:
            need_of[steps], q[steps] = x - card_total, U[x] - U[x - 1]
            steps += 1
    u0 = U[0]
    # a box's value depends on the roll only through its points (and a bonus paid)
    memo_w = np.full((n_boxes, 2, MAX_POINTS), np.nan)
    memo_e = np.empty((n_boxes, 2, MAX_POINTS))
    for r in range(N_ROLLS):
        bw, be, bbox = -1.0, -1e300, -1
        for box in range(n_boxes):
            if (filled >> box) & 1:
                continue
            allowed, pts, bonus, pays, up, a = enter_box(
                box, r, moves.kniffel_face[r], filled, aux, upper, n_open, game.params,
                game.plain_score, game.joker_score, game.box_face)
            if not allowed:
                continue
            gain = pts + bonus
            if pts < MAX_POINTS and not np.isnan(memo_w[box, pays, pts]):
                vw, ve = memo_w[box, pays, pts], memo_e[box, pays, pts]
            else:
                vw, ve = _mixture(filled | (1 << box), a, up, need_of, q, u0, gain, row_of, base,
                                  span, offset, w, expected)
                if pts < MAX_POINTS:
                    memo_w[box, pays, pts], memo_e[box, pays, pts] = vw, ve
            if bbox < 0 or lex_better(bw, be, vw, ve):
                bw, be, bbox = vw, ve, box
        fin_w[r], fin_e[r], fin_box[r] = bw, be, bbox
    _stages(fin_w, fin_e, moves, rolls_per_turn, stage_w, stage_e)


@njit(cache=True)
def risk_plan(filled, aux, upper, ce, theta, game, moves, sub_keeps, rolls_per_turn, fin_w, fin_e,
              fin_box, stage_w, stage_e):
    """turn_plan for the risk dial theta (candidate (c)): ce the certainty equivalents of theta
    (objective.CertaintyEquivalent; the expected score for theta = 0).  The box maximises
    points + ce of the state after; the keeps the mean of sign(theta) exp(theta x) over what
    they may roll (x for theta = 0).  Compared as turn_plan's values with every chance 0.
    Returns the base of the exponentials (the largest final-roll value)."""
    n_boxes = game.params[scoring.P_N_BOXES]
    value = np.empty(n_boxes)
    points = np.empty(n_boxes, dtype=np.int64)
    bonus = np.empty(n_boxes, dtype=np.int64)
    paid = np.empty(n_boxes, dtype=np.int64)
    top = -np.inf
    for r in range(N_ROLLS):  # the box as the expected score's: the best points + ce after
        box_options(filled, aux, upper, r, ce, game, moves.kniffel_face, value, points, bonus, paid)
        fin_box[r] = np.argmax(value)
        fin_e[r] = value[fin_box[r]]
        top = max(top, fin_e[r])
    fin_w[:] = 0.0
    if theta != 0.0:
        sign = 1.0 if theta > 0 else -1.0
        for r in range(N_ROLLS):
            fin_e[r] = sign * np.exp(theta * (fin_e[r] - top))
    _stages(fin_w, fin_e, moves, rolls_per_turn, stage_w, stage_e)
    return top


@njit(cache=True)
def _stages(fin_w, fin_e, moves, rolls_per_turn, stage_w, stage_e):
    """The keep lattice from the final rolls' values, by the target objective's stages
    (turn.lex_stage): stage_*[left, k] the value of keep k with `left` rolls to come (the mean
    over the dice it rerolls of the rolls' values one stage later; rows < N_ROLLS: stopping
    with that roll)."""
    padded = padded_smaller(moves.smaller, moves.n_smaller)
    stop_w, stop_e = fin_w.reshape((N_ROLLS, 1)), fin_e.reshape((N_ROLLS, 1))
    a_w, a_e = np.empty((N_KEEPS, 1)), np.empty((N_KEEPS, 1))
    b_w, b_e = np.empty((N_KEEPS, 1)), np.empty((N_KEEPS, 1))
    a_w[:N_ROLLS] = stop_w
    a_e[:N_ROLLS] = stop_e
    for left in range(1, rolls_per_turn):
        lex_stage(a_w, a_e, b_w, b_e, stop_w, stop_e, moves.add_die, moves.n_smaller, padded)
        stage_w[left] = a_w[:, 0]
        stage_e[left] = a_e[:, 0]
        stage_w[left, :N_ROLLS] = fin_w  # keeping all five dice ends the turn
        stage_e[left, :N_ROLLS] = fin_e
        a_w, a_e, b_w, b_e = b_w, b_e, a_w, a_e


@njit(cache=True)
def risk_dial(turn, mine, others, done, totals, ce, thetas, zero, hundredth, low, high, from_turn):
    """The index in `thetas` of the risk dial of candidate (c), dlangk/yatzy's variance-scaled
    policy: theta = (E_other - E_mine) / (V_mine + V_other), clamped to [low, high], the
    nearest of `thetas`; E a final score's expected value, V its variance (the cumulant
    expansion: V = 2 (CE_0.01 - E) / 0.01), the other the one expected to finish highest;
    0 before turn `from_turn`.  mine / others: flat indexes (filled, aux, upper) into ce[k];
    totals[0] my card total, totals[1:] the others'."""
    if turn < from_turn:
        return zero
    flat0, flat1 = ce[zero].reshape(-1), ce[hundredth].reshape(-1)
    h = thetas[hundredth]
    e_mine = totals[0] + flat0[mine]
    v_mine = 2.0 * (flat1[mine] - flat0[mine]) / h
    e_other, v_other = -np.inf, 0.0
    for i in range(others.shape[0]):
        e, v = float(totals[i + 1]), 0.0
        if not done[i]:
            e += flat0[others[i]]
            v = 2.0 * (flat1[others[i]] - flat0[others[i]]) / h
        if e > e_other:
            e_other, v_other = e, v
    theta = (e_other - e_mine) / max(1.0, v_mine + v_other)
    theta = min(high, max(low, theta))
    best = zero
    for k in range(thetas.shape[0]):
        if abs(thetas[k] - theta) < abs(thetas[best] - theta):
            best = k
    return best


@njit(inline="always")
def best_keep(roll, left, sub_keeps, stage_w, stage_e):
    """The best keep of `roll` with `left` rolls to come (the roll itself: stop), the first of
    equal ones in sub_keeps' order (fewest dice first)."""
    best, bw, be = -1, -1.0, -1e300
    for s in range(sub_keeps.shape[1]):
        k = sub_keeps[roll, s]
        if k >= 0 and (best < 0 or lex_better(bw, be, stage_w[left, k], stage_e[left, k])):
            best, bw, be = k, stage_w[left, k], stage_e[left, k]
    return best


@njit(inline="always")
def _seats(g, seat, all_filled, aux, upper, total, n_aux, n_upper, full, totals, flats, done):
    """Game g's card totals and flat states (filled, aux, upper), the coach's first, then the
    others' in seat order, and which of the others have finished."""
    o = 1
    for s in range(all_filled.shape[0]):
        f = all_filled[s, g]
        at = 0 if s == seat else o
        totals[at] = total[s, g]
        flats[at] = (f * n_aux + aux[s, g]) * n_upper + upper[s, g]
        if s != seat:
            done[o - 1] = f == full
            o += 1


@njit(cache=True, nogil=True)
def coach_turns(games, seat, turn, all_filled, aux, upper, upper_sum, total, extras, rng, fifty,
                keys, low, start, probs, row_of, base, span, offset, w, expected, ce, thetas, dial,
                game, moves, sub_keeps, rolls_per_turn, empty_keep, U):
    """The coach in seat `seat` plays its turn number `turn` (0: the first) in every game of
    `games` (the players' arrays are [seat, game]; the others' states as they stand are its
    opponents).  Candidate (a), turn_plan, against the store (keys, low, start, probs) and the
    target table (row_of .. expected); or, where ce (the certainty equivalents of each of
    `thetas`, ce[k][filled, aux, upper]) is not empty, candidate (c), risk_dial then risk_plan,
    dial = (index of theta 0, of theta 0.01, lowest theta, highest theta, first turn).
    U: scratch longer than any final score."""
    params, box_face = game.params, game.box_face
    add_die, keep_size = moves.add_die, moves.keep_size
    n_boxes = params[scoring.P_N_BOXES]
    threshold = params[scoring.P_THRESHOLD]
    kniffel_box = params[scoring.P_KNIFFEL_BOX]
    risk = ce.shape[0] > 0
    n_aux = ce.shape[2] if risk else expected.shape[1]
    n_upper = ce.shape[3] if risk else expected.shape[2]
    n_seats = all_filled.shape[0]
    full = (1 << n_boxes) - 1
    totals = np.empty(n_seats, dtype=np.int64)
    flats = np.empty(n_seats, dtype=np.int64)
    done = np.empty(n_seats - 1, dtype=np.bool_)
    fin_w, fin_e = np.empty(N_ROLLS), np.empty(N_ROLLS)
    fin_box = np.empty(N_ROLLS, dtype=np.int64)
    stage_w = np.empty((rolls_per_turn, N_KEEPS))
    stage_e = np.empty((rolls_per_turn, N_KEEPS))
    for i in range(games.shape[0]):
        g = games[i]
        _seats(g, seat, all_filled, aux, upper, total, n_aux, n_upper, full, totals, flats, done)
        filled, a, up = all_filled[seat, g], aux[seat, g], upper[seat, g]
        if risk:
            k = risk_dial(turn, flats[0], flats[1:], done, totals, ce, thetas, int(dial[0]),
                          int(dial[1]), dial[2], dial[3], int(dial[4]))
            risk_plan(filled, a, up, ce[k], thetas[k], game, moves, sub_keeps, rolls_per_turn,
                      fin_w, fin_e, fin_box, stage_w, stage_e)
        else:
            M = utility(totals[1:], flats[1:], done, keys, low, start, probs, U)
            turn_plan(filled, a, up, total[seat, g], U, M, row_of, base, span, offset, w,
                      expected, game, moves, sub_keeps, rolls_per_turn, fin_w, fin_e, fin_box,
                      stage_w, stage_e)
        state = rng[seat, g]
        roll, state = complete_roll(empty_keep, state, add_die, keep_size)
        for left in range(rolls_per_turn - 1, 0, -1):
            keep = best_keep(roll, left, sub_keeps, stage_w, stage_e)
            if keep == roll:  # keeping all five dice ends the turn
                break
            roll, state = complete_roll(keep, state, add_die, keep_size)
        rng[seat, g] = state
        box = fin_box[roll]
        _, points, bonus, pays, _, a_after = enter_box(
            box, roll, moves.kniffel_face[roll], filled, a, up, n_boxes - popcount(filled),
            params, game.plain_score, game.joker_score, box_face)
        total[seat, g], upper[seat, g], upper_sum[seat, g], extras[seat, g] = after_box(
            box, points, bonus, pays, total[seat, g], up, upper_sum[seat, g], extras[seat, g],
            box_face, threshold)
        if box == kniffel_box and points == 50:
            fifty[seat, g] = True
        aux[seat, g] = a_after
        all_filled[seat, g] = filled | (1 << box)
