"""The exact probability distribution of the final score under the optimal strategy.

Two passes over the states the optimal player can reach from a position:
- forward, turn by turn: every way each turn can end (successor, points, flags) and how likely
  each state is to be met; this also gives the event probabilities (upper bonus, Kniffel, ...)
  and which box is filled in which turn;
- backward: for each of those states, the distribution of the points still to come, as a
  mixture of its successors' distributions shifted by the points gained.
The distribution's mean equals the table's expected value up to rounding.
"""
import math
import weakref
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from .. import dice
from ..engine.states import Position, State, position_state
from ..engine.threads import default_threads, run_parallel
from ..rules.cards import parse_card
from ..rules.scoring import upper_bonus_reached
from . import distribution_kernels as pk
from .simulate import sub_keep_table
from .summary import PERCENTILES, THRESHOLDS

_BATCH = 2048  # states per outcome-kernel call (rows of MAX_OUTCOMES scratch each)


@dataclass
class TurnLevel:
    """The reachable states met at the start of one turn and the ways their turns end (CSR)."""
    states: np.ndarray  # flat state indices, ascending
    weight: np.ndarray  # probability of meeting each state
    offsets: np.ndarray  # outcomes of state i: offsets[i]..offsets[i+1]
    successor: np.ndarray  # flat index of the state after the turn
    gain: np.ndarray  # points scored in the turn (box + bonuses)
    flags: np.ndarray  # policy_kernels flag bits
    probs: np.ndarray  # probability of the outcome given the state


