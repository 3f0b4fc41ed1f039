"""The bodies of the table writes, each declared once as a pydantic model, and the reader that
takes a request's JSON by them.

A model is the one list of its body's fields: names (and aliases, as `from`), types, required
fields, defaults, descriptions and limits. `read_body` and `read_record` read JSON by the models
with the project's messages, which name the field ("tai must be a whole number", "unknown field
'x' in the request"); `api/table_docs.py` makes each route's OpenAPI schema from the same models
and `api/body_docs.py` docs/web.md's tables of body fields (tests/test_table_bodies.py holds the
docs, the schemas and the reader to the models). Each record's model builds its `Record` once
(`record()`); a field every record has is declared in `records.Extras` alone, and comes here
through `RecordBody`.

Pydantic does not validate the bodies: its messages and its order of checks are not the
project's. The reader checks what a model declares for it (the type, `required`, `ge`,
`min_length`); the lengths (`max_length`) and ranges that the ledger checks in its own words
(`tai` in what the profile settles, the planned `hands`) are declared for the documentation and
left to the ledger.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Literal,
    NamedTuple,
    TypeVar,
    Union,
    get_args,
    get_origin,
)

from annotated_types import Ge, MinLen
from pydantic import BaseModel, ConfigDict, Field, create_model

from companion.errors import InvalidRequestError
from companion.ledger.checks import KEY_LENGTH
from companion.ledger.records import (
    STOP_MEANING,
    ChomboRecord,
    DrawRecord,
    Extras,
    PayoutRecord,
    Record,
    StopRecord,
    WinnerRecord,
    WinRecord,
    extra_fields,
)
from companion.ledger.state import MAX_CORRECTION_TEXT, MAX_TABLE_NAME
from companion.rules import table_profiles
from companion.rules.profile import AnyProfile

PROFILE_IDS: tuple[str, ...] = tuple(table_profiles())
"""The profiles a table may use, in the registry's order: the schema's `enum`."""

DEFAULT_PROFILE = "sg"

if TYPE_CHECKING:
    ProfileId = str
else:
    # Read from the registry, so a new profile is documented without an edit here.
    ProfileId = Literal[PROFILE_IDS]


def declared_by(capability: Callable[[AnyProfile], bool]) -> str:
    """The ids of the profiles that declare `capability`, as the descriptions name them."""
    return ", ".join(
        f"`{profile.id}`" for profile in table_profiles().values() if capability(profile)
    )


class Shape(NamedTuple):
    """What a list field must be, as its refusal says it: `players must be <text>`."""

    text: str


class BodyModel(BaseModel):
    """A write body's declaration. `what` names the body in refusals."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)
    what: ClassVar[str] = "the request"


def extras_model(extras_type: type[Extras] = Extras) -> type[BodyModel]:
    """The body fields of a record's extras (`records.Extras`), one per field, each optional
    with its description: what every record's body (`RecordBody`) starts from."""
    declared: dict[str, Any] = {
        extra.name: (extra.kind | None, Field(extra.default, description=extra.description))
        for extra in extra_fields(extras_type)
    }
    return create_model(f"{extras_type.__name__}Body", __base__=BodyModel, **declared)


if TYPE_CHECKING:
    _ExtrasBody = BodyModel
else:
    _ExtrasBody = extras_model()


class RecordBody(_ExtrasBody):
    """A record's body: its kind's fields, and the extras every record has."""

    def extras(self) -> Extras:
        """The record's extras, as the body gives them."""
        return Extras(**{extra.name: getattr(self, extra.name) for extra in extra_fields()})


# ---------------------------------------------------------------------------------------------
# The bodies


