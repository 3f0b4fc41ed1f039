"""Browser tests: Companion served by uvicorn on 127.0.0.1, driven by Playwright in Debian's
Chromium (`/usr/bin/chromium`; `make test` installs it as root, never a browser download).

Without Chromium (or the playwright package) the tests are skipped with the reason. Screenshots
go to `artifacts/screenshots/` at phone (375 x 812) and desktop (1280 x 800) sizes.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from devices import DESKTOP, PHONE, new_context
from playwright.sync_api import expect

# An assertion waits for the page up to this long (Playwright's own default is 5 s): room for a
# loaded 2-core machine, where a page's first script and fetch can take seconds; a hang still
# fails.
expect.set_options(timeout=15_000)

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Chromium through Playwright")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _listening_socket() -> socket.socket:
    """A socket already bound to a free local port: no other test run or xdist worker can take
    the port between choosing it and serving on it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """`app` served by uvicorn on a free loopback port, in a thread; its base URL."""
    import uvicorn

    from companion.api.live import close_all

    sock = _listening_socket()
    port: int = sock.getsockname()[1]
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", server_header=False, lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    close_all()  # the live table streams: as `companion serve` does when it stops
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="session")
def serve_app() -> Callable[[Any], AbstractContextManager[str]]:
    """`serving`, for a test that serves an app of its own."""
    return serving


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Companion on a free local port, in a thread, with its own SQLite file (one per xdist
    worker: the fixture is per session, and each worker is a session)."""
    from companion.api import create_app

    database = tmp_path_factory.mktemp("web") / "ledger.sqlite3"
    with serving(create_app(f"sqlite:///{database}")) as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(
            f"Chromium is not installed at {CHROMIUM}: `make test` installs Debian's chromium "
            "when run as root (apt-get install chromium)"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed: pip install -e '.[dev]'")
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


@dataclass
class Tab:
    """A page with the console errors it logged (a CSP violation is one)."""

    page: Any
    base: str
    name: str
    errors: list[str] = field(default_factory=list)

    def goto(self, path: str = "/") -> None:
        self.page.goto(self.base + path)
        self.page.wait_for_selector("body[data-ready='true']", timeout=10_000)

    def screenshot(self, label: str, *, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{label}-{self.name}.png"
        if full_page:
            self.page.evaluate("window.scrollTo(0, 0)")
        # A hang bound only: a full page as long as the API reference took over the default 10 s
        # on a loaded 2-core machine.
        self.page.screenshot(path=str(path), full_page=full_page, timeout=60_000)
        return path


def _tab(browser: Any, live_server: str, name: str, viewport: dict[str, int]) -> Iterator[Tab]:
    context = new_context(browser, viewport)
    page = context.new_page()
    tab = Tab(page, live_server, name)
    page.on(
        "console",
        lambda message: tab.errors.append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: tab.errors.append(str(error)))
    yield tab
    context.close()
    assert not tab.errors, f"the page logged errors: {tab.errors}"


@pytest.fixture
def phone(browser: Any, live_server: str) -> Iterator[Tab]:
    yield from _tab(browser, live_server, "phone", PHONE)


@pytest.fixture
def desktop(browser: Any, live_server: str) -> Iterator[Tab]:
    yield from _tab(browser, live_server, "desktop", DESKTOP)
