"""`kniffel serve` as a good guest on its machine: started and left alone it builds nothing and
spends next to no CPU; a win request in one preset offers that preset's tables and builds them
only when asked, that preset only; SIGTERM ends every process it started, leaving no
temporary file behind (the build's checkpoint stays for the next build to go on from)."""
import os
import signal
import sys
import time

import pytest

pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
httpx = pytest.importorskip("httpx")
pytestmark = [pytest.mark.slow,  # a real server, a 45 s wait and a build begun
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]

from helpers import server, status, wait_for  # noqa: E402

IDLE_SECONDS = 45


def _stat(pid):
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def family(pid):
    """`pid` and every process below it, alive now (Linux /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(entry)
            if fields is not None and fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        each = todo.pop()
        if _stat(each) is not None:
            found.append(each)
        todo += children.get(each, [])
    return found


def cpu_seconds(pids):
    """The CPU time (user + system) the processes `pids` have used so far."""
    total = 0.0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def store_bytes(folder):
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def post(base, path, body):
    return httpx.post(base + path, json=body, timeout=600)


def started_game(base, rules):
    """A new two-player game of `rules` played for a win, its first roll made: the state (the
    value table of a preset not shipped is solved by a job first: followed until it is done)."""
    new = {"rules": rules, "players": ["Ann", "Ben"], "seed": 1, "goal": "win", "language": "en"}
    for _ in range(600):
        response = post(base, "/api/new", new)
        if response.status_code != 503:
            break
        assert response.json()["job"]["kind"] == "table", response.text
        time.sleep(1)
    assert response.status_code == 200, response.text
    state = response.json()
    return post(base, "/api/game", {"record": state["record"], "move": {"roll": True},
                                    "goal": "win", "language": "en"}).json()


def test_an_idle_server_builds_nothing_and_a_build_is_asked_for_one_preset(tmp_path):
    store = tmp_path / "tables"
    with server(tmp_path) as (base, process, log):
        pids = family(process.pid)
        time.sleep(IDLE_SECONDS)
        spent = cpu_seconds(family(process.pid))
        assert spent < 10, f"an idle server used {spent:.1f} s of CPU"
        assert store_bytes(store) < 10e6 and status(base)["jobs"] == []

        state = started_game(base, "kniffel-basic")
        offer = state.get("offer")
        assert offer is not None and offer["rules"] == "kniffel-basic", state
        assert "GB" in offer["text"] or "MB" in offer["text"]
        assert [job["kind"] for job in status(base)["jobs"]] in (["table"], ["table", "warm"])

        answer = post(base, "/api/build", {"rules": "kniffel-basic"})
        assert answer.status_code == 503 and answer.json()["job"]["kind"] == "win"
        building = [job for job in status(base)["jobs"] if job["kind"] == "win"]
        assert [job["rules"] for job in building] == ["kniffel-basic"]
        # the target solve under way: its first level saved to the checkpoint
        assert wait_for(lambda: any(store.glob("kniffel-basic.target-level-*.json")), 900)
        others = {p.name.split(".")[0] for p in store.iterdir()} - {"kniffel-basic"}
        assert not others, others  # no other preset's tables were touched
        pids = family(process.pid)
        assert len(pids) >= 3  # the server, its worker(s) and the build
        process.send_signal(signal.SIGTERM)
        process.wait(10)
        assert wait_for(lambda: not [p for p in pids if _stat(p) is not None], 10), \
            [p for p in pids if _stat(p) is not None]
        assert not [p.name for p in store.iterdir() if p.name.endswith(".tmp")]
        assert not list(store.glob("*.progress.json"))
        assert any(store.glob("kniffel-basic.target-level-*.json"))  # kept: a build goes on
        log.seek(0)
        assert "Traceback" not in log.read()
