"""`kniffel serve --host 0.0.0.0`: the address a phone opens (this machine's address on the
network, with the access token) printed and shown as a QR code in the terminal; the guard still
refuses a request to any other name."""
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
pytest.importorskip("segno", reason="the web extra (segno) is not installed")
httpx = pytest.importorskip("httpx")


def test_every_interface_prints_the_address_to_open_and_its_qr_code(tmp_path):
    from solver.cli.serve import _loopback, qr_text
    env = {**os.environ, "KNIFFEL_TABLES": str(tmp_path / "tables")}
    process = subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--host", "0.0.0.0",
                                "--port", "0", "--workers", "1"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        match = re.fullmatch(r"kniffel serve: (http://([^:/]+):(\d+)/\?token=[\w-]+)\n",
                             process.stdout.readline())
        assert match
        url, address, port = match.groups()
        # an address another device can reach
        assert address != "0.0.0.0" and not _loopback(address)
        assert "open the address above or scan" in process.stdout.readline()
        expected = qr_text(url)
        printed = "".join(process.stdout.readline() for _ in expected.splitlines())
        assert printed == expected and "█" in printed  # the QR code of exactly that URL
        token = url.rsplit("=", 1)[1]
        local = f"http://127.0.0.1:{port}/api/info?token={token}"
        for host, status in ((f"{address}:{port}", 200), ("evil.example", 403),
                             (f"evil.example:{port}", 403)):
            answer = httpx.get(local, headers={"host": host}, timeout=30)
            assert answer.status_code == status, (host, answer.text[:200])
    finally:
        process.kill()
        process.wait(10)


def test_the_qr_code_is_the_urls():
    import segno

    from solver.cli.serve import qr_text
    text = qr_text("http://192.168.1.20:8765/?token=abc")
    lines = text.splitlines()
    code = segno.make("http://192.168.1.20:8765/?token=abc", error="l")
    width = code.symbol_size(border=4)[0]
    # two rows a line
    assert len(lines) == (width + 1) // 2 and all(len(line) == width for line in lines)
