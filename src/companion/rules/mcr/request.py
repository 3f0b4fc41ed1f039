"""An MCR request read and checked: its options, its tiles and flowers, its win and its events
(`build_request`), refusing what cannot have happened before any reading of the tiles is looked
at. The engine (`companion.rules.mcr.engine`) scores what it reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import InvalidRequestError, NotAWinError, Problem
from companion.hand import Hand, Meld
from companion.rules.mcr.facts import McrCircumstance, McrContext
from companion.rules.own_request import read_win
from companion.tiles import Wind, parse_tile, parse_tiles

OPTIONS = {"flowers": False}
"""The options and their defaults: no bonus tiles (the EMA's tournaments play without)."""

E = McrCircumstance


def read_options(options: Mapping[str, Any]) -> dict[str, bool]:
    found = dict(OPTIONS)
    for name, value in options.items():
        if name not in OPTIONS:
            raise InvalidRequestError(f'options: unknown option "{name}": mcr has flowers')
        if not isinstance(value, bool):
            raise InvalidRequestError(f"options: {name} is true or false")
        found[name] = value
    return found


def _events(names: Sequence[str]) -> frozenset[McrCircumstance]:
    found: set[McrCircumstance] = set()
    for name in names:
        try:
            found.add(McrCircumstance(name))
        except ValueError:
            known = ", ".join(event.value for event in McrCircumstance)
            raise InvalidRequestError(f'events: unknown event "{name}": mcr has {known}') from None
    return frozenset(found)


def _check_events(events: frozenset[McrCircumstance], hand: Hand, by_discard: bool) -> None:
    """Refuse what cannot have happened, naming the fields at fault (one refusal with its key,
    several together without one, as `InvalidHandError` has them)."""
    winning = hand.winning_tile
    assert winning is not None
    others = hand.counts()[winning] - 1
    concealed_others = hand.concealed_counts()[winning] - 1
    tile = {"tile": winning.mpsz}
    named = f"{winning.english} ({winning.mpsz})"
    problems: list[Problem] = []
    if E.REPLACEMENT in events and by_discard:
        problems.append(
            Problem(
                'events: replacement (杠上开花) is a self-draw; win must be "self_draw"',
                "refusal.mcr_replacement_discard",
            )
        )
    if E.REPLACEMENT in events and not any(meld.kind.is_kong for meld in hand.melds):
        problems.append(
            Problem(
                "events: replacement (杠上开花) without a kong in melds",
                "refusal.mcr_replacement_no_kong",
            )
        )
    if E.ROBBING_KONG in events and not by_discard:
        problems.append(
            Problem(
                'events: robbing_kong (抢杠和) on a self-draw; win must be "discard"',
                "refusal.mcr_robbing_kong_self_draw",
            )
        )
    if E.ROBBING_KONG in events and others:
        problems.append(
            Problem(
                f"events: robbing_kong (抢杠和): the robbed {named} is the fourth copy, so the "
                "winner holds no other",
                "refusal.mcr_robbing_kong_copies",
                tile,
            )
        )
    if E.ROBBING_KONG in events and E.LAST_TILE in events:
        problems.append(
            Problem(
                "events: robbing_kong with last_tile: no kong is declared on the last tile",
                "refusal.mcr_robbing_kong_last_tile",
            )
        )
    if E.LAST_COPY in events and concealed_others:
        problems.append(
            Problem(
                f"events: last_copy (和绝张), but the hand holds another {named}",
                "refusal.mcr_last_copy_held",
                tile,
            )
        )
    if len(problems) == 1:
        (only,) = problems
        raise NotAWinError(only.text, key=only.key, params=only.params)
    if problems:
        raise NotAWinError("; ".join(problem.text for problem in problems))


def build_request(
    hand: str,
    win_tile: str | None,
    win: str,
    seat: str,
    round: str,
    discarder: str | None,
    melds: Sequence[str],
    bonus: str,
    events: Sequence[str],
    options: Mapping[str, Any] | None,
) -> tuple[Hand, McrContext, Wind | None]:
    rules = read_options(options or {})
    tiles = parse_tiles(hand)
    flowers = parse_tiles(bonus) if bonus else ()
    if flowers and not rules["flowers"]:
        raise InvalidRequestError(
            "bonus: flowers are not played (option flowers is off by default)"
        )
    if any(tile.is_animal for tile in flowers):
        raise InvalidRequestError("bonus: mcr has flowers and seasons, no animals")
    declared = tuple(Meld.parse(text) for text in melds)
    winning = parse_tile(win_tile) if win_tile else None
    built = Hand.build(tiles, declared, flowers, winning_tile=winning, sets=4)
    winner, by_discard, payer = read_win(win, seat, discarder)
    found = _events(events)
    _check_events(found, built, by_discard)
    assert built.winning_tile is not None
    in_melds = sum(meld.tiles.count(built.winning_tile) for meld in built.melds)
    last_copy = E.ROBBING_KONG in found or E.LAST_COPY in found or in_melds == 3
    context = McrContext(
        winner, Wind.parse(round), by_discard, found, built.winning_tile, last_copy
    )
    return built, context, payer
