"""tw's pattern table, in the source's order, its predicates and the house rules that change it."""

from __future__ import annotations

from companion.context import Circumstance, FlowerWin, WinContext
from companion.hand import Hand, MeldKind
from companion.rules import predicates as p
from companion.rules.facts import Facts, match_all, no_reading
from companion.rules.features import CONCEALED_PUNGS_AT_LEAST, Feature, role_bit
from companion.rules.house_rules import HouseRule
from companion.rules.patterns import Match, Pattern, Predicate, ids, needs
from companion.shapes import Shape, WinRole
from companion.tiles import (
    WIND_TILES,
    Tile,
)

OPEN_MELDS = frozenset((MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG))
"""The groups declared in the open: a concealed kong is declared but not open."""


def _only_concealed_kongs(hand: Hand) -> bool:
    """No declared group but concealed kongs: the hand still counts as concealed."""
    return all(meld.kind is MeldKind.CONCEALED_KONG for meld in hand.melds)


@needs(Feature.SELF_DRAWN | Feature.ONLY_CONCEALED_KONGS, decided=True)
def fully_concealed_self_draw(facts: Facts) -> tuple[Match, ...]:
    if facts.context.self_drawn and _only_concealed_kongs(facts.hand):
        return match_all(facts)
    return p.NONE


@needs(Feature.BY_DISCARD | Feature.ONLY_CONCEALED_KONGS, decided=True)
def concealed_hand(facts: Facts) -> tuple[Match, ...]:
    if facts.context.by_discard and _only_concealed_kongs(facts.hand):
        return match_all(facts)
    return p.NONE


@needs(Feature.SELF_DRAWN, decided=True)
def self_draw(facts: Facts) -> tuple[Match, ...]:
    return p.winning_tile_match(facts) if facts.context.self_drawn else p.NONE


@needs(Feature.BY_DISCARD | Feature.ROLE_PAIR)
def exposed_hand(facts: Facts) -> tuple[Match, ...]:
    """All five sets declared in the open and the pair completed by the winning discard."""
    open_melds = [meld for meld in facts.hand.melds if meld.kind in OPEN_MELDS]
    if (
        facts.context.by_discard
        and len(open_melds) == facts.hand.sets
        and facts.reading.role is WinRole.PAIR
    ):
        return match_all(facts)
    return p.NONE


def wait_on(*roles: WinRole, single: bool = False) -> Predicate:
    """The winning tile played one of `roles` in the reading; with `single` (the `single` wait
    rule, `HOUSE_RULES`) the hand must also have waited on one kind only. Seven pairs and a
    triplet earns no wait tai. Without `single` the shape and role bits decide it."""

    @needs(*(Feature.STANDARD | role_bit(role) for role in roles), decided=not single)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        if facts.shape is not Shape.STANDARD or facts.reading.role not in roles:
            return p.NONE
        if single and len(facts.waits) != 1:
            return p.NONE
        return (Match((facts.reading.winning_group,)),)

    return predicate


@needs(Feature.NO_HONORS | Feature.NO_FLOWER, decided=True)
def no_honors_or_flowers(facts: Facts) -> tuple[Match, ...]:
    return match_all(facts) if not facts.has_honors and not facts.flowers else p.NONE


# Where every set is a chow, an honor can only be the pair: no honors decides a numbered pair.
@needs(Feature.ALL_CHOWS | Feature.NO_FLOWER | Feature.NO_HONORS, decided=True)
def pure_chow_hand(facts: Facts) -> tuple[Match, ...]:
    """Five chows, a numbered pair and no flowers."""
    pair = facts.pair
    if pair is None or pair.tile.is_honor or facts.flowers:
        return p.NONE
    return tuple(p.all_chows(facts))


def concealed_triplets(at_least: int) -> Predicate:
    """At least `at_least` concealed pungs or kongs (each threshold scores on its own)."""

    @needs(CONCEALED_PUNGS_AT_LEAST[min(at_least, 5)], decided=2 <= at_least <= 5)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        found = facts.concealed_pungs
        return (Match(found),) if len(found) >= at_least else p.NONE

    return predicate


# A straight holds every kind of its suit: most hands fail on the bits and never run it.
@needs(Feature.CHOWS_3 | Feature.ALL_NINE)
def pure_straight(facts: Facts) -> tuple[Match, ...]:
    """1-2-3, 4-5-6 and 7-8-9 of one suit; variant `concealed` when all three chows are.

    Where a chow appears twice (one declared, one concealed), the concealed one is used."""
    starts = {g.tile for g in facts.chows}
    for first in (Tile.M1, Tile.P1, Tile.S1):
        if first not in starts or first + 3 not in starts or first + 6 not in starts:
            continue
        used = []
        for start in (first, first + 3, first + 6):
            chows = [g for g in facts.chows if g.tile == start]
            if not chows:
                break
            used.append(max(chows, key=lambda g: g.concealed))
        else:
            variant = "concealed" if all(g.concealed for g in used) else None
            return (Match(tuple(used), variant),)
    return p.NONE


def table_discards(context: WinContext) -> int | None:
    """The table's discards, the winning one included; a heavenly hand implies none and an
    earthly hand one when the request does not say."""
    if context.table_discards is not None:
        return context.table_discards
    if context.has(Circumstance.HEAVENLY):
        return 0
    if context.has(Circumstance.EARTHLY):
        return 1
    return None


