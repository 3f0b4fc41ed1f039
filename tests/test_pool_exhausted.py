"""The database's connection pool ran dry (SQLAlchemy's `TimeoutError`: every connection busy
past the pool's timeout): a 503 with Retry-After and a message, as the ledger's other database
troubles are, not a 500 (issue 41, item 2: 59 reads answered 500 under 45 looping readers)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from companion.api.errors import RETRY_AFTER_SECONDS
from companion.ledger.repository import Ledger

BUSY = "the database is busy (every connection is in use): try again in a few seconds"


def _dry(*_args: Any, **_kwargs: Any) -> Any:
    raise PoolTimeoutError("QueuePool limit of size 5 overflow 10 reached, connection timed out")


def test_a_dry_pool_is_a_503_with_retry_after(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/tables", json={"profile": "sg", "players": ["A", "B", "C", "D"]})
    table_id = created.json()["id"]
    monkeypatch.setattr(Ledger, "replay", _dry)
    answer = client.get(f"/api/tables/{table_id}")
    assert (answer.status_code, answer.json()) == (503, {"error": BUSY})
    assert answer.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    page = client.get(f"/t/{table_id}")
    assert page.status_code == 503
    assert page.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert BUSY in page.text
