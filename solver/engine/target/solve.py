"""Solving the target table: the target objective (engine/target/columns.py's kernels driven by the
backward pass of engine/backward.py) and solve_target, which returns a TargetTable
(engine/target/table.py)."""
import time
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from ... import dice
from ...rules import UPPER
from ...rules.bounds import box_most
from ..final_rolls import TargetData
from ..objective import EXPECTED_SCORE, Objective
from ..states import aux_reachable, upper_reachable, upper_reachable_from
from . import checkpoint as checkpoints
from . import columns as target
from . import ranges as target_ranges
from .table import TargetTable

TargetContext = namedtuple("TargetContext", "upper_reach aux_reach game moves gain box_most")
TargetContext.__doc__ = """What the target kernels read besides the values: the reachable upper
totals and aux values, the rules (scoring.RuleArrays) and dice (dice.Moves) as arrays, and per box
the most points and bonuses (gain) and the most points alone (box_most) it can score."""


class TargetValues:
    """The target solve's values while it runs: the state index, each set's last d that can
    matter (length) and solved width, each state's first d less one (base: 0 but in a sub-game
    solved for one position's bands) and kept range (span), each level's packed (W, E) and the
    buffers of the level being solved."""

    def __init__(self, rules, expected, terminal=None, upper_reach=None):
        self.expected = expected
        up = upper_reachable(rules) if upper_reach is None else upper_reach
        aux = aux_reachable(rules)
        self.row_of, self.set_first, self.set_count = target_ranges._index_states(
            rules.n_boxes, up, aux, rules.kernel_arrays())
        n_states = int(self.set_count.sum())
        self.offset = np.zeros(n_states, dtype=np.int64)
        self.length = np.zeros(1 << rules.n_boxes, dtype=np.int64)
        self.width = np.zeros(1 << rules.n_boxes, dtype=np.int64)
        self.base = np.zeros(n_states, dtype=np.int64)
        self.span = np.zeros(n_states, dtype=np.int64)
        self.levels = {}  # level -> packed (w, e)
        self.next = (np.zeros(0), np.zeros(0))  # the level above the one being solved
        self.out = None
        self.rounding = {"w": 0.0, "e": 0.0}  # the most a level's values moved when kept
        if terminal is not None and len(terminal):  # the full card's W: every state shares it
            full = (1 << rules.n_boxes) - 1
            self.length[full] = self.width[full] = len(terminal)
            self.offset[self.set_first[full]:self.set_first[full] + self.set_count[full]] = 0
            self.span[self.set_first[full]:self.set_first[full] + self.set_count[full]] = (
                len(terminal))
            self.next = (np.asarray(terminal, dtype=np.float64), np.zeros(len(terminal)))
            self.levels[rules.n_boxes] = self.next