class CreateTable(BodyModel):
    """A new table (`POST /api/tables`)."""

    profile: ProfileId = DEFAULT_PROFILE
    players: Annotated[list[str], Shape("a list of names, East first")] = Field(
        description="four names in seat order (three at a "
        f"{declared_by(lambda profile: len(profile.seats) == 3)} table); the first is East and "
        "deals"
    )
    options: dict[str, Any] = Field(default_factory=dict, description="profile options")
    hands: int | None = Field(
        None,
        description="the planned number of hands (none: open); "
        f"{declared_by(lambda profile: profile.game_hands is not None)}: the game's own length "
        "or none",
        json_schema_extra={"minimum": 1},  # the ledger's check and words
    )
    rounds: int | None = Field(
        None,
        description="or the planned number of full rounds (the deal round all four seats; "
        "4 is East round through North round); not with `hands`",
        json_schema_extra={"minimum": 1},
    )
    name: str | None = Field(
        None, max_length=MAX_TABLE_NAME, description="what the players call the table"
    )


def _points_games() -> str:
    return declared_by(lambda profile: profile.points_game)


def _money_games() -> str:
    """The tables a stop ends as a session: neither a points game nor a game of fixed length."""
    return declared_by(lambda profile: not profile.points_game and profile.game_hands is None)


_FLOWERS = (
    "with `tai`, where the table plays flowers (`mcr` with option `flowers`): the winner's "
    "flowers, 1 fan each and never toward the minimum"
)


Names = Annotated[list[str], Shape("a list of names")]


class WinnerBody(BodyModel):
    """Each of a win's `winners` (several on one discard)."""

    what: ClassVar[str] = "a winner"

    name: str = Field(description="the winner's name")
    tai: int | None = Field(
        None,
        description="the agreed tai (quick entry; faan at an `hk` table, fan at an `mcr` table)",
        json_schema_extra={"minimum": 0},
    )
    hand: dict[str, Any] | None = Field(None, description="or the winning hand (as `hand`)")
    han: int | None = Field(
        None, description=f"{_points_games()}: or the hand's han (as `han`)", ge=1
    )
    fu: int | None = Field(None, description=f"{_points_games()}: with its fu (as `fu`)", ge=20)
    yakuman: int | None = Field(
        None, description=f"{_points_games()}: or its yakuman (as `yakuman`)", ge=1
    )
    limit: str | None = Field(None, description=f"{_points_games()}: or a limit (as `limit`)")
    flowers: int | None = Field(None, description=_FLOWERS, json_schema_extra={"minimum": 0})

    def winner(self) -> WinnerRecord:
        return winner_input(
            self.name,
            self.tai,
            self.hand,
            (self.han, self.fu, self.yakuman, self.limit),
            self.flowers,
        )


Value = tuple[int | None, int | None, int | None, str | None]
"""A points game's han, fu, yakuman and limit, as a body gives them."""
NO_VALUE: Value = (None, None, None, None)


def winner_input(
    name: str,
    tai: int | None,
    hand: dict[str, Any] | None,
    value: Value = NO_VALUE,
    flowers: int | None = None,
) -> WinnerRecord:
    han, fu, yakuman, limit = value
    given = value != NO_VALUE
    if [tai is not None, hand is not None, given].count(True) != 1:
        raise InvalidRequestError(
            f"give {name}'s agreed tai (tai), the winning hand (hand), or in a points game the "
            "hand's han and fu (han, fu; or yakuman, or limit), one of them"
        )
    return WinnerRecord(
        name, tai=tai, hand=hand, han=han, fu=fu, yakuman=yakuman, limit=limit, flowers=flowers
    )


