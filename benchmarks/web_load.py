"""The load and liveness runs of benchmarks/web.py, and the helpers both share (a free port,
positions of seeded games).  Load: a `kniffel serve` (127.0.0.1, a free port, its default
workers and budget) and N concurrent clients for S seconds, each a keep-alive connection sending
a seeded mix of requests, one at a time, until the time is up:
  advise  60%  POST /api/advise, a position of a seeded game
  game    25%  POST /api/game, the client's own game (two players, playing for points), one move
  win     15%  POST /api/advise with opponents: three in four late in a game (answered), one in
               four early (predicted over the budget: refused at once with a 400 saying so)
Written (JSON): requests and throughput, p50/p99/max latency per kind and overall, the answers
by status, errors (5xx but 503, and connection errors; a 400 of a win request refused by the
budget is an answer), the 503s of a full queue (the client backs off 0.2 s after one), the
server's peak memory (the largest sum of the resident memory of the server and its workers,
sampled every 0.25 s, and each process's own peak from /proc: Linux only), and the expected-score
solve of the same rules measured in this run as the reference.

    python benchmarks/web.py --load 30 --clients 20

Liveness (results/web_liveness.json): while a worker computes a minute-long win request, the
milliseconds of GET /api/info and of the page (target: 50 ms), the seconds from its client's
disconnect to an idle pool and from SIGTERM mid-computation to the server's exit (target: 2 s).

    python benchmarks/web.py --liveness 100
"""
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

JSON = {"content-type": "application/json"}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def positions(rules, count, seed):
    """Batch lines of positions met in seeded games played by a random policy."""
    import numpy as np

    from solver.game import session
    from solver.game.card import Game
    rng = np.random.default_rng(seed)
    lines = []
    while len(lines) < count:
        game = Game(rules, ["a"], int(rng.integers(2**32)))
        while not game.over and len(lines) < count:
            turn = game.next_turn()
            while not turn.done:
                turn.roll(rng.integers(1, 7, size=turn.n_to_roll).tolist())
                line = session.advice_line(game, turn)
                lines.append({"rules": rules, **line})
                if turn.rolls_left and rng.random() < 0.6:
                    keep = [f for f in turn.dice if rng.random() < 0.5][:4]
                    turn.keep(keep)
                else:
                    turn.score(rng.choice(list(turn.options())))
    return lines


def _kib(pid, field):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid):
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                pass
    return found


