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

pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
httpx = pytest.importorskip("httpx")
pytestmark = pytest.mark.slow  # every test here runs a real `kniffel serve` and waits on it

from helpers import JSON, send_raw, server, status, wait_for  # noqa: E402

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
    with server(tmp_path, "--budget", "600", "--workers", "1") as (base, process, log):
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


def test_work_over_the_budget_is_refused_before_it_starts(tmp_path):
    with server(tmp_path, "--budget", "5", "--workers", "1") as (base, process, log):
        answer = httpx.post(base + "/api/advise", headers=JSON, timeout=60,
                            content=json.dumps(LONG))
        assert answer.status_code == 400, answer.text  # a bad line, as the batch answers it
        assert "over the budget of 5 s" in answer.json()["error"]  # predicted: nothing started
        # eight opponents are refused whatever the budget: the card has eight columns
        many = {**LONG, "opponents": [{"final": 100}] * 8}
        answer = httpx.post(base + "/api/advise", headers=JSON, timeout=60,
                            content=json.dumps(many))
        assert answer.status_code == 400 and "at most 7 opponents" in answer.json()["error"]
        # a win game whose advice is over the budget is advised for points, and says so
        new = httpx.post(base + "/api/new", headers=JSON, timeout=60, content=json.dumps(
            {"players": ["a", "b"], "seed": 1, "goal": "win"})).json()
        rolled = httpx.post(base + "/api/game", headers=JSON, timeout=60, content=json.dumps(
            {"record": new["record"], "move": {"roll": True}, "goal": "win",
             "language": "en"})).json()
        assert rolled["goal"] == "points" and "budget" in rolled["notice"]
        assert rolled["advice"]["options"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_mid_computation_stops_the_server(tmp_path, sig):
    """The server ends on the signal without waiting for the minute of work (benchmarks/web.py
    --liveness times how soon)."""
    with server(tmp_path, "--budget", "600", "--workers", "1") as (base, process, log):
        worker = status(base)["processes"][0]["pid"]
        long = send_raw(base, LONG)
        assert wait_for(lambda: status(base)["busy"] == 1, 10)
        time.sleep(1.5)  # inside the minute of work
        process.send_signal(sig)
        process.wait(15)  # raises if the server still runs: it would have waited for the work
        assert wait_for(lambda: cpu_seconds(worker) is None, 5)  # the worker is gone too
        long.close()
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


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
        assert "being solved in the background" in first.json()["error"]
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
