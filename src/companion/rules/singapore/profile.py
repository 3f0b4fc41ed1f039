"""The Singapore profiles, `sg` and `sg-table`, and what they settle alike
(`SingaporeProfile`); with `hk`, the checks of a win's circumstances (`SingaporeRules`).

Their pattern tables are `companion.rules.singapore.patterns`, their options
`companion.rules.singapore.options`. The instant payouts of sg-table are separate from the hand:
`companion.payouts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from companion.context import Circumstance, WinContext
from companion.errors import NotAWinError
from companion.hand import Hand
from companion.rules.patterns import PatternScore
from companion.rules.profile import CountingProfile, OptionsT
from companion.rules.singapore.options import (
    GUIDE_CAP,
    SgOptions,
    SgTableOptions,
    SingaporeOptions,
)
from companion.rules.singapore.patterns import (
    SG_HOUSE_RULES,
    SG_TABLE_FLOWER_WINS,
    SG_TABLE_PATTERNS,
    SINGAPORE_PATTERNS,
)
from companion.rules.value import Count
from companion.settlement import Amount, Payments, collect, doubling, others
from companion.shapes import FOUR_SETS
from companion.tiles import Wind, english_list


class SingaporeRules(CountingProfile[OptionsT]):
    """What sg, sg-table and hk share: four sets and a pair, seats that move with the deal, the
    same circumstances, and no pay-for-all unless a profile allows it."""

    structure = FOUR_SETS
    circumstances = (
        Circumstance.REPLACEMENT,
        Circumstance.KONG_ON_KONG,
        Circumstance.ROBBING_KONG,
        Circumstance.LAST_TILE,
        Circumstance.HEAVENLY,
        Circumstance.EARTHLY,
    )
    drawn_circumstances = frozenset(
        (Circumstance.REPLACEMENT, Circumstance.KONG_ON_KONG, Circumstance.LAST_TILE)
    )

    def dealer_of(self, context: WinContext) -> Wind:
        # Seat winds move with the deal: the dealer always sits East.
        return Wind.EAST

    def check_context(self, context: WinContext, options: OptionsT) -> None:
        super().check_context(context, options)
        if not context.circumstances:
            self.check_liability(context)
            return
        unscored = self.undeclared_circumstance(context)
        if unscored is not None:
            raise NotAWinError(
                f"the {self.id} profile has no {unscored.value} event",
                key="refusal.unscored_event",
                params={"profile": self.id, "event": unscored.value},
            )
        if context.by_discard:
            for circumstance in self.circumstances:
                if circumstance in self.drawn_circumstances and context.has(circumstance):
                    raise NotAWinError(
                        f"{circumstance.value} is a win on a drawn tile, so it cannot be a "
                        "discard win",
                        key="refusal.drawn_event_discard",
                        params={"event": circumstance.value},
                    )
        self.check_liability(context)

    def check_hand(self, hand: Hand, context: WinContext, options: OptionsT) -> list[str]:
        if not hand.bonus:
            return []
        animals = [tile for tile in hand.bonus if tile.is_animal]
        if animals:
            return [f"Animal tiles are ignored in this profile: {english_list(animals)}"]
        return []


SingaporeOptionsT = TypeVar("SingaporeOptionsT", bound=SingaporeOptions)
"""A Singapore profile's options type."""


class SingaporeProfile(SingaporeRules[SingaporeOptionsT]):
    """What sg and sg-table settle alike: the cap (the options' `tai_cap`), limit hands, the
    doubling share, and who pays how many shares."""

    cap = GUIDE_CAP
    """The default cap; a profile with the `cap` option changes it per request."""

    def cap_of(self, options: SingaporeOptionsT) -> int:
        return options.tai_cap

    def value_of(
        self, raw: int, scores: Sequence[PatternScore], options: SingaporeOptionsT
    ) -> Count:
        """The raw total capped; a limit hand is worth its limit, or the capped total when the
        table's cap and tai values make that more."""
        capped = min(raw, options.tai_cap)
        limit_ids = self._limit_ids
        if not limit_ids:
            return Count(capped, raw)
        return Count(max([capped, *(s.tai for s in scores if s.id in limit_ids)]), raw)

    def share_amount(self, tai: int, options: SingaporeOptionsT) -> Amount:
        """One share, V x 2^(tai-1) up to the cap (V/2 at 0 tai), an int when it is whole; a
        limit hand beyond the cap pays the next doubling, V x 2^cap (32V with the cap at 5)."""
        return doubling(min(tai, options.tai_cap + 1), options.share)

    def settle(self, value: Count, context: WinContext, options: SingaporeOptionsT) -> Payments:
        """What each opponent owes, then pay-for-all: the liable seat (where the profile has
        pay-for-all) pays the whole of it and nobody else pays."""
        owed = self.owed(value.tai, context, options)
        if context.liable is not None:
            owed = {context.liable: sum(owed.values(), 0)}
        return collect(context.seat, owed)

    def owed(self, tai: int, context: WinContext, options: SingaporeOptionsT) -> dict[Wind, Amount]:
        """Each opponent's debt before pay-for-all. Discard: the discarder pays two shares and
        the others one each. Self-draw: every opponent pays two shares."""
        share = self.share_amount(tai, options)
        double = share * 2
        return {
            payer: double if context.self_drawn or payer is context.discarder else share
            for payer in others(context.seat)
        }


class SgProfile(SingaporeProfile[SgOptions]):
    """The Singaporean Mahjong Reference as docs/rules.md reads it: four sets and a pair or
    Thirteen Orphans, 0-5 tai, one share V x 2^(tai-1), animals ignored."""

    id = "sg"
    name = "Singapore (Companion guide, 0-5 tai)"
    patterns = SINGAPORE_PATTERNS
    options_type = SgOptions
    house_rules = SG_HOUSE_RULES


class SgTableProfile(SingaporeProfile[SgTableOptions]):
    """The full Singapore table (docs/rules-sg-table.md): animals, 10-tai limit hands paid at
    the next doubling, pay-for-all, shooter pays and payout charts."""

    id = "sg-table"
    name = "Singapore table (animals, 10-tai limits, pay-for-all)"
    patterns = SG_TABLE_PATTERNS
    flower_wins = SG_TABLE_FLOWER_WINS
    options_type = SgTableOptions
    pay_for_all = True
    animals = True
    instant_payouts = True

    def check_hand(self, hand: Hand, context: WinContext, options: SgTableOptions) -> list[str]:
        if context.flower_win is not None and any(tile.is_animal for tile in hand.bonus):
            return ["A flower win is worth its own pattern: animal tiles add nothing to it"]
        return []

    def owed(self, tai: int, context: WinContext, options: SgTableOptions) -> dict[Wind, Amount]:
        """Shares as in every Singapore profile, or the chart's discarder, others and self-draw
        amounts; with shooter pays the discarder pays all of a discard win."""
        chart = options.chart
        owed: dict[Wind, Amount]
        if chart is None:
            owed = super().owed(tai, context, options)
        elif context.self_drawn:
            drawn = chart.amount(chart.self_draw, tai, options.cap) * options.share
            return dict.fromkeys(others(context.seat), drawn)
        else:
            by_discarder = chart.amount(chart.discarder, tai, options.cap) * options.share
            by_other = chart.amount(chart.others, tai, options.cap) * options.share
            owed = {
                payer: by_discarder if payer is context.discarder else by_other
                for payer in others(context.seat)
            }
        if options.shooter_pays and context.by_discard and context.discarder is not None:
            owed = {context.discarder: sum(owed.values(), 0)}
        return owed


SG = SgProfile()
SG_TABLE = SgTableProfile()
