"""The `hk` profile: its value of a hand (the maximum; the minimum without the flower faan),
its checks and its settlement."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from companion.context import Circumstance, WinContext
from companion.errors import NotAWinError
from companion.hand import Hand
from companion.rules.hk.options import (
    CURVES,
    FLOWER_FAAN,
    GUNS,
    MAX_FAAN,
    HkOptions,
)
from companion.rules.hk.patterns import HOUSE_RULES, PATTERNS, with_limits
from companion.rules.patterns import Pattern, PatternScore
from companion.rules.singapore.profile import SingaporeRules
from companion.rules.value import Count, Shortfall
from companion.settlement import Amount, Payments, collect, others
from companion.shapes import FOUR_SETS
from companion.tiles import english_list


def payment(faan: int, options: HkOptions) -> Amount:
    """P = base x M(faan), an int when it is whole."""
    multiple = CURVES[options.curve][min(faan, MAX_FAAN)]
    if options.base.denominator == 1:
        return options.base.numerator * multiple
    return options.base * multiple


class HkProfile(SingaporeRules[HkOptions]):
    id = "hk"
    name = "Hong Kong old style (faan)"
    structure = FOUR_SETS
    patterns = with_limits(PATTERNS, MAX_FAAN)
    options_type = HkOptions
    house_rules = HOUSE_RULES
    cap = MAX_FAAN
    """The default maximum; the `max_faan` option changes it per request."""
    unit = "faan"
    pay_for_all = True

    def house_rules_key(self, options: HkOptions) -> Hashable:
        return (super().house_rules_key(options), options.max_faan)

    def finish_patterns(
        self, patterns: tuple[Pattern, ...], options: HkOptions
    ) -> tuple[Pattern, ...]:
        """Every limit hand, Great dragons too under `great_dragons_limit`, worth the table's
        maximum alone."""
        return with_limits(patterns, options.max_faan)

    def cap_of(self, options: HkOptions) -> int:
        return options.max_faan

    def value_of(self, raw: int, scores: Sequence[PatternScore], options: HkOptions) -> Count:
        """The total cut to the maximum (a limit hand, alone, is worth the maximum)."""
        return Count(min(raw, options.max_faan), raw)

    def under_minimum(
        self, value: Count, scores: Sequence[PatternScore], options: HkOptions
    ) -> Shortfall | None:
        """The settled faan against the minimum, less the flower faan among the scores unless
        they count (an agreed count has no scores: all of it counts)."""
        counted = value.tai
        left_out: tuple[tuple[str, str], ...] = ()
        if not options.flowers_count_to_minimum:
            flowers = sum(score.tai for score in scores if score.id in FLOWER_FAAN)
            counted = min(value.raw_tai - flowers, counted)
            if counted < options.min_tai:
                left_out = tuple(
                    (score.id, score.name)
                    for score in scores
                    if score.id in FLOWER_FAAN and score.tai
                )
        if counted >= options.min_tai:
            return None
        return self.short_of_minimum(value, counted, options, left_out)

    def check_hand(self, hand: Hand, context: WinContext, options: HkOptions) -> list[str]:
        animals = [tile for tile in hand.bonus if tile.is_animal]
        if animals:
            raise NotAWinError(
                f"animal tiles are not Hong Kong tiles: take out {english_list(animals)}",
                key="refusal.hk_animals",
                params={"tiles": [tile.mpsz for tile in animals]},
            )
        # The shared checks let a bonus tile's replacement count too (and want two kongs for
        # kong_on_kong); hk scores only a kong's replacement tile.
        if context.has(Circumstance.REPLACEMENT) and not any(
            meld.kind.is_kong for meld in hand.melds
        ):
            raise NotAWinError(
                "replacement in hk is a win on a kong's replacement tile: melds hold no kong "
                "(a bonus tile's replacement scores nothing here)",
                key="refusal.hk_replacement",
            )
        return []

    def settle(self, value: Count, context: WinContext, options: HkOptions) -> Payments:
        """Self-draw: each of the other three pays P. Discard (a robbed kong too): the gun's
        parts of P from the discarder and the others. A liable seat pays all of it."""
        amount = payment(value.tai, options)
        if context.self_drawn:
            owed = dict.fromkeys(others(context.seat), amount)
        else:
            gun = GUNS[options.gun]
            owed = {
                payer: amount * (gun.discarder if payer is context.discarder else gun.others)
                for payer in others(context.seat)
            }
        if context.liable is not None:
            owed = {context.liable: sum(owed.values(), 0)}
        return collect(context.seat, owed)


HK = HkProfile()