class WinBody(RecordBody):
    """A win (`POST .../hands`, `.../preview`, `.../amend`): `winner` (or `winners`), `from` or
    `self_draw`, `tai` or `hand`."""

    kind: Literal["win"] = Field(description="a win")
    winner: str | None = Field(None, description="the winner's name")
    discarder: str | None = Field(None, alias="from", description="who discarded (or `self_draw`)")
    self_draw: bool = Field(False, description="a self-drawn win")
    # The ledger refuses a negative tai in the profile's unit ("faan cannot be negative").
    tai: int | None = Field(
        None,
        description="the agreed tai (quick entry; faan at an `hk` table, fan at an `mcr` table)",
        json_schema_extra={"minimum": 0},
    )
    hand: dict[str, Any] | None = Field(
        None,
        description="the hand as a scoring request (`hand`, `melds`, `bonus`, "
        "`events`...); the table fills in profile, seats, round, dealer and options",
    )
    winners: Annotated[
        list[WinnerBody] | None, Shape('a list of {"name", "tai" | "hand"} objects')
    ] = Field(
        None,
        min_length=1,
        description=f"{declared_by(lambda profile: profile.several_winners)}: several winners "
        'on one discard, `[{"name", "tai" | "hand"}]`',
    )
    liable: str | None = Field(
        None, description=f"{declared_by(lambda profile: profile.pay_for_all)}: who pays for all"
    )
    han: int | None = Field(
        None,
        description=f"{_points_games()}: the hand's han, in place of `tai` (with `fu`, which "
        "may be left out from 5 han up)",
        ge=1,
    )
    fu: int | None = Field(None, description=f"{_points_games()}: the hand's fu", ge=20)
    yakuman: int | None = Field(
        None, description=f"{_points_games()}: or the hand's yakuman count", ge=1
    )
    limit: str | None = Field(
        None,
        description=f"{_points_games()}: or a limit: mangan, haneman, baiman, sanbaiman, "
        "kazoe_yakuman, yakuman",
    )
    riichi: Names = Field(
        default_factory=list,
        description=f"{_points_games()}: who declared riichi in this hand (a stick each)",
    )
    flowers: int | None = Field(None, description=_FLOWERS, json_schema_extra={"minimum": 0})

    def record(self) -> WinRecord:
        value = (self.han, self.fu, self.yakuman, self.limit)
        if self.winners is not None:
            if (
                self.winner is not None
                or self.tai is not None
                or self.hand is not None
                or value != NO_VALUE
                or self.flowers is not None
            ):
                raise InvalidRequestError(
                    "give winner with tai or hand, or winners as a list, not both"
                )
            winners = [winner.winner() for winner in self.winners]
        elif self.winner is None:
            raise InvalidRequestError(f"winner is required in {self.what}")
        else:
            winners = [winner_input(self.winner, self.tai, self.hand, value, self.flowers)]
        if self.self_draw == (self.discarder is not None):
            raise InvalidRequestError(
                'say how the hand was won: "from" (who discarded) or "self_draw": true, '
                "one of the two"
            )
        return WinRecord(
            tuple(winners), self.discarder, self.liable, tuple(self.riichi), self.extras()
        )


class DrawBody(RecordBody):
    """A drawn hand: its `kind`; in a points game who was tenpai and who declared riichi, or
    the kind of an abortive draw."""

    kind: Literal["draw"] = Field(description="a drawn hand")
    tenpai: Names = Field(
        default_factory=list,
        description=f"{_points_games()}: who was tenpai at the exhaustive draw",
    )
    riichi: Names = Field(
        default_factory=list,
        description=f"{_points_games()}: who declared riichi in this hand (a stick each)",
    )
    nagashi: Names = Field(
        default_factory=list,
        description=f"{_points_games()}: who is paid a nagashi mangan (where the table plays it)",
    )
    abortive: str | None = Field(
        None,
        description=f"{_points_games()}: an abortive draw (where the table plays them): "
        "nine_terminals, four_winds, four_kongs, four_riichi, triple_ron",
    )

    def record(self) -> DrawRecord:
        return DrawRecord(
            tuple(self.tenpai),
            tuple(self.riichi),
            tuple(self.nagashi),
            self.abortive,
            self.extras(),
        )


class ChomboBody(RecordBody):
    """A points game's chombo: the hand is dealt again."""

    kind: Literal["chombo"] = Field(description=f"{_points_games()}: a chombo (a foul)")
    player: str = Field(description="who fouled")

    def record(self) -> ChomboRecord:
        return ChomboRecord(self.player, self.extras())


class StopBody(RecordBody):
    """A money table's end of the session, or a points game's end at all-last: the leading
    dealer stops."""

    kind: Literal["stop"] = Field(
        description=STOP_MEANING.format(money=_money_games(), points=_points_games())
    )

    def record(self) -> StopRecord:
        return StopRecord(self.extras())


