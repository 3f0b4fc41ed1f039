"""`tw`: the mahjchina Taiwanese 16-tile profile, as docs/rules-tw.md reads it.

Five sets and a pair (17 structural tiles) or seven different pairs and a triplet; tai add up
without a cap; payments are in rule points (base + per tai), with dealer tai on the payments
that involve the dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.context import Event, FlowerWin, WinContext
from companion.errors import NotAWinError
from companion.hand import Hand, Meld, MeldKind
from companion.rules import predicates as p
from companion.rules.facts import Facts, match_all, no_reading
from companion.rules.features import CONCEALED_PUNGS_AT_LEAST, Feature, role_bit
from companion.rules.options import Options
from companion.rules.patterns import Match, Pattern, Predicate, ids, needs
from companion.rules.profile import CountingProfile, HouseRule
from companion.rules.value import Count
from companion.settlement import Amount, Payments, collect, others
from companion.shapes import FIVE_SETS, Reading, Shape, WinRole
from companion.tiles import (
    FLOWERS,
    SEASONS,
    TERMINALS_AND_HONORS,
    WIND_TILES,
    Tile,
    Wind,
    english_list,
)

WAIT_RULES = ("role", "single")
"""`role`: the winning tile's role in the chosen reading decides a pair or closed/edge wait.
`single`: the role decides, and the hand must also have waited on one kind only."""

_OPEN_MELDS = frozenset((MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG))
_EIGHT_BONUS = frozenset(FLOWERS + SEASONS)


MAX_STAKE = 1_000_000
"""The most `base` and `per_tai` may be: tai add up without a cap here, so the stake bounds what
a hand pays (with the bounds on tai, `companion.rules.options.MAX_PATTERN_TAI`)."""


@dataclass(frozen=True)
class TwOptions(Options):
    """The tw options (docs/rules-tw.md): the stake, the wait rule, and the generic ones."""

    base: Fraction = Fraction(0)
    """Paid on every payment whatever the tai."""
    per_tai: Fraction = Fraction(1)
    """Paid per tai (hand tai plus that payment's dealer tai)."""
    wait_rule: str = "role"
    """How Pair wait and Closed or edge wait are judged: one of `WAIT_RULES`."""
    exposed_self_draw: bool = False
    """Whether a hand with all five sets declared may win by self-drawing its pair (scored
    without Exposed hand). Refused by default: the source's Exposed hand has the pair won on a
    discard."""
    drawn_hand_repeats: bool = False
    """Whether a drawn hand counts as a dealer repeat (連莊): the dealer keeps the deal and the
    streak grows by one, so the next hand's dealer tai grow too. By default a draw keeps the
    dealer and the streak as they were."""
    table_rules = frozenset({"drawn_hand_repeats"})

    @property
    def draw_repeats_deal(self) -> bool:
        return self.drawn_hand_repeats

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.min_tai < 0:
            problems.append("option min_tai cannot be negative")
        if self.base < 0:
            problems.append("option base cannot be negative")
        if self.per_tai < 0:
            problems.append("option per_tai cannot be negative")
        for name, stake in (("base", self.base), ("per_tai", self.per_tai)):
            if stake > MAX_STAKE:
                problems.append(f"option {name} can be at most {MAX_STAKE:,}")
        if self.base == 0 and self.per_tai == 0:
            problems.append("option per_tai: with base 0 as well, no hand would ever pay")
        if self.wait_rule not in WAIT_RULES:
            problems.append(f'option wait_rule must be "role" or "single", not "{self.wait_rule}"')
        return problems


# --- predicates --------------------------------------------------------------------------------


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
    open_melds = [meld for meld in facts.hand.melds if meld.kind in _OPEN_MELDS]
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
    if context.has(Event.HEAVENLY):
        return 0
    if context.has(Event.EARTHLY):
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
    Pattern("last_wall_draw", "Last wall draw", 1, p.event(Event.LAST_TILE)),
    Pattern("last_discard", "Last discard", 1, p.event(Event.LAST_DISCARD)),
    Pattern("robbing_kong", "Robbing a kong", 1, p.event(Event.ROBBING_KONG)),
    Pattern("very_early_win", "Very early win", 10, discards_between(0, 5)),
    Pattern("early_win", "Early win", 5, discards_between(6, 9)),
    Pattern("original_ready", "Original ready", 15, p.event(Event.ORIGINAL_READY)),
    # The dealt hand has no winning tile, so it waited on nothing.
    Pattern(
        "heavenly",
        "Heavenly hand",
        40,
        p.event(Event.HEAVENLY),
        replaces=ids("pair_wait", "closed_or_edge_wait"),
    ),
    Pattern("earthly", "Earthly hand", 40, p.event(Event.EARTHLY)),
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


# --- the profile -------------------------------------------------------------------------------


def dealer_tai_value(context: WinContext) -> int:
    """1 dealer tai plus 2 per prior consecutive dealer win."""
    return 1 + 2 * context.dealer_streak


def payers(context: WinContext) -> tuple[Wind, ...]:
    """Self-draw: each of the other three; discard: the discarder alone."""
    if context.self_drawn:
        return others(context.seat)
    assert context.discarder is not None
    return (context.discarder,)


def dealer_tai_on(context: WinContext, payer: Wind) -> int:
    """The dealer tai on one of the win's payments: when the dealer wins, or the dealer's
    discard is won on. A non-dealer's self-draw carries none, even on the dealer's payment;
    flower wins none."""
    if context.flower_win is not None:
        return 0
    if context.seat is context.dealer or (context.by_discard and payer is context.dealer):
        return dealer_tai_value(context)
    return 0


class TwProfile(CountingProfile[TwOptions]):
    id = "tw"
    name = "Taiwan (mahjchina, 16 tiles)"
    structure = FIVE_SETS
    patterns = PATTERNS
    flower_wins = FLOWER_WINS
    options_type = TwOptions
    house_rules = HOUSE_RULES
    several_winners = True
    prefers_readings = True
    earthly_self_draw = False
    # The mahjchina table has no pattern for replacement or kong_on_kong: those are refused
    # rather than silently ignored, as in sg.
    events = (
        Event.ROBBING_KONG,
        Event.LAST_TILE,
        Event.LAST_DISCARD,
        Event.HEAVENLY,
        Event.EARTHLY,
        Event.ORIGINAL_READY,
    )
    drawn_events = frozenset((Event.LAST_TILE,))
    table_discards = True
    dealer_streak = True

    def check_tiles(self, concealed: Sequence[Tile], melds: Sequence[Meld]) -> None:
        playing = [tile for tile in concealed if not tile.is_bonus]
        if not melds and len(playing) == 14 and set(playing) == set(TERMINALS_AND_HONORS):
            raise NotAWinError(
                "Thirteen Orphans is not a Taiwanese win: in the tw profile a win is five sets "
                "and a pair (17 tiles) or seven pairs and a triplet",
                key="refusal.tw_thirteen_orphans",
            )
        if len(playing) + 3 * len(melds) == 14:
            raise NotAWinError(
                "14 tiles is a four-sets-and-a-pair hand of 13-tile mahjong; a Taiwanese win "
                "has five sets and a pair: 17 tiles, a kong counting as three",
                key="refusal.tw_fourteen_tiles",
            )

    def check_context(self, context: WinContext, options: TwOptions) -> None:
        super().check_context(context, options)
        self.check_liability(context)
        if context.flower_win is not None:
            if context.events:
                raise NotAWinError(
                    "a flower win scores alone: leave out the events "
                    + ", ".join(sorted(event.value for event in context.events)),
                    key="refusal.flower_win_events",
                    params={"events": sorted(event.value for event in context.events)},
                )
            return
        unscored = self.undeclared_event(context)
        if unscored is not None:
            raise NotAWinError(
                f"the {self.id} profile has no {unscored.value} pattern: leave the event out",
                key="refusal.unscored_event_pattern",
                params={"profile": self.id, "event": unscored.value},
            )
        self._check_win_type(context)

    def _check_win_type(self, context: WinContext) -> None:
        if context.has(Event.LAST_TILE) and context.by_discard:
            raise NotAWinError(
                "last_tile is a self-draw of the final live-wall tile; a win on the discard "
                "after it is last_discard",
                key="refusal.last_tile_discard",
            )
        if context.has(Event.LAST_DISCARD) and context.self_drawn:
            raise NotAWinError(
                "last_discard is a win on a discard, not a self-draw",
                key="refusal.last_discard_self_draw",
            )

    def check_hand(self, hand: Hand, context: WinContext, options: TwOptions) -> list[str]:
        # Every check but the last needs bonus tiles or declared groups: most hands have
        # neither, and the scorer asks on every hand.
        bonus, melds = hand.bonus, hand.melds
        if bonus:
            animals = [tile for tile in bonus if tile.is_animal]
            if animals:
                raise NotAWinError(
                    f"animal tiles are not Taiwanese tiles: take out {english_list(animals)}",
                    key="refusal.tw_animals",
                    params={"tiles": [tile.mpsz for tile in animals]},
                )
        if context.flower_win is not None:
            return []
        if melds and context.has(Event.ORIGINAL_READY):
            raise NotAWinError(
                "an original ready hand keeps its initial tiles, with no melds: the hand declares "
                + ", ".join(str(meld) for meld in melds),
                key="refusal.original_ready_melds",
                params={"melds": [str(meld) for meld in melds]},
            )
        if bonus and _EIGHT_BONUS.issubset(bonus):
            raise NotAWinError(
                "bonus holds all eight flowers: holding all eight ends the hand at once, so "
                'enter it as flower_win "eight", without a hand',
                key="refusal.eight_flowers_in_hand",
            )
        open_melds = len([meld for meld in melds if meld.kind in _OPEN_MELDS]) if melds else 0
        if open_melds == hand.sets and context.self_drawn:
            if not options.exposed_self_draw:
                raise NotAWinError(
                    "all five sets are declared, so the pair must be won on a discard (Exposed "
                    "hand); a table that allows the self-draw sets option exposed_self_draw",
                    key="refusal.exposed_self_draw",
                )
            return [
                "all five sets are declared but the win is a self-draw: Exposed hand needs the "
                "pair completed by a discard"
            ]
        return []

    def preference(self, reading: Reading) -> int:
        # Where the winning tile may complete the pair or a chow for the same tai (456m5m5m won
        # on 5m), report the pair wait, as the source's own calculator does.
        return 1 if reading.role is WinRole.PAIR else 0

    def stake(self, tai: int, options: TwOptions) -> Amount:
        """One payment: base plus per_tai for each tai (the hand's and that payment's dealer
        tai); an int when it is whole."""
        base, per_tai = options.base, options.per_tai
        if base.denominator == 1 and per_tai.denominator == 1:
            return base.numerator + per_tai.numerator * tai
        return base + per_tai * tai

    def settle(self, value: Count, context: WinContext, options: TwOptions) -> Payments:
        """Self-draw: each of the other three pays; discard: the discarder alone pays. Each
        payment carries its own dealer tai."""
        tai = value.tai
        owed = {
            payer: self.stake(tai + dealer_tai_on(context, payer), options)
            for payer in payers(context)
        }
        return collect(context.seat, owed)

    def dealer_tai(self, context: WinContext) -> int | None:
        # Every payment that carries dealer tai carries the same amount.
        return max(dealer_tai_on(context, payer) for payer in payers(context))


TW = TwProfile()

__all__ = ["PATTERNS", "TW", "TwOptions", "TwProfile", "dealer_tai_on", "payers"]
