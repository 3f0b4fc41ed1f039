# ruff: noqa: RUF001  (the Chinese messages are written with full-width punctuation, on purpose)
"""The table links as other phones reach them (`companion.web.table_share`, `web.addresses`):
`--public-url`, the machine's network address for a server on every address opened on loopback,
the warning of a loopback-only server in each language; and what `companion serve` prints.

No test here looks up the machine's real address or sends anything beyond loopback: the
address is monkeypatched (and tests/conftest.py sets `COMPANION_LAN_ADDRESS` for every test)."""

from __future__ import annotations

import html
import io
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.deps import close_ledgers
from companion.api.server import ServeSettings, app_from_environment
from companion.cli.serve import print_reach, print_start
from companion.web import addresses, i18n, table_share

LAN = "192.168.1.20"
FIND_LAN_ADDRESS = addresses.lan_address
"""The real one: the fixture below replaces it in every test of this module."""
LOOPBACK_WARNING = {
    "en": "Other phones cannot open these links: the server listens on this computer only.",
    "zh-Hant": "其他手機打不開這些連結：伺服器只在這部電腦上接聽。",
    "zh-Hans": "其他手机打不开这些链接：服务器只在这台电脑上监听。",
}


@pytest.fixture(autouse=True)
def lan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(addresses, "lan_address", lambda: LAN)


def serving(
    tmp_path: Path, base_url: str, *, listen_host: str | None, public_url: str | None = None
) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'ledger.sqlite3'}", listen_host=listen_host, public_url=public_url
    )
    with TestClient(app, base_url=base_url) as client:
        yield client
    close_ledgers(app)


def links(client: TestClient, lang: str = "en") -> dict[str, Any]:
    """A new table's page as the host's browser sees it: its read link, its links' address (the
    write link is built from it in the browser), the warning, and its read QR code's text."""
    created = client.post("/api/tables", json={"profile": "sg", "players": ["A", "B", "C", "D"]})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    page = client.get(f"/t/{table_id}?lang={lang}").text
    qr = client.get(f"/t/{table_id}/qr.svg").text
    warning = re.search(r'<p class="notice share-warning"[^>]*>(.*?)</p>', page)
    return {
        "id": table_id,
        "read": html.unescape(re.search(r'id="read-link"[^>]*value="([^"]*)"', page)[1]),  # type: ignore[index]
        "base": re.search(r'data-share-base="([^"]*)"', page)[1],  # type: ignore[index]
        "warning": html.unescape(re.sub("<[^>]+>", "", warning[1])) if warning else None,
        "commands": re.findall(r"<code>(.*?)</code>", warning[1]) if warning else [],
        "qr": html.unescape(re.search(r"<title>(.*?)</title>", qr)[1]),  # type: ignore[index]
    }


def test_a_server_on_every_address_opened_on_loopback_links_its_network_address(
    tmp_path: Path,
) -> None:
    for client in serving(tmp_path, "http://127.0.0.1:8000", listen_host="0.0.0.0"):
        found = links(client)
        assert found["base"] == f"http://{LAN}:8000"
        assert found["read"] == found["qr"] == f"http://{LAN}:8000/t/{found['id']}"
        assert found["warning"] is None


def test_a_server_on_every_address_opened_on_its_network_address_keeps_it(
    tmp_path: Path,
) -> None:
    for client in serving(tmp_path, "http://10.1.2.3:8000", listen_host="0.0.0.0"):
        found = links(client)
        assert found["read"] == found["qr"] == f"http://10.1.2.3:8000/t/{found['id']}"
        assert found["warning"] is None


def test_a_server_on_every_address_without_a_network_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "lan_address", lambda: None)
    for client in serving(tmp_path, "http://localhost:8000", listen_host="::"):
        found = links(client)
        assert found["read"] == f"http://localhost:8000/t/{found['id']}"
        assert found["warning"] == i18n.catalogue("en")["table.share_no_network"].replace("`", "")
        assert found["commands"] == ["--public-url"]
        assert found["warning"].startswith("Other phones cannot open these links yet")


