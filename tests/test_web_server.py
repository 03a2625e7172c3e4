"""`kniffel serve` as a real server (uvicorn in a subprocess on 127.0.0.1, a free port): no
request blocks another, work over its budget is refused, work whose client has gone is stopped,
a signal stops the server at once, and other pages and slow clients are kept out."""
import json
import os
import signal
import socket
import sys
import time

import pytest

from solver.advice.limits import DEFAULT_BUDGET

pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
httpx = pytest.importorskip("httpx")
pytestmark = pytest.mark.slow  # every test here runs a real `kniffel serve` and waits on it

from helpers import JSON, live_processes, send_raw, server, status, wait_for  # noqa: E402

# The request that froze the server for a minute: ten boxes open, an opponent at the
# start of the game (a sub-game and an opponent's distribution from the empty card), here with
# a budget of its own that allows the minute (the default, 1 s, is refused at once).
LONG = {"card": {"ones": 0, "twos": 6, "threes": 0, "fours": 12, "fives": 0, "sixes": 0,
                 "three_kind": 20, "four_kind": 0, "full_house": 25, "small_straight": 30},
        "dice": [5, 5, 5, 6, 6], "rolls_left": 1, "opponents": [{"card": {}}], "budget": 600}


def cpu_seconds(pid):
    """CPU time a process has used so far (Linux /proc), None when it is gone."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    if fields[0] == "Z":
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def answered(base, path):
    """Whether a GET of `path` is answered 200 (speed is measured by benchmarks/web.py
    --liveness; here the point is that it is answered at all while a worker computes)."""
    return httpx.get(base + path, timeout=10).status_code == 200


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_long_request_blocks_nothing_and_stops_when_its_client_goes(tmp_path):
    with server(tmp_path, "--time-limit", "600", "--workers", "1") as (base, process, log):
        computing = status(base)["processes"][0]["pid"]
        long = send_raw(base, LONG)
        assert wait_for(lambda: status(base)["busy"] == 1, 10)
        time.sleep(1)  # well inside the work (a minute of it)
        # Liveness, not speed (benchmarks/web.py --liveness times it): the page and /api/info
        # are answered while the worker still computes, so the event loop does not wait for it.
        for _ in range(5):
            assert answered(base, "/api/info") and answered(base, "/")
        assert status(base)["busy"] == 1 and cpu_seconds(computing) is not None
        long.close()  # the client goes: its work must stop, the worker be free again
        assert wait_for(lambda: status(base)["busy"] == 0, 10)
        before = cpu_seconds(computing)
        time.sleep(0.3)
        after = cpu_seconds(computing)
        assert after is None or after - before < 0.1  # killed, or stopped between levels
        # and the next request is answered (a fresh worker, if the old one was killed)
        answer = httpx.post(base + "/api/advise", headers=JSON, timeout=120,
                            content=b'{"dice": [1, 1, 1, 1, 1], "rolls_left": 0}')
        assert answer.status_code == 200 and answer.json()["options"][0]["box"] == "kniffel"
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


def test_work_over_the_budget_is_refused_and_the_time_limit_only_guards(tmp_path):
    """The budget is counted in work before anything starts (the same answer on any machine);
    the server's time limit only stops work that runs past it, and says so."""
    with server(tmp_path, "--time-limit", "5", "--workers", "1") as (base, process, log):
        default = {k: v for k, v in LONG.items() if k != "budget"}
        answer = httpx.post(base + "/api/advise", headers=JSON, timeout=60,
                            content=json.dumps(default))
        assert answer.status_code == 200, answer.text  # advice for points, saying why
        data = answer.json()
        assert data["fallback"]["goal"] == "win" and data["options"][0]["box"] == "chance"
        assert f"over the budget of {DEFAULT_BUDGET:g} s" in data["fallback"]["reason"]["en"]
        assert data["offer"]["parts"] == ["target", "opponents"]  # the tables that would help
        # a budget that allows the minute of work: it starts, and the guard stops it at 5 s
        answer = httpx.post(base + "/api/advise", headers=JSON, timeout=60,
                            content=json.dumps(LONG))
        assert answer.status_code == 422, answer.text
        assert answer.json()["words"] == {"key": "web.over_limit", "fields": {"seconds": 5.0}}
        # eight opponents are refused whatever the budget: the card has eight columns
        many = {**LONG, "opponents": [{"final": 100}] * 8}
        answer = httpx.post(base + "/api/advise", headers=JSON, timeout=60,
                            content=json.dumps(many))
        assert answer.status_code == 400 and "at most 7 opponents" in answer.json()["error"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_mid_computation_stops_the_server(tmp_path, sig):
    """The server ends on the signal without waiting for the minute of work (benchmarks/web.py
    --liveness times how soon)."""
    with server(tmp_path, "--time-limit", "600", "--workers", "1") as (base, process, log):
        worker = status(base)["processes"][0]["pid"]
        long = send_raw(base, LONG)
        assert wait_for(lambda: status(base)["busy"] == 1, 10)
        time.sleep(1.5)  # inside the minute of work
        process.send_signal(sig)
        process.wait(15)  # raises if the server still runs: it would have waited for the work
        assert wait_for(lambda: cpu_seconds(worker) is None, 5)  # the worker is gone too
        long.close()
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


def family(pid):
    """The live processes descended from `pid` (Linux /proc): the server's workers, jobs and
    multiprocessing's resource tracker."""
    parents = {p: parent for p, (parent, _) in live_processes().items()}
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        children = [p for p, pp in parents.items() if pp == parent and p not in found]
        found.update(children)
        todo += children
    return found


def alive(pids):
    return [pid for pid in pids if cpu_seconds(pid) is not None]


# A quick win question: two boxes open, the same card for the opponent: the worker solves its
# sub-game (a backward pass, with its progress bar) and answers within the default budget.
QUICK_WIN = {"card": {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
                      "three_kind": 20, "four_kind": 0, "full_house": 25, "small_straight": 30},
             "dice": [6, 6, 6, 1, 2], "rolls_left": 2}
QUICK_WIN["opponents"] = [{"card": QUICK_WIN["card"]}]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("asked", ["new game", "win advice", "table job"])
def test_ctrl_c_warns_of_no_leaked_semaphore_and_leaves_no_process(tmp_path, asked):
    """It printed "resource_tracker: There appear to be 1 leaked semaphore objects": a worker or
    job process that had shown a tqdm bar (a backward pass's) held tqdm's multiprocessing lock,
    a semaphore registered with the resource tracker, and was killed at the stop.  After
    Ctrl-C: no such warning, no traceback, and no process of the server 10 s later."""
    with server(tmp_path, "--workers", "1") as (base, process, log):
        if asked == "new game":  # the request
            answer = httpx.post(base + "/api/new", headers=JSON, timeout=120,
                                content=json.dumps({"rules": "kniffel"}))
            assert answer.status_code == 200, answer.text
        elif asked == "win advice":
            answer = httpx.post(base + "/api/advise", headers=JSON, timeout=300,
                                content=json.dumps(QUICK_WIN))
            assert answer.status_code == 200, answer.text
        else:  # a table solved by a job, stopped in the middle
            answer = httpx.post(base + "/api/new", headers=JSON, timeout=120,
                                content=json.dumps({"rules": "yatzy"}))
            assert answer.status_code == 503, answer.text
            assert wait_for(lambda: (status(base)["jobs"][0]["levels_done"] or 0) >= 1
                            or status(base)["jobs"][0]["state"] != "running", 600)
        processes = family(process.pid) | {process.pid}
        assert len(processes) >= 3  # the server, its worker and the resource tracker at least
        process.send_signal(signal.SIGINT)
        process.wait(15)
        assert wait_for(lambda: not alive(processes), 10), alive(processes)
    text = (tmp_path / "stderr.txt").read_text()
    assert "leaked" not in text and "Traceback" not in text, text
    assert process.returncode == 130, text


def test_other_pages_and_rebinding_are_refused(tmp_path):
    with server(tmp_path, "--workers", "1") as (base, process, log):
        port = base.rsplit(":", 1)[1]
        line = b'{"card": {}}'
        # the request: another host name, another page's origin, a body as text/plain
        evil = httpx.post(base + "/api/advise", content=line, timeout=30, headers={
            "host": "evil.example", "origin": "http://evil.example", "content-type": "text/plain"})
        assert evil.status_code == 403 and "host" in evil.json()["error"]
        origin = httpx.post(base + "/api/advise", content=line, timeout=30,
                            headers={**JSON, "origin": "http://evil.example"})
        assert origin.status_code == 403 and "another page" in origin.json()["error"]
        plain = httpx.post(base + "/api/advise", content=line, timeout=30,
                           headers={"content-type": "text/plain"})
        assert plain.status_code == 415
        ours = httpx.post(base + "/api/advise", content=line, timeout=60,
                          headers={**JSON, "origin": base, "host": f"localhost:{port}"})
        assert ours.status_code == 403  # the Origin must be the host the page was loaded from
        ours = httpx.post(base + "/api/advise", content=line, timeout=60,
                          headers={**JSON, "origin": base})
        assert ours.status_code == 200, ours.text


def test_slow_clients_are_cut_off_and_a_disconnect_is_one_quiet_line(tmp_path):
    with server(tmp_path, "--workers", "1", "--client-timeout", "1") as (base, process, log):
        host, port = base.removeprefix("http://").split(":")
        for start in (b"GET /api/info", b"GET /\r\n"):  # headers that never end
            with socket.create_connection((host, int(port))) as sock:
                sock.settimeout(10)
                sock.sendall(start)
                while sock.recv(4096):  # the server closes it (else recv times out: an error)
                    pass
        with socket.create_connection((host, int(port))) as sock:  # a body shorter than said
            sock.settimeout(10)
            sock.sendall(f"POST /api/advise HTTP/1.1\r\nHost: {host}:{port}\r\ncontent-type: "
                         "application/json\r\nContent-Length: 100\r\n\r\n{\"card\"".encode())
            answer = sock.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408")
        with socket.create_connection((host, int(port))) as sock:  # gone in the middle of the body
            sock.sendall(f"POST /api/advise HTTP/1.1\r\nHost: {host}:{port}\r\ncontent-type: "
                         "application/json\r\nContent-Length: 100\r\n\r\n{\"card\"".encode())
            time.sleep(0.2)
        assert wait_for(lambda: "disconnected" in (tmp_path / "stderr.txt").read_text(), 5)
        assert httpx.get(base + "/api/info", timeout=5).status_code == 200
    text = (tmp_path / "stderr.txt").read_text()
    assert "Traceback" not in text and "ClientDisconnect" not in text


@pytest.mark.slow  # solves a whole table
def test_a_missing_table_is_solved_in_the_background(tmp_path):
    with server(tmp_path, "--workers", "1") as (base, process, log):
        new = json.dumps({"rules": "kniffel-basic", "seed": 1})
        first = httpx.post(base + "/api/new", headers=JSON, content=new, timeout=60)
        assert first.status_code == 503 and int(first.headers["retry-after"]) > 0
        assert "the value table of kniffel-basic: being prepared" in first.json()["error"]
        assert answered(base, "/api/info")  # the solve holds up nothing
        for _ in range(1200):
            job = status(base)["jobs"][0]
            if job["state"] != "running":
                break
            time.sleep(0.5)
        assert job["rules"] == "kniffel-basic" and job["state"] == "done", job
        assert job["levels_done"] == job["levels"] == 13
        assert (tmp_path / "tables" / "kniffel-basic.npy").is_file()
        answer = httpx.post(base + "/api/new", headers=JSON, content=new, timeout=60)
        assert answer.status_code == 200 and answer.json()["rules"]["key"] == "kniffel-basic"
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


def full_disk():
    """In the server's process: files may grow to 1 MiB, no more (a write beyond fails as on a
    full disk: numpy's "... requested and ... written", an OSError without errno)."""
    import resource
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write beyond fails instead of killing
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resource limits")
@pytest.mark.parametrize("store", ["read-only", "full"])
def test_a_table_the_store_cannot_keep_is_solved_once_and_used(tmp_path, store):
    """The issue: with a read-only store (or a full disk) /api/new of another preset answered
    503 "being solved" for ever, each request starting a new solve with a traceback.  The table
    solved is kept in memory: the game starts, the next request too, one warning in the log."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    tables = blocker / "tables" if store == "read-only" else tmp_path / "tables"
    with server(tmp_path, "--workers", "2", tables=tables,
                preexec_fn=full_disk if store == "full" else None) as (base, process, log):
        new = json.dumps({"rules": "kniffel-basic", "seed": 1})
        answers = []
        for _ in range(600):
            answer = httpx.post(base + "/api/new", headers=JSON, content=new, timeout=60)
            answers.append(answer.status_code)
            if answer.status_code != 503:
                break
            assert "being prepared" in answer.json()["error"], answer.text
            time.sleep(0.5)
        assert answer.status_code == 200, answer.text
        assert answer.json()["rules"]["key"] == "kniffel-basic"
        for _ in range(4):  # every worker has it now, or gets it: no second solve
            again = httpx.post(base + "/api/new", headers=JSON, content=new, timeout=60)
            assert again.status_code == 200, again.text
        jobs = status(base)["jobs"]
        assert [(j["rules"], j["state"]) for j in jobs] == [("kniffel-basic", "done")], jobs
    text = (tmp_path / "stderr.txt").read_text()
    assert "Traceback" not in text, text
    assert text.count("kept in memory") == 1 and "[Errno None]" not in text, text
    assert "could not be saved" in text
    assert ("is the disk full?" if store == "full" else "Not a directory") in text, text
