"""Kernel properties: the same bits on 1 or 2 threads, and compiled code reused across processes."""
import json
import subprocess
import sys

import numpy as np
import pytest

from solver.engine.backward import solve
from solver.rules import PRESETS
from solver.stats.simulate import simulate


@pytest.mark.parametrize("name", ["yahtzee", "knobeln"])
def test_values_bit_identical_on_one_and_two_threads(name):
    one = solve(PRESETS[name], progress=False, threads=1).values
    two = solve(PRESETS[name], progress=False, threads=2).values
    assert np.array_equal(one, two, equal_nan=True)
    assert one.tobytes() == two.tobytes()


def test_simulation_identical_on_one_and_two_threads():
    table = solve(PRESETS["kniffel"], progress=False)
    one = simulate(table, 300, seed=9, threads=1)
    two = simulate(table, 300, seed=9, threads=2)
    assert (one.scores == two.scores).all() and (one.jokers_used == two.jokers_used).all()


CHECK_CACHE = """
import json, sys
from solver.engine import expected as kernels
from solver.engine.backward import solve
from solver.rules import PRESETS
from solver.stats import simulate_kernels
from solver.stats import distribution_kernels as policy_kernels
from solver.stats.distribution import score_distribution
from solver.stats.simulate import simulate
from solver.engine.states import Position
table = solve(PRESETS["kniffel"], progress=False)
simulate(table, 10, seed=1)
simulate(table, 10, seed=1, strategy="greedy")
card = {box: 0 for box in table.rules.boxes[:-1]}  # one box open: a small distribution
score_distribution(table, Position(card))
stats = [kernels._solve_sets.stats, simulate_kernels._simulate_turn.stats, simulate_kernels._simulate_greedy.stats,
         policy_kernels._outcomes_batch.stats, policy_kernels._gather_distributions.stats]
print(json.dumps({"misses": sum(sum(s.cache_misses.values()) for s in stats),
                  "hits": sum(sum(s.cache_hits.values()) for s in stats),
                  "scipy_linalg": "scipy.linalg" in sys.modules}))
"""  # noqa: E501 - the script as it runs


def test_second_process_compiles_nothing():
    runs = [json.loads(subprocess.run([sys.executable, "-c", CHECK_CACHE], capture_output=True,
                                      text=True, check=True).stdout) for _ in range(2)]
    # the first run may compile (and save) or already find the cache; the second must only load
    assert runs[1]["misses"] == 0 and runs[1]["hits"] >= 2
    # numba's BLAS probe is refused (solver/engine/jit.py): loading kernels imports no scipy.linalg
    assert not runs[1]["scipy_linalg"]


def test_numba_linear_algebra_still_compiles():
    """The refused BLAS probe leaves np.dot to numba: it imports scipy itself when it compiles."""
    pytest.importorskip("scipy")
    code = ("import numpy as np, numba, solver.engine.jit\n"
            "print(numba.njit(lambda a, b: np.dot(a, b))(np.arange(3.0), np.arange(3.0)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "5.0"


def test_bonus_classes_with_only_the_sixes_open():
    """Worked by hand: the sixes box can still add 0, 6, ..., 30, so the upper totals that need
    the same number of sixes for the bonus (63) have the same future."""
    from solver.engine import expected as kernels
    from solver.presets import get_rules
    rules = get_rules("yahtzee")
    filled = ((1 << rules.n_boxes) - 1) & ~(1 << rules.boxes.index("sixes"))
    class_of = kernels.bonus_classes(filled, rules.kernel_arrays())
    expected = [31] * 33 + [30] * 6 + [24] * 6 + [18] * 6 + [12] * 6 + [6] * 6 + [0]
    assert class_of.tolist() == expected


def test_every_upper_total_matches_the_reference():
    """The solver solves one upper total per bonus class and copies it to the others; the plain
    reference solves every total on its own.  Twos and sixes open: odd shortfalls and the gaps
    between the sums they can add make classes of several totals."""
    import reference

    from solver.engine import expected as kernels
    from solver.engine.states import upper_reachable
    from solver.presets import get_rules
    rules = get_rules("kniffel-basic")
    table = solve(rules, progress=False)
    open_boxes = ["twos", "sixes", "chance"]
    filled = ((1 << rules.n_boxes) - 1) & ~sum(1 << rules.boxes.index(b) for b in open_boxes)
    reachable = np.flatnonzero(upper_reachable(rules)[filled & 63])
    class_of = kernels.bonus_classes(filled, rules.kernel_arrays())
    assert len(set(class_of[reachable].tolist())) < len(reachable) - 10  # many totals share a class
    for upper in reachable:
        expected = reference.state_value_rules(rules.as_dict(), open_boxes, int(upper),
                                               kniffel_box="0")
        assert table.values[filled, 0, upper] == pytest.approx(expected, abs=1e-9), upper
