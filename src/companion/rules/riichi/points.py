"""From han, fu and yakuman to base points, the limit, the payments and the call."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.riichi.options import RiichiOptions
from companion.tiles import WINDS, Wind

LIMIT_BASE = {
    "mangan": 2000,
    "haneman": 3000,
    "baiman": 4000,
    "sanbaiman": 6000,
    "kazoe_yakuman": 8000,
    "yakuman": 8000,
}
"""The base points of each limit (a yakuman's per yakuman)."""


@dataclass(frozen=True, order=True)
class RiichiValue:
    """A hand's value: ranked by its base points (the reading that pays most is kept); on equal
    points a yakuman before a counted one (as Tenhou does), then by han and fu."""

    base: int
    yakuman: int
    han: int
    fu: int
    limit: str | None = None


def value_of(han: int, fu: int, yakuman: int, options: RiichiOptions) -> RiichiValue:
    """Base points and the limit of a hand of `han` and `fu`, or of `yakuman` yakuman."""
    if yakuman:
        return RiichiValue(8000 * yakuman, yakuman, 0, fu, "yakuman")
    limit: str | None = None
    if han >= 13:
        limit = "kazoe_yakuman" if options.kazoe == "yakuman" else "sanbaiman"
    elif han >= 11:
        limit = "sanbaiman"
    elif han >= 8:
        limit = "baiman"
    elif han >= 6:
        limit = "haneman"
    elif han == 5:
        limit = "mangan"
    else:
        base = fu << (han + 2)
        if base >= 2000 or (options.kiriage and (han, fu) in ((4, 30), (3, 60))):
            limit = "mangan"
        else:
            return RiichiValue(base, 0, han, fu)
    return RiichiValue(LIMIT_BASE[limit], 0, han, fu, limit)


def _up(points: int) -> int:
    """Rounded up to a hundred."""
    return -(-points // 100) * 100


@dataclass(frozen=True)
class Settlement:
    """Each seat's net change (honba included; the four sum to zero), the deposits the winner
    takes from the table, and the call as players say it (honba not included)."""

    payments: dict[Wind, int]
    deposits: int
    call: str


def _paid(
    base: int,
    seat: Wind,
    discarder: Wind | None,
    bonus: int,
    seats: tuple[Wind, ...] = WINDS,
    split_absent: bool = False,
) -> tuple[dict[Wind, int], str]:
    """What each other seat of `seats` pays for a hand of `base` points, `bonus` (the honba)
    included, and the call. At a table of three, `split_absent`: on a self-draw each payer
    adds half (rounded up to a hundred) of what the absent North would have paid."""
    dealer = seat is Wind.EAST
    payments = dict.fromkeys(Wind, 0)
    if discarder is not None:
        paid = _up(base * (6 if dealer else 4))
        payments[discarder] = -(paid + bonus)
        return payments, f"{paid}"
    each_bonus = bonus // (len(seats) - 1)
    if dealer:
        each = _up(2 * base)
        if split_absent:
            each += _up(each // 2)
        for wind in seats:
            if wind is not seat:
                payments[wind] = -(each + each_bonus)
        return payments, f"{each} all"
    from_dealer, from_other = _up(2 * base), _up(base)
    if split_absent:
        half = _up(from_other // 2)
        from_dealer, from_other = from_dealer + half, from_other + half
    for wind in seats:
        if wind is not seat:
            share = from_dealer if wind is Wind.EAST else from_other
            payments[wind] = -(share + each_bonus)
    return payments, f"{from_other}-{from_dealer}"


def settle(
    value: RiichiValue,
    seat: Wind,
    discarder: Wind | None,
    honba: int,
    riichi_sticks: int,
    options: RiichiOptions,
    liable: Wind | None = None,
    liable_base: int = 0,
) -> Settlement:
    """The payments of a win. `liable` pays for the `liable_base` points of the yakuman it let
    be completed: all of them and the honba on a self-draw, half of them on another seat's
    discard (the discarder pays the other half, the rest of the hand and the honba)."""
    bonus = honba * options.honba_value
    seats, split_absent = options.seats, options.split_absent
    payments, call = _paid(value.base, seat, discarder, bonus, seats, split_absent)
    if liable is not None and liable_base and liable is not discarder:
        multiple = 6 if seat is Wind.EAST else 4
        liable_paid = _up(liable_base * multiple)
        rest = value.base - liable_base
        if discarder is None:
            payments, _ = (
                _paid(rest, seat, None, 0, seats, split_absent)
                if rest
                else (dict.fromkeys(Wind, 0), "")
            )
            payments[liable] -= liable_paid + bonus
        else:
            payments = dict.fromkeys(Wind, 0)
            payments[liable] = -(liable_paid // 2)
            payments[discarder] = -(liable_paid - liable_paid // 2 + _up(rest * multiple) + bonus)
    payments[seat] = 0
    payments[seat] = -sum(payments.values())
    return Settlement(payments, 1000 * riichi_sticks, call)
