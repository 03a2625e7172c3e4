"""First run on a fresh machine: install into a new virtual environment, then ask for a move.

Measures `pip install --no-cache-dir .` (downloads included), the first `kniffel advise --dice
1,3,3,5,6 --rolls-left 2` with every cache empty (target: at most 5 s), a second one, and, for
information, the first and second advise of a preset the package does not ship a table for
(--other, default yahtzee: compiles the kernels, solves and saves its table).

Then the web coach as a player meets it: `pip install --no-cache-dir ".[web]"`, `kniffel serve`
started (until it answers), the first tap on Start (POST /api/new, Kniffel, goal points: target
at most 10 s) and the first advice (the first roll's POST /api/game); then a first win request,
answered for points while a job compiles the win coach's kernels, and the seconds until that
job is done; and finally SIGTERM, after which no process of the server may remain.  Writes
JSON (default benchmarks/results/first_run.json).

Empty caches: HOME and XDG_CACHE_HOME point into a temporary directory (the user cache, where
the table store and the compiled kernels live by default), KNIFFEL_KERNEL_CACHE (and, for
versions before it, NUMBA_CACHE_DIR) at an empty directory in it; KNIFFEL_TABLES is unset, so the
default store is used.  Afterwards it checks that nothing was written into the installed package
(every file under site-packages/solver/ is in pip's RECORD).

    python benchmarks/first_run.py
    python benchmarks/first_run.py --other knobeln --out /tmp/first_run.json
"""
import argparse
import csv
import json
import os
import platform
import resource
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGET_SECONDS = 5.0
START_TARGET_SECONDS = 10.0  # the first tap on Start, on a fresh install with empty caches
ADVISE = ["advise", "--dice", "1,3,3,5,6", "--rolls-left", "2", "--json"]


CPU = {}  # command name -> CPU seconds (user + system) of the process and its children


def timed(cmd, env, cwd, name):
    """Wall seconds, stdout, stderr of `cmd`; its CPU seconds go to CPU[name] (on a busy machine
    the wall time grows, the CPU time much less)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    CPU[name] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, done.stdout, done.stderr


def site_packages(python, env):
    """The site-packages folder of the interpreter `python`."""
    return Path(subprocess.run([str(python), "-c",
                                "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               env=env, capture_output=True, text=True, check=True).stdout.strip())


def unrecorded_files(site):
    """Files under the package's directory in `site` that pip did not install (its RECORD)."""
    recorded = set()
    for record in site.glob("kniffel-*.dist-info/RECORD"):
        with record.open(newline="") as handle:
            recorded |= {(site / row[0]).resolve() for row in csv.reader(handle) if row}
    package = site / "solver"
    found = [p.resolve() for p in package.rglob("*") if p.is_file()] if package.exists() else []
    return sorted(str(p.relative_to(site)) for p in found if p not in recorded)


def _family(pid):
    """`pid` and the processes below it that are alive (Linux /proc; [] elsewhere)."""
    children = {}
    for entry in (os.listdir("/proc") if os.path.isdir("/proc") else []):
        if not entry.isdigit():  # self, thread-self, ...
            continue
        try:
            fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        each = todo.pop()
        found.append(each)
        todo += children.get(each, [])
    return found


