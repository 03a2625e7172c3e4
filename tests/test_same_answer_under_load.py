"""The same question, the same answer, at any load: every budget that decides what an answer is
is counted in work (the win coach's exact-or-estimate switch and its opponents' distributions,
advice/cost.py; the Dice Duel's games), never in seconds.  Each position is asked twice in a
process of its own, on a quiet machine and with a CPU hog busy on every core, and the answers
must be the same to the byte."""
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


def ask(args):
    done = subprocess.run([sys.executable, "-m", "solver.cli", *args], capture_output=True,
                          text=True, timeout=3600, env=os.environ.copy())
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def hogs():
    """One busy process per core (pure Python loops, niced not at all)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(os.cpu_count() or 1)]


@pytest.mark.parametrize("args", [EARLY_WIN], ids=["early-win"])
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
    assert answer["method"] == "exact"  # the sub-game fits the budget, loaded or not
