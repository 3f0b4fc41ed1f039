"""Instant payouts of the Singapore table (`sg-table`), separate from the hand's settlement.

Bonus tiles and kongs pay the moment they are made, whether or not the holder goes on to win:
each of the other three players pays the holder the amount of its kind of payout
(`PayoutKind`), in units of V (the one-tai share option). The amounts are data (`AMOUNTS`);
`docs/rules-sg-table.md` gives them and says how Companion reads them. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from companion.errors import InvalidRequestError, NotAWinError
from companion.rules import get_profile
from companion.rules.options import Options
from companion.rules.singapore.options import SgTableOptions
from companion.rules.singapore.profile import SG_TABLE
from companion.settlement import Payments, amount_json, collect, others
from companion.tiles import (
    ANIMALS,
    FLOWERS,
    SEASONS,
    Tile,
    Wind,
    english_list,
    format_tiles,
    parse_tiles,
)


class PayoutKind(Enum):
    BITE = "bite"
    """Cat and mouse, or rooster and centipede."""
    OWN_FLOWERS = "own_flowers"
    """The flower and the season of the holder's own seat ("flower bitten", "wedding")."""
    FOUR_FLOWERS = "four_flowers"
    FOUR_SEASONS = "four_seasons"
    ANIMAL_SET = "animal_set"
    """All four animals: the set's own amount, paid on top of the two bites."""
    ALL_ANIMALS = "all_animals"
    """All four animals held together, cumulative: both bites and the animal set."""
    EXPOSED_KONG = "exposed_kong"
    """A kong from a discard or added to a declared pung."""
    CONCEALED_KONG = "concealed_kong"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @classmethod
    def parse(cls, text: str) -> PayoutKind:
        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        for kind in cls:
            if kind.value == key:
                return kind
        known = ", ".join(kind.value for kind in cls)
        raise InvalidRequestError(f'unknown payout event "{text}": use one of {known}')


_LABELS = {
    PayoutKind.BITE: "Bite",
    PayoutKind.OWN_FLOWERS: "Own flower and own season",
    PayoutKind.FOUR_FLOWERS: "Four flowers",
    PayoutKind.FOUR_SEASONS: "Four seasons",
    PayoutKind.ANIMAL_SET: "All four animals (the set's own payout)",
    PayoutKind.ALL_ANIMALS: "All four animals (both bites and the set)",
    PayoutKind.EXPOSED_KONG: "Exposed kong",
    PayoutKind.CONCEALED_KONG: "Concealed kong",
}


@dataclass(frozen=True, slots=True)
class Amount:
    """What each of the other three pays, in units of V: during play, and when the payout was
    already complete in the tiles dealt at the start (None: it cannot be dealt)."""

    during_play: Fraction
    at_start: Fraction | None


AMOUNTS: Mapping[PayoutKind, Amount] = {
    PayoutKind.BITE: Amount(Fraction(2), Fraction(4)),
    PayoutKind.OWN_FLOWERS: Amount(Fraction(2), Fraction(4)),
    # The Singapore table guides give no start-of-hand amount for the four flowers, the four
    # seasons or the animal set: dealt or completed later, they pay the same.
    PayoutKind.FOUR_FLOWERS: Amount(Fraction(4), Fraction(4)),
    PayoutKind.FOUR_SEASONS: Amount(Fraction(4), Fraction(4)),
    PayoutKind.ANIMAL_SET: Amount(Fraction(4), Fraction(4)),
    # An exposed kong is made from a discard or a declared pung, never dealt.
    PayoutKind.EXPOSED_KONG: Amount(Fraction(1), None),
    # A concealed kong dealt whole at the start pays nothing.
    PayoutKind.CONCEALED_KONG: Amount(Fraction(2), Fraction(0)),
}
"""Each single kind's amount. `ALL_ANIMALS` is not here: it is the sum of `CUMULATIVE`."""

CUMULATIVE: Mapping[PayoutKind, tuple[PayoutKind, ...]] = {
    PayoutKind.ALL_ANIMALS: (PayoutKind.BITE, PayoutKind.BITE, PayoutKind.ANIMAL_SET),
}
"""Kinds that pay several single kinds at once: all four animals are two bites and the set."""

