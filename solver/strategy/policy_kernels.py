"""numba kernels of a fixed policy: the exact value of playing by a rule list (or by the optimal
decisions of a table, the check that the evaluation is exact) over every reachable state, and
seeded games played by a rule list.

A policy fixes one choice per roll, so a turn's value is a mean, never a max: the final roll's
value is the chosen box's points + bonuses + the next state's policy value; with rolls to come,
a roll's value is the chosen keep's mean over the dice it rerolls (keep_means), or the final
value when all five are held.
"""
import numpy as np

from ..dice import N_KEEPS, N_ROLLS
from ..engine.expected import bonus_classes
from ..engine.final_rolls import enter_box, final_roll_values, next_aux, upper_bonus_reached
from ..engine.jit import njit, popcount, register_jitable
from ..engine.positions import after_box, box_options
from ..engine.seeded_dice import complete_roll
from ..engine.turn import best_sub_keeps, keep_means
from ..rules import scoring
from ..rules.scoring import P_N_BOXES, P_THRESHOLD
from .thumb import AIM_KEEP, bonus_state  # AIM_KEEP: the keep_index of the rule "aim"

register_jitable(inline="always")(bonus_state)  # compiled as it is: one rule, two callers


OPTIMAL_BOXES, OPTIMAL_KEEPS = 1, 2  # _evaluate_sets' `optimal` bits
UPPER_RULE = -2  # box_of of the rule "n or more of a face: its upper box" (thumb.UPPER_BOXES)
PAR_RULE = -3  # box_of of the rule "the box scoring most above its par" (thumb.PAR_BOX)
COURSE_RULE = -4  # the same with the pars of the bonus course (thumb.COURSE_BOX): box_par[1]


@njit(cache=True)
def _applies(cond, filled, n_open, state):
    """Whether a rule's conditions (thumb._condition_row) hold."""
    when = cond[0]
    if when != 0 and (when & ~filled) == 0:
        return False  # every box the rule is for is filled
    if n_open < cond[1] or n_open > cond[2]:
        return False
    return (cond[3] >> state) & 1 == 1


@njit(cache=True)
def _bonus_state(filled, upper, threshold, box_face):
    """thumb.bonus_state of the upper total `upper` with the boxes of `filled` filled."""
    faces = 0
    for b in range(box_face.shape[0]):
        if box_face[b] > 0 and (filled >> b) & 1 == 0:
            faces += box_face[b]
    return bonus_state(upper, faces, threshold)


@njit(cache=True)
def _open_faces(filled, box_face):
    """The mask of the faces whose upper box is open (bit f-1: face f)."""
    mask = 0
    for b in range(box_face.shape[0]):
        if box_face[b] > 0 and (filled >> b) & 1 == 0:
            mask |= 1 << (box_face[b] - 1)
    return mask


@njit(cache=True)
def _aim_keep(filled, roll, left, aim_gain, aim_keep):
    """thumb.aim_keep: the keep of a turn played for the open box furthest ahead of its par."""
    best = -1
    for b in range(aim_gain.shape[0]):
        if (filled >> b) & 1 == 0:
            if best < 0 or aim_gain[b, left, roll] > aim_gain[best, left, roll]:
                best = b
    return aim_keep[best, left, roll]


@njit(cache=True)
def _rule_keep(filled, n_open, state, roll, keep_index, keep_when, empty_keep, open_faces, left,
               aim_gain, aim_keep):
    """The keep of the first keep rule that applies to `roll` (none: reroll all five) with the
    upper boxes of `open_faces` open and `left` rolls to come."""
    for i in range(keep_index.shape[0]):
        if keep_when[i, 4] != 0 and keep_when[i, 4] != left:
            continue
        if not _applies(keep_when[i], filled, n_open, state):
            continue
        k = keep_index[i, open_faces, roll]
        if k == AIM_KEEP:
            return _aim_keep(filled, roll, left, aim_gain, aim_keep)
        if k >= 0:
            return k
    return empty_keep


