"""A hand's value is the profile's own type (`companion.rules.value`): the scorer ranks, holds
against the minimum, settles and shows whatever value the profile makes, and assumes no int.

The counting profiles' `Count` is held here to what the scorer did with one integer; a test
profile whose value is han and fu, ranked by points, is scored through the same scorer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, TypeVar

import pytest

from companion.context import WinContext
from companion.errors import InvalidRequestError
from companion.hand import Hand
from companion.ledger.build import quick_payments
from companion.ledger.errors import LedgerError, NotPayableWinError
from companion.rules import get_profile, predicates
from companion.rules.facts import Facts
from companion.rules.options import Options
from companion.rules.patterns import Match, Pattern, PatternScore
from companion.rules.profile import Profile
from companion.rules.value import Count, HandValue, Shortfall
from companion.scoring import score, score_hand
from companion.settlement import Payments, collect, others
from companion.shapes import FOUR_SETS
from companion.tiles import Wind, parse_tiles
from shared_profiles import SHARED

# ---------------------------------------------------------------------------------------------
# The counting profiles' value


def test_a_count_ranks_by_its_settled_tai_then_its_raw_total() -> None:
    # The order the scorer's readings were ranked in when it carried (settled, raw) itself.
    assert Count(5, 6) > Count(5, 5) > Count(4, 20)
    assert Count(5, 6) == Count(5, 6) and hash(Count(5, 6)) == hash((5, 6))


def score_of(profile: str, tai: int) -> PatternScore:
    return PatternScore(f"{profile}_test", "Test", tai, 1, ())


@pytest.mark.parametrize(
    ("profile", "options", "raw", "value"),
    [
        ("sg", {}, 3, Count(3, 3)),
        ("sg", {}, 9, Count(5, 9)),  # the cap of 5
        ("tw", {}, 31, Count(31, 31)),  # no cap
        ("sg-table", {"cap": 4}, 7, Count(4, 7)),
        ("hk", {"max_faan": 10}, 12, Count(10, 12)),
    ],
)
def test_a_count_is_the_raw_total_cut_to_the_cap(
    profile: str, options: dict[str, Any], raw: int, value: Count
) -> None:
    rules = get_profile(profile)
    parsed = rules.parse_options(options)
    assert rules.value_of(raw, [score_of(profile, raw)], parsed) == value
    assert rules.result_fields(value).tai == value.tai
    assert rules.result_fields(value).raw_tai == raw


def test_a_limit_hand_is_worth_its_limit_beyond_the_cap() -> None:
    sg_table = get_profile("sg-table")
    options = sg_table.parse_options({})
    limit = next(pattern for pattern in sg_table.patterns if pattern.limit)
    scores = [PatternScore(limit.id, limit.name, limit.tai, 1, ())]
    assert sg_table.value_of(limit.tai, scores, options) == Count(limit.tai, limit.tai)


def test_the_minimum_of_a_count_and_its_note() -> None:
    sg = get_profile("sg")
    options = sg.parse_options({"min_tai": 2})
    assert sg.under_minimum(Count(2, 2), [], options) is None
    short = sg.under_minimum(Count(1, 1), [], options)
    assert short == Shortfall(1, 1, 2, "tai")
    assert short is not None and short.note == "1 tai is under the table's minimum of 2"


def test_hk_leaves_the_flower_faan_out_of_the_minimum_unless_they_count() -> None:
    hk = get_profile("hk")
    scores = [
        PatternScore("seat_flower", "Seat flower", 1, 1, ()),
        PatternScore("self_drawn", "Self-drawn", 1, 1, ()),
        PatternScore("no_flowers", "No flowers", 1, 1, ()),
    ]
    value = hk.value_of(3, scores, hk.parse_options({}))
    assert value == Count(3, 3)
    short = hk.under_minimum(value, scores, hk.parse_options({}))
    assert short == Shortfall(
        1, 3, 3, "faan", (("seat_flower", "Seat flower"), ("no_flowers", "No flowers"))
    )
    assert short.note == (
        "1 of the 3 faan counts toward the table's minimum of 3; Seat flower and No flowers do not"
    )
    counting = hk.parse_options({"flowers_count_to_minimum": True})
    assert hk.under_minimum(value, scores, counting) is None
    # A count the table agreed has no patterns behind it: all of it counts.
    assert hk.under_minimum(hk.agreed_value(3, hk.parse_options({})), (), counting) is None
    assert (
        hk.under_minimum(hk.agreed_value(3, hk.parse_options({})), (), hk.parse_options({})) is None
    )


def test_an_agreed_count_is_refused_where_no_hand_settles() -> None:
    sg, sg_table = get_profile("sg"), get_profile("sg-table")
    assert sg.agreed_value(5, sg.parse_options({})) == Count(5, 5)
    assert sg.agreed_counts(sg.parse_options({})) == (5, frozenset())
    with pytest.raises(InvalidRequestError) as refusal:
        sg.agreed_value(6, sg.parse_options({}))
    assert refusal.value.message == "a sg hand settles at 0 to 5 tai, not 6"
    with pytest.raises(InvalidRequestError) as refusal:
        sg.agreed_value(-1, sg.parse_options({}))
    assert refusal.value.message == "tai cannot be negative"
    options = sg_table.parse_options({"cap": 4})
    cap, limits = sg_table.agreed_counts(options)
    assert cap == 4 and limits == {10}
    assert sg_table.agreed_value(10, options) == Count(10, 10)
    with pytest.raises(InvalidRequestError) as refusal:
        sg_table.agreed_value(7, options)
    assert (
        refusal.value.message == "a sg-table hand settles at 0 to 4 tai or a limit hand's 10, not 7"
    )


@pytest.mark.parametrize("profile", sorted(SHARED))
def test_an_agreed_count_is_what_a_hand_of_that_total_settles_at(profile: str) -> None:
    """Up to the cap an agreed count is the value of a hand whose patterns total it; past the
    cap no hand but a limit hand settles, and an agreed count there is refused."""
    rules = get_profile(profile)
    options = rules.parse_options({})
    cap, limits = rules.agreed_counts(options)
    top = 40 if cap is None else cap
    for count in range(top + 1):
        assert rules.agreed_value(count, options) == rules.value_of(count, [], options)
    if cap is not None:
        assert rules.value_of(cap + 1, [], options) == Count(cap, cap + 1)
        beyond = next(count for count in range(cap + 1, 100) if count not in limits)
        with pytest.raises(InvalidRequestError):
            rules.agreed_value(beyond, options)


def test_the_ledger_settles_an_agreed_count_as_the_engine_settles_the_hand() -> None:
    sg = get_profile("sg")
    options = sg.parse_options({"min_tai": 1})
    context = WinContext(seat=Wind.SOUTH)
    hand = score({"profile": "sg", "hand": "123m456m789m123p55p", "seat": "S"})
    assert hand.tai == 5
    assert quick_payments(sg, options, hand.tai, context) == hand.payments
    with pytest.raises(LedgerError, match=r"^a sg hand settles at 0 to 5 tai, not 6$"):
        quick_payments(sg, options, 6, context)
    with pytest.raises(NotPayableWinError) as refusal:
        quick_payments(sg, options, 0, context)
    assert refusal.value.message == (
        "0 tai is under the table's minimum of 1: a hand under the minimum pays nothing and is "
        "not recorded as a win"
    )


# ---------------------------------------------------------------------------------------------
# A value that is not one count: han and fu, ranked by points (a test profile, not a rule set)

PUNG_FU = 12
"""Fu per pung (and kong), in the test table."""


@dataclass(frozen=True, order=True)
class Points:
    """Han and fu, ranked by the points they pay, then by han."""

    points: int
    han: int
    fu: int


@dataclass(frozen=True, order=True)
class HanFirst:
    """The same han and fu, ranked by han and then by fu."""

    han: int
    fu: int

    @property
    def points(self) -> int:
        return points(self.han, self.fu)


class HanFu(HandValue, Protocol):
    """What the test profile reads of either value."""

    @property
    def han(self) -> int: ...

    @property
    def points(self) -> int: ...


HanFuT = TypeVar("HanFuT", bound=HanFu)


@dataclass(frozen=True)
class Shown:
    """The result's fields of a han-and-fu value: the han as its `tai`."""

    tai: int
    raw_tai: int


