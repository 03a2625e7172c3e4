"""`kniffel advise --batch -` reading a pipe that its writer keeps open: each line is answered
as it comes, and Ctrl-C (SIGINT) or SIGTERM ends it within seconds without a traceback (exit
130, 143), its worker processes too."""
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from helpers import live_processes  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and select")

LINE = json.dumps({"card": {"ones": 3}, "dice": [2, 2, 2, 5, 6], "rolls_left": 1}).encode()


def batch(**options):
    """`kniffel advise --batch -` as the console command runs it, its stdin a pipe."""
    return subprocess.Popen([sys.executable, "-m", "solver.cli", "advise", "--batch", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **options)


def answer_within(process, seconds):
    """The next line the process writes, or None when none comes within `seconds`."""
    ready, _, _ = select.select([process.stdout], [], [], seconds)
    return process.stdout.readline() if ready else None


def ended(process, seconds=5):
    """(exit code, seconds it took to end) after a signal; it is killed if it did not end."""
    start = time.monotonic()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
        return None, seconds
    return process.returncode, time.monotonic() - start


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_line_is_answered_while_the_pipe_stays_open_and_a_signal_ends_it(sig, code):
    process = batch()
    try:
        for _ in range(2):  # each line answered before the next is written
            process.stdin.write(LINE + b"\n")
            process.stdin.flush()
            answer = answer_within(process, 600)  # the first waits for imports and kernels
            assert answer is not None, "no answer while the pipe stays open"
            assert json.loads(answer)["options"][0]["action"] == "keep"
        process.send_signal(sig)
        assert ended(process) == (code, pytest.approx(0, abs=5))
        err = process.stderr.read().decode()
        assert "Traceback" not in err and err.strip().endswith("kniffel: interrupted"), err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def group(pid):
    """The live processes of the process group `pid` (Linux /proc)."""
    return [p for p, (_, group_id) in live_processes().items() if group_id == pid]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: no worker processes")
def test_ctrl_c_to_the_group_ends_the_worker_processes_of_a_large_batch_too():
    """Ctrl-C reaches every process of the terminal's group: the batch's forked workers leave it
    to the command, which ends them; nothing prints a traceback, nothing is left."""
    process = batch(start_new_session=True)  # a group of its own, as a terminal's job
    lines = b"".join(json.dumps({"card": {"ones": i % 4}, "dice": [1 + i % 6, 2, 2, 5, 6],
                                 "rolls_left": i % 3}).encode() + b"\n" for i in range(5000))

    def write():
        try:
            process.stdin.write(lines)  # more than a pipe holds: whole chunks for the workers
            process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass
    threading.Thread(target=write, daemon=True).start()  # the pipe stays open
    try:
        assert answer_within(process, 600) is not None
        for _ in range(1500):
            assert process.stdout.readline()
        assert len(group(process.pid)) > 1  # the command and its workers
        os.killpg(process.pid, signal.SIGINT)
        assert ended(process) == (130, pytest.approx(0, abs=5))
        err = process.stderr.read().decode()
        assert "Traceback" not in err and err.strip().endswith("kniffel: interrupted"), err
        time.sleep(1)
        assert group(process.pid) == []
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
