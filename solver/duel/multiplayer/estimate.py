"""The Dice Duel advice where no exact answer is at hand: every option played out by rollouts
(rollout.py) on common dice, in three stages counted in games, never in seconds, so the same
question with the same seed gets the same answer at any machine load:

1. screen: every option, `games` // SCREEN_SHARE games each (at least MIN_SCREEN);
2. decide: the greedy choice (what the simple rule does: keep for and take the most valuable
   chip) and the CANDIDATES options the screen ranks highest, `games` fresh games each, doubled
   while the best candidate is close (at least GROW_Z but under Z standard errors ahead; at
   most GROWTH times `games`: a close call gets more games, a clear one stops).  An option
   other than the greedy choice is advised only when it beats it by at least Z standard errors
   of the paired difference (the same dice for both); else the greedy choice stands, and the
   answer says whether the options were too close to call;
3. chance: the advised option, `games` fresh games again, whose mean is the chance shown: the
   maximum of the noisy means would overstate it (the winner's curse).

Every seat plays the greedy rule in the rollouts.  With 2 players and a horizon table
(horizon.py) a game stops where it enters the table and counts the table's exact chance: less
noise a game, and play beyond the horizon that is each seat's best, not greedy.  The interval of
the chance shown is the rollouts' own (1.96 standard errors) widened by MARGIN, how far the
shown chances of the advice missed the observed wins in the calibration
(benchmarks/duel_calibration.py).
"""
import numpy as np

from ...dice import sub_keep_indices
from . import game as mg
from . import kernels as mk
from .rollout import Rollouts, move_code

GAMES = 512  # games per option of the decision stage (and of the chance shown)
SCREEN_SHARE = 8  # the screen plays games // SCREEN_SHARE a option ...
MIN_SCREEN = 32  # ... and at least this many
CANDIDATES = 3  # options besides the greedy choice that the decision stage plays again
Z = 2.0  # standard errors of the paired difference by which an option must beat greedy
GROW_Z, GROWTH = 1.0, 8  # a decision whose best candidate comes within GROW_Z standard errors
# of the gate doubles its games, up to GROWTH times `games` (benchmarks/duel_picks.py)
MARGIN = 0.07  # widening of the chance's interval: the calibration's margin (module docstring)
Z95 = 1.959963984540054
DECIDE, CHANCE = 1 << 30, 2 << 30  # first game numbers of stages 2 and 3: fresh dice


def options_of(table, rules, roll, rolls_left):
    """(labels, kernel options, index of the greedy choice) of a decision: the end moves of
    `roll` (labels: game.py moves), then with rolls left its keeps (labels: lists of faces)."""
    if roll is None:
        return [None], [(-1, 0, -1, 0, 0)], 0
    category = int(rules.categories[0][roll])
    moves = mg.end_moves(table, int(rules.categories[1][category]), category == 0, rules)
    labels = list(moves)
    options = [(roll, 0, -1) + move_code(m) for m in moves]
    greedy = labels.index(_greedy_move(table, rules, roll))
    if rolls_left > 0:
        keeps, indices = sub_keep_indices(roll)
        pick = _greedy_keep(table, rules, roll, rolls_left)
        if pick != roll:
            greedy = len(labels) + indices.tolist().index(pick)
        labels += [list(k) for k in keeps]
        options += [(roll, rolls_left, i, 0, 0) for i in indices.tolist()]
    return labels, options, greedy


def _greedy_move(table, rules, roll):
    t, s = mk.greedy_move(np.array(table.plate), np.array(table.aside),
                          int(rules.categories[0][roll]), rules.categories[1])
    return ("no_chip",) if t < 0 else ("take", int(t), mg.PLATE if s == 0 else mg.ASIDE)


def _greedy_keep(table, rules, roll, left):
    from .rollout import _cached
    _, greedy, sub_keeps = _cached(rules)
    key = mk.greedy_key(np.array(table.plate), np.array(table.aside))
    return int(mk.pick_keep(roll, left, sub_keeps, greedy[left, :, key], greedy[0, roll, key]))