@dataclass
class ForwardPass:
    rules: object
    start: object  # the State of the position
    levels: list  # TurnLevel per turn still to play

    @property
    def states(self):
        """How many states the optimal player meets with positive probability."""
        return sum(len(level.states) for level in self.levels)

    def probability(self, flag):
        """P(a turn ending with `flag` happens), for events that happen at most once a game."""
        return float(sum(np.dot(np.repeat(level.weight, np.diff(level.offsets)),
                                level.probs * ((level.flags & flag) != 0))
                         for level in self.levels))

    def probability_never(self, flag):
        """P(no turn ends with `flag`): the mass left when such outcomes are dropped."""
        occupancy = np.zeros(_n_flat(self.rules))
        occupancy[self.levels[0].states] = self.levels[0].weight
        for level in self.levels:
            pk._push_forward(occupancy[level.states], level.offsets, level.successor, level.probs,
                             level.flags, flag, occupancy)
        final = self.levels[-1]
        return float(occupancy[np.unique(final.successor)].sum())

    def box_by_turn(self):
        """fill[t, b]: probability that box b is filled in turn t (0 = the position's turn)."""
        n_boxes = self.rules.n_boxes
        per_filled = _n_flat(self.rules) // (1 << n_boxes)
        fill = np.zeros((len(self.levels), n_boxes))
        for t, level in enumerate(self.levels):
            before = np.repeat(level.states // per_filled, np.diff(level.offsets))
            box = np.log2((level.successor // per_filled) ^ before).astype(np.int64)
            np.add.at(fill[t], box, np.repeat(level.weight, np.diff(level.offsets)) * level.probs)
        return fill


def _n_flat(rules):
    return (1 << rules.n_boxes) * rules.n_aux * (rules.upper_bonus_threshold + 1)


def forward(table, position=None, threads=None, progress=False, settled=None):
    """Follow the optimal strategy of `table` from `position` (a Position or a turn-start State;
    default: the empty card), or from each of a list of turn-start States with the same open
    boxes at once (each met with the same weight: its first level is theirs, and the backward
    pass gives each its own distribution, as points_to_come_of does).  settled(flat states):
    where given, which states met after the first turn are not followed further (a question
    whose answer they already decide: their outcomes are missing from the levels)."""
    rules = table.rules
    starts = position if isinstance(position, (list, tuple)) else [
        position if isinstance(position, State) else position_state(position or Position(), rules)]
    start = starts[0]
    if any(s.n_open != start.n_open for s in starts):
        raise ValueError("the turn starts of one forward pass have the same open boxes")
    values = table.values
    n_upper, n_aux = values.shape[2], values.shape[1]
    game, moves, sub_keeps = rules.kernel_arrays(), dice.kernel_arrays(), sub_keep_table()
    occupancy = np.zeros(values.size)
    states = np.unique(np.array([(s.filled * n_aux + s.aux) * n_upper + s.upper for s in starts],
                                dtype=np.int64))
    occupancy[states] = 1.0 / len(states)
    levels = []
    for _ in tqdm(range(start.n_open), desc="following the strategy", unit="turn",
                  disable=None if progress is None else not progress, leave=False):
        counts = np.zeros(len(states), dtype=np.int64)
        found = {}  # first state of a batch -> its outcomes (keys, probabilities), compacted

        def work(part):
            keys = np.empty((_BATCH, pk.MAX_OUTCOMES), dtype=np.int64)
            probs = np.empty((_BATCH, pk.MAX_OUTCOMES))
            for lo in range(part.start, part.stop, _BATCH):
                hi = min(part.stop, lo + _BATCH)
                pk._outcomes_batch(states[lo:hi], values, game, moves, sub_keeps,
                                   rules.rolls_per_turn, counts[lo:hi], keys, probs)
                used = np.arange(pk.MAX_OUTCOMES) < counts[lo:hi, None]
                found[lo] = (keys[: hi - lo][used], probs[: hi - lo][used])

        run_parallel(work, len(states), threads)
        keys = np.concatenate([found[lo][0] for lo in sorted(found)])
        probs = np.concatenate([found[lo][1] for lo in sorted(found)])
        # Small types: the outcomes of every turn are kept for the backward pass.
        flags = (keys % pk.N_FLAG_VALUES).astype(np.int8)
        gain = ((keys // pk.N_FLAG_VALUES) % pk.GAIN_RANGE).astype(np.int16)
        successor = (keys // (pk.N_FLAG_VALUES * pk.GAIN_RANGE)).astype(np.int32)
        del keys
        offsets = np.zeros(len(states) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        weight = occupancy[states]
        levels.append(TurnLevel(states, weight, offsets, successor, gain, flags, probs))
        pk._push_forward(weight, offsets, successor, probs, flags, 0, occupancy)
        states = np.unique(successor).astype(np.int64)
        if settled is not None:
            states = states[~settled(states)]
            if not len(states):
                break
    return ForwardPass(rules, start, levels)


@dataclass
class ScoreDistribution:
    """P(final score = offset + i) = probs[i] under the optimal strategy from a position."""
    rules: object
    offset: int  # points already on the card
    probs: np.ndarray
    expected_value: float  # the table's value of the position, for comparison
    upper_bonus: float
    kniffel_box_50: float
    extra_kniffel_bonus: float
    kniffel_rolled: float
    box_by_turn: np.ndarray
    states: int  # states met with positive probability

    @property
    def scores(self):
        return np.arange(self.offset, self.offset + len(self.probs))

    @property
    def mean(self):
        return float(np.dot(self.scores, self.probs))

    @property
    def sd(self):
        deviation = self.scores - self.mean
        return math.sqrt(float(np.dot(deviation * deviation, self.probs)))

    def percentile(self, q):
        """The smallest score s with P(score <= s) >= q/100 (inverted CDF, as numpy's)."""
        cdf = np.cumsum(self.probs)
        return int(self.offset + np.searchsorted(cdf, q / 100.0 - 1e-12))

    def at_least(self, points):
        return float(self.probs[max(0, points - self.offset):].sum())

    def summary(self):
        """The figures `kniffel distribution` prints, as a dict."""
        nonzero = np.flatnonzero(self.probs)
        return {
            "rules": self.rules.key,
            "mean": self.mean,
            "expected_value": self.expected_value,
            "sd": self.sd,
            "median": self.percentile(50),
            "min": int(self.offset + nonzero[0]),
            "max": int(self.offset + nonzero[-1]),
            "percentiles": {str(q): self.percentile(q) for q in PERCENTILES},
            "upper_bonus": self.upper_bonus,
            "kniffel_box_50": self.kniffel_box_50,
            "extra_kniffel_bonus": self.extra_kniffel_bonus,
            "kniffel_rolled": self.kniffel_rolled,
            "at_least": {str(t): self.at_least(t) for t in THRESHOLDS},
            "states": self.states,
        }


def score_distribution(table, position=None, threads=None, progress=False):
    """The exact final-score distribution of optimal play from `position` (default: empty card)."""
    rules = table.rules
    position = position or Position()
    passed = forward(table, position, threads, progress)
    start = passed.start
    probs = points_to_come(passed, threads, progress)
    kniffel = rules.boxes[rules.kniffel_box] if rules.kniffel_box >= 0 else None
    had_fifty = kniffel is not None and parse_card(position.card, rules).get(kniffel) == 50
    had_bonus = position.kniffel_bonuses > 0
    return ScoreDistribution(
        rules=rules,
        offset=start.card_total,
        probs=probs,
        expected_value=start.card_total + table.value(start),
        upper_bonus=1.0 if upper_bonus_reached(start.upper_total, rules.upper_bonus_threshold)
        else passed.probability(pk.UPPER_BONUS),
        kniffel_box_50=1.0 if had_fifty else passed.probability(pk.KNIFFEL_FIFTY),
        extra_kniffel_bonus=1.0 if had_bonus else 1.0 - passed.probability_never(pk.EXTRA_BONUS),
        kniffel_rolled=1.0 - passed.probability_never(pk.KNIFFEL_ROLLED),
        box_by_turn=passed.box_by_turn(),
        states=passed.states,
    )


def points_to_come(passed, threads=None, progress=False, keep=None):
    """P(points still to come = k) from the ForwardPass's start (the backward pass: each state's
    distribution a mixture of its successors' shifted by the points gained).  keep(n_open,
    states, dist, dist_start), when given, sees every level's distributions as they are made."""
    threads = threads or default_threads()
    # The game is over after the last level, with nothing more to score.
    next_states = np.unique(passed.levels[-1].successor)
    next_max = np.zeros(len(next_states), dtype=np.int64)
    next_start = np.arange(len(next_states) + 1, dtype=np.int64)
    next_dist = np.ones(len(next_states))
    n_open = 1  # open boxes at the start of the last level
    for level in tqdm(passed.levels[::-1], desc="score distribution", unit="turn",
                      disable=None if progress is None else not progress, leave=False):
        position_of = np.searchsorted(next_states, level.successor)
        maxima = np.empty(len(level.states), dtype=np.int64)
        pk._remaining_maxima(level.offsets, position_of, level.gain, next_max, maxima)
        dist_start = np.zeros(len(level.states) + 1, dtype=np.int64)
        np.cumsum(maxima + 1, out=dist_start[1:])
        dist = np.empty(dist_start[-1])
        run_parallel(lambda part: pk._gather_distributions(
            part.start, part.stop, level.offsets, position_of, level.gain, level.probs,
            next_dist, next_start, dist, dist_start), len(level.states), threads, per_thread=16)
        if keep is not None:
            keep(n_open, level.states, dist, dist_start)
        n_open += 1
        next_states, next_max, next_start, next_dist = level.states, maxima, dist_start, dist
    return next_dist.copy()  # the one state of the start


def points_to_come_of(table, starts, threads=1):
    """{flat state: P(points still to come = k)} of each turn-start State of `starts` (the same
    open boxes, at least one): one forward and one backward pass for them all, which costs
    about what one state's pass from a turn earlier does (their first level is its second)."""
    if starts[0].n_open == 0:
        return {}
    found = {}

    def keep(n_open, states, dist, dist_start):
        if n_open == starts[0].n_open:
            for i, flat in enumerate(states.tolist()):
                found[flat] = dist[dist_start[i]:dist_start[i + 1]].copy()

    points_to_come(forward(table, list(starts), threads=threads), threads=threads, keep=keep)
    return found


def flat_index(table, filled, aux, upper):
    """The flat index of the turn start (filled, aux, upper) in `table`'s values, as the forward
    pass numbers states."""
    n_aux, n_upper = table.values.shape[1], table.values.shape[2]
    return (filled * n_aux + aux) * n_upper + upper


def bonus_chances(table, starts, threads=None, progress=False):
    """{flat state: the chance that a later turn completes the upper bonus} of each turn-start
    State of `starts` (the same open boxes, at least one), under the optimal play of `table`.
    Exact: one forward pass for them all, in which a state whose bonus is decided (earned, or
    out of reach of its open upper boxes: its chance 0) or whose chance an earlier call found
    is not followed; then backward, each state's chance the sum over its turn's outcomes of
    their probability times 1 where the turn completes the bonus, else the chance of the state
    it leads to.  The chances found are remembered for the table (8 bytes a state of it), so a
    later question of the same game follows only what is new."""
    known = _BONUS_KNOWN.get(table)
    if known is None:
        known = _BONUS_KNOWN[table] = np.full(table.values.size, np.nan)
    decided = _bonus_settled(table)

    def settled(states):
        return decided(states) | ~np.isnan(known[states])

    flats = np.array([flat_index(table, s.filled, s.aux, s.upper) for s in starts],
                     dtype=np.int64)
    follow = [s for s, done in zip(starts, settled(flats)) if not done]
    if follow:
        passed = forward(table, follow, threads, progress, settled)
        for level in passed.levels[::-1]:  # a successor not followed: known, or decided (0)
            later = np.nan_to_num(known[level.successor], nan=0.0)
            completes = (level.flags & pk.UPPER_BONUS) != 0
            row = np.repeat(np.arange(len(level.states)), np.diff(level.offsets))
            known[level.states] = np.bincount(
                row, weights=level.probs * np.where(completes, 1.0, later),
                minlength=len(level.states))
    return {flat: 0.0 if np.isnan(known[flat]) else float(known[flat]) for flat in flats.tolist()}


_BONUS_KNOWN = weakref.WeakKeyDictionary()  # table -> the chances bonus_chances found (NaN: not)


def _bonus_settled(table):
    """settled(flat states) for bonus_chances: whether each state's upper bonus is decided."""
    rules = table.rules
    n_aux, n_upper = table.values.shape[1], table.values.shape[2]
    threshold = rules.upper_bonus_threshold
    upper_boxes = [b for b in range(rules.n_boxes) if rules.box_face[b]]
    # the most points the open upper boxes can still bring, per set of filled upper boxes
    most = np.zeros(1 << max(upper_boxes) + 1, dtype=np.int64)
    for mask in range(len(most)):
        most[mask] = sum(max(rules.possible_points(rules.boxes[b])) for b in upper_boxes
                         if not mask >> b & 1)

    def settled(states):
        upper = states % n_upper
        filled = states // (n_aux * n_upper)
        open_most = most[filled & (len(most) - 1)]
        return upper_bonus_reached(upper, threshold) | ~upper_bonus_reached(upper + open_most,
                                                                            threshold)
    return settled


def histogram(dist, width=10, tail=0.001):
    """[(low, high, probability)] in bins of `width` points from the `tail` quantile to the
    1 - `tail` quantile; the scores beyond either end are counted in the end bins."""
    low = dist.percentile(100 * tail)
    low -= low % width
    n_bins = (dist.percentile(100 * (1 - tail)) - low) // width + 1
    index = np.clip((dist.scores - low) // width, 0, n_bins - 1)
    mass = np.bincount(index, weights=dist.probs, minlength=n_bins)
    return [(low + b * width, low + (b + 1) * width - 1, float(mass[b])) for b in range(n_bins)]


def write_csv(dist, path):
    """score,probability,cdf for every score with a positive probability."""
    cdf = np.cumsum(dist.probs)
    with open(path, "w", encoding="utf-8") as out:
        out.write("score,probability,cdf\n")
        for i in np.flatnonzero(dist.probs):
            out.write(f"{dist.offset + i},{float(dist.probs[i])!r},{float(min(1.0, cdf[i]))!r}\n")