def points(han: int, fu: int) -> int:
    return fu << (han + 2)


def triple_chow(facts: Facts) -> tuple[Match, ...]:
    """Three chows alike."""
    chows = facts.chows
    alike = [group for group in chows if group.tile == chows[0].tile] if chows else []
    return (Match(tuple(alike)),) if len(alike) >= 3 else ()


def each_pung(facts: Facts) -> tuple[Match, ...]:
    return tuple(Match((group,)) for group in facts.pungs)


FU_PATTERNS = frozenset({"pung_fu"})
"""The patterns that count fu, not han."""


class HanFuProfile(Profile[Options, HanFuT]):
    """Four sets and a pair; han from two patterns, fu from the pungs; the minimum in han."""

    name = "Han and fu (test)"
    structure = FOUR_SETS
    patterns = (
        Pattern("triple_chow", "Triple chow", 3, triple_chow),
        Pattern("all_pungs", "All pungs", 2, predicates.all_pungs),
        Pattern("pung_fu", "Pung fu", PUNG_FU, each_pung),
    )
    options_type = Options
    unit = "han"

    def han_and_fu(self, scores: Sequence[PatternScore]) -> tuple[int, int]:
        han = sum(score.tai for score in scores if score.id not in FU_PATTERNS)
        return han, 20 + sum(score.tai for score in scores if score.id in FU_PATTERNS)

    def under_minimum(
        self, value: HanFuT, scores: Sequence[PatternScore], options: Options
    ) -> Shortfall | None:
        han, _ = self.han_and_fu(scores)
        return None if han >= options.min_tai else Shortfall(han, han, options.min_tai, "han")

    def settle(self, value: HanFuT, context: WinContext, options: Options) -> Payments:
        owed = {payer: Fraction(value.points, 100) for payer in others(context.seat)}
        return collect(context.seat, owed)

    def result_fields(self, value: HanFuT) -> Shown:
        return Shown(value.han, value.han)


