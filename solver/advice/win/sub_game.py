"""Playing to win: the chance of finishing above every other player.

Each opponent is a final score (finished) or a card (still playing, modelled as playing the
expected-score-optimal strategy from there, independently of us: their exact final-score
distribution).  Our final score x then wins with chance u(x): ties=lose, u(x) = prod_i P(X_i < x);
ties=share (a tie for first among k players is 1/k of a win), u(x) = integral_0^1 prod_i
(P(X_i < x) + t P(X_i = x)) dt, as 1/(1 + K) = integral_0^1 t^K dt.  Maximising E[u(final)] is
the target objective with u as the finished game's value: with M one above the best score any
opponent can make, W(full card, d) = u(M - d), and P(win) = W(s, M - card total).  The sub-game
from our position is solved afresh (each of our turns, with the opponents' current cards), for
the turn starts that can follow ours (our upper total and what our open upper boxes can add to
it) and the d that can matter only (between M - card total and that less the most points the
rest of our game can score; at each state, only the d that the points scored since our turn
start can leave: its upper total and boxes bound them), and u is cut where it is within CUT
(1e-12) of 1 or of 0: scores an opponent reaches with a chance below 1e-12 count as out of their
reach.
"""
import hashlib
from functools import lru_cache

import numpy as np


def opponent_distribution(table, opponent):
    """(lowest score, probs) of one opponent's final score: {"final": S} or {"card": {...}}."""
    if "final" in opponent:
        from ...rules.bounds import score_bound
        final, most = opponent["final"], score_bound(table.rules)
        if not 0 <= final <= most:
            raise ValueError(f"an opponent's final score must be 0-{most}, got {final}")
        return int(final), np.ones(1)
    from ...stats import opponents
    state = opponents.state_of(table.rules, opponent)  # ValueError for an impossible card
    low, probs = opponents.points_to_come(table, state,
                                          opponents.get_store(table, build_missing=False))
    return state.card_total + low, probs


def win_utility(distributions, ties="share"):
    """(M, u): u[d - 1] = the chance that a final score of M - d wins, d = 1 .. M - lowest."""
    low = min(lo for lo, _ in distributions)
    top = max(lo + len(p) - 1 for lo, p in distributions)
    M = top + 1
    xs = np.arange(low, M)  # our possible winning scores below M, ascending
    less, equal = [], []
    for lo, probs in distributions:
        pmf = np.zeros(M - low + 1)
        pmf[lo - low:lo - low + len(probs)] = probs
        cdf_below = np.concatenate([[0.0], np.cumsum(pmf)])[:len(xs)]  # P(X < x)
        less.append(cdf_below)
        equal.append(pmf[:len(xs)])
    if ties == "lose":
        u = np.prod(less, axis=0)
    else:  # the polynomial prod_i (a_i + b_i t), integrated over t in [0, 1]
        u = np.zeros(len(xs))
        for i in range(len(xs)):
            poly = np.array([1.0])
            for a, b in zip(less, equal):
                poly = np.convolve(poly, [a[i], b[i]])  # coefficients of t^0, t^1, ...
            u[i] = float(np.dot(poly, 1.0 / np.arange(1, len(poly) + 1)))
    return M, u[::-1].copy()  # d = M - x: d = 1 is x = M - 1


def trimmed_utility(M, u):
    """(M, u) without the scores where u is within CUT of 1 (they count as reached: M moves
    down) or of 0 (past the end of u)."""
    from ...engine.grain import CUT
    sure = int(np.argmax(u < 1.0 - CUT)) if np.any(u < 1.0 - CUT) else len(u)
    u = u[sure:]
    kept = np.flatnonzero(u >= CUT)
    return M - sure, u[:kept[-1] + 1 if len(kept) else 0].copy()


