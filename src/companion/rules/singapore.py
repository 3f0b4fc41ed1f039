"""What the Singapore profiles share: `sg` and `sg-table` play one pattern table
(`SINGAPORE_PATTERNS`, which sg-table changes and adds to), one set of options
(`SingaporeOptions`, which each extends with its own), and, with `hk`, the checks of a win's
circumstances (`SingaporeRules`). Each profile takes these by name, so that an option or a
pattern of one profile never reaches another.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.context import Event, WinContext, WinType
from companion.errors import NotAWinError
from companion.hand import Hand
from companion.rules import predicates as p
from companion.rules.facts import Facts, match_all
from companion.rules.features import Feature
from companion.rules.options import Options
from companion.rules.patterns import Match, Pattern, Predicate, ids, needs
from companion.rules.profile import CountingProfile, OptionsT
from companion.shapes import FOUR_SETS
from companion.tiles import Tile, Wind, english_list


def ping_hu(*, bonus_allowed: bool, animals_count: bool, declared_chows_allowed: bool) -> Predicate:
    """Four chows and a pair that is not a dragon, the seat wind or the round wind; on a discard
    the hand must have waited on two or more kinds. Without `bonus_allowed`, no flowers or
    seasons (nor animals, when they count as bonus tiles)."""

    # Four chows are the bit in a hand of four sets (a standard reading, its pair last).
    @needs(Feature.CHOWS_4 if bonus_allowed else Feature.CHOWS_4 | Feature.NO_FLOWER)
    def predicate(facts: Facts) -> tuple[Match, ...]:
        if not bonus_allowed and animals_count and facts.animals:
            return p.NONE
        context = facts.context
        pair = facts.groups[-1].tile
        if pair >= Tile.WHITE or pair == context.seat.tile or pair == context.round.tile:
            return p.NONE
        if context.win is WinType.DISCARD and len(facts.waits) < 2:
            return p.NONE
        if not declared_chows_allowed and all(chow.declared for chow in facts.chows):
            return p.NONE
        return match_all(facts)

    return predicate


@needs(Feature.SELF_DRAWN | Feature.CONCEALED_PUNGS_4, decided=True)
def hidden_treasure(facts: Facts) -> tuple[Match, ...]:
    """Four concealed pungs or kongs and a self-drawn win."""
    concealed = facts.concealed_pungs
    if facts.context.self_drawn and len(concealed) >= 4:
        return (Match(concealed),)
    return p.NONE


@needs(Feature.SELF_DRAWN | Feature.NO_MELDS, decided=True)
def fully_concealed(facts: Facts) -> tuple[Match, ...]:
    """No declared group at all (a concealed kong is declared) and a self-drawn win."""
    if facts.context.self_drawn and not facts.hand.melds:
        return match_all(facts)
    return p.NONE


SINGAPORE_PATTERNS: tuple[Pattern, ...] = (
    Pattern("seat_flower", "Seat flower or season", 1, p.seat_bonus),
    Pattern("flower_set", "Flower set", 2, p.flower_families, includes=ids("seat_flower")),
    Pattern("dragon_set", "Dragon set", 1, p.dragon_pungs),
    Pattern("valued_wind", "Valued wind set", 1, p.valued_wind_pungs),
    Pattern(
        "little_ping_hu",
        "Little Ping Hu",
        1,
        ping_hu(bonus_allowed=True, animals_count=False, declared_chows_allowed=True),
    ),
    Pattern(
        "ping_hu",
        "Ping Hu",
        4,
        ping_hu(bonus_allowed=False, animals_count=False, declared_chows_allowed=True),
        replaces=ids("little_ping_hu"),
    ),
    Pattern("fully_concealed", "Fully concealed hand", 1, fully_concealed),
    # A replacement tile is never the last-tile win, so a win on one (or on a second kong's
    # replacement) replaces it.
    Pattern(
        "replacement_win",
        "Replacement-tile win",
        1,
        p.event(Event.REPLACEMENT),
        replaces=ids("last_tile"),
    ),
    Pattern("robbing_kong", "Robbing a kong", 1, p.event(Event.ROBBING_KONG)),
    Pattern("last_tile", "Last-tile win", 1, p.event(Event.LAST_TILE)),
    Pattern("half_flush", "Half flush", 2, p.half_flush),
    Pattern("all_pungs", "All pungs", 2, p.all_pungs),
    Pattern("little_dragons", "Little dragons", 3, p.little_dragons, includes=ids("dragon_set")),
    Pattern("full_flush", "Full flush", 4, p.full_flush),
    Pattern(
        "mixed_terminals_honors",
        "Mixed terminals and honors",
        4,
        p.terminals_and_honors,
        replaces=ids("all_pungs"),
    ),
    Pattern("little_winds", "Little winds", 4, p.little_winds),
    Pattern("big_dragons", "Big dragons", 5, p.big_dragons),
    Pattern("big_winds", "Big winds", 5, p.big_winds),
    Pattern("all_honors", "All honors", 5, p.all_honors),
    Pattern("all_terminals", "All terminals", 5, p.all_terminals),
    Pattern("hidden_treasure", "Hidden treasure", 5, hidden_treasure),
    Pattern(
        "thirteen_orphans",
        "Thirteen orphans",
        5,
        p.thirteen_orphans,
        replaces=ids("mixed_terminals_honors"),
    ),
    Pattern("all_green", "All green", 5, p.all_green),
    Pattern("nine_gates", "Nine gates", 5, p.nine_gates),
    Pattern("four_kongs", "Four kongs", 5, p.kong_count(4)),
    Pattern(
        "kong_on_kong",
        "Kong on kong",
        5,
        p.event(Event.KONG_ON_KONG),
        replaces=ids("replacement_win", "last_tile"),
    ),
    Pattern("heavenly", "Heavenly hand", 5, p.event(Event.HEAVENLY)),
    Pattern("earthly", "Earthly hand", 5, p.event(Event.EARTHLY)),
)
"""The Singapore pattern table: sg's as it is, sg-table's changed and added to by id."""


@dataclass(frozen=True)
class SingaporeOptions(Options):
    """The options both Singapore profiles have; each extends them with its own."""

    min_tai: int = 1
    """The fewest tai a hand must have to be paid (0-5)."""
    share: Fraction = Fraction(1)
    """V, the one-tai share: one share is V x 2^(tai-1), V/2 at 0 tai."""

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if not 0 <= self.min_tai <= 5:
            problems.append("option min_tai must be from 0 to 5")
        if self.share <= 0:
            problems.append("option share must be more than 0")
        return problems


class SingaporeRules(CountingProfile[OptionsT]):
    """What sg, sg-table and hk share: four sets and a pair, seats that move with the deal, the
    same events, and no pay-for-all unless a profile allows it."""

    structure = FOUR_SETS
    events = (
        Event.REPLACEMENT,
        Event.KONG_ON_KONG,
        Event.ROBBING_KONG,
        Event.LAST_TILE,
        Event.HEAVENLY,
        Event.EARTHLY,
    )
    drawn_events = frozenset((Event.REPLACEMENT, Event.KONG_ON_KONG, Event.LAST_TILE))

    def dealer_of(self, context: WinContext) -> Wind:
        # Seat winds move with the deal: the dealer always sits East.
        return Wind.EAST

    def check_context(self, context: WinContext, options: OptionsT) -> None:
        super().check_context(context, options)
        if not context.events:
            self.check_liability(context)
            return
        unscored = self.undeclared_event(context)
        if unscored is not None:
            raise NotAWinError(
                f"the {self.id} profile has no {unscored.value} event",
                key="refusal.unscored_event",
                params={"profile": self.id, "event": unscored.value},
            )
        if context.by_discard:
            for event in self.events:
                if event in self.drawn_events and context.has(event):
                    raise NotAWinError(
                        f"{event.value} is a win on a drawn tile, so it cannot be a discard win",
                        key="refusal.drawn_event_discard",
                        params={"event": event.value},
                    )
        self.check_liability(context)

    def check_hand(self, hand: Hand, context: WinContext, options: OptionsT) -> list[str]:
        if not hand.bonus:
            return []
        animals = [tile for tile in hand.bonus if tile.is_animal]
        if animals:
            return [f"Animal tiles are ignored in this profile: {english_list(animals)}"]
        return []