def first_web_game(kniffel, env, cwd):
    """The seconds of `kniffel serve`'s start, the first Start and the first advice, and of the
    win coach's first preparation (module docstring); the processes left after SIGTERM."""
    import httpx
    started = time.perf_counter()
    server = subprocess.Popen([kniffel, "serve", "--port", "0"], env=env, cwd=cwd, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        base = server.stdout.readline().strip().removeprefix("kniffel serve: ").rstrip("/")
        while True:
            try:
                httpx.get(base + "/api/info", timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        up = time.perf_counter() - started
        new = {"rules": "kniffel", "players": ["Ann", "Ben"], "language": "de"}
        t = time.perf_counter()
        state = httpx.post(base + "/api/new", json=new, timeout=900).json()
        start = time.perf_counter() - t
        t = time.perf_counter()
        state = httpx.post(base + "/api/game", timeout=900, json={
            "record": state["record"], "move": {"roll": True}, "language": "de"}).json()
        advice = time.perf_counter() - t
        t = time.perf_counter()
        win = httpx.post(base + "/api/game", timeout=900, json={
            "record": state["record"], "hand": state["hand"], "goal": "win", "language": "de"})
        win_first = time.perf_counter() - t
        job = win.json().get("job")
        while job is not None and job["state"] == "running":
            time.sleep(1)
            job = next(j for j in httpx.get(base + "/api/jobs").json()["jobs"]
                       if j["kind"] == "warm")
        prepared = time.perf_counter() - t
        family = _family(server.pid)
    finally:
        server.terminate()
        server.wait(30)
    time.sleep(10)
    left = [pid for pid in family if os.path.exists(f"/proc/{pid}")]
    return {"serve_start_seconds": up, "first_start_seconds": start,
            "first_advice_seconds": advice, "first_advice_ok": "advice" in state,
            "first_win_request_seconds": win_first,
            "first_win_request_goal": win.json().get("goal"),
            "win_coach_prepared_seconds": prepared if job is not None else None,
            "win_job_state": None if job is None else job["state"],
            "processes_left_10_s_after_sigterm": len(left)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "results" / "first_run.json"))
    parser.add_argument("--other", default="yahtzee",
                        help="a preset without a shipped table (default yahtzee)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        venv = scratch / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = venv / "bin" / "python"
        kniffel = str(venv / "bin" / "kniffel")
        elsewhere = scratch / "elsewhere"  # not the checkout: the installed package is imported
        elsewhere.mkdir()
        env = {k: v for k, v in os.environ.items()
               if k not in ("KNIFFEL_TABLES", "KNIFFEL_KERNEL_CACHE", "NUMBA_CACHE_DIR",
                            "PYTHONPATH")}
        kernels = scratch / "cache" / "kernels-empty"
        env.update(HOME=str(scratch / "home"), XDG_CACHE_HOME=str(scratch / "cache"),
                   KNIFFEL_KERNEL_CACHE=str(kernels), NUMBA_CACHE_DIR=str(kernels),
                   PIP_DISABLE_PIP_VERSION_CHECK="1")
        (scratch / "home").mkdir()
        load_before = os.getloadavg()[0]
        install, _, _ = timed([str(python), "-m", "pip", "install", "-q", "--no-cache-dir",
                               str(ROOT)],
                              env, elsewhere, "install")
        store = scratch / "cache" / "kniffel"  # the default table store under XDG_CACHE_HOME

        def compiled():
            return len(list(kernels.rglob("*.nbi"))) if kernels.exists() else 0

        first, out, _ = timed([kniffel, *ADVISE], env, elsewhere, "first_advise")
        first_solved, first_compiled = (store / "kniffel.json").exists(), compiled()
        second, again, _ = timed([kniffel, *ADVISE], env, elsewhere, "second_advise")
        other = [kniffel, *ADVISE, "--rules", args.other]
        other_first, other_out, _ = timed(other, env, elsewhere, "other_first_advise")
        other_solved = any(store.glob(f"{args.other}*.json"))
        other_compiled = compiled() - first_compiled
        other_second, other_again, _ = timed(other, env, elsewhere, "other_second_advise")
        stray = unrecorded_files(site_packages(python, env))
        web_install, _, _ = timed([str(python), "-m", "pip", "install", "-q", "--no-cache-dir",
                                   f"{ROOT}[web]"], env, elsewhere, "web_install")
        web = first_web_game(kniffel, env, elsewhere)
    result = {
        "install_seconds": install,
        "first_advise_seconds": first,
        "first_advise_solved": first_solved,  # solved and saved the table (else: a shipped one)
        "first_advise_kernels_compiled": first_compiled,  # cache index files written
        "install_plus_first_advise_seconds": install + first,
        "second_advise_seconds": second,
        "same_answer": json.loads(out) == json.loads(again),
        "target_seconds": TARGET_SECONDS,
        "meets_target": first <= TARGET_SECONDS,
        "other_preset": args.other,
        "other_first_advise_seconds": other_first,
        "other_first_advise_solved": other_solved,
        "other_first_advise_kernels_compiled": other_compiled,
        "other_second_advise_seconds": other_second,
        "other_same_answer": json.loads(other_out) == json.loads(other_again),
        "files_written_into_package": stray,
        "web_install_seconds": web_install,
        **web,
        "start_target_seconds": START_TARGET_SECONDS,
        "meets_start_target": web["first_start_seconds"] <= START_TARGET_SECONDS,
        "cpu_seconds": CPU,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": sysconfig.get_platform(),
                    "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)]},
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    if stray:
        sys.exit(f"files written into the installed package: {stray[:5]}")


if __name__ == "__main__":
    main()
