"""Benchmark `kniffel serve`: advice and game requests over loopback HTTP; writes JSON (default
benchmarks/results/web.json).

A server (`kniffel serve` on 127.0.0.1, a free port, its own table store) runs in a subprocess;
one keep-alive client sends a bounded number of requests and stops:
  first_advise_seconds   the first POST /api/advise of the new server (loads the table)
  advise_warm            POST /api/advise on random positions of random seeded games, warm:
                         median, p95 and max milliseconds (target: <= 30 ms)
  game_step_warm         POST /api/game with a move (replays the record, checks the move, advises)
  reference_solve_warm_seconds  the expected-score solve of the same rules, warm, in this run

With --load SECONDS, a load run instead (benchmarks/web_load.py, default results/web_load.json):
--clients concurrent clients for SECONDS, mixing advice, game moves and win requests; with
--liveness N, N GETs of /api/info and of the page while a worker computes, and the seconds to an
idle pool after a disconnect and to the exit after SIGTERM (results/web_liveness.json).

    python benchmarks/web.py --requests 300
    python benchmarks/web.py --load 30 --clients 20
    python benchmarks/web.py --liveness 100
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
TARGET_MS = 30

from web_load import free_port, liveness_run, load_run, positions  # noqa: E402


def stats_ms(times):
    times = sorted(1000 * t for t in times)
    return {"requests": len(times), "median_ms": times[len(times) // 2],
            "p95_ms": times[int(0.95 * (len(times) - 1))], "max_ms": times[-1],
            "mean_ms": sum(times) / len(times)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--out")
    parser.add_argument("--load", type=float,
                        help="seconds of a load run (instead of the sequential one)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--liveness", type=int,
                        help="GETs timed while a worker computes (a liveness run)")
    args = parser.parse_args()
    if args.liveness:
        liveness_run(args.liveness, args.out or str(HERE / "results" / "web_liveness.json"))
        return
    if args.load:
        load_run(args.rules, args.load, args.clients,
                 args.out or str(HERE / "results" / "web_load.json"))
        return
    args.out = args.out or str(HERE / "results" / "web.json")

    import httpx

    from solver import __version__, solve
    store = tempfile.mkdtemp(prefix="kniffel-web-bench-")
    t = time.perf_counter()
    solve(args.rules, progress=False).save(store)  # compile and solve, outside the timing
    solve_first = time.perf_counter() - t
    t = time.perf_counter()
    solve(args.rules, progress=False)
    solve_warm = time.perf_counter() - t

    port = free_port()
    env = {**os.environ, "KNIFFEL_TABLES": store}
    server = subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--port", str(port)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=120,
                          headers={"content-type": "application/json"}) as client:
            deadline = time.monotonic() + 60
            while True:
                try:
                    client.get("/api/info")
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit(f"the server did not start: {server.stderr.read()}")
                    time.sleep(0.1)
            lines = [json.dumps(line).encode()
                     for line in positions(args.rules, args.requests + 1, 1)]
            t = time.perf_counter()
            assert client.post("/api/advise", content=lines[0]).status_code == 200
            first = time.perf_counter() - t
            advise_times = []
            for body in lines[1:]:
                t = time.perf_counter()
                response = client.post("/api/advise", content=body)
                advise_times.append(time.perf_counter() - t)
                assert response.status_code == 200, response.text
            state = client.post("/api/new", json={"rules": args.rules, "seed": 5}).json()
            game_times = []
            while not state["over"] and len(game_times) < args.requests:
                move = {"roll": True} if state["hand"] is None else (
                    {"keep": state["advice"]["options"][0]["keep"]}
                    if state["advice"]["options"][0]["action"] == "keep"
                    else {"box": state["advice"]["options"][0]["box"]})
                t = time.perf_counter()
                response = client.post("/api/game", json={"record": state["record"],
                                                          "hand": state["hand"], "move": move})
                game_times.append(time.perf_counter() - t)
                state = response.json()
    finally:
        server.terminate()
        server.wait(10)

    import numba
    results = {"machine": {"python": platform.python_version(), "platform": platform.platform(),
                           "cpus": os.cpu_count(), "numba": numba.__version__},
               "kniffel_version": __version__, "rules": args.rules, "target_ms": TARGET_MS,
               "first_advise_seconds": first, "advise_warm": stats_ms(advise_times),
               "game_step_warm": stats_ms(game_times),
               "reference_solve_first_seconds": solve_first,
               "reference_solve_warm_seconds": solve_warm}
    results["advise_within_target"] = results["advise_warm"]["p95_ms"] <= TARGET_MS
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
