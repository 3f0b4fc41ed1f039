"""The waits API on a riichi hand: a refused wait carries its key, as /api/score's refusal does,
so that the calculator says it in the page's language."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


def test_a_wait_without_a_yaku_is_refused_with_its_key(client: TestClient) -> None:
    request = {
        "profile": "riichi",
        "hand": "234m406p666s88s23p",
        "win": "discard",
        "discarder": "E",
        "seat": "S",
        "dora": ["7s"],
    }
    answer = client.post("/api/waits", json=request).json()
    assert answer["waits"] == ["1p", "4p", "7p"]
    assert answer["scores"]["1p"] == {
        "valid": False,
        "profile": "riichi",
        "error": "not a win: no yaku (dora are not yaku)",
        "error_key": "refusal.no_yaku",
        "error_params": {},
    }
    four = answer["scores"]["4p"]
    assert (four["han"], four["fu"], four["call"]) == (4, 40, "8000")
    assert [pattern["id"] for pattern in four["patterns"]] == ["tanyao", "dora", "aka_dora"]
    # The same refusal as scoring the hand with that tile.
    scored = client.post(
        "/api/score", json={**request, "hand": "234m406p666s88s23p1p", "win_tile": "1p"}
    ).json()
    assert scored == answer["scores"]["1p"]
