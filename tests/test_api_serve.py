"""`companion serve`: the command line starts uvicorn with the app; the database URL reaches
the app for the areas that store things."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.deps import database_url
from companion.cli import build_parser, main


def test_serve_runs_uvicorn_with_the_app(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from companion.api import server

    configs: list[Any] = []
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda self, sockets=None: configs.append(self.config)
    )
    monkeypatch.setenv(server.SETTINGS_ENV, "{}")
    assert main(["serve", "--host", "0.0.0.0", "--port", "9123", "--db", "sqlite:///x.db"]) == 0
    (config,) = configs
    assert (config.app, config.factory) == (server.FACTORY, True)
    assert config.host == "0.0.0.0" and config.port == 9123
    assert config.server_header is False and config.proxy_headers is False
    assert config.http is server.GuardedH11Protocol
    assert (config.header_timeout, config.body_timeout, config.max_connections) == (10, 30, 2048)
    assert config.timeout_keep_alive == 5 and config.h11_max_incomplete_event_size == 16384
    app = server.app_from_environment()  # what each worker builds
    assert isinstance(app, FastAPI)
    assert app.state.database_url == "sqlite:///x.db"
    printed = capsys.readouterr().out
    assert printed.startswith(
        "Companion is on every address of this machine, port 9123  (Ctrl-C stops it)\n"
    )
    assert "0.0.0.0" not in printed


def test_serve_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 8000, None)


def test_the_database_url_dependency(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    for given, expected in (("sqlite:///given.db", "sqlite:///given.db"), (None, "ledger.sqlite3")):
        app = create_app(given)

        @app.get("/api/db-url")
        async def show(request: Request) -> dict[str, str]:
            return {"url": database_url(request)}

        url = TestClient(app).get("/api/db-url").json()["url"]
        assert url.endswith(expected)


def _serve_output(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    from companion.api import server

    # What is printed before the server starts is the point here, not the server itself.
    monkeypatch.setattr(server, "serve", lambda settings: None)
    assert main(["serve", *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.skipif(sys.platform != "linux", reason="the data directory is Linux's here")
def test_serve_prints_the_default_ledger_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    out = _serve_output([], monkeypatch, capsys)
    # The place README.md names: ~/.local/share/companion/ledger.sqlite3 on Linux.
    expected = f"The ledger's database: sqlite:///{tmp_path}/.local/share/companion/ledger.sqlite3"
    assert expected in out.splitlines()


def test_serve_prints_the_given_database_with_its_password_hidden(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATABASE_URL", "sqlite:///not-this-one.db")
    url = "postgresql+psycopg://club:s3cret@db.example:5432/companion"
    out = _serve_output(["--db", url], monkeypatch, capsys)
    assert (
        "The ledger's database: postgresql+psycopg://club:***@db.example:5432/companion"
        in out.splitlines()
    )
    assert "s3cret" not in out


def test_serve_prints_the_database_of_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATABASE_URL", "postgres://club:pw@127.0.0.1/companion")
    out = _serve_output([], monkeypatch, capsys)
    assert "The ledger's database: postgresql+psycopg://club:***@127.0.0.1/companion" in out
    assert ":pw@" not in out
