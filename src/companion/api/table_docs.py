"""The OpenAPI documentation of `/api/tables`: the request bodies as models, and the error
answers of each endpoint. Descriptive only: the bodies are read by `api/table_bodies.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.api.schemas import ErrorDoc
from companion.rules import profiles
from companion.rules.profile import AnyProfile

PROFILE_IDS: tuple[str, ...] = tuple(profiles())
"""The profiles a table may use, in the registry's order: the schema's `enum`."""

if TYPE_CHECKING:
    ProfileId = str
else:
    # Read from the registry, so a new profile is documented without an edit here.
    ProfileId = Literal[PROFILE_IDS]


def documented(example: dict[str, Any]) -> ConfigDict:
    """A documentation model's config: no fields but its own, and `example` as its example.
    (Fields may be given by their alias, as `from` in the example of a win.)"""
    return ConfigDict(
        extra="forbid", populate_by_name=True, json_schema_extra={"examples": [example]}
    )


def declared_by(capability: Callable[[AnyProfile], bool]) -> str:
    """The ids of the profiles that declare `capability`, as the descriptions name them."""
    return ", ".join(f"`{profile.id}`" for profile in profiles().values() if capability(profile))


class CreateTableDoc(BaseModel):
    model_config = documented(
        {
            "profile": "sg",
            "players": ["Ann", "Ben", "Cat", "Dan"],
            "options": {"min_tai": 1},
            "hands": 16,
        }
    )

    profile: ProfileId = "sg"
    players: list[str] = Field(description="four names in seat order; the first is East and deals")
    options: dict[str, Any] = Field(default_factory=dict, description="profile options")
    hands: int | None = Field(None, ge=1, description="the planned number of hands (none: open)")
    name: str | None = Field(None, max_length=60, description="what the players call the table")
    rounds: int | None = Field(
        None,
        ge=1,
        description="or the planned number of full rounds (the deal round all four seats; "
        "4 is East round through North round); not with `hands`",
    )


class RecordDoc(BaseModel):
    model_config = documented(
        {"kind": "win", "winner": "Ann", "from": "Ben", "tai": 3, "key": "tap-7f3a"}
    )

    kind: Literal["win", "draw", "payout"]
    winner: str | None = Field(None, description="win: the winner's name")
    discarder: str | None = Field(
        None, alias="from", description="win: who discarded (or `self_draw`)"
    )
    self_draw: bool = Field(False, description="win: a self-drawn win")
    tai: int | None = Field(None, ge=0, description="win: the agreed tai (quick entry)")
    hand: dict[str, Any] | None = Field(
        None,
        description="win: the hand as a scoring request (`hand`, `melds`, `bonus`, "
        "`events`...); the table fills in profile, seats, round, dealer and options",
    )
    winners: list[dict[str, Any]] | None = Field(
        None,
        description=f"{declared_by(lambda profile: profile.several_winners)}: several winners "
        'on one discard, `[{"name", "tai" | "hand"}]`',
    )
    liable: str | None = Field(
        None, description=f"{declared_by(lambda profile: profile.pay_for_all)}: who pays for all"
    )
    player: str | None = Field(None, description="payout: who receives it")
    event: str | None = Field(
        None,
        description="payout: bite, own_flowers, four_flowers, four_seasons, animal_set, "
        "all_animals, exposed_kong, concealed_kong",
    )
    at_start: bool = Field(False, description="payout: held when dealt")
    key: str | None = Field(
        None, description="idempotency key: the same key again records nothing new"
    )
    expect_hand: int | None = Field(
        None, ge=1, description="refuse (409) unless this is the hand being played"
    )


class VoidDoc(BaseModel):
    model_config = documented({"reason": "wrong winner", "by": "Dan"})

    reason: str = Field(max_length=200, description="why (kept in the history)")
    by: str = Field("", max_length=200, description="who makes the correction")
    key: str | None = Field(None, description="idempotency key")
    expect: int | None = Field(
        None, ge=0, description="refuse (409) unless the event is at this version (its `version`)"
    )


class AmendDoc(RecordDoc):
    model_config = documented(
        {
            "kind": "win",
            "winner": "Cat",
            "self_draw": True,
            "tai": 2,
            "reason": "it was Cat's hand",
            "by": "Dan",
        }
    )

    reason: str = Field(max_length=200, description="why (kept in the history)")
    by: str = Field("", max_length=200, description="who makes the correction")
    expect: int | None = Field(
        None, ge=0, description="refuse (409) unless the event is at this version (its `version`)"
    )


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    descriptions = {
        400: "the body is not JSON",
        401: "no write token (Authorization: Bearer <token>)",
        403: "the token is not this table's",
        404: "no table with this id",
        409: "the key was used for something else, the hand was already recorded, "
        "the event was corrected meanwhile (`expect`), or the table is finished",
        413: "the body is over the size limit",
        415: "the body is not JSON",
        422: "a request that cannot be carried out (a name not at the table, a hand that "
        "is not a win, a limit reached...)",
        429: "too many requests: new tables from this address, or writes to this table "
        "(see Retry-After)",
        503: "the database cannot be reached",
    }
    return {status: {"model": ErrorDoc, "description": descriptions[status]} for status in statuses}


WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    200: {"description": "the key was already used for this same entry: nothing new"},
    **error_responses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
}
