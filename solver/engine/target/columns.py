"""The target objective's kernels: W(s, d), the best chance that the points still to come from
the turn start s reach d, and E(s, d), the expected points still to come under that same play.

Play maximises W; options whose W round to the same multiple of 1/GRAIN (grain.py; about 1e-9) are a
tie, broken by the higher E (so a player whose target is safe, W = 1, or out of reach, W = 0,
plays for points).  Rounding, not "closer than", keeps the order transitive, so the best of a
lattice of keeps is the same whichever way it is taken.  The price: a tie may give up less than
the grain of chance for more points, so W is the best chance to within about 1e-9 a decision.
Outside a state's stored range the values are known: W(s, d <= 0) = 1 and W(s, d > span) = 0 (below
CUT), and there every option ties, so E is the expected-score value V(s).

A column is (state, d).  A filled-box set's states (its aux and upper-total classes, as the
expected-score solve groups them, expected.set_columns) are solved over the same number of d,
width[filled]: d = base[g] + 1 .. base[g] + width, where base is 0 and width the most points
still to come that can matter, but in a sub-game asked about one position, where each state
solves the d that can follow it only (target_ranges.py); once a level is solved, each state keeps
its d up to its last chance >= CUT (span[g] of them).  Columns are solved in tiles of
whole states (all joker levels of a state together, so a Knobeln joker's column is `shift`
columns to the left), in C-contiguous row blocks (see _solve_sets).  The keep lattice is the
turn widget's (turn.py, its (W, E) kernels beside the plain ones); the final rolls are
final_rolls.final_tile, beside the expected score's.  Entering a box's points p shifts the next
state's vectors: W(s', d - p).
"""
import numpy as np

from ...dice import N_FOUR_KEEPS, N_KEEPS, N_ROLLS
from ...rules import scoring
from ..expected import set_columns
from ..final_rolls import TileScratch, final_tile
from ..jit import njit
from ..turn import apply_jokers, lex_jokers, lex_turn_stages, padded_smaller, turn_stages

TILE = 128  # states with short ranges share a tile of up to this many columns (a long one: alone)


@njit(cache=True)
def _box_scores(game):
    """(scores, most): scores[box, r] whether roll r scores points in box, and the most points a
    box without a face scores (how far its vectors shift)."""
    n_boxes = game.params[scoring.P_N_BOXES]
    most = 0
    scores = np.zeros((n_boxes, N_ROLLS), dtype=np.bool_)
    for box in range(n_boxes):
        for k in range(game.n_scoring_rolls[box]):
            scores[box, game.scoring_rolls[box, k]] = True
            if game.box_face[box] == 0:
                most = max(most, game.plain_score[box, game.scoring_rolls[box, k]])
    return scores, most


@njit(cache=True)
def _tile_columns(a, b, levels, n_rest, first, base):
    """(cols, bases) of the tile of states a .. b - 1 of a set, at every joker level (a level's
    columns are n_rest states to the right of the one below)."""
    cols = np.empty((b - a) * levels, dtype=np.int64)
    for level in range(levels):
        for i in range(a, b):
            cols[level * (b - a) + i - a] = level * n_rest + i
    bases = np.empty(cols.shape[0], dtype=np.int64)
    for t in range(cols.shape[0]):
        bases[t] = base[first + cols[t]]
    return cols, bases