class TargetObjective(Objective):
    """P(points still to come >= d) for every d, ties broken by the expected score."""

    name = "target"

    def __init__(self, expected, tile=target.TILE, tie_break=True, terminal=None, most=None,
                 upper_reach=None, root=None, kept=np.float64):
        self.expected = expected  # the expected-score values (E outside each state's range)
        self.kept = kept  # the dtype of a finished level's (W, E) once no level reads it
        self.tile = tile
        self.tie_break = tie_break
        self.terminal = terminal
        self.most = most  # solve d <= most only (None: every d that can matter)
        self.upper_reach = upper_reach  # the upper totals to solve (None: every reachable one)
        self.root = root  # (filled, upper, extras) of the one position asked about: its bands

    def values_array(self, rules, reachable):
        return TargetValues(rules, self.expected, self.terminal, self.upper_reach)

    def context(self, rules):
        game = rules.kernel_arrays()
        each = np.array(box_most(rules), dtype=np.int64)
        gain = np.array([most + (rules.upper_bonus if rules.boxes[b] in UPPER else 0)
                         + rules.extra_bonus for b, most in enumerate(each)], dtype=np.int64)
        up = upper_reachable(rules) if self.upper_reach is None else self.upper_reach
        return TargetContext(up, aux_reachable(rules), game, dice.kernel_arrays(), gain, each)

    def start_level(self, rules, sets, values, context):
        target_ranges._level_lengths(sets, values.length, context.gain, rules.n_boxes)
        if self.most is not None:  # a state d points short reads the next ones at d - p <= d only
            values.length[sets] = np.minimum(values.length[sets], self.most)
        if self.root is None:
            values.width[sets] = values.length[sets]
        else:
            filled, upper, extras = self.root
            target_ranges._level_bands(sets, filled, upper, extras, self.most, values.length,
                                values.width, values.base, values.set_first,
                                context.upper_reach, context.aux_reach, context.game,
                                context.box_most, rules.extra_bonus)
        pos = 0
        for f in sets.tolist():  # this level's states, set after set, each at its set's width
            first, count, n = values.set_first[f], values.set_count[f], values.width[f]
            values.offset[first:first + count] = pos + n * np.arange(count)
            pos += n * count
        values.out = (np.empty(pos), np.empty(pos))

    def solve_sets(self, rules, sets, values, context):
        data = TargetData(values.next[0], values.next[1], values.offset, values.base, values.span,
                          values.row_of, values.expected)
        target._solve_sets(sets, values.out[0], values.out[1], values.width, data,
                           context.upper_reach, context.aux_reach, context.game, context.moves,
                           rules.rolls_per_turn, self.tile, self.tie_break)

    def end_level(self, rules, sets, values, context):
        packed = target_ranges._trim_level(sets, values.out[0], values.out[1], values.offset,
                                    values.base, values.width, values.length, values.span,
                                    values.set_first, values.set_count)
        level = bin(int(sets[0])).count("1")
        values.out = None
        above = values.levels.get(level + 1)
        if above is not None:  # no level reads it again
            values.levels[level + 1] = _kept(above, self.kept, values.rounding)
        values.levels[level] = values.next = packed


class CheckpointedTarget(TargetObjective):
    """The whole game's TargetObjective with a checkpoint (target/checkpoint.py): it goes on
    from the levels restored into `values` (skipping the first `done`) and saves each level it
    finishes.  Its values are those of TargetObjective, to the bit."""

    def __init__(self, expected, tile, tie_break, kept, directory, values, done, fields):
        super().__init__(expected, tile, tie_break, kept=kept)
        self.directory, self.values, self.done, self.fields = directory, values, done, fields

    @classmethod
    def resumed(cls, rules, expected, tile, tie_break, kept, directory):
        """The objective going on from what `directory` holds for these rules and options."""
        values = TargetValues(rules, expected)
        fields = checkpoints.checkpoint_fields(expected, tie_break, kept)
        done = checkpoints.resume(rules, directory, values, fields)
        return cls(expected, tile, tie_break, kept, directory, values, done, fields)

    def values_array(self, rules, reachable):
        return self.values

    def levels(self, rules, within=0):
        return super().levels(rules, within)[self.done:]

    def end_level(self, rules, sets, values, context):
        super().end_level(rules, sets, values, context)
        checkpoints.save_level(rules, self.directory, values, sets, self.fields)


def _kept(level, dtype, rounding):
    """A level's (W, E) in `dtype`; rounding[name] := the most any value has moved so far."""
    if level[0].dtype == dtype:
        return level
    kept = (level[0].astype(dtype), level[1].astype(dtype))
    for name, solved, stored in zip("we", level, kept):
        moved = np.fmax.reduce(np.abs(stored - solved), initial=0.0)  # fmax: a NaN E is no E
        rounding[name] = max(rounding[name], float(moved))
    return kept


@dataclass(frozen=True)
class SubGame:
    """The part of the game a target table is solved for (the default: all of it).

    filled: only the turn starts with these boxes filled (the sets that contain the mask).
    upper: only those that can follow a turn start with `filled` and this capped upper total
    (the others read W = 0): most of a sub-game's states when upper boxes are filled.
    most: only d <= most points still needed (a lookup past it reads 0): a position asked about
    that many points short.
    extras: with upper and most (the bands of one position), the most extra-Kniffel bonuses the
    rest of the game can pay: then each state is solved only at the d that can follow the
    position (see target_ranges._level_bands).  upper and most without extras, or extras without
    both, is refused: the bands would silently be left out."""

    filled: int = 0
    upper: int | None = None
    most: int | None = None
    extras: int | None = None

    def __post_init__(self):
        given = [name for name in ("upper", "most", "extras") if getattr(self, name) is not None]
        if self.extras is not None and len(given) < 3 or given == ["upper", "most"]:
            raise ValueError(f"an incomplete sub-game ({', '.join(given)} given): one position's "
                             "bands need upper, most and extras")

    @property
    def root(self):
        """(filled, upper, extras) of the position whose bands are solved, or None."""
        return None if self.extras is None else (self.filled, self.upper, self.extras)


