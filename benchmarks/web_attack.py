"""`kniffel serve` under hostile clients on loopback: what every client gets, and how /api/info
answers meanwhile; writes JSON (default benchmarks/results/web_attack.json).

A server (`kniffel serve`, 127.0.0.1, a free port, its default limits and workers) runs in a
subprocess, and three scenarios run one after the other against it:
  burst      BURST simultaneous POST /api/advise from 127.0.0.1, each on a socket of its own,
             all sent at once (a barrier): how many got an HTTP answer, by status, how many a
             503 with Retry-After, how many were reset or closed without an answer
  slow_body  SLOW connections spread over 127.0.0.2-127.0.0.31 that send complete headers of
             a POST /api/advise and then dribble the body a byte a second, for SECONDS; a probe
             asks GET /api/info (a new connection each) every 0.2 s meanwhile: its answers by
             status and p50/p95 milliseconds, and how the attackers ended (a 408, another
             answer, closed or reset without one, still sending at the end)
  soak       CLIENTS clients for SECONDS, each a keep-alive connection sending the mixed load of
             benchmarks/web_load.py (advice, game moves, win requests), while idle sockets and
             slow bodies come and go from other addresses: answers by status, resets, and the
             p50/p95 of /api/info, probed as above

    python benchmarks/web_attack.py                       # 50, 300 for 20 s, 20 clients for 60 s
    python benchmarks/web_attack.py --burst 50 --slow 300 --slow-seconds 20 --soak 240

No figure is a pass or a fail here: tests/test_web_connections.py asserts what must hold.
"""
import argparse
import json
import os
import platform
import random
import select
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from web_load import _client, _lines, _percentiles, free_port  # noqa: E402

LINE = {"card": {"ones": 3}, "dice": [1, 3, 3, 5, 6], "rolls_left": 2}


def _address(base):
    host, port = base.removeprefix("http://").split(":")
    return host, int(port)


def _request(base, body, method="POST", path="/api/advise", length=None):
    host, port = _address(base)
    length = len(body) if length is None else length
    return (f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\ncontent-type: application/json"
            f"\r\nContent-Length: {length}\r\n\r\n").encode() + body


def _answer(sock, seconds):
    """(status, headers text) of the HTTP answer read from `sock`, or ("reset" | "closed" |
    "timeout", "") when none came."""
    sock.settimeout(seconds)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return ("closed", "") if not data.startswith(b"HTTP/") else _parsed(data)
            data += chunk
    except ConnectionResetError:
        return ("reset", "") if not data.startswith(b"HTTP/") else _parsed(data)
    except socket.timeout:
        return "timeout", ""
    return _parsed(data)


def _parsed(data):
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    try:
        return int(head.split(" ", 2)[1]), head.lower()
    except (IndexError, ValueError):
        return "garbled", head.lower()


def _counted(results):
    """{"answered", "reset", "closed", "timeout", "by_status", "busy_503",
    "busy_503_with_retry_after"} of [(status, headers)]."""
    by_status = {}
    for status, _ in results:
        by_status[str(status)] = by_status.get(str(status), 0) + 1
    answered = sum(1 for status, _ in results if isinstance(status, int))
    busy = [head for status, head in results if status == 503]
    return {"requests": len(results), "answered": answered,
            "reset": by_status.get("reset", 0), "closed": by_status.get("closed", 0),
            "timeout": by_status.get("timeout", 0), "by_status": by_status,
            "busy_503": len(busy),
            "busy_503_with_retry_after": sum("retry-after:" in head for head in busy)}


def burst(base, count, seconds=120):
    """`count` POST /api/advise at once, each on its own socket: _counted of their answers."""
    results = []
    barrier = threading.Barrier(count)

    def one(i):
        line = dict(LINE, card={"ones": 3, "twos": 2 * (i % 5)})
        try:
            sock = socket.create_connection(_address(base), timeout=seconds)
        except OSError as exc:
            barrier.abort()
            results.append((f"connect: {exc.strerror or exc}", ""))
            return
        with sock:
            try:
                barrier.wait(30)
            except threading.BrokenBarrierError:
                pass
            try:
                sock.sendall(_request(base, json.dumps(line).encode()))
            except OSError:
                results.append(("reset", ""))
                return
            results.append(_answer(sock, seconds))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    return {"connections": count, "seconds": time.perf_counter() - start, **_counted(results)}