@pytest.mark.parametrize("lang", sorted(LOOPBACK_WARNING))
def test_a_loopback_server_warns_in_the_players_language(tmp_path: Path, lang: str) -> None:
    for client in serving(tmp_path, "http://127.0.0.1:8000", listen_host="127.0.0.1"):
        found = links(client, lang)
        assert found["read"] == f"http://127.0.0.1:8000/t/{found['id']}"
        assert found["warning"].startswith(LOOPBACK_WARNING[lang])
        assert found["commands"] == ["make table-night", "companion serve --host 0.0.0.0"]


def test_the_read_qr_code_follows_the_network_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for client in serving(tmp_path, "http://127.0.0.1:8000", listen_host="0.0.0.0"):
        table_id = links(client)["id"]
        first = client.get(f"/t/{table_id}/qr.svg")
        assert first.headers["cache-control"] == "no-cache"
        unchanged = {"if-none-match": first.headers["etag"]}
        again = client.get(f"/t/{table_id}/qr.svg", headers=unchanged)
        assert (again.status_code, again.content) == (304, b"")
        monkeypatch.setattr(addresses, "lan_address", lambda: "10.4.4.4")  # another network
        moved = client.get(f"/t/{table_id}/qr.svg", headers=unchanged)
        assert moved.status_code == 200
        assert f"<title>http://10.4.4.4:8000/t/{table_id}</title>" in moved.text


def test_the_public_url_is_in_every_link(tmp_path: Path) -> None:
    public = "https://mahjong.example/club"
    for client in serving(
        tmp_path, "http://127.0.0.1:8000", listen_host="127.0.0.1", public_url=public
    ):
        found = links(client)
        assert found["base"] == public
        assert found["read"] == found["qr"] == f"{public}/t/{found['id']}"
        assert found["warning"] is None


def test_an_app_not_told_where_it_listens_links_the_address_it_was_opened_on(
    client: TestClient,
) -> None:
    found = links(client)
    assert found["read"] == f"http://testserver/t/{found['id']}"
    assert found["warning"] is None


def test_the_public_urls_host_passes_the_host_check(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    settings = ServeSettings(
        database_url=f"sqlite:///{tmp_path / 'l.sqlite3'}",
        public_url="https://mahjong.example:8443",
    )
    monkeypatch.setenv("COMPANION_SERVE_SETTINGS", settings.to_json())
    app = app_from_environment()
    with TestClient(app, base_url="https://mahjong.example:8443") as client:
        assert client.get("/").status_code == 200
        origin = {"origin": "https://mahjong.example:8443", "host": "127.0.0.1:8000"}
        # Behind a proxy that passes on its own Host: the public origin may still post.
        scored = client.post("/api/score", json={"hand": "123m456p789s234m55p"}, headers=origin)
        assert scored.status_code == 200, scored.text
        origin["origin"] = "https://elsewhere.example"
        assert client.post("/api/score", json={"hand": "1m"}, headers=origin).status_code == 403
        assert client.get("/", headers={"host": "elsewhere.example"}).status_code == 400
    close_ledgers(app)


@pytest.mark.parametrize(
    ("text", "url"),
    [("https://mahjong.example/", "https://mahjong.example"), ("http://10.0.0.2:8000", None)],
)
def test_public_url_is_checked(text: str, url: str | None) -> None:
    assert addresses.public_url(text) == (url or text)


@pytest.mark.parametrize("text", ["mahjong.example", "ftp://x.example", "https://x.example/?a=1"])
def test_a_public_url_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="address"):
        addresses.public_url(text)


# --- Finding the address: a route asked for, nothing sent ------------------------------------


class _Probe:
    """A UDP socket that records what is done with it and sends nothing anywhere."""

    done: ClassVar[list[Any]] = []

    def __init__(self, family: int, kind: int) -> None:
        self.done.append(("socket", family, kind))

    def __enter__(self) -> _Probe:
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.append(("closed",))

    def connect(self, address: tuple[str, int]) -> None:
        self.done.append(("connect", address))

    def getsockname(self) -> tuple[str, int]:
        return (self.local, 40000)

    def send(self, data: bytes) -> int:  # pragma: no cover: the test fails if it is called
        raise AssertionError("lan_address sent something")

    local = "10.9.8.7"