class Memory(threading.Thread):
    """The resident memory of a process and its children, sampled until stop is set."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.stop, self.peak_sum, self.peaks = pid, threading.Event(), 0, {}

    def run(self):
        while not self.stop.wait(0.25):
            pids = [self.pid] + _children(self.pid)
            self.peak_sum = max(self.peak_sum, sum(_kib(p, "VmRSS") for p in pids))
            for p in pids:
                self.peaks[p] = max(self.peaks.get(p, 0), _kib(p, "VmHWM"))


def _lines(rules):
    """Advice lines, and win lines late (6 or fewer open boxes) and early (9 or more)."""
    lines = positions(rules, 400, 1)
    late = [line for line in lines if len(line["card"]) >= 7]
    early = [line for line in lines if len(line["card"]) <= 4]
    rng = random.Random(2)

    def win(pool):
        line = dict(rng.choice(pool))
        line["opponents"] = [{"card": rng.choice(pool)["card"]}, {"final": rng.randrange(150, 300)}]
        return line

    return lines, [win(late) for _ in range(60)], [win(early) for _ in range(20)]


def _client(base, seconds, seed, lines, late, early, out):
    import httpx
    rng = random.Random(seed)
    game = None
    end = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=60, headers=JSON) as client:
        while time.monotonic() < end:
            pick = rng.random()
            if pick < 0.60:
                kind, path, body = "advise", "/api/advise", rng.choice(lines)
            elif pick < 0.85:
                kind, path = "game", "/api/game"
                if game is None or game["over"]:
                    path, game = "/api/new", None
                    body = {"players": ["a", "b"], "seed": rng.randrange(2**31)}
                else:
                    body = {"record": game["record"], "hand": game["hand"], "move": _move(game)}
            else:
                kind, path = "win", "/api/advise"
                body = rng.choice(late) if rng.random() < 0.75 else rng.choice(early)
            start = time.perf_counter()
            try:
                response = client.post(path, content=json.dumps(body))
                status = response.status_code
                if kind == "game" and status == 200:
                    game = response.json()
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            out.append((kind, status, time.perf_counter() - start))
            if status == 503:  # busy: back off a little, as the page would before trying again
                time.sleep(0.2)


def _move(state):
    if state["hand"] is None:
        return {"roll": True}
    best = state["advice"]["options"][0]
    return {"keep": best["keep"]} if best["action"] == "keep" else {"box": best["box"]}


def _percentiles(times):
    times = sorted(times)
    if not times:
        return {}
    at = lambda q: 1000 * times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    return {"requests": len(times), "p50_ms": at(0.50), "p99_ms": at(0.99),
            "max_ms": 1000 * times[-1]}


def _start_server(store, *options):
    """A `kniffel serve` on a free port with its workers warmed up: (process, base URL, status)."""
    import httpx
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--port", str(port),
                               *options],
                              env={**os.environ, "KNIFFEL_TABLES": store}, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):  # until every worker has warmed up
        try:
            status = httpx.get(base + "/api/jobs", timeout=5).json()
            if all(p["ready"] for p in status["processes"]):
                return server, base, status
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def load_run(rules, seconds, clients, out_path):
    """Run the load (module docstring) and write its JSON to `out_path`."""
    from solver import __version__, solve
    start = time.perf_counter()
    solve(rules, progress=False)
    reference = time.perf_counter() - start  # warm if this machine's kernels are compiled
    server, base, status = _start_server(tempfile.mkdtemp(prefix="kniffel-web-load-"))
    try:
        lines, late, early = _lines(rules)
        memory = Memory(server.pid)
        memory.start()
        results = []
        threads = [threading.Thread(target=_client,
                                    args=(base, seconds, seed, lines, late, early, results))
                   for seed in range(clients)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(seconds + 120)
        elapsed = time.perf_counter() - began
        memory.stop.set()
        workers = status["workers"]
    finally:
        server.terminate()
        server.wait(10)
    by_status = {}
    for kind, status, _ in results:
        by_status.setdefault(kind, {}).setdefault(str(status), 0)
        by_status[kind][str(status)] += 1
    errors = sum(1 for _, status, _ in results
                 if not isinstance(status, int) or (status >= 500 and status != 503))
    busy = sum(1 for _, status, _ in results if status == 503)
    import numba
    report = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count(), "numba": numba.__version__},
        "kniffel_version": __version__, "rules": rules, "clients": clients, "seconds": seconds,
        "server_workers": workers, "elapsed_seconds": elapsed,
        "requests": len(results), "throughput_per_second": len(results) / elapsed,
        "latency": {"all": _percentiles([t for _, _, t in results]),
                    **{kind: _percentiles([t for k, _, t in results if k == kind])
                       for kind in ("advise", "game", "win")}},
        "answers_by_status": by_status, "errors": errors, "busy_503": busy,
        "server_peak_rss_mb_sampled": memory.peak_sum / 1024,
        "process_peak_rss_mb": sorted((v / 1024 for v in memory.peaks.values()), reverse=True),
        "reference_solve_seconds": reference,
    }
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))


# The request that froze the server for a minute (ten boxes filled, an opponent at the
# start of the game): minutes of work, its own budget and the server's raised so that it runs
# (within the default budget the advice refuses it at once, predicted too long).
LONG = {"card": {"ones": 0, "twos": 6, "threes": 0, "fours": 12, "fives": 0, "sixes": 0,
                 "three_kind": 20, "four_kind": 0, "full_house": 25, "small_straight": 30},
        "dice": [5, 5, 5, 6, 6], "rolls_left": 1, "opponents": [{"card": {}}], "budget": 600}


def _get_seconds(base, path):
    """(status, seconds) of a GET on a new connection, from connecting to the last byte."""
    host, port = base.removeprefix("http://").split(":")
    start = time.perf_counter()
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Connection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1]), time.perf_counter() - start


def _send_long(base):
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    data = json.dumps(LONG).encode()
    sock.sendall(f"POST /api/advise HTTP/1.1\r\nHost: {host}:{port}\r\n"
                 "content-type: application/json\r\n"
                 f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    return sock


def _busy(base):
    import httpx
    return httpx.get(base + "/api/jobs", timeout=5).json()["busy"]


def _until(condition, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end and not condition():
        time.sleep(0.01)


def liveness_run(samples, out_path):
    """While a worker computes the issue's minute-long request: the milliseconds of `samples`
    GETs of /api/info and of the page; then the seconds from the client's disconnect until the
    pool is idle, and from SIGTERM (another long request running) until the server has exited."""
    import signal
    server, base, _ = _start_server(tempfile.mkdtemp(prefix="kniffel-web-live-"),
                                    "--time-limit", "600")
    try:
        long = _send_long(base)
        _until(lambda: _busy(base) == 1, 10)
        if _busy(base) != 1:
            raise SystemExit("the long request did not start: nothing would be measured")
        time.sleep(1)
        info = [_get_seconds(base, "/api/info")[1] for _ in range(samples)]
        page = [_get_seconds(base, "/")[1] for _ in range(samples)]
        long.close()
        start = time.perf_counter()
        _until(lambda: _busy(base) == 0, 30)
        idle = time.perf_counter() - start
        long = _send_long(base)
        _until(lambda: _busy(base) == 1, 10)
        busy_at_sigterm = _busy(base)
        start = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        stopped = time.perf_counter() - start
        long.close()
    finally:
        if server.poll() is None:
            server.kill()
    report = {"samples": samples, "what": "a kniffel serve with --budget 600 computing the issue's "
              "minute-long win request; each GET on a new connection, timed to its last byte",
              "info_while_busy": _percentiles(info), "page_while_busy": _percentiles(page),
              "disconnect_to_idle_seconds": idle, "sigterm_to_exit_seconds": stopped,
              "busy_at_sigterm": busy_at_sigterm,
              "target_ms": 50, "target_seconds": 2}
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
