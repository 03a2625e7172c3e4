"""The benchmark suite runs end to end and reports what it measured (no timing is asserted)."""
import importlib.util
import json
from pathlib import Path

import pytest

from solver.bench import run_suite, summary_rows, text_table
from solver.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_suite_measures_every_step(table_dir):
    results = run_suite(["kniffel-basic"], repeat=1, batch_lines=40, games=300, progress=False)
    entry = results["presets"]["kniffel-basic"]
    assert results["settings"] == {"repeat": 1, "batch_lines": 40, "games": 300, "cold": False,
                                   "rounds": 1}
    assert entry["states"] == 357_632
    assert entry["expected_score"] == pytest.approx(245.8707745, abs=1e-6)
    assert [p["open_boxes"] for p in entry["scaling"]] == list(range(1, 14))
    assert entry["batch"]["lines"] == 40
    for strategy in ("optimal", "greedy"):
        sim = entry["simulate"][strategy]
        assert sim["games"] == 300 and sim["games_per_second"] > 0 and sim["first_call_seconds"] > 0
    # the games really were played: 300 games (sd about 40) put the optimal mean within a few
    # points of the solved 245.87, and greedy play (about 145) far below it
    assert abs(entry["simulate"]["optimal"]["mean_score"] - entry["expected_score"]) < 20
    assert entry["simulate"]["greedy"]["mean_score"] < entry["expected_score"] - 40
    text = text_table(results)
    assert "kniffel-basic" in text and "357,632" in text and "simulate optimal" in text
    json.dumps(results)  # --json can print it


@pytest.mark.slow
def test_rounds_keep_the_best_figures(table_dir):
    results = run_suite(["kniffel-basic"], repeat=1, batch_lines=40, games=100, progress=False,
                        rounds=2)
    entry = results["presets"]["kniffel-basic"]
    assert results["settings"]["rounds"] == 2 and entry["rounds"] == 2
    assert len(entry["warm_all"]) == 2 and entry["warm_seconds"] == min(entry["warm_all"])
    assert entry["batch"]["lines"] == 40 and entry["advise_process"]["best_seconds"] > 0
    assert "in each of 2 rounds" in text_table(results)


def test_benchmark_script_summarizes_old_results():
    """benchmarks/solve.py still reads results written before simulation was measured."""
    spec = importlib.util.spec_from_file_location("bench_script", ROOT / "benchmarks" / "solve.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    results = json.loads((ROOT / "benchmarks" / "results" / "solve.json").read_text())
    text = script.summary_markdown(results)
    for name, entry in results["presets"].items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{name}` |"))
        assert f"{entry['states']:,}" in row and f"{entry['warm_seconds']:.3f} s" in row
    assert len(summary_rows(next(iter(results["presets"].values())))) == 12


@pytest.mark.parametrize("args", [("--rules", "nope"), ("--repeat", "0"), ("--games", "x")])
def test_bad_input_is_one_line_exit_2(capsys, args):
    try:
        main(["bench", *args])
        code = 0
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("kniffel: error:") and len(err.strip().splitlines()) == 1