def test_lan_address_asks_for_a_route_and_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(addresses.LAN_ADDRESS_ENV)
    monkeypatch.setattr(addresses.socket, "socket", _Probe)
    _Probe.done.clear()
    assert FIND_LAN_ADDRESS() == "10.9.8.7"
    assert _Probe.done == [
        ("socket", socket.AF_INET, socket.SOCK_DGRAM),
        ("connect", addresses.ROUTE_PROBE),
        ("closed",),
    ]
    monkeypatch.setattr(_Probe, "local", "127.0.1.1")
    assert FIND_LAN_ADDRESS() is None, "a loopback address reaches no other phone"


def test_lan_address_without_a_route_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(addresses.LAN_ADDRESS_ENV)

    class Unreachable(_Probe):
        def connect(self, address: tuple[str, int]) -> None:
            raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(addresses.socket, "socket", Unreachable)
    assert FIND_LAN_ADDRESS() is None


def test_lan_address_can_be_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(addresses.LAN_ADDRESS_ENV, " 172.16.0.9 ")
    monkeypatch.setattr(addresses.socket, "socket", _Probe)
    _Probe.done.clear()
    assert FIND_LAN_ADDRESS() == "172.16.0.9"
    assert _Probe.done == [], "no route asked for"


# --- What `companion serve` prints -----------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_serve_on_every_address_prints_the_network_address_and_its_qr() -> None:
    out = _Terminal()
    print_reach("0.0.0.0", 8000, None, out)
    address = f"http://{LAN}:8000/"
    assert out.getvalue() == (
        f"The phones at the table open {address}  (scan it):\n" + table_share.terminal_qr(address)
    )
    assert "▀" in out.getvalue() or "▄" in out.getvalue()


def test_serve_prints_the_address_without_the_qr_into_a_log() -> None:
    out = io.StringIO()
    print_reach("::", 8080, None, out)
    assert out.getvalue() == f"The phones at the table open http://{LAN}:8080/\n"


def test_serve_prints_the_public_url() -> None:
    out = io.StringIO()
    print_reach("127.0.0.1", 8000, "https://mahjong.example", out)
    assert out.getvalue() == "The phones at the table open https://mahjong.example/\n"


@pytest.mark.parametrize(
    ("host", "first_line"),
    [
        ("0.0.0.0", "Companion is on every address of this machine, port 8000  (Ctrl-C stops it)"),
        ("::", "Companion is on every address of this machine, port 8000  (Ctrl-C stops it)"),
        ("127.0.0.1", "Companion is at http://127.0.0.1:8000/  (Ctrl-C stops it)"),
        ("::1", "Companion is at http://[::1]:8000/  (Ctrl-C stops it)"),
        ("10.1.2.3", "Companion is at http://10.1.2.3:8000/  (Ctrl-C stops it)"),
    ],
)
def test_serve_names_no_address_a_phone_cannot_open(host: str, first_line: str) -> None:
    out = io.StringIO()
    print_start(host, 8000, out)
    assert out.getvalue() == first_line + "\n"


def test_serve_on_loopback_says_what_to_run_instead() -> None:
    out = io.StringIO()
    print_reach("127.0.0.1", 8000, None, out)
    assert out.getvalue() == (
        "Only this machine can open it. For the phones at the table, run `make table-night` "
        "(or `companion serve --host 0.0.0.0`).\n"
    )


def test_serve_on_one_network_address_prints_nothing_more() -> None:
    out = io.StringIO()
    print_reach("10.1.2.3", 8000, None, out)
    assert out.getvalue() == ""


def test_serve_without_a_network_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(addresses, "lan_address", lambda: None)
    out = io.StringIO()
    print_reach("0.0.0.0", 8000, None, out)
    assert out.getvalue().startswith("No network address found: the phones cannot reach")


def test_serve_takes_the_public_url_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from companion.api import server
    from companion.cli import main

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    monkeypatch.setenv(server.SETTINGS_ENV, "{}")
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "https://mahjong.example/")
    assert main(["serve", "--port", "9124", "--db", "sqlite:///x.db"]) == 0
    assert ServeSettings.from_json(server.os.environ[server.SETTINGS_ENV]).public_url == (
        "https://mahjong.example"
    )
    assert capsys.readouterr().out.splitlines()[2] == (
        "The phones at the table open https://mahjong.example/"
    )
    with pytest.raises(SystemExit, match=r"--public-url: 'mahjong\.example' is not an http"):
        main(["serve", "--public-url", "mahjong.example"])
