"""The Dice Duel's benchmarks of the dense solver and of the calibration, and the calibration's
binning, worked by hand."""
import json
import sys

import numpy as np
import pytest

from helpers import load_script
from solver.duel.multiplayer.match import calibration


def bench(monkeypatch, name, *args):
    """Run benchmarks/NAME.py's main() in this process with the command-line `args`."""
    script = load_script(name, "benchmarks")
    monkeypatch.setitem(sys.modules, script.__name__, script)
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *map(str, args)])
    script.main()
    return script


def test_calibration_bins_by_the_shown_chance_with_errors_clustered_by_game():
    rows = [(0, 0.15, 1.0), (0, 0.13, 1.0), (1, 0.12, 0.0), (1, 0.95, 0.5), (2, 1.0, 1.0)]
    bins = calibration(rows)
    low = bins[1]
    assert low["decisions"] == 3 and low["games"] == 2
    assert low["shown"] == pytest.approx(0.4 / 3) and low["observed"] == pytest.approx(2 / 3)
    miss = 2 / 3 - 0.4 / 3
    assert low["miss"] == pytest.approx(miss)
    per_game = np.array([(1 - 0.15) + (1 - 0.13), 0 - 0.12])  # summed misses of each game
    counts = np.array([2, 1])
    assert low["miss_se"] == pytest.approx(np.sqrt(((per_game - miss * counts) ** 2).sum()) / 3)
    top = bins[9]  # a chance of 1.0 falls in the last bin
    assert top["decisions"] == 2 and top["miss_se"] == pytest.approx(
        np.sqrt((-0.45 + 0.225) ** 2 + (0 + 0.225) ** 2) / 2)
    assert [b["decisions"] for b in bins] == [0, 3, 0, 0, 0, 0, 0, 0, 0, 2]


@pytest.mark.slow
def test_a_calibration_smoke_run_of_a_few_hundred_decisions(monkeypatch, tmp_path):
    """Self-play with the advice as users get it (few games per option): a few hundred
    decisions, each in one decile, the exact chances close to what happened."""
    out = tmp_path / "calibration.json"
    bench(monkeypatch, "duel_calibration", "--games", 6, "--rollouts", 16, "--processes", 1,
          "--out", out)
    summary = json.loads(out.read_text())["2p"]["summary"]
    assert summary["games"] == 6 and summary["all"]["decisions"] >= 200
    for part in ("estimated", "exact"):
        assert sum(b["decisions"] for b in summary[part]["bins"]) == summary[part]["decisions"] > 0
    assert abs(summary["exact"]["mean_miss"]) < 0.2


@pytest.mark.slow
def test_the_dense_benchmark_builds_and_times(monkeypatch, tmp_path):
    out = tmp_path / "dense.json"
    bench(monkeypatch, "duel_dense", "--levels", 1, "--most", 5, "--repeat", 0, "--store",
          tmp_path / "store", "--out", out)
    result = json.loads(out.read_text())
    assert [row["level"] for row in result["build"]] == [1]
    assert result["build"][0]["values"] == 3_500_000 and result["build"][0]["bytes"] > 14e6
    assert {row["chips_in_play"] for row in result["positions"]} == {2, 3, 4, 5}
    assert len(result["levels"]) == 29 and result["levels"][:2] == [0, 3_500_000]
    assert sum(result["levels"]) == 4 * _positions(28)
    assert result["reference"]["exact_seconds"] > result["reference"]["dense_seconds"]


def _positions(top):
    """Positions of 2 players with 1..top chips in play, counted type by type (the most
    valuable first): a type may hold chips aside only while no more valuable plate does."""
    configs = [(p, a) for p in range(5) for a in range(5 - p) for _ in range(5 - p - a)]
    ways = {(0, False): 1}
    for _ in range(7):
        found = {}
        for (k, above), n in ways.items():
            for p, a in configs:
                if not (a and above) and k + p + a <= top:
                    key = (k + p + a, above or p > 0)
                    found[key] = found.get(key, 0) + n
        ways = found
    return sum(n for (k, _), n in ways.items() if k >= 1)
