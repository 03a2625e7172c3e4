"""First run on a fresh machine: install into a new virtual environment, then ask for a move.

Measures `pip install --no-cache-dir .` (downloads included), the first `kniffel advise` (empty
numba cache and table store: compiles the kernels, solves and saves the table) and a second one
(must load both), and writes JSON (default benchmarks/results/first_run.json).

    python benchmarks/first_run.py
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def timed(cmd, env):
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    return time.perf_counter() - start, done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "results" / "first_run.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        venv = Path(scratch) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = venv / "bin" / "python"
        env = dict(os.environ, KNIFFEL_TABLES=str(Path(scratch) / "tables"),
                   NUMBA_CACHE_DIR=str(Path(scratch) / "numba"), PIP_DISABLE_PIP_VERSION_CHECK="1")
        install, _ = timed([str(python), "-m", "pip", "install", "-q", "--no-cache-dir", str(ROOT)], env)
        advise = [str(venv / "bin" / "kniffel"), "advise", "--dice", "1,3,3,5,6", "--rolls-left", "2",
                  "--json"]
        first, out = timed(advise, env)
        second, again = timed(advise, env)
    result = {"install_seconds": install, "first_advise_seconds": first,
              "install_plus_first_advise_seconds": install + first,
              "second_advise_seconds": second, "same_answer": json.loads(out) == json.loads(again),
              "target_seconds": 30}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