def estimate(table, rules, roll, rolls_left, games=GAMES, seed=0, policies=None,
             solo_values=None, horizon=None):
    """The estimated advice: {"probability", "interval", "games", "options", "close_call",
    "screen_games", "decide_games"} (decide_games: the games each option of the decision stage
    was played, `games` or more on a close call; 0 when there was nothing to decide).  Each
    option has its mean ("probability"), every seat's ("chances"), the games it was played
    ("games") and its rollout interval; the advised option comes first (with rolls left, an
    end move as the "stop" option, every end move in its "ends"), its chance from stage 3 with
    the calibrated interval."""
    runner = Rollouts(table, rules, seed, policies,
                      solo_values if solo_values is not None else np.zeros(1), horizon=horizon)
    mover = table.to_move
    labels, options, greedy = options_of(table, rules, roll, rolls_left)
    screen = max(MIN_SCREEN, games // SCREEN_SHARE)
    played = [None] * len(options)
    chosen, close, decided = 0, False, 0
    if len(options) > 1:
        played[:] = list(runner.games(options, screen))
        chosen, close, decided = _decide(runner, options, greedy, played, games, mover)
    played[chosen] = runner.games([options[chosen]], games, first=CHANCE)[0]
    found = [_option(label, shares, mover, table, rules) for label, shares in zip(labels, played)]
    found[chosen]["interval"] = chance_interval(played[chosen][:, mover])
    answer = {"probability": found[chosen]["probability"], "interval": found[chosen]["interval"],
              "games": games, "close_call": close, "screen_games": screen,
              "decide_games": decided}
    if roll is None:
        return {**answer, "options": []}
    ends = [i for i, label in enumerate(labels) if not isinstance(label, list)]
    if rolls_left > 0:
        top = chosen if chosen in ends else max(ends, key=lambda i: found[i]["probability"])
        stop = {"action": "stop", "then": mg.move_dict(labels[top], table, rules),
                **{key: found[top][key] for key in ("probability", "chances", "games", "interval")},
                "ends": [found[i] for i in ends]}
        rest = [stop] + [found[i] for i in range(len(labels)) if i not in ends]
        first = stop if chosen in ends else found[chosen]
    else:
        rest, first = found, found[chosen]
    others = sorted((o for o in rest if o is not first), key=lambda o: -o["probability"])
    return {**answer, "options": [first] + others}


def _decide(runner, options, greedy, played, games, mover):
    """(index of the advised option, whether the greedy choice stood on a close call, games
    each option played): the decision stage on fresh dice (module docstring); `played` gets its
    games.  While no
    candidate beats the greedy choice by Z standard errors but the best comes within GROW_Z,
    the stage plays as many games again, up to GROWTH times `games`: the games a decision gets
    grow with its closeness, counted, never timed."""
    means = np.array([shares[:, mover].mean() for shares in played])
    ranked = [i for i in np.argsort(-means, kind="stable").tolist() if i != greedy]
    picked = [greedy] + ranked[:CANDIDATES]
    chosen = [options[i] for i in picked]
    again = runner.games(chosen, games, first=DECIDE)
    while True:
        diff = again[1:, :, mover] - again[0, :, mover]
        mean = diff.mean(axis=1)
        error = diff.std(axis=1, ddof=1) / np.sqrt(diff.shape[1])
        z = np.divide(mean, error, out=np.zeros_like(mean), where=error > 0)
        if (z >= Z).any() or z.max() < GROW_Z or again.shape[1] >= GROWTH * games:
            break
        more = runner.games(chosen, again.shape[1], first=DECIDE + again.shape[1])
        again = np.concatenate([again, more], axis=1)
    for i, shares in zip(picked, again):
        played[i] = shares
    better = [j for j in range(len(mean)) if mean[j] > Z * error[j]]
    if better:
        return picked[1 + max(better, key=lambda j: mean[j])], False, again.shape[1]
    return greedy, bool((mean >= -Z * error).any()), again.shape[1]


def chance_interval(shares):
    """The interval of a chance measured as the mean of `shares`: 1.96 standard errors of the
    rollouts, widened by MARGIN (the calibration's miss)."""
    p = float(shares.mean())
    half = Z95 * float(shares.std(ddof=1)) / np.sqrt(len(shares)) + MARGIN
    return [float(max(0.0, p - half)), float(min(1.0, p + half))]


def labelled(label, table, rules):
    """The option dict of a label: a keep (list of faces), an end move (game.py), or None."""
    if isinstance(label, list):
        return {"action": "keep", "keep": label}
    return {} if label is None else mg.move_dict(label, table, rules)


def _option(label, shares, mover, table, rules):
    """An option dict (labelled's form) with the mean of its games for every seat and the
    mover's rollout interval (1.96 standard errors)."""
    option = labelled(label, table, rules)
    mine = shares[:, mover]
    option["probability"] = float(mine.mean())
    option["chances"] = [float(c) for c in shares.mean(axis=0)]
    option["games"] = len(mine)
    half = Z95 * float(mine.std(ddof=1)) / np.sqrt(len(mine)) if len(mine) > 1 else 1.0
    option["interval"] = [float(max(0.0, option["probability"] - half)),
                          float(min(1.0, option["probability"] + half))]
    return option