@njit(cache=True, nogil=True)
def _solve_sets(sets, out_w, out_e, width, data, upper_reach, aux_reach, game, moves,
                rolls_per_turn, tile, tie_break):
    """Solve the filled-box sets `sets` (one level; the state g of set f at d = base[g] + 1 ..
    base[g] + width[f]) into out_w/out_e at offset[g] (the level's buffers), reading the level
    above through data (a final_rolls.TargetData).  Releases the GIL; a column's values do not
    depend on its tile.  Without `tie_break` only W is solved, by turn.turn_stages (to measure
    what E costs).  Long: a tile's rows are laid out here, then solved step by step."""
    params = game.params
    levels = params[scoring.P_JOKERS] + 1
    n_boxes = params[scoring.P_N_BOXES]
    n_max = 1
    for s in range(sets.shape[0]):
        n_max = max(n_max, width[sets[s]])
    cap = max(tile, levels * n_max)
    scores, most = _box_scores(game)
    padded = padded_smaller(moves.smaller, moves.n_smaller)
    # A tile's row blocks are flat buffers reshaped to (rows, width): C-contiguous, so numba
    # knows every row is contiguous and LLVM vectorises the loops (a [:, :width] slice of a
    # wider array is typed "any layout", and its loops run one value at a time).
    work_w, work_e = np.empty(N_KEEPS * cap), np.empty(N_KEEPS * cap)
    two_w, two_e = np.empty(N_KEEPS * cap), np.empty(N_KEEPS * cap)
    stop_w, stop_e = np.empty(N_ROLLS * cap), np.empty(N_ROLLS * cap)
    scratch = TileScratch(np.empty((n_boxes, 6, cap)), np.empty((n_boxes, 6, cap)),
                          np.empty(cap + n_max), np.empty(cap + n_max),
                          np.empty((n_boxes, cap + tile * most)),
                          np.empty((n_boxes, cap + tile * most)), np.empty(cap), np.empty(cap))
    res_w, res_e = np.empty(cap), np.empty(cap)
    best_w, best_e = np.empty((N_FOUR_KEEPS, cap)), np.empty((N_FOUR_KEEPS, cap))
    for s in range(sets.shape[0]):
        f = sets[s]
        n = width[f]
        if n == 0:
            continue
        class_of, col_aux, col_upper = set_columns(f, upper_reach, aux_reach, game)
        first = data.row_of[f, col_aux[0], col_upper[0]]
        n_rest = col_aux.shape[0] // levels
        per = max(1, tile // (levels * n))
        for a in range(0, n_rest, per):
            b = min(n_rest, a + per)
            cols, bases = _tile_columns(a, b, levels, n_rest, first, data.base)
            cells = cols.shape[0] * n
            ww = work_w[:N_KEEPS * cells].reshape((N_KEEPS, cells))
            we = work_e[:N_KEEPS * cells].reshape((N_KEEPS, cells))
            if levels > 1:
                sw = stop_w[:N_ROLLS * cells].reshape((N_ROLLS, cells))
                se = stop_e[:N_ROLLS * cells].reshape((N_ROLLS, cells))
                final_tile(f, cols, bases, col_aux, col_upper, n, data, sw, se, game, moves,
                            scores, most, scratch)
                lex_jokers(ww, we, sw, se, (b - a) * n, params[scoring.P_JOKERS_PER_TURN],
                            moves.add_die, moves.smaller, moves.n_smaller, best_w, best_e)
            else:
                final_tile(f, cols, bases, col_aux, col_upper, n, data, ww, we, game, moves,
                            scores, most, scratch)
                sw, se = ww, we  # turn.turn_stages may read stop from work itself
                if tie_break:  # the (W, E) stages overwrite work's roll rows: stop outlives them
                    sw = stop_w[:N_ROLLS * cells].reshape((N_ROLLS, cells))
                    se = stop_e[:N_ROLLS * cells].reshape((N_ROLLS, cells))
                    sw[:] = ww[:N_ROLLS]
                    se[:] = we[:N_ROLLS]
            rw, re = res_w[:cells], res_e[:cells]
            if tie_break:
                lex_turn_stages(ww, we, two_w[:N_KEEPS * cells].reshape((N_KEEPS, cells)),
                                 two_e[:N_KEEPS * cells].reshape((N_KEEPS, cells)), sw, se,
                                 moves, padded, rolls_per_turn, rw, re)
            else:  # the chances alone, by the shared widget (E is then not computed)
                if levels > 1:
                    apply_jokers(ww, sw, (b - a) * n, params[scoring.P_JOKERS_PER_TURN],
                                  moves.add_die, moves.smaller, moves.n_smaller)
                turn_stages(ww, sw, moves, rolls_per_turn, rw)
                re[:] = np.nan
            for t in range(cols.shape[0]):
                dst = data.offset[first + cols[t]]
                out_w[dst:dst + n] = rw[t * n:(t + 1) * n]
                out_e[dst:dst + n] = re[t * n:(t + 1) * n]