class PayoutBody(RecordBody):
    """An instant payout (each of the other three pays the player)."""

    kind: Literal["payout"] = Field(description="an instant payout")
    player: str = Field(description="who receives it")
    event: str = Field(  # the payout's kind (`PayoutKind`), under its JSON name
        description="bite, own_flowers, four_flowers, four_seasons, animal_set, "
        "all_animals, exposed_kong, concealed_kong",
    )
    at_start: bool = Field(False, description="held when dealt")

    def record(self) -> PayoutRecord:
        return PayoutRecord(self.player, self.event, self.at_start, self.extras())


EntryBody = WinBody | DrawBody | PayoutBody | ChomboBody | StopBody
ENTRY_BODIES: tuple[
    type[WinBody], type[DrawBody], type[PayoutBody], type[ChomboBody], type[StopBody]
] = (WinBody, DrawBody, PayoutBody, ChomboBody, StopBody)
"""The kinds of entry a table records, each by its `kind`."""

Key = Annotated[
    str | None,
    Field(
        max_length=KEY_LENGTH,
        description="idempotency key: the same key again records nothing new",
    ),
]


class Recording(BodyModel):
    """With an entry to record or preview (`POST .../hands`, `.../preview`)."""

    key: Key = None
    expect_hand: int | None = Field(
        None, ge=1, description="refuse (409) unless this is the hand being played"
    )


class Correction(BodyModel):
    """A correction: the body of `.../void`; with an entry, of `.../amend`."""

    reason: str = Field(max_length=MAX_CORRECTION_TEXT, description="why (kept in the history)")
    by: str = Field("", max_length=MAX_CORRECTION_TEXT, description="who makes the correction")
    key: Key = None
    expect: int | None = Field(
        None, ge=0, description="refuse (409) unless the entry is at this version (its `version`)"
    )

    def fields(self) -> dict[str, Any]:
        """`reason`, `by`, `key` and `expect` as the ledger's `void` and `amend` take them."""
        return {"reason": self.reason, "by": self.by, "key": self.key, "expect": self.expect}


# ---------------------------------------------------------------------------------------------
# Reading JSON by a model


@dataclass(frozen=True)
class BodyField:
    """One field of a body as the reader takes it."""

    attribute: str
    name: str
    """The name in the JSON (the alias: `from`)."""
    required: bool
    default: Any
    """What an absent optional field holds; made anew by `fresh` when it is mutable (`{}`)."""
    fresh: Callable[[], Any] | None
    demand: str
    """What a value must be, as a refusal says it: "a string", "a whole number"..."""
    check: Callable[[Any], Any]
    """The value (not null) as the model holds it; refuses (with `name`) any other."""
    listed: bool
    """A list: absent, it is refused by its shape, which says what to send."""


Model = TypeVar("Model", bound=BodyModel)


@cache
def body_fields(model: type[BodyModel]) -> tuple[BodyField, ...]:
    """A model's fields, in declaration order (the order they are read)."""
    found = []
    for attribute, info in model.model_fields.items():
        name = info.alias or attribute
        demand, check = _checker(name, info.annotation, info.metadata)
        found.append(
            BodyField(
                attribute,
                name,
                info.is_required(),
                None if info.is_required() else info.get_default(call_default_factory=True),
                info.default_factory,  # type: ignore[arg-type]  # (none takes the data)
                demand,
                check,
                get_origin(_without_none(info.annotation)) is list,
            )
        )
    return tuple(found)


@cache
def field_names(*models: type[BodyModel]) -> frozenset[str]:
    """The names the JSON of these models' fields may hold."""
    return frozenset(field.name for model in models for field in body_fields(model))


_SCALARS: dict[Any, tuple[str, Callable[[Any], bool]]] = {
    str: ("a string", lambda value: isinstance(value, str)),
    int: ("a whole number", lambda value: isinstance(value, int) and not isinstance(value, bool)),
    bool: ("true or false", lambda value: isinstance(value, bool)),
    dict: ("a JSON object", lambda value: isinstance(value, dict)),
}


