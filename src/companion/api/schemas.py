"""Pydantic models that document the JSON API in OpenAPI.

They describe; they do not validate. Requests are read by the engine's own `parse_request`, whose
messages name the field at fault, so the API and the command line refuse the same requests with
the same words.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Wind = Literal["E", "S", "W", "N"]

SCORE_EXAMPLE: dict[str, Any] = {
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


class ScoreRequestDoc(BaseModel):
    """A scoring request, as docs/contract.md describes it."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [SCORE_EXAMPLE]})

    profile: str = Field("sg", description="`sg`, `sg-table`, `tw`, `hk`, `riichi` or `mcr`")
    hand: str | None = Field(None, description="concealed tiles in MPSZ, winning tile included")
    win_tile: str | None = Field(None, description="the winning tile (default: last in `hand`)")
    melds: list[str] = Field(
        default_factory=list, description='declared groups: "chow 123m", "pung 777z", "ckong 1p"'
    )
    bonus: str | list[str] = Field("", description="flowers, seasons and animals, e.g. `1f5f1a`")
    win: Literal["self_draw", "discard"] = "self_draw"
    seat: Wind = "E"
    round: Wind = "E"
    discarder: Wind | None = Field(None, description="required for a discard win")
    dealer: Wind = Field("E", description="`tw`: the dealer's seat")
    dealer_streak: int = Field(0, ge=0, description="`tw`: the dealer's prior consecutive wins")
    table_discards: int | None = Field(None, ge=0, description="`tw`: discards made so far")
    events: list[str] = Field(
        default_factory=list,
        description="replacement, kong_on_kong, robbing_kong, last_tile, last_discard, "
        "heavenly, earthly, original_ready; `riichi` also riichi, double_riichi, ippatsu, "
        "renhou (not kong_on_kong or original_ready); `mcr` last_copy, last_tile, "
        "replacement, robbing_kong",
    )
    dora: str | list[str] = Field(
        default_factory=list, description="`riichi`: the dora indicators, MPSZ (`1m`, `5z`)"
    )
    ura_dora: str | list[str] = Field(
        default_factory=list, description="`riichi`: the ura dora indicators (with riichi only)"
    )
    honba: int = Field(0, ge=0, le=1000, description="`riichi`: the counters on the table")
    riichi_sticks: int = Field(
        0,
        ge=0,
        le=1000,
        description="`riichi`: the 1000-point deposits on the table, this hand's included",
    )
    flower_win: Literal["seven_capture", "eight"] | None = None
    liable: Wind | None = Field(None, description="`sg-table`, `hk`: the seat that pays for all")
    options: dict[str, Any] = Field(default_factory=dict, description="profile options")


class WaitsRequestDoc(BaseModel):
    """A hand one tile short. Any scoring-request field may be added (except `win_tile` and
    `flower_win`); each wait is then scored as if it had been won in that context."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [{"profile": "sg", "hand": "789m1223333445s"}],
        },
    )

    profile: str = "sg"
    hand: str = Field(description="the concealed tiles, one short of a winning hand")
    melds: list[str] = Field(default_factory=list)
    bonus: str | list[str] = ""


class PatternDoc(BaseModel):
    id: str
    name: str
    tai: int | None = Field(None, description="its tai (faan in `hk`); not in `riichi`")
    han: int | None = Field(None, description="`riichi`: a yaku's or dora's han")
    yakuman: int | None = Field(None, description="`riichi`: a yakuman's count (1, or 2)")
    count: int
    earned_by: list[str] | None = Field(
        None, description="the groups or tiles that earned the pattern (not in `riichi`)"
    )
    variant: str | None = None


class FuItemDoc(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    fu: int
    reason: str = Field(alias="for", description="`base`, `closed_ron`, `pung 777z`, `wait`...")


class TransferDoc(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    payer: Wind = Field(alias="from")
    to: Wind
    amount: float


class ScoreResultDoc(BaseModel):
    """A scoring result. With `valid` false, only `profile`, `error` and (one tile short)
    `waits` are present."""

    valid: bool
    profile: str
    error: str | None = None
    tai: int | None = None
    raw_tai: int | None = None
    meets_minimum: bool | None = None
    patterns: list[PatternDoc] | None = None
    groups: list[str] | None = None
    waits: list[str] | None = None
    payments: dict[str, float] | None = None
    notes: list[str] | None = None
    winning_group: str | None = None
    wait: str | None = None
    dealer_tai: int | None = None
    winner: Wind | None = None
    transfers: list[TransferDoc] | None = None
    unit: str | None = Field(None, description="`tai`, `faan` (`hk`) or `han` (`riichi`)")
    han: int | None = Field(None, description="`riichi`: the han of the yaku and dora")
    fu: int | None = Field(None, description="`riichi`: the fu, rounded")
    fu_items: list[FuItemDoc] | None = Field(None, description="`riichi`: what made the fu")
    yakuman: int | None = Field(None, description="`riichi`: how many yakuman")
    limit: str | None = Field(
        None, description="`riichi`: mangan, haneman, baiman, sanbaiman, kazoe_yakuman, yakuman"
    )
    call: str | None = Field(None, description='`riichi`: "8000", "2000-4000", "4000 all"')
    deposits: int | None = Field(
        None, description="`riichi`: the points the winner takes from the deposits"
    )


class WaitsResultDoc(BaseModel):
    profile: str
    waits: list[str] = Field(description="the tile kinds that complete the hand, in MPSZ")
    scores: dict[str, ScoreResultDoc] = Field(
        description="for each wait, the result of winning on it in the request's context"
    )


class ErrorDoc(BaseModel):
    error: str = Field(description="what was wrong, for a person")


class ProfileDoc(BaseModel):
    id: str
    name: str
    sets: int
    tiles: int
    options: list[dict[str, Any]]
    events: list[str]
    fields: list[str]
    flower_wins: list[str]
    animals: bool
    patterns: list[dict[str, Any]]


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    # Unreadable tiles are a refusal of /api/score (200, valid: false), but a 400 of /api/waits.
    400: {"model": ErrorDoc, "description": "the body is not JSON that Companion can read"},
    413: {"model": ErrorDoc, "description": "the body is over the size limit"},
    415: {"model": ErrorDoc, "description": "the body is not JSON"},
    422: {"model": ErrorDoc, "description": "a request that is not well-formed"},
}

WAITS_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    400: {
        "model": ErrorDoc,
        "description": "not JSON that Companion can read, or tiles that cannot be read",
    },
}


def inline_schema(model: type[BaseModel]) -> dict[str, Any]:
    """An `openapi_extra` request body for a flat model (no nested models)."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }
