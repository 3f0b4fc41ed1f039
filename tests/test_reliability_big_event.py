"""The seating limit at full size (issue 41, item 2): with the server's default limits, one
client seats the largest event (400 players, 40 rounds: 4,000 tables) to its end; the same
client making a second such event is refused with 429 once the day's tables are spent."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from companion.api import create_app
from companion.ledger.event_book.checks import MAX_EVENT_PLAYERS, MAX_EVENT_ROUNDS


def big_event(client: TestClient) -> tuple[str, dict[str, str]]:
    players = [f"Player {number}" for number in range(1, MAX_EVENT_PLAYERS + 1)]
    body = {"name": "Open", "players": players, "rounds": MAX_EVENT_ROUNDS, "seed": 1}
    created = client.post("/api/events", json=body)
    assert created.status_code == 201, created.text
    return created.json()["id"], {"Authorization": f"Bearer {created.json()['token']}"}


def seat(client: TestClient, event_id: str, bearer: dict[str, str], number: int) -> Any:
    body = {"round": number, "confirm": True}
    return client.post(f"/api/events/{event_id}/rounds", json=body, headers=bearer)


def test_a_full_event_is_seated_and_a_second_from_the_same_address_refused(tmp_path: Any) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")) as client:
        first, bearer = big_event(client)
        for number in range(1, MAX_EVENT_ROUNDS + 1):
            seated = seat(client, first, bearer, number)
            assert seated.status_code == 201, (number, seated.text)
            assert len(seated.json()["tables"]) == 100
        second, other = big_event(client)
        # 6,000 tables a day: 2,000 left after the first event, 20 rounds of 100.
        for number in range(1, 21):
            assert seat(client, second, other, number).status_code == 201
        refused = seat(client, second, other, 21)
        assert refused.status_code == 429
        assert refused.json()["error_key"] == "refusal.too_many_seated"
        # 100 tables at 6,000 a day: 1,440 s, less what refilled while the rounds were seated.
        assert 1000 < int(refused.headers["retry-after"]) <= 1440
        assert client.get(f"/api/events/{second}").json()["current_round"] == 20
