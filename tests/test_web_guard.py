"""The guard of `kniffel serve` (solver/web/guard.py) on its own, fast: the Host and Origin
checks (a Host with a user part, two Origin or Host headers: refused)."""
import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

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