@njit(cache=True)
def _rule_box(allowed, filled, n_open, state, box_of, box_min, box_when, box_face, box_par):
    """The box of the first box rule that applies; allowed[b]: points of box b, -1 where the
    dice may not go.  None applies: the first allowed box."""
    n_boxes = allowed.shape[0]
    for i in range(box_of.shape[0]):
        if not _applies(box_when[i], filled, n_open, state):
            continue
        b = box_of[i]
        if b == UPPER_RULE:  # the highest face with box_min[i] dice or more, into its box
            best = -1
            for c in range(n_boxes):
                if box_face[c] > 0 and allowed[c] >= box_min[i] * box_face[c]:
                    if best < 0 or box_face[c] > box_face[best]:
                        best = c
            if best >= 0:
                return best
        elif b == PAR_RULE or b == COURSE_RULE:
            par = box_par[0] if b == PAR_RULE else box_par[1]
            best, top = -1, -np.inf
            for c in range(n_boxes):
                if allowed[c] >= 0 and allowed[c] - par[c] > top:
                    best, top = c, allowed[c] - par[c]
            if best >= 0:
                return best
        elif b < 0:
            best, top = -1, -1
            for c in range(n_boxes):
                if allowed[c] > top:
                    best, top = c, allowed[c]
            if best >= 0 and top >= box_min[i]:
                return best
        elif allowed[b] >= 0 and allowed[b] >= box_min[i]:
            return b
    for c in range(n_boxes):
        if allowed[c] >= 0:
            return c
    return -1


@njit(cache=True)
def _plain_box_value(filled, aux, upper, box, roll, values, game, n_open):
    """Points + upper bonus + the next state's value for a roll that is not five of a kind."""
    _, pts, bonus, _, upper_after, aux_after = enter_box(
        box, roll, 0, filled, aux, upper, n_open, game.params, game.plain_score, game.joker_score,
        game.box_face)
    return pts + bonus + values[filled | (1 << box), aux_after, upper_after]


