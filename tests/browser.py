"""What the browser tests share: the system's Chromium (the module is skipped without it, or
without Playwright or uvicorn), the app served from a thread of the test process, and one
headless browser with a fresh profile."""
import contextlib
import os
import shutil
import socket
import threading
import time

import pytest

CHROMIUM = (os.environ.get("KNIFFEL_CHROMIUM") or shutil.which("chromium")
            or shutil.which("chromium-browser"))
# Headless, and quiet on a closed network: no background traffic, no first-run set-up.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
# What a page may take to show what a test waits for: generous, as on a loaded 2-core machine
# (a CI runner at times) an answer that takes a second alone may take a minute; a test waits
# for the event, never for a fixed time.
WAIT_MS = 240_000


def need_a_browser():
    """Skip the calling test module unless Chromium, Playwright and uvicorn are all here."""
    if not CHROMIUM:
        pytest.skip("no Chromium (apt-get install chromium) for the browser tests",
                    allow_module_level=True)
    pytest.importorskip("playwright.sync_api",
                        reason="playwright is not installed (pip install playwright)")
    pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")


@contextlib.contextmanager
def served(app):
    """`app` served by uvicorn from a thread, on a free port of loopback: yields its base URL."""
    import uvicorn
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_MS / 1000
    while not uv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        uv.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def chromium(profile, viewport=PHONE):
    """One headless Chromium with a fresh user-data folder `profile` (a persistent context
    gives a profile of our own): yields its browser context."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=FLAGS, headless=True, viewport=viewport)
        context.set_default_timeout(WAIT_MS)
        try:
            yield context
        finally:
            context.close()


@contextlib.contextmanager
def blank_page(context, base):
    """A new page of `context` at the app's origin `base` with its storage cleared (so that a
    page opened next starts afresh, not resuming a game); fails the test on a script error."""
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "static/style.css")
    page.evaluate("localStorage.clear()")
    yield page
    page.close()
    assert not errors, errors