def solve_target(rules, progress=None, threads=None, expected=None, within=0, terminal=None,
                 tile=target.TILE, tie_break=True, kept=None, checkpoint=None):
    """Solve the target table of `rules` (Rules); `expected`: its expected-score values, else
    solved here first (they are E where every option ties).  within: a filled-box mask, to
    solve only the sub-game of the sets that contain it (the other states stay empty), or a
    SubGame (which also narrows the upper totals, the points still needed or both: the table
    then answers that position and what follows it only).
    terminal: W of the finished game for d = 1, 2, ... points short (default 0: a target must
    be reached); a utility of the final score, such as the chance to beat opponents (win.py).
    tie_break=False solves W alone (E is NaN), to measure what the E plane costs.
    kept: the dtype W and E are kept in once the level below is solved (each level reads only
    the one above, in float64 as solved).  Default: float32 for the whole game, the precision
    the store saves it in (target/table.py), which halves the memory of the solve; float64
    for a sub-game, whose answers are read at once.
    checkpoint: a directory (whole game only: ValueError with a sub-game or `terminal`) where
    each finished level is saved and from which a killed solve goes on (target/checkpoint.py;
    the table is the same to the bit); remove_checkpoint once the table is saved."""
    from ..backward import backward_pass
    sub = within if isinstance(within, SubGame) else SubGame(within)
    if checkpoint is not None and (sub != SubGame() or terminal is not None):
        raise ValueError("a checkpoint is kept for the whole game only, not for a sub-game or "
                         "a terminal utility")
    start = time.perf_counter()
    if expected is None:
        expected = backward_pass(rules, EXPECTED_SCORE, progress=False, threads=threads)[0]
    reach = None if sub.upper is None else upper_reachable_from(rules, sub.filled, sub.upper)
    if kept is None:
        kept = np.float32 if sub == SubGame() and terminal is None else np.float64
    if checkpoint is None:
        objective, done = TargetObjective(expected, tile, tie_break, terminal, sub.most, reach,
                                          sub.root, kept), 0
    else:
        objective = CheckpointedTarget.resumed(rules, expected, tile, tie_break, kept, checkpoint)
        done = objective.done
    values, _, level_seconds = backward_pass(rules, objective, progress, threads,
                                             label=f"target table {rules.key}", within=sub.filled,
                                             done=done)
    return TargetTable(rules, _packed_arrays(rules, values, expected, kept),
                       seconds=time.perf_counter() - start, level_seconds=level_seconds,
                       within=sub.filled, rounding=values.rounding)


def _packed_arrays(rules, values, expected, kept):
    """The TargetTable arrays of a finished solve: every level's (W, E) one after the other
    (in `kept`), each state's offset moved to its level's place in the whole.  Each level is
    let go once copied, so the copy needs the whole plus one level, not twice the whole."""
    sizes = [values.levels[level][0].shape[0] if level in values.levels else 0
             for level in range(rules.n_boxes + 1)]
    starts = np.concatenate([[0], np.cumsum(sizes)])  # each level's place in the whole
    n_filled = np.array([bin(f).count("1") for f in range(1 << rules.n_boxes)])
    for f in range(1 << rules.n_boxes):
        first, count = values.set_first[f], values.set_count[f]
        values.offset[first:first + count] += starts[n_filled[f]]
    w, e = np.empty(starts[-1], dtype=kept), np.empty(starts[-1], dtype=kept)
    values.next = None
    for level in range(rules.n_boxes + 1):
        part = values.levels.pop(level, None)
        if part is not None:
            part = _kept(part, kept, values.rounding)
            w[starts[level]:starts[level + 1]] = part[0]
            e[starts[level]:starts[level + 1]] = part[1]
        del part
    return {"w": w, "e": e, "offset": values.offset, "span": values.span, "row_of": values.row_of,
            "expected": expected, "base": values.base}