def discards_between(low: int, high: int) -> Predicate:
    @needs(Feature.DISCARDS_KNOWN)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        count = table_discards(facts.context)
        if count is not None and low <= count <= high:
            return p.winning_tile_match(facts)
        return p.NONE

    return predicate


_KONG_OPEN = frozenset((MeldKind.KONG, MeldKind.ADDED_KONG))
_KONG_CONCEALED = frozenset((MeldKind.CONCEALED_KONG,))

_WAIT_ROLES = {
    "pair_wait": (WinRole.PAIR,),
    "closed_or_edge_wait": (WinRole.CLOSED, WinRole.EDGE),
}
"""The roles of the winning tile each wait pattern scores."""

# In the source's order. Only the source's stated inclusions are declared: every other
# pattern that qualifies adds, so the "at least" families below all stack.
PATTERNS: tuple[Pattern, ...] = (
    Pattern("winning_hand", "Winning hand", 2, match_all),
    Pattern("no_flowers", "No flowers", 1, p.no_flowers),
    Pattern("flowers", "Flowers", 1, p.each_flower),
    Pattern("honor_triplet", "Honor triplet", 1, p.honor_pungs),
    Pattern("melded_kong", "Melded kong", 1, p.kongs(_KONG_OPEN)),
    Pattern("concealed_kong", "Concealed kong", 2, p.kongs(_KONG_CONCEALED)),
    Pattern(
        "fully_concealed_self_draw",
        "Fully concealed self draw",
        3,
        fully_concealed_self_draw,
        replaces=ids("concealed_hand", "self_draw"),
    ),
    Pattern("concealed_hand", "Concealed hand", 1, concealed_hand),
    Pattern("self_draw", "Self draw", 1, self_draw),
    Pattern("exposed_hand", "Exposed hand", 10, exposed_hand),
    Pattern("pair_wait", "Pair wait", 1, wait_on(*_WAIT_ROLES["pair_wait"])),
    Pattern(
        "closed_or_edge_wait",
        "Closed or edge wait",
        1,
        wait_on(*_WAIT_ROLES["closed_or_edge_wait"]),
    ),
    Pattern("no_honors", "No honors", 1, p.no_honors),
    Pattern("no_honors_or_flowers", "No honors or flowers", 3, no_honors_or_flowers),
    Pattern("half_flush", "Half flush", 10, p.half_flush),
    Pattern("full_flush", "Full flush", 40, p.full_flush),
    Pattern("seven_pairs_triplet", "Seven pairs and a triplet", 30, p.seven_pairs_triplet),
    Pattern("chow_hand", "Chow hand", 3, p.all_chows),
    Pattern("pure_chow_hand", "Pure chow hand without flowers", 10, pure_chow_hand),
    Pattern("all_triplets", "All triplets", 10, p.all_pungs),
    Pattern("little_dragons", "Little dragons", 15, p.little_dragons),
    Pattern("big_dragons", "Big dragons", 30, p.big_dragons),
    Pattern("little_three_winds", "Little three winds", 5, p.honor_family(2, True, WIND_TILES)),
    Pattern("big_three_winds", "Big three winds", 15, p.honor_family(3, False, WIND_TILES)),
    Pattern("little_four_winds", "Little four winds", 30, p.little_winds),
    Pattern("big_four_winds", "Big four winds", 40, p.big_winds),
    Pattern("two_concealed_triplets", "Two concealed triplets", 2, concealed_triplets(2)),
    Pattern("three_concealed_triplets", "Three concealed triplets", 5, concealed_triplets(3)),
    Pattern("four_concealed_triplets", "Four concealed triplets", 15, concealed_triplets(4)),
    Pattern("five_concealed_triplets", "Five concealed triplets", 40, concealed_triplets(5)),
    Pattern("pure_straight", "Pure straight", 5, pure_straight, variants={"concealed": 10}),
    Pattern("last_wall_draw", "Last wall draw", 1, p.circumstance(Circumstance.LAST_TILE)),
    Pattern("last_discard", "Last discard", 1, p.circumstance(Circumstance.LAST_DISCARD)),
    Pattern("robbing_kong", "Robbing a kong", 1, p.circumstance(Circumstance.ROBBING_KONG)),
    Pattern("very_early_win", "Very early win", 10, discards_between(0, 5)),
    Pattern("early_win", "Early win", 5, discards_between(6, 9)),
    Pattern("original_ready", "Original ready", 15, p.circumstance(Circumstance.ORIGINAL_READY)),
    # The dealt hand has no winning tile, so it waited on nothing.
    Pattern(
        "heavenly",
        "Heavenly hand",
        40,
        p.circumstance(Circumstance.HEAVENLY),
        replaces=ids("pair_wait", "closed_or_edge_wait"),
    ),
    Pattern("earthly", "Earthly hand", 40, p.circumstance(Circumstance.EARTHLY)),
)

HOUSE_RULES = (
    # Under the `single` wait rule the wait patterns also read the hand's waits.
    HouseRule(
        "wait_rule",
        "single",
        changes={
            pattern_id: {"predicate": wait_on(*roles, single=True)}
            for pattern_id, roles in _WAIT_ROLES.items()
        },
    ),
)
"""tw's options that change its table."""

FLOWER_WINS: dict[FlowerWin, Pattern] = {
    FlowerWin.SEVEN_CAPTURE: Pattern(
        "seven_flower_capture", "Seven-flower capture", 20, no_reading
    ),
    FlowerWin.EIGHT: Pattern("eight_flowers", "Eight flowers", 30, no_reading),
}
