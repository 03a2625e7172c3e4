"""The binning of the Dice Duel's calibration benchmark (multiplayer.match.calibration), worked
by hand; the benchmarks' smoke runs are in test_benchmarks.py with the others."""
import numpy as np
import pytest

from solver.duel.multiplayer.match import calibration


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


def test_the_interval_margin_is_what_the_calibration_measured():
    """estimate.MARGIN, the widening of an estimate's interval, is the committed calibration's
    (benchmarks/duel_calibration.py: its worst decile of estimated chances, rounded up)."""
    import json
    from pathlib import Path

    from solver.duel.multiplayer import estimate
    results = Path(__file__).resolve().parent.parent / "benchmarks" / "results"
    summary = json.loads((results / "duel_calibration.json").read_text())["2p"]["summary"]
    assert estimate.MARGIN == summary["margin"] > 0
    assert summary["estimated"]["decisions"] >= 2000