class Prober(threading.Thread):
    """GET /api/info on a new connection every `every` seconds until stopped: [(status, ms)]."""

    def __init__(self, base, every=0.2):
        super().__init__(daemon=True)
        self.base, self.every, self.stop, self.results = base, every, threading.Event(), []

    def run(self):
        while not self.stop.is_set():
            start = time.perf_counter()
            try:
                with socket.create_connection(_address(self.base), timeout=30) as sock:
                    host, port = _address(self.base)
                    sock.sendall(f"GET /api/info HTTP/1.1\r\nHost: {host}:{port}\r\n"
                                 "Connection: close\r\n\r\n".encode())
                    status, head = _answer(sock, 30)
                    if isinstance(status, int):  # read the body to its end: the answer's time
                        while sock.recv(65536):
                            pass
            except OSError as exc:
                status, head = ("reset" if isinstance(exc, ConnectionResetError)
                                else f"error: {exc.strerror or exc}"), ""
            self.results.append((status, head, time.perf_counter() - start))
            self.stop.wait(self.every)

    def report(self):
        answers = _counted([(s, h) for s, h, _ in self.results])
        times = [t for s, _, t in self.results if s == 200]
        timing = _percentiles(times)
        return {**answers, "ok_200": answers["by_status"].get("200", 0),
                "p50_ms": timing.get("p50_ms"),
                "p95_ms": (1000 * sorted(times)[min(len(times) - 1, int(0.95 * len(times)))]
                           if times else None),
                "max_ms": timing.get("max_ms")}


def _slow_senders(base, count, seconds, first_address=2, addresses=30, stop=None):
    """`count` sockets from 127.0.0.{first_address}... that send complete headers (a body of
    200 bytes announced) then one body byte a second each, for `seconds` (or until `stop` is
    set): how each ended, {"408", other statuses, "closed", "reset", "still_sending"}."""
    body_length = 200
    open_, ended = {}, {}
    for i in range(count):
        try:
            sock = socket.socket()
            sock.bind((f"127.0.0.{first_address + i % addresses}", 0))
            sock.connect(_address(base))
            sock.sendall(_request(base, b"", length=body_length))
            sock.setblocking(False)
            open_[sock] = 0
        except OSError as exc:
            ended[f"connect: {exc.strerror or exc}"] = ended.get(
                f"connect: {exc.strerror or exc}", 0) + 1
    end = time.monotonic() + seconds
    while open_ and time.monotonic() < end and not (stop and stop.is_set()):
        readable, _, _ = select.select(list(open_), [], [], 1.0)
        for sock in readable:  # an answer or a close: this attacker is done
            try:
                data = sock.recv(65536)
                how = str(_parsed(data)[0]) if data.startswith(b"HTTP/") else "closed"
            except OSError:
                how = "reset"
            ended[how] = ended.get(how, 0) + 1
            open_.pop(sock)
            sock.close()
        for sock in list(open_):
            try:
                if open_[sock] < body_length - 1:
                    sock.send(b" ")
                    open_[sock] += 1
            except OSError:
                ended["reset"] = ended.get("reset", 0) + 1
                open_.pop(sock)
                sock.close()
    ended["still_sending"] = len(open_)
    for sock in open_:
        sock.close()
    return ended


def slow_body(base, count, seconds):
    """The slow-body attack with /api/info probed meanwhile (module docstring)."""
    prober = Prober(base)
    prober.start()
    ended = _slow_senders(base, count, seconds)
    prober.stop.set()
    prober.join(40)
    return {"connections": count, "seconds": seconds, "body_bytes_per_second": 1,
            "attackers_ended": ended, "info_during_attack": prober.report()}


def _idle_sockets(base, stop, count=40, first_address=40):
    """Hold `count` idle connections (from 127.0.0.first_address...), opening new ones as the
    server closes them, until `stop` is set: how many were opened."""
    opened, sockets = 0, []
    while not stop.is_set():
        sockets = [s for s in sockets if s.fileno() >= 0]
        while len(sockets) < count:
            try:
                sock = socket.socket()
                sock.bind((f"127.0.0.{first_address + opened % 20}", 0))
                sock.connect(_address(base))
                sockets.append(sock)
                opened += 1
            except OSError:
                break
        readable, _, _ = select.select(sockets, [], [], 0.5) if sockets else ([], [], [])
        for sock in readable:
            sock.close()
        stop.wait(0.2)
    for sock in sockets:
        sock.close()
    return opened


