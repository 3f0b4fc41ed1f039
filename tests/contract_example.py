"""The request of the example in docs/contract.md, shared by the tests that check it end to end."""

from __future__ import annotations

from typing import Any

CONTRACT_EXAMPLE: dict[str, Any] = {
    "profile": "sg",
    "hand": "123m456p55s",
    "win_tile": "5s",
    "melds": ["pung 777z", "pung 666z"],
    "bonus": "1f",
    "win": "discard",
    "seat": "E",
    "round": "S",
    "discarder": "S",
    "options": {"min_tai": 1, "share": 1},
}
"""3 tai (two dragon sets and the seat flower): E +16, S -8, W -4, N -4."""