class PointsProfile(HanFuProfile[Points]):
    id = "test-points"

    def value_of(self, raw: int, scores: Sequence[PatternScore], options: Options) -> Points:
        han, fu = self.han_and_fu(scores)
        return Points(points(han, fu), han, fu)


class HanFirstProfile(HanFuProfile[HanFirst]):
    id = "test-han-first"

    def value_of(self, raw: int, scores: Sequence[PatternScore], options: Options) -> HanFirst:
        return HanFirst(*self.han_and_fu(scores))


TRIPLETS = parse_tiles("111m222m333m555p77s")
"""Read as pungs: All pungs (2 han) and four pungs' fu (68 fu), 1,088 points. Read as chows:
Triple chow (3 han) and one pung's fu (32 fu), 1,024 points."""


@pytest.mark.parametrize(
    ("profile", "han", "fu", "groups"),
    [
        (PointsProfile(), 2, 20 + 4 * PUNG_FU, ("111m", "222m", "333m", "555p", "77s")),
        (HanFirstProfile(), 3, 20 + PUNG_FU, ("123m", "123m", "123m", "555p", "77s")),
    ],
    ids=["by-points", "by-han"],
)
def test_the_scorer_keeps_the_reading_the_profile_s_value_ranks_first(
    profile: HanFuProfile[Any], han: int, fu: int, groups: tuple[str, ...]
) -> None:
    options = profile.parse_options({"min_tai": 1})
    hand = Hand.build(TRIPLETS, sets=4)
    result = score_hand(profile, hand, WinContext(seat=Wind.SOUTH), options)
    assert result.valid and result.meets_minimum
    assert sorted(result.groups) == sorted(groups)
    assert (result.tai, result.raw_tai, result.unit) == (han, han, "han")
    paid = Fraction(points(han, fu), 100)
    assert result.payments == {
        Wind.EAST: -paid,
        Wind.SOUTH: 3 * paid,
        Wind.WEST: -paid,
        Wind.NORTH: -paid,
    }


def test_the_minimum_and_its_note_are_the_value_s_profile_s() -> None:
    profile = PointsProfile()
    options = profile.parse_options({"min_tai": 3})
    result = score_hand(profile, Hand.build(TRIPLETS, sets=4), WinContext(seat=Wind.SOUTH), options)
    # The most points are in the 2-han reading, under the minimum of 3 han: nothing is paid.
    assert result.tai == 2 and not result.meets_minimum
    assert result.notes == ("2 han is under the table's minimum of 3",)
    assert set(result.payments.values()) == {0}