_BITES = ((Tile.CAT, Tile.MOUSE), (Tile.ROOSTER, Tile.CENTIPEDE))
_BONUS_KINDS = frozenset(
    {
        PayoutKind.BITE,
        PayoutKind.OWN_FLOWERS,
        PayoutKind.FOUR_FLOWERS,
        PayoutKind.FOUR_SEASONS,
        PayoutKind.ANIMAL_SET,
        PayoutKind.ALL_ANIMALS,
    }
)


class NotPayableError(NotAWinError):
    """The payout is well-formed but contradicted: its tiles do not bear it out, or it cannot
    have happened the way it is described (an exposed kong dealt at the start)."""


@dataclass(frozen=True)
class InstantPayout:
    """One instant payout: who receives, what each of the others pays, and its parts."""

    profile: str
    event: PayoutKind
    """The kind of payout, under the name its JSON gives it (`event`)."""
    seat: Wind
    at_start: bool
    parts: tuple[tuple[PayoutKind, Fraction], ...]
    """Each single kind paid and its amount per payer in units of V (one part unless
    cumulative)."""
    each: Fraction
    """What each of the other three pays, in money (units x V)."""
    payments: Payments
    payout_notes: tuple[str, ...] = ()

    def transfers(self) -> list[tuple[Wind, Wind, Fraction]]:
        """(payer, payee, amount) for every payer."""
        if not self.each:
            return []
        return [(payer, self.seat, self.each) for payer in others(self.seat)]

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": True,
            "profile": self.profile,
            "event": self.event.value,
            "seat": self.seat.value,
            "at_start": self.at_start,
            "each": amount_json(self.each),
            "parts": [
                {"event": kind.value, "units": amount_json(units)} for kind, units in self.parts
            ],
            "payments": {wind.value: amount_json(self.payments[wind]) for wind in Wind},
            "transfers": [
                {"from": payer.value, "to": payee.value, "amount": amount_json(amount)}
                for payer, payee, amount in self.transfers()
            ],
            "notes": list(self.payout_notes),
        }


def instant_payout(
    profile: str | Options,
    kind: PayoutKind | str,
    seat: Wind | str,
    at_start: bool = False,
    tiles: Sequence[Tile] | str | None = None,
) -> Payments:
    """The net change of every seat for one instant payout (the four sum to zero).

    `profile` is a profile id (its default options) or the options of an `sg-table` request;
    `tiles`, when given, are the holder's bonus tiles (or the kong's tiles) and must bear the
    payout out. `InvalidRequestError` for malformed input, `NotPayableError` for a contradiction.
    """
    return explain_payout(profile, kind, seat, at_start, tiles).payments


def explain_payout(
    profile: str | Options,
    kind: PayoutKind | str,
    seat: Wind | str,
    at_start: bool = False,
    tiles: Sequence[Tile] | str | None = None,
) -> InstantPayout:
    """`instant_payout` with its parts and notes, for the command line and the JSON form."""
    profile_id, options = _options_of(profile)
    kind = kind if isinstance(kind, PayoutKind) else PayoutKind.parse(kind)
    seat = seat if isinstance(seat, Wind) else _seat(seat)
    notes: list[str] = []
    if tiles is not None:
        held = parse_tiles(tiles) if isinstance(tiles, str) else tuple(tiles)
        _check_tiles(kind, seat, held)
    parts = tuple(
        (single, _amount_of(single, at_start)) for single in CUMULATIVE.get(kind, (kind,))
    )
    units = sum((amount for _, amount in parts), Fraction(0))
    if kind is PayoutKind.CONCEALED_KONG and at_start:
        notes.append("A kong dealt whole at the start pays nothing")
    each = units * options.share
    payments = collect(seat, dict.fromkeys(others(seat), each))
    return InstantPayout(profile_id, kind, seat, at_start, parts, each, payments, tuple(notes))


