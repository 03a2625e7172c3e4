"""A player of the target policy, decision by decision, for seeded simulation: each (state,
points still needed)'s turn is worked once (the advice steps, steps.py, through target.ChanceView)
and reused.  With the advice, not with stats/: it plays by the advice's own arrays."""
from dataclasses import replace

import numpy as np

from .. import dice
from ..dice import sub_keep_indices
from ..engine.grain import quantise
from ..rules import scoring
from . import steps
from .chance_view import ChanceView


class TargetPlayer:
    """Plays for a final score of at least the target with `table` (a TargetTable); the rule
    sets without Knobeln jokers."""

    def __init__(self, table):
        if table.rules.jokers:
            raise ValueError("TargetPlayer does not play Knobeln jokers")
        self.table, self.rules, self.turns = table, table.rules, {}

    def turn(self, state, need):
        """(keep values by rolls left, best box per roll) of a turn start."""
        key = (state.filled, state.aux, state.upper, need)
        if key not in self.turns:
            view = ChanceView(self.table, need)
            stop, final = steps.final_values(state, view)
            keeps = {left: steps.keep_values(view, stop, final, left)
                     for left in range(1, self.rules.rolls_per_turn)}
            (w, e), _, _ = steps.box_values(state, view)
            q = quantise(w)
            box = np.lexsort((-e, -q), axis=0)[0]  # per roll: the best chance, then points
            self.turns[key] = (keeps, box)
        return self.turns[key]

    def play(self, state, need, rng):
        """Points scored from the turn start `state` to the end of the game, aiming at `need`."""
        rules, params = self.rules, self.rules.params()
        gained = 0
        while state.n_open:
            keeps, box = self.turn(state, need - gained)
            roll = tuple(sorted(rng.integers(1, 7, size=5).tolist()))
            for left in range(rules.rolls_per_turn - 1, 0, -1):
                kw, ke = keeps[left]
                r = dice.KEEP_INDEX[roll]
                choices = sub_keep_indices(r)[1].tolist() + [r]  # keep some dice, or stop
                best = max(choices, key=lambda k: (quantise(kw[k]), ke[k]))
                if best == r:
                    break
                kept = dice.KEEPS[best]
                roll = tuple(sorted(kept + tuple(rng.integers(1, 7, size=5 - len(kept)).tolist())))
            r = dice.KEEP_INDEX[roll]
            b = int(box[r])
            _, pts, bonus, paid, upper, aux = scoring.enter_box(
                b, r, dice.KNIFFEL_FACE[r], state.filled, state.aux, state.upper, state.n_open,
                params, rules.plain_score, rules.joker_score, rules.box_face)
            gained += int(pts + bonus)
            upper = int(upper)
            state = replace(state, filled=state.filled | (1 << b), aux=aux, upper=upper,
                            n_open=state.n_open - 1)
        return gained