def soak(base, seconds, clients, rules="kniffel", slow=100):
    """Mixed load from `clients` clients for `seconds`, with idle sockets and slow bodies from
    other addresses meanwhile (module docstring)."""
    lines, late, early = _lines(rules)
    results, stop = [], threading.Event()
    prober = Prober(base, every=0.5)
    hostile = {}

    def slow_waves():
        waves = []
        while not stop.is_set():
            waves.append(_slow_senders(base, slow, 12, first_address=70, stop=stop))
        hostile["slow_waves"] = waves

    idle_thread = threading.Thread(target=lambda: hostile.update(
        idle_opened=_idle_sockets(base, stop)), daemon=True)
    slow_thread = threading.Thread(target=slow_waves, daemon=True)
    threads = [threading.Thread(target=_client, args=(base, seconds, seed, lines, late, early,
                                                      results))
               for seed in range(clients)]
    began = time.perf_counter()
    for thread in [prober, idle_thread, slow_thread, *threads]:
        thread.start()
    for thread in threads:
        thread.join(seconds + 120)
    stop.set()
    prober.stop.set()
    for thread in (prober, idle_thread, slow_thread):
        thread.join(40)
    elapsed = time.perf_counter() - began
    by_status = {}
    for kind, status, _ in results:
        by_status[str(status)] = by_status.get(str(status), 0) + 1
    errors = sum(1 for _, status, _ in results if not isinstance(status, int))
    return {"clients": clients, "seconds": seconds, "elapsed_seconds": elapsed,
            "requests": len(results), "answered": len(results) - errors,
            "connection_errors": errors, "by_status": by_status,
            "server_errors_5xx_not_503": sum(1 for _, s, _ in results
                                             if isinstance(s, int) and s >= 500 and s != 503),
            "busy_503": by_status.get("503", 0),
            "latency": _percentiles([t for _, _, t in results]),
            "hostile": hostile, "info_during_soak": prober.report()}


def _serve(store, log):
    """A `kniffel serve` on a free port, its log written to `log` (a pipe could fill and stop
    it), once every worker is ready: (process, base URL, GET /api/jobs)."""
    import subprocess

    import httpx
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--port", str(port)],
                              env={**os.environ, "KNIFFEL_TABLES": store},
                              stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            status = httpx.get(base + "/api/jobs", timeout=5).json()
            if all(p["ready"] for p in status["processes"]):
                return server, base, status
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=50, help="simultaneous requests (0: none)")
    parser.add_argument("--slow", type=int, default=300, help="slow-body connections (0: none)")
    parser.add_argument("--slow-seconds", type=float, default=20)
    parser.add_argument("--soak", type=float, default=60, help="seconds of the soak (0: none)")
    parser.add_argument("--clients", type=int, default=20, help="clients of the soak")
    parser.add_argument("--soak-slow", type=int, default=100,
                        help="slow-body connections in each wave during the soak")
    parser.add_argument("--out", default=str(HERE / "results" / "web_attack.json"))
    args = parser.parse_args()
    random.seed(1)
    store = tempfile.mkdtemp(prefix="kniffel-web-attack-")
    log_path = Path(store) / "server.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed below
    server, base, status = _serve(store, log)
    report = {"machine": {"python": platform.python_version(), "platform": platform.platform(),
                          "cpus": os.cpu_count()},
              "server_workers": status["workers"], "server_queue": status["queue"]}
    try:
        if args.burst:
            report["burst"] = burst(base, args.burst)
        if args.slow:
            report["slow_body"] = slow_body(base, args.slow, args.slow_seconds)
        if args.soak:
            report["soak"] = soak(base, args.soak, args.clients, slow=args.soak_slow)
        report["server_alive"] = server.poll() is None
    finally:
        server.terminate()
        try:
            server.wait(15)
        except Exception:  # noqa: BLE001 - a server that does not stop is killed
            server.kill()
            server.wait()
        log.close()
    err = log_path.read_text(errors="replace")
    report["server_log_tracebacks"] = err.count("Traceback")
    report["server_log_lines"] = len(err.splitlines())
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
