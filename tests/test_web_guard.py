"""The guard of `kniffel serve` (solver/web/guard.py) on its own, fast: the Host and Origin
checks (a Host with a user part, two Origin or Host headers: refused), and the rules that make
room among connections (which idle ones are closed, which slow senders cut), as properties over
made-up connections.  tests/test_web_connections.py runs them against a real server."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

from solver.web import guard  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from starlette.testclient import TestClient

    from solver.web.app import create_app
    return TestClient(create_app(tmp_path_factory.mktemp("guard-store")),
                      base_url="http://127.0.0.1", headers={"content-type": "application/json"})


# --- Host and Origin ----------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.com@127.0.0.1", "evil.com@127.0.0.1:8765",
                                  "127.0.0.1 evil.com", "127.0.0.1/x", "[::1]@evil", "",
                                  "127.0.0.1:", "127.0.0.1:80:80", "user:pw@localhost"])
def test_a_host_that_is_not_a_plain_host_and_port_is_refused(client, host):
    """A URL parser drops "evil.com@" and finds 127.0.0.1: the Host header has no user part."""
    answer = client.get("/api/info", headers={"host": host})
    assert answer.status_code == 403 and "host" in answer.json()["error"]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8765", "localhost:1", "[::1]:8765",
                                  "LOCALHOST"])
def test_a_plain_host_of_this_server_is_answered(client, host):
    assert client.get("/api/info", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("name, values", [
    ("origin", ["http://127.0.0.1", "http://evil.example"]),
    ("origin", ["http://127.0.0.1", "http://127.0.0.1"]),
    ("host", ["127.0.0.1", "evil.example"]),
    ("content-type", ["application/json", "text/plain"])])
def test_a_header_a_check_reads_sent_twice_is_refused(client, name, values):
    """Which of two Origin headers would a check believe?  Neither: the request is refused."""
    headers = [(name, value) for value in values]
    if name != "content-type":
        headers.append(("content-type", "application/json"))
    answer = client.post("/api/advise", content=b'{"card": {}}', headers=headers)
    assert answer.status_code == 400, answer.text
    assert f"two {name.title()} headers" in answer.json()["error"]


# --- room among connections ---------------------------------------------------------------------

class Transport:
    def __init__(self):
        self.closing, self.written, self.eof = False, b"", False

    def is_closing(self):
        return self.closing

    def close(self):
        self.closing = True

    def write(self, data):
        self.written += data

    def can_write_eof(self):
        return True

    def write_eof(self):
        self.eof = True


class Loop:
    def call_later(self, delay, callback):
        pass


class Cycle:
    def __init__(self, complete):
        self.response_complete, self.response_started = complete, complete


class Connection(guard.TimedConnection):
    """A made-up connection: what the rules read of uvicorn's, nothing else."""

    def __init__(self, address, state, active, since=None, sent=0, waiting=0):
        self.client, self.active = (address, 1234), active
        self.transport, self.loop = Transport(), Loop()
        self.cycle = Cycle(False) if state == "busy" else None
        self.sending_since, self.sent = (since, sent) if state == "sending" else (None, 0)
        self.waiting = waiting  # bytes in its socket not read yet

    def pending(self):
        return self.waiting


NOW = 100.0
CONNECTIONS = st.lists(st.builds(
    Connection, address=st.sampled_from(["10.0.0.1", "10.0.0.2", "10.0.0.3"]),
    state=st.sampled_from(["idle", "busy", "sending"]), active=st.floats(NOW - 20, NOW),
    since=st.floats(NOW - 20, NOW), sent=st.integers(0, 5000),
    waiting=st.sampled_from([0, 0, 0, 120])), max_size=60)


def closed(connections):
    return [c for c in connections if c.transport.closing]


@settings(max_examples=300, deadline=None)
@given(others=CONNECTIONS, limit=st.integers(1, 40),
       address=st.sampled_from(["10.0.0.1", "10.0.0.9"]))
def test_making_room_closes_only_quiet_idle_connections_quietest_first(others, limit, address):
    """Never a connection whose request is being answered, sent or waiting in its socket, nor
    one quiet less than QUIET_SECONDS (its request may be on its way): a burst is never reset.
    Of those that may go, the quietest go first, and as many as the limits ask for."""
    new = Connection(address, "idle", NOW)
    may_go = [c for c in others if c.closable(NOW)]
    guard.make_room(others, NOW, limit, new)
    gone = closed(others)
    assert all(c in may_go for c in gone if not c.refused)
    assert not new.transport.closing
    kept = [c for c in may_go if not c.transport.closing]
    if gone and kept:  # nothing quieter was kept of the same address... or at all
        assert min(c.active for c in kept) >= min(c.active for c in gone) - 1e-9
    still = [c for c in others if not c.transport.closing and not c.refused]
    mine = [c for c in still if c.address() == address]
    if kept:  # room was made as far as the limits ask
        assert len(still) + 1 <= limit and len(mine) + 1 <= guard.PER_CLIENT


@settings(max_examples=300, deadline=None)
@given(connections=CONNECTIONS)
def test_the_slowest_senders_are_cut_never_a_request_just_begun(connections):
    senders = [c for c in connections if c.sending()]
    ripe = [c for c in senders if NOW - c.sending_since >= guard.QUIET_SECONDS]
    guard.cut_slowest(connections, NOW)
    cut = [c for c in connections if c.refused]
    assert all(c in ripe for c in cut)
    for c in cut:  # an HTTP answer, then no more writing: the client reads why
        assert c.transport.written.startswith(b"HTTP/1.1 408 ") and c.transport.eof
    left = [c for c in senders if not c.refused]
    if len(left) > guard.SENDING:  # only when no ripe one was left to cut
        assert all(NOW - c.sending_since < guard.QUIET_SECONDS for c in left)
    left_ripe = [c for c in ripe if not c.refused]
    if cut and left_ripe and len(senders) > guard.SENDING:  # the slowest went first, overall
        assert max(c.rate(NOW) for c in cut) <= max(c.rate(NOW) for c in left_ripe) + 1e-9


def test_three_hundred_slow_bodies_leave_room_for_others():
    """The issue's attack in miniature: 300 senders of one byte a second from 30 addresses,
    all older than QUIET_SECONDS, and one fast: at most SENDING are left, the fast one among
    them, and the connections left leave room under the server's limit."""
    slow = [Connection(f"10.0.1.{i % 30}", "sending", NOW, since=NOW - 5, sent=5)
            for i in range(300)]
    fast = Connection("10.0.2.1", "sending", NOW, since=NOW - 1, sent=4000)
    guard.cut_slowest(slow + [fast], NOW)
    left = [c for c in slow + [fast] if not c.refused]
    assert len(left) == guard.SENDING and fast in left
    assert len(left) < guard.CONNECTIONS
