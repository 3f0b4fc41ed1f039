"""Hardening for a public server: what a client may store, spreadsheet-safe CSV, forms and hosts,
corrections that race, rate limits. (Slow clients and many processes: test_reliability_serve.py.)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.tables import close_ledgers
from companion.cli import main as cli_main
from companion.ledger.repository import spreadsheet_text

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
FORMULA_PLAYERS = ["=1+2", "+SUM(1;2)", "-2+3", "@cmd"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    close_ledgers(app)


@pytest.fixture
def any_client(ledger_url: str) -> Iterator[TestClient]:
    app = create_app(ledger_url)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    close_ledgers(app)


def new_table(client: TestClient, players: list[str] = PLAYERS, **fields: Any) -> tuple[str, str]:
    response = client.post("/api/tables", json={"profile": "sg", "players": players, **fields})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


# ---------------------------------------------------------------------------------------------
# CSV export: formula cells


def test_spreadsheet_text_neutralises_every_formula_start() -> None:
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert spreadsheet_text(f"{start}1+1") == f"'{start}1+1"
    assert spreadsheet_text("Ann") == "Ann"
    assert spreadsheet_text("") == ""
    assert spreadsheet_text("1-2") == "1-2"


def formula_table(client: TestClient) -> str:
    table_id, token = new_table(client, FORMULA_PLAYERS)
    win = {"kind": "win", "winner": "=1+2", "from": "-2+3", "tai": 2}
    assert client.post(f"/api/tables/{table_id}/hands", json=win, headers=bearer(token)).is_success
    void = {"reason": "=HYPERLINK(1)", "by": "@cmd"}
    url = f"/api/tables/{table_id}/events/1/void"
    assert client.post(url, json=void, headers=bearer(token)).status_code == 201
    return table_id


def check_formula_csv(text: str) -> None:
    rows = list(csv.reader(io.StringIO(text)))
    header, win, void = rows
    assert header[-8:] == [f"'{name}" for name in FORMULA_PLAYERS] + [
        f"'{name} total" for name in FORMULA_PLAYERS
    ]
    columns = dict(zip(header, win, strict=True))
    assert columns["dealer"] == "'=1+2"
    assert columns["winners"] == ""  # the win is void: no winner counts
    assert columns["description"] == "'=1+2 wins 2 tai (agreed) on -2+3's discard"
    corrected = dict(zip(header, void, strict=True))
    assert corrected["reason"] == "'=HYPERLINK(1)" and corrected["by"] == "'@cmd"
    # amounts are Companion's own numbers: a negative amount stays a number
    assert win[-8:-4] == ["0", "0", "0", "0"]
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)


def test_http_csv_export_neutralises_formulas_and_json_stays_exact(client: TestClient) -> None:
    table_id = formula_table(client)
    check_formula_csv(client.get(f"/api/tables/{table_id}/export?format=csv").text)
    exported = client.get(f"/api/tables/{table_id}/export").json()
    assert exported["table"]["players"] == FORMULA_PLAYERS
    assert exported["events"][1]["reason"] == "=HYPERLINK(1)"
    assert exported["events"][1]["by"] == "@cmd"


def test_cli_csv_export_neutralises_formulas(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table_id = formula_table(client)
    target = tmp_path / "out.csv"
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    argv = ["table", "export", table_id, "--format", "csv", "-o", str(target), "--db", url]
    assert cli_main(argv) == 0
    check_formula_csv(target.read_text())
