"""The same question, the same answer, at any load: every budget that decides what an answer is
is counted in work (the win coach's exact-or-estimate switch and its opponents' distributions,
advice/cost.py; the Dice Duel's exact zone in values and its estimates in games), never in
seconds.  Each position is asked twice in a process of its own, on a quiet machine and with a
CPU hog busy on every core, and the answers must be the same to the byte."""
import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # processes of their own, one of them beside a hog on every core

# An early-game win position whose exact sub-game is just inside the budget (about 4.2 s of the
# reference machine's work for 9 open boxes, budget 4.5): a clock-scaled switch would have
# answered it with the estimate on a busy machine.
EARLY_WIN = ["advise", "--rules", "kniffel", "--card", "ones=2,twos=6,threes=9,fours=12",
             "--dice", "5,5,6,6,2", "--rolls-left", "2", "--opponent", "final=231",
             "--budget", "4.5", "--json"]

# A 2-player Dice Duel in mid-game: estimated by rollouts, a fixed number of games per option
# (the decision stage doubling on a close call, by the games' own numbers): the same estimate,
# the same advised option and the same chance at any load.
DUEL_ESTIMATE = ["advise", "--rules", "dice-duel", "--players", "2", "--chips",
                 "two_pairs=0/0/2/2,three_kind=1/0/2/1,small_straight=2/0/1/1,flush=2/0/1/1,"
                 "full_house=3/0/1/0", "--dice", "2,3,4,5,5", "--rolls-left", "2", "--json"]
# The largest 2-player endgame the dense solver takes on without a horizon table (10 chips in
# play, its work counted in values just inside dense.DENSE_LIMIT; about 1.7 s on 2 cores): exact
# however long it takes, as the exact zone is counted in work.
DUEL_EXACT_EDGE = ["advise", "--rules", "dice-duel", "--players", "2", "--chips",
                   "two_pairs=1/0/1/2,three_kind=1/0/1/2,small_straight=1/0/1/2,flush=1/0/1/2,"
                   "full_house=2/0/1/1,four_kind=2/0/1/1,large_straight=2/0/1/1",
                   "--dice", "2,3,4,5,5", "--rolls-left", "2", "--json"]


def ask(args):
    done = subprocess.run([sys.executable, "-m", "solver.cli", *args], capture_output=True,
                          text=True, timeout=3600, env=os.environ.copy())
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def hogs():
    """One busy process per core (pure Python loops, niced not at all)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(os.cpu_count() or 1)]


@pytest.mark.parametrize("args", [EARLY_WIN, DUEL_ESTIMATE, DUEL_EXACT_EDGE],
                         ids=["early-win", "duel-estimate", "duel-exact-edge"])
def test_a_position_answers_the_same_on_a_busy_machine(args):
    quiet = ask(args)
    busy = hogs()
    try:
        loaded = ask(args)
    finally:
        for hog in busy:
            hog.kill()
            hog.wait()
    assert loaded == quiet
    answer = json.loads(quiet)
    if args is EARLY_WIN:
        assert answer["method"] == "exact"  # the sub-game fits the budget, loaded or not
    elif args is DUEL_ESTIMATE:  # an estimate of the default games, its interval and seed
        assert not answer["exact"] and answer["games"] == 512 and answer["seed"] == 0
    else:
        assert answer["exact"] and answer["method"].startswith("exact: dense solve")