@njit(cache=True, nogil=True)
def _evaluate_sets(sets, table_values, policy, game, moves, sub_keeps, rolls_per_turn, empty_keep,
                   keep_index, keep_when, box_of, box_min, box_when, box_par, aim_gain, aim_keep,
                   optimal):
    """policy[filled, aux, upper] := the expected score still to come under the policy, for every
    reachable state of the filled-box sets `sets` (the level above must be done).

    optimal: which decisions to take as the simulation's optimal player does (argmax of the
    table's values, the same tie order) instead of by the rules: OPTIMAL_BOXES | OPTIMAL_KEEPS
    bits (both: the optimal policy; one: a hybrid that shows where the rules lose points).
    Long: a state's whole turn under the policy (boxes, keeps, stages) reads shared arrays."""
    params, plain_score, box_face = game.params, game.plain_score, game.box_face
    kniffel_face, add_die, roll_prob = moves.kniffel_face, moves.add_die, moves.roll_prob
    n_boxes = params[P_N_BOXES]
    n_aux, n_upper = table_values.shape[1], table_values.shape[2]
    value = np.empty(n_boxes)
    points = np.empty(n_boxes, dtype=np.int64)
    bonus = np.empty(n_boxes, dtype=np.int64)
    paid = np.empty(n_boxes, dtype=np.int64)
    allowed = np.empty(n_boxes, dtype=np.int64)
    for filled in sets:
        n_open = n_boxes - popcount(filled)
        # One column per (aux, bonus class): the totals of a class have the same future under
        # any policy that does not look at the upper total, as under the optimal one.
        class_of = bonus_classes(filled, game)
        rep = np.full((n_aux, class_of.max() + 1), -1, dtype=np.int64)
        col_aux = np.empty(n_aux * n_upper, dtype=np.int64)
        col_upper = np.empty(n_aux * n_upper, dtype=np.int64)
        n_cols = 0
        for a in range(n_aux):
            for u in range(n_upper):
                if not np.isnan(table_values[filled, a, u]) and rep[a, class_of[u]] < 0:
                    rep[a, class_of[u]] = n_cols
                    col_aux[n_cols], col_upper[n_cols] = a, u
                    n_cols += 1
        if n_cols == 0:
            continue
        col_aux, col_upper = col_aux[:n_cols], col_upper[:n_cols]
        # The rules' decisions depend on the column only through its bonus state, which is
        # the same for every total of a bonus class (thumb.bonus_state: need <= 3F and need
        # <= 5F are reachable sums).
        col_state = np.empty(n_cols, dtype=np.int64)
        for j in range(n_cols):
            col_state[j] = _bonus_state(filled, col_upper[j], params[P_THRESHOLD], box_face)
        # the rules' box for each plain roll and bonus state
        rule_box = np.full((4, N_ROLLS), -1, dtype=np.int64)
        if not optimal & OPTIMAL_BOXES:
            for r in range(N_ROLLS):
                if kniffel_face[r] == 0:
                    for b in range(n_boxes):
                        allowed[b] = -1 if (filled >> b) & 1 else plain_score[b, r]
                    for st in range(4):
                        rule_box[st, r] = _rule_box(allowed, filled, n_open, st, box_of,
                                                    box_min, box_when, box_face, box_par)
        final = np.empty((N_ROLLS, n_cols))
        for r in range(N_ROLLS):
            for j in range(n_cols):
                a, u = col_aux[j], col_upper[j]
                if kniffel_face[r] > 0:
                    if optimal & OPTIMAL_BOXES:
                        box_options(filled, a, u, r, table_values, game, kniffel_face, value,
                                     points, bonus, paid)
                        box = np.argmax(value)
                    box_options(filled, a, u, r, policy, game, kniffel_face, value, points,
                                 bonus, paid)
                    if not optimal & OPTIMAL_BOXES:
                        for b in range(n_boxes):
                            allowed[b] = points[b] if value[b] > -np.inf else -1
                        box = _rule_box(allowed, filled, n_open, col_state[j], box_of, box_min,
                                        box_when, box_face, box_par)
                    final[r, j] = value[box]
                    continue
                box = rule_box[col_state[j], r]
                if optimal & OPTIMAL_BOXES:
                    top = -np.inf
                    for b in range(n_boxes):
                        if (filled >> b) & 1 == 0:
                            v = _plain_box_value(filled, a, u, b, r, table_values, game, n_open)
                            if v > top:
                                top, box = v, b
                final[r, j] = _plain_box_value(filled, a, u, box, r, policy, game, n_open)
        # the optimal player's keep values, to read its choices from (optimal only)
        stage_keeps = np.empty((rolls_per_turn if optimal & OPTIMAL_KEEPS else 1, N_KEEPS, n_cols))
        if optimal & OPTIMAL_KEEPS:
            work = np.empty((N_KEEPS, n_cols))
            successor = np.empty((n_boxes, 6, n_cols))
            final_roll_values(filled, col_aux, col_upper, table_values, work, game, moves,
                              successor)
            stop = work[:N_ROLLS].copy()
            for left in range(1, rolls_per_turn):
                keep_means(work, add_die)
                work[:N_ROLLS] = stop
                stage_keeps[left] = work
                best_sub_keeps(work, moves.smaller, moves.n_smaller, work, roll_prob, work[0, :0])
        rule_keep = np.empty((rolls_per_turn, 4, N_ROLLS), dtype=np.int64)
        open_faces = _open_faces(filled, box_face)
        for left in range(1, rolls_per_turn):
            for st in range(4):
                for r in range(N_ROLLS):
                    rule_keep[left, st, r] = _rule_keep(filled, n_open, st, r, keep_index,
                                                        keep_when, empty_keep, open_faces, left,
                                                        aim_gain, aim_keep)
        current = final.copy()
        keeps = np.empty((N_KEEPS, n_cols))
        for left in range(1, rolls_per_turn):
            keeps[:N_ROLLS] = current
            keep_means(keeps, add_die)
            keeps[:N_ROLLS] = final  # holding all five ends the turn
            for r in range(N_ROLLS):
                for j in range(n_cols):
                    k = rule_keep[left, col_state[j], r]
                    if optimal & OPTIMAL_KEEPS:
                        k, top = r, -np.inf
                        for s in range(sub_keeps.shape[1]):
                            c = sub_keeps[r, s]
                            if c >= 0 and stage_keeps[left, c, j] > top:
                                k, top = c, stage_keeps[left, c, j]
                    current[r, j] = keeps[k, j]
        start = np.zeros(n_cols)
        for r in range(N_ROLLS):
            for j in range(n_cols):
                start[j] += roll_prob[r] * current[r, j]
        for a in range(n_aux):
            for u in range(n_upper):
                if not np.isnan(table_values[filled, a, u]):
                    policy[filled, a, u] = start[rep[a, class_of[u]]]