def payout_options(profile: str, data: Mapping[str, Any] | None = None) -> SgTableOptions:
    """The options of a profile with instant payouts, from request JSON (`share` sets V)."""
    found = get_profile(profile)
    if not found.instant_payouts:
        raise InvalidRequestError(
            f"the {found.id} profile has no instant payouts: they are an sg-table rule"
        )
    # sg-table is the one profile that declares instant payouts.
    return SG_TABLE.parse_options(data or {})


def _options_of(profile: str | Options) -> tuple[str, SgTableOptions]:
    if isinstance(profile, str):
        return get_profile(profile).id, payout_options(profile)
    if not isinstance(profile, SgTableOptions):
        raise InvalidRequestError("instant payouts need the options of the sg-table profile")
    return "sg-table", profile


def _seat(text: str) -> Wind:
    wind = Wind.from_letter(text)
    if wind is not None:
        return wind
    raise InvalidRequestError(f"seat must be a wind: E, S, W or N (got {text!r})")


def _amount_of(kind: PayoutKind, at_start: bool) -> Fraction:
    amount = AMOUNTS[kind]
    if not at_start:
        return amount.during_play
    if amount.at_start is None:
        raise NotPayableError(
            f"{kind.label.lower()}s are made during play, from a discard or a declared pung: "
            "one cannot be held at the start"
        )
    return amount.at_start


def _check_tiles(kind: PayoutKind, seat: Wind, held: tuple[Tile, ...]) -> None:
    """The tiles must bear the payout out: the bonus tiles it needs, or a kong's four tiles."""
    if kind in _BONUS_KINDS:
        _check_bonus(kind, seat, held)
    else:
        _check_kong(kind, held)


def _check_bonus(kind: PayoutKind, seat: Wind, held: tuple[Tile, ...]) -> None:
    playing = [tile for tile in held if not tile.is_bonus]
    if playing:
        raise InvalidRequestError(
            f"{english_list(playing)}: the tiles of a {kind.label.lower()} payout are the "
            "holder's flowers, seasons and animals"
        )
    repeated = sorted({tile for tile in held if held.count(tile) > 1})
    if repeated:
        raise InvalidRequestError(f"each bonus tile exists once: {english_list(repeated)}")
    have = set(held)
    shown = english_list(sorted(held)) or "no bonus tiles"
    if kind is PayoutKind.BITE:
        if not any(have >= set(bite) for bite in _BITES):
            raise NotPayableError(
                f"a bite needs both animals of a pair, cat and mouse or rooster and centipede; "
                f"the tiles hold {shown}"
            )
        return
    needed = {
        PayoutKind.OWN_FLOWERS: (FLOWERS[seat.index], SEASONS[seat.index]),
        PayoutKind.FOUR_FLOWERS: FLOWERS,
        PayoutKind.FOUR_SEASONS: SEASONS,
        PayoutKind.ANIMAL_SET: ANIMALS,
        PayoutKind.ALL_ANIMALS: ANIMALS,
    }[kind]
    missing = [tile for tile in needed if tile not in have]
    if missing:
        whose = f" for the {seat.english} seat" if kind is PayoutKind.OWN_FLOWERS else ""
        raise NotPayableError(
            f"{_WHAT[kind]}{whose} needs {english_list(needed)}; the tiles hold {shown}, "
            f"without {english_list(missing)}"
        )


_WHAT = {
    PayoutKind.OWN_FLOWERS: "own flower and own season",
    PayoutKind.FOUR_FLOWERS: "four flowers",
    PayoutKind.FOUR_SEASONS: "four seasons",
    PayoutKind.ANIMAL_SET: "the animal set",
    PayoutKind.ALL_ANIMALS: "the animal set",
}


def _check_kong(kind: PayoutKind, held: tuple[Tile, ...]) -> None:
    if len(held) == 1 and not held[0].is_bonus:
        return
    if len(held) != 4 or len(set(held)) != 1 or held[0].is_bonus:
        raise NotPayableError(
            f"{format_tiles(held) or 'no tiles'} is not a kong: a kong is four of one playing tile"
        )