def extra_bonuses_to_come(rules, position):
    """The most extra-Kniffel bonuses the rest of the game can pay from `position`: one per
    turn where one can still be paid, up to the cap."""
    if not rules.extra_bonus:
        return 0
    card = position.card
    n_open = sum(1 for b in rules.boxes if b not in card)
    kniffel = rules.boxes[rules.kniffel_box]
    if kniffel not in card:
        turns = n_open - 1  # the turns after the one that fills it with 50
    elif card[kniffel] == 50 or rules.extra_bonus_requires == "filled":
        turns = n_open
    else:
        turns = 0
    return max(0, min(turns, rules.cap_count))


def points_to_come_bound(rules, position):
    """The most points the rest of the game can add to `position`'s card: each open box at its
    most, the upper bonus once (if still to come), and the extra-Kniffel bonuses that can still
    be paid."""
    from ...rules import UPPER
    from ...rules.bounds import box_most
    from ...rules.scoring import upper_bonus_reached
    card = position.card
    open_boxes = [b for b in range(rules.n_boxes) if rules.boxes[b] not in card]
    each = box_most(rules)
    most = sum(each[b] for b in open_boxes)
    upper = sum(card.get(b, 0) for b in UPPER)
    if not upper_bonus_reached(upper, rules.upper_bonus_threshold) \
            and any(rules.boxes[b] in UPPER for b in open_boxes):
        most += rules.upper_bonus
    return most + rules.extra_bonus * extra_bonuses_to_come(rules, position)


class _Hold:
    """Unhashed arguments of the cached solve (the key is made of the hashable ones)."""

    def __init__(self, values, distributions):
        self.values, self.distributions = values, distributions

    def __hash__(self):
        return 0

    def __eq__(self, other):
        return True


@lru_cache(maxsize=8)
def _win_table(rules, _values_id, filled, upper, card_total, room, extras, _opponents_key, ties,
               hold):
    """(M, the sub-game table from our turn start (filled, upper, card total) against these
    opponents, whose P(win) is W(state, M - card total)), cached per turn.  It holds the states
    that can follow ours, and only the d that can matter: our final score is card total + 0 ..
    `room`, so from a d of M - card total on the d still needed stays above L = M - card total
    - room - 1, and the table is solved for d - L (with the utility from L on), which its M
    counts in; each state only for the d that the points scored since our turn start leave
    (`extras`: the extra-Kniffel bonuses still to come bound those points, with the boxes and
    upper total)."""
    from ...engine.target.solve import SubGame, solve_target
    M, u = trimmed_utility(*win_utility(hold.distributions, ties))
    # A d still needed never falls to L or below: the table's d - L >= 1 reads u from L on,
    # and its "target reached" (d - L <= 0) is never read from our position.
    L = max(0, M - card_total - room - 1)
    return M - L, solve_target(rules, progress=False, expected=hold.values, terminal=u[L:],
                               within=SubGame(filled, upper, max(0, M - L - card_total), extras))


def win_view(query, table, goal, distributions=None):
    """The view (target.ChanceView) that ranks a checked `query` (position.checked_query) by
    P(win) against the opponents of the win `goal`; `table` is the expected-score table.
    distributions: the opponents' (lowest score, probs), when already known."""
    if not goal.opponents:
        raise ValueError("the win objective needs at least one opponent")
    from ..chance_view import ChanceView
    rules, state = table.rules, query.state
    opponents = list(goal.opponents)
    if distributions is None:
        distributions = [opponent_distribution(table, o) for o in opponents]
    key = repr([(low, hashlib.sha1(np.ascontiguousarray(probs).tobytes()).hexdigest())
                for low, probs in distributions])  # what the sub-game depends on
    M, sub = _win_table(rules, table.values.ctypes.data, state.filled, state.upper,
                        state.card_total, points_to_come_bound(rules, query.position),
                        extra_bonuses_to_come(rules, query.position), key, goal.ties,
                        _Hold(table.values, distributions))
    return ChanceView(sub, M - state.card_total)