def _checker(name: str, annotation: Any, metadata: list[Any]) -> tuple[str, Callable[[Any], Any]]:
    kind = _without_none(annotation)
    origin = get_origin(kind) or kind
    if origin is Literal:
        origin = str  # the kind, or a profile id: text, its value checked by who reads it
    if origin is list:
        return _list_checker(name, get_args(kind)[0], metadata)
    if origin not in _SCALARS:
        raise TypeError(f"{name}: the reader takes str, int, bool, dict and lists, not {kind}")
    demand, fits = _SCALARS[origin]
    minimum = next((item.ge for item in metadata if isinstance(item, Ge)), None)

    def check(value: Any) -> Any:
        if not fits(value):
            raise InvalidRequestError(f"{name} must be {demand}")
        if minimum is not None and value < minimum:
            raise InvalidRequestError(f"{name} must be at least {minimum}")
        return value

    return demand, check


def _list_checker(name: str, item: Any, metadata: list[Any]) -> tuple[str, Callable[[Any], Any]]:
    shape = next(entry.text for entry in metadata if isinstance(entry, Shape))
    shortest = next((entry.min_length for entry in metadata if isinstance(entry, MinLen)), 0)

    def read_item(value: Any) -> Any:
        if isinstance(item, type) and issubclass(item, BodyModel):
            return read_body(item, value, item.what)
        if not isinstance(value, item):
            raise InvalidRequestError(f"{name} must be {shape}")
        return value

    def check(value: Any) -> Any:
        if not isinstance(value, list) or len(value) < shortest:
            raise InvalidRequestError(f"{name} must be {shape}")
        return [read_item(part) for part in value]

    return shape, check


def _without_none(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        (kind,) = (arg for arg in get_args(annotation) if arg is not type(None))
        return kind
    return annotation


def checked_object(data: Any, allowed: frozenset[str], what: str = "the request") -> dict[str, Any]:
    """`data` as a JSON object with no fields but `allowed`."""
    if not isinstance(data, dict):
        raise InvalidRequestError(f"{what} must be a JSON object")
    unknown = sorted(str(name) for name in data if name not in allowed)
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        raise InvalidRequestError(f"unknown field {names} in {what}")
    return data


def read_fields(model: type[Model], data: dict[str, Any], what: str = "the request") -> Model:
    """The model of a checked object's fields (`checked_object`), field by field; null is an
    absent field."""
    values = {}
    for field in body_fields(model):
        value = data.get(field.name)
        if value is None:
            if field.required:
                if field.listed:
                    raise InvalidRequestError(f"{field.name} must be {field.demand}")
                raise InvalidRequestError(f"{field.name} is required in {what}")
            values[field.attribute] = field.default if field.fresh is None else field.fresh()
        else:
            values[field.attribute] = field.check(value)
    return model.model_construct(**values)


def read_body(model: type[Model], data: Any, what: str = "the request") -> Model:
    """A request body (or a part of one) read by its model."""
    return read_fields(model, checked_object(data, field_names(model), what), what)


def kind_of(model: type[BodyModel]) -> str:
    """The `kind` an entry's model reads (`win`...)."""
    (kind,) = get_args(model.model_fields["kind"].annotation)
    return str(kind)


_KINDS: dict[
    str, type[WinBody] | type[DrawBody] | type[PayoutBody] | type[ChomboBody] | type[StopBody]
] = {kind_of(model): model for model in ENTRY_BODIES}


def read_record(data: Any, extra: type[Model]) -> tuple[Record, Model]:
    """A win, drawn hand or payout from a request body, built once, and the `extra` fields it
    takes."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in _KINDS:
        checked_object(data, field_names(*ENTRY_BODIES, extra))  # refuse a non-object first
        raise InvalidRequestError(f"kind is required: {kind_choices()}")
    model = _KINDS[kind]
    checked = checked_object(data, field_names(model, extra))
    record = read_fields(model, checked).record()
    return record, read_fields(extra, checked)


def kind_choices() -> str:
    """`"win", "draw" or "payout"`."""
    names = [f'"{kind}"' for kind in _KINDS]
    return f"{', '.join(names[:-1])} or {names[-1]}"
