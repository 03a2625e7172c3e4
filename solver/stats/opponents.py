"""Final-score distributions of players who play for points, fast at any turn.

An opponent still playing is modelled as playing the expected-score strategy from their card;
their final score's exact distribution is the card total plus the points still to come from
their turn-start state.  distribution.score_distribution computes it with a forward pass over
every state that strategy can meet, then a backward pass: from the empty card that is every
state the strategy meets in a game (seconds), and it takes a second or more for any state with
8 or more open boxes, but only milliseconds with 4 or fewer (benchmarks/opponent_distributions.py
measures both).

So the turns with MIN_OPEN or more open boxes come from a store built once per rules
(StateDistributions, saved beside the tables, memory-mapped): one forward pass from the empty
card and one backward pass, keeping, for every state the strategy meets with at least
`min_open` open boxes, the distribution of its points still to come (the backward pass computes
them anyway).  Every state met by a player who played for points from the empty card is there;
any other card (a player who played otherwise: then seconds early in a game) and every later
card is computed afresh, and the last few are kept in memory.  Both are exact (float64; the
store leaves out at most TAIL of mass at either end of a distribution).
"""
import weakref
from collections import OrderedDict

import numpy as np

from ..engine.states import Position, State, position_state
from ..engine.store import Artifact, TableError, load_arrays, save_arrays
from ..rules.cards import parse_card
from .distribution import forward, points_to_come_of
from .distribution import points_to_come as _backward

# states with fewer open boxes are computed afresh (benchmarks/opponent_distributions.py)
MIN_OPEN = 5
TAIL = 1e-16  # mass left out at either end of a stored distribution (a chance moves by < 1e-15)
_RECENT = 256  # distributions computed afresh and kept, most recent first
INDEX = ("keys", "low", "start")  # read; the probabilities are mapped
OPPONENTS = Artifact("opponents", "opponents' distributions",
                     "kniffel solve --objective target --rules {key}", mapped=("probs",))


class StateDistributions:
    """P(points still to come = low[i] + k) = probs[start[i] + k] for the flat turn-start
    state keys[i] (ascending); flat = (filled * n_aux + aux) * n_upper + upper."""

    def __init__(self, rules, keys, low, start, probs, min_open, expected_score):
        self.rules, self.keys, self.low, self.start, self.probs = rules, keys, low, start, probs
        self.min_open, self.expected_score = min_open, expected_score
        self.recent = OrderedDict()

    def find(self, flat):
        """(low, probs) of the flat state, or None when the store does not hold it."""
        i = int(np.searchsorted(self.keys, flat))
        if i == len(self.keys) or self.keys[i] != flat:
            return None
        return int(self.low[i]), self.probs[self.start[i]:self.start[i + 1]]


def build(table, min_open=MIN_OPEN, progress=None, start=None):
    """The StateDistributions of `table`'s strategy (module docstring): one forward pass from the
    empty card (or the Position `start`), then distribution.points_to_come's backward pass,
    keeping the levels with at least `min_open` open boxes (min_open=1: every state the
    strategy meets, as the compiled coach of a tournament needs)."""
    kept = []

    def keep(n_open, states, dist, dist_start):
        if n_open >= min_open:
            kept.append(_trimmed(states, dist, dist_start))

    _backward(forward(table, start or Position(), progress=progress), progress=progress, keep=keep)
    return _joined(table.rules, kept, min_open, table.expected_score)


def _trimmed(states, dist, dist_start):
    """(keys, low, lengths, probs) of one level without the tails of each distribution whose
    mass is below TAIL (each side)."""
    low = np.empty(len(states), dtype=np.int64)
    length = np.empty(len(states), dtype=np.int64)
    parts = []
    for i in range(len(states)):
        d = dist[dist_start[i]:dist_start[i + 1]]
        first = int(np.searchsorted(np.cumsum(d), TAIL, side="right"))
        last = len(d) - int(np.searchsorted(np.cumsum(d[::-1]), TAIL, side="right"))
        low[i], length[i] = first, last - first
        parts.append(d[first:last])
    return states.astype(np.int64), low, length, np.concatenate(parts)


def _joined(rules, kept, min_open, expected_score):
    keys = np.concatenate([k[0] for k in kept])
    order = np.argsort(keys, kind="stable")
    low = np.concatenate([k[1] for k in kept])
    length = np.concatenate([k[2] for k in kept])
    probs_in = np.concatenate([k[3] for k in kept])
    start_in = np.concatenate([[0], np.cumsum(length)])
    start = np.concatenate([[0], np.cumsum(length[order])]).astype(np.int64)
    probs = np.concatenate([probs_in[start_in[i]:start_in[i + 1]] for i in order])
    return StateDistributions(rules, keys[order], low[order], start, probs, min_open,
                              expected_score)


def save(store, directory=None):
    """Write the store beside the tables (the table store's NAME.opponents.bin and .json)."""
    arrays = {"keys": store.keys, "low": store.low, "start": store.start,
              "probs": np.asarray(store.probs, dtype=np.float64)}
    return save_arrays(store.rules, OPPONENTS, arrays,
                       {"min_open": store.min_open, "expected_score": store.expected_score},
                       directory)


def load(table, directory=None):
    """The saved store of `table`'s rules, its probabilities mapped from the file, or None when
    there is none, it fails a check of the table store, or it was made for another table (its
    expected score differs)."""
    try:
        header, arrays = load_arrays(table.rules, OPPONENTS, directory,
                                     dict.fromkeys(INDEX + OPPONENTS.mapped))
    except TableError:
        return None
    keys, low, start, probs = (arrays[name] for name in INDEX + OPPONENTS.mapped)
    if (header.get("expected_score") != table.expected_score
            or not isinstance(header.get("min_open"), int)
            or start.ndim != 1 or len(start) == 0 or start[-1] != len(probs)):
        return None
    return StateDistributions(table.rules, keys, low, start, probs, header["min_open"],
                              header["expected_score"])


_STORES = {}


def _load_beside(table):
    """The store saved in the directory `table` was loaded from, else in the default store (a
    table shipped with the package is read from the package, its store is not)."""
    from pathlib import Path
    if getattr(table, "path", None):
        store = load(table, Path(table.path).parent)
        if store is not None:
            return store
    return load(table, None)


def get_store(table, directory=None, build_missing=True, progress=None):
    """The store of `table` (loaded, else built and saved when `build_missing`), kept per table
    while its values live; `directory` defaults to the one `table` was loaded from."""
    key = id(table.values)
    if key not in _STORES:
        store = load(table, directory) if directory is not None else _load_beside(table)
        if store is None and build_missing:
            store = build(table, progress=progress)
            try:
                save(store, directory)
            except OSError:
                pass  # a read-only store: the built one still serves this process
        if store is None:
            return None  # looked for again next time: it may be built meanwhile
        # Kept by the id of the values, and forgotten when they go: another table's values may
        # later take the same id, and must not find this table's store.
        _STORES[key] = store
        weakref.finalize(table.values, _STORES.pop, key, None)
    return _STORES[key]


def state_of(rules, opponent):
    """The turn-start State of an opponent {"card": {...}, "kniffel_bonuses", "jokers_left"},
    {"state": State} (programs that follow the state themselves) or a Position (ValueError for
    an impossible card)."""
    if isinstance(opponent, dict) and isinstance(opponent.get("state"), State):
        return opponent["state"]
    position = opponent if isinstance(opponent, Position) else opponent["card"]
    if not isinstance(position, Position):
        position = Position(parse_card(position, rules), opponent.get("kniffel_bonuses", 0),
                            opponent.get("jokers_left"))
    return position_state(position, rules)


def points_to_come(table, state, store=None):
    """(low, probs): P(points still to come = low + k) = probs[k] from the turn-start `state`
    under `table`'s expected-score strategy; exact, from the store or computed afresh."""
    values = table.values
    flat = (state.filled * values.shape[1] + state.aux) * values.shape[2] + state.upper
    if state.n_open == 0:
        return 0, np.ones(1)
    if store is not None:
        found = store.find(flat)
        if found is not None:
            return found
        recent = store.recent
        if flat in recent:
            recent.move_to_end(flat)
            return recent[flat]
    answer = _afresh(table, state)
    if store is not None:
        store.recent[flat] = answer
        if len(store.recent) > _RECENT:
            store.recent.popitem(last=False)
    return answer


def _afresh(table, state):
    # one thread: below MIN_OPEN the passes are small, and starting threads for each of their
    # levels costs more than it saves (benchmarks/opponent_distributions.py)
    probs = _backward(forward(table, state, threads=1), threads=1)
    nonzero = np.flatnonzero(probs)
    return int(nonzero[0]), probs[nonzero[0]:nonzero[-1] + 1].copy()


def points_to_come_many(table, states, store=None):
    """{flat: (low, probs)} as points_to_come gives them, of many turn-start `states` with the
    same open boxes: those the store does not hold computed afresh in one pass for them all
    (distribution.points_to_come_of), and kept among the store's recent ones."""
    values = table.values
    answers, missing = {}, []
    for state in states:
        flat = (state.filled * values.shape[1] + state.aux) * values.shape[2] + state.upper
        found = None
        if state.n_open == 0:
            found = (0, np.ones(1))
        elif store is not None:
            found = store.find(flat)
            if found is None and flat in store.recent:
                found = store.recent[flat]
        if found is None:
            missing.append(state)
        else:
            answers[flat] = found
    if missing:
        for flat, probs in points_to_come_of(table, missing).items():
            nonzero = np.flatnonzero(probs)
            answers[flat] = (int(nonzero[0]), probs[nonzero[0]:nonzero[-1] + 1].copy())
            if store is not None:
                store.recent[flat] = answers[flat]
                if len(store.recent) > _RECENT:
                    store.recent.popitem(last=False)
    return answers
