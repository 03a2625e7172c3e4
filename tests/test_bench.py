"""The benchmark suite's summaries and its command's errors (its whole run, every step: the solve
benchmark's test in tests/test_benchmarks.py).  No timing is asserted."""
import importlib.util
import json
from pathlib import Path

import pytest

from solver.bench import summary_rows
from solver.cli import main

ROOT = Path(__file__).resolve().parent.parent


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