@njit(cache=True, nogil=True)
def _play_rules(rng, game, moves, rolls_per_turn, empty_keep, keep_index, keep_when, box_of,
                box_min, box_when, box_par, aim_gain, aim_keep, scores, upper_bonus_won,
                extra_bonuses, kniffel_fifty):
    """Whole games played by a rule list, one game per entry of rng (seeded dice)."""
    params, box_face = game.params, game.box_face
    kniffel_face, add_die, keep_size = moves.kniffel_face, moves.add_die, moves.keep_size
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    kniffel_box = params[scoring.P_KNIFFEL_BOX]
    # box_options reads the values only for its `value` output: a zero table of one state
    # per box set gives every allowed box a finite value, which is all this needs.
    zeros = np.zeros((1 << n_boxes, params[scoring.P_AUX_BLOCK] * (params[scoring.P_JOKERS] + 1),
                      threshold + 1))
    value = np.empty(n_boxes)
    points = np.empty(n_boxes, dtype=np.int64)
    bonus = np.empty(n_boxes, dtype=np.int64)
    paid = np.empty(n_boxes, dtype=np.int64)
    allowed = np.empty(n_boxes, dtype=np.int64)
    for g in range(rng.shape[0]):
        state = rng[g]
        filled, upper, upper_sum, total, extras = 0, 0, 0, 0, 0
        aux = params[scoring.P_JOKERS] * params[scoring.P_AUX_BLOCK]
        for turn in range(n_boxes):
            n_open = n_boxes - turn
            st = _bonus_state(filled, upper, threshold, box_face)
            roll, state = complete_roll(empty_keep, state, add_die, keep_size)
            for left in range(rolls_per_turn - 1, 0, -1):
                k = _rule_keep(filled, n_open, st, roll, keep_index, keep_when, empty_keep,
                               _open_faces(filled, box_face), left, aim_gain, aim_keep)
                if k == roll:
                    break
                roll, state = complete_roll(k, state, add_die, keep_size)
            box_options(filled, aux, upper, roll, zeros, game, kniffel_face, value, points,
                         bonus, paid)
            for b in range(n_boxes):
                allowed[b] = points[b] if value[b] > -np.inf else -1
            box = _rule_box(allowed, filled, n_open, st, box_of, box_min, box_when, box_face,
                            box_par)
            pts, pays = points[box], paid[box]
            total, upper, upper_sum, extras = after_box(box, pts, bonus[box], pays, total, upper,
                                                         upper_sum, extras, box_face, threshold)
            if box == kniffel_box and pts == 50:
                kniffel_fifty[g] = True
            aux = next_aux(aux, box, pts, pays, n_boxes - turn - 1, params)
            filled |= 1 << box
        scores[g] = total
        upper_bonus_won[g] = upper_bonus_reached(upper_sum, threshold)
        extra_bonuses[g] = extras
