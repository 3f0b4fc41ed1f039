"""The 81 fan of MCR as data: id, names (简体, 繁體, English), value, what a reading needs for
it, and what it leaves out (docs/rules-mcr.md lists them).

A fan's predicate returns its matches on one reading: each match the indices of the sets that
earned it (an empty set for a fan of the whole hand). What the result shows as the tiles behind
a counted fan (`earned`) is, unless the fan says otherwise, those sets, or every group for a fan
of the whole hand; a fan of the win names the winning tile or the group it completed.

A fan formed by combining sets (`combination`) is given as the family of sets it combines
(chows or pungs), how many, and a test over their lowest tiles in order; every such
combination of the reading is a candidate, and `companion.rules.principles` chooses among
them. `excludes` is the rule book's "not counted with"; `absorbs` the single-set fans its own
sets do not also earn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from operator import itemgetter

from companion.rules.mcr.facts import (
    EAST,
    GREEN,
    REVERSIBLE,
    McrCircumstance,
    McrFacts,
    is_dragon,
    is_honor,
    is_terminal,
    is_wind,
    rank,
    suit,
)
from companion.rules.mcr.features import McrFeature as F
from companion.rules.mcr.shapes import CHOW, KONG, PAIR_TEXT, McrShape
from companion.rules.principles import Element, Sets
from companion.shapes.blocks import remember
from companion.shapes.groups import TILES
from companion.tiles import TERMINALS_AND_HONORS, Tile, format_tiles

Matches = list[Sets]
Predicate = Callable[[McrFacts], Matches]
Earned = Callable[[McrFacts, Sequence[Sets]], tuple[str, ...]]
"""The groups or tiles (MPSZ) behind a fan's counted matches on a reading."""
WHOLE: Sets = frozenset()
_ONE: Matches = [WHOLE]
_NONE: Matches = []


@dataclass(frozen=True)
class Fan:
    id: str
    hans: str
    """The name in simplified Chinese."""
    hant: str
    """The name in traditional Chinese."""
    english: str
    value: int
    predicate: Predicate
    excludes: Mapping[str, int | None] = field(default_factory=dict)
    absorbs: frozenset[str] = frozenset()
    combination: bool = False
    fallback: bool = False
    preferred: bool = False
    """Between two readings worth the same, the one with this fan is reported."""
    earned: Earned | None = None
    """The tiles behind it where they are not its matches' sets (`earned_by`)."""
    needs: int = 0
    """The feature bits (`McrFeature`) a reading must have for the fan to match."""
    decided: bool = False
    """The bits are also enough: the fan is one match of the whole hand wherever they are."""

    def earned_by(self, facts: McrFacts, matches: Sequence[Sets]) -> tuple[str, ...]:
        """The groups or tiles behind the counted `matches`: their sets, every group for a
        match of the whole hand, or what the fan's own `earned` names."""
        if self.earned is not None:
            return self.earned(facts, matches)
        # The reading's groups are written once (`McrReading.groups`, its sets first, in
        # order): each set's text is read there rather than written again (11k of 747k
        # instructions a hand).
        groups = facts.reading.groups
        # A match's texts picked by its sets' indices in order (`_PICKS`: an `itemgetter` of
        # a slice for one set, of the indices for several), rather than the indices sorted
        # and a list of their texts for each; with tile hog's counts made here and the
        # knitted tiles' text kept: 464,423 to 454,826 instructions a hand (a slice rather
        # than an index for one set, one call for every match: 454,144 to 453,796).
        if len(matches) == 1:
            match = matches[0]
            if not match:
                return groups  # one match of the whole hand: every group, already a tuple
            return _PICKS[match](groups)
        found: list[str] = []
        for match in matches:
            found.extend(_PICKS[match](groups) if match else groups)
        return tuple(found)

    @property
    def element(self) -> Element:
        return Element(
            self.id, self.value, self.excludes, self.absorbs, self.combination, self.fallback
        )


class _Picks(dict[Sets, Callable[[tuple[str, ...]], tuple[str, ...]]]):
    """By a match's sets: the getter of their texts, in the order of their indices, from the
    reading's groups (a slice for one set); made on first use (four sets at most)."""

    def __missing__(self, match: Sets) -> Callable[[tuple[str, ...]], tuple[str, ...]]:
        indices = sorted(match)
        found: Callable[[tuple[str, ...]], tuple[str, ...]]
        if len(indices) == 1:
            found = itemgetter(slice(indices[0], indices[0] + 1))
        else:
            found = itemgetter(*indices)
        self[match] = found
        return found


_PICKS = _Picks()


def _whole(test: Callable[[McrFacts], bool]) -> Predicate:
    return lambda facts: _ONE if test(facts) else _NONE


def _not_counted(*names: str) -> dict[str, int | None]:
    return dict.fromkeys(names)


class Combination:
    """A fan's predicate over `size` sets of a family (`chows` or `pungs`) whose lowest tiles,
    in order, pass `test`; `places` gives the places of those sets among the family's, by the
    family's tiles alone (what the engine's family step reads for every such fan at once)."""

    def __init__(self, family: str, size: int, test: Callable[[Sequence[int]], bool]) -> None:
        self.family = family
        self.size = size
        self.test = test
        # The matches depend on the family's lowest tiles alone, in order, which far fewer
        # readings differ in than in their hands: each fan keeps, by those tiles, the places of
        # the sets that match (most often none), and only a match is turned into the reading's
        # set indices. (Their order does not matter: the principles sort them.)
        self.memo: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}

    def places(self, tiles: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        found = self.memo.get(tiles)
        if found is None:
            test = self.test
            found = tuple(
                places
                for places in combinations(range(len(tiles)), self.size)
                if test([tiles[place] for place in places])
            )
            remember(self.memo, tiles, found)
        return found

    def __call__(self, facts: McrFacts) -> Matches:
        members, tiles = facts.family(self.family)
        found = self.places(tiles)
        if not found:
            return _NONE
        return [frozenset([members[place] for place in places]) for places in found]


def _combination(family: str, size: int, test: Callable[[Sequence[int]], bool]) -> Predicate:
    """Every `size` sets of the family (`chows` or `pungs`) whose lowest tiles, in order,
    pass `test`."""
    return Combination(family, size, test)


_SINGLES: tuple[Sets, ...] = tuple(frozenset((index,)) for index in range(5))
"""Each set index's match alone, shared (a set fan's matches are made on every reading)."""


def _per_pung(test: Callable[[int], bool]) -> Predicate:
    """Each pung (or kong) whose tile passes `test`, a match of its own."""
    # The test as a table by tile, and the sets read off the reading once: the pung fan ran a
    # call of the test and a read of `facts.sets` (a property) for each pung. With the other
    # predicates read likewise (the sets once, tables by tile, the cheapest test first, no
    # `_whole` wrapper where they run most): 547,134 to 512,831 instructions a hand.
    passes = tuple(test(tile) for tile in range(len(TILES)))

    def matches(facts: McrFacts) -> Matches:
        sets = facts.reading.sets
        return [_SINGLES[index] for index in facts.pungs if passes[sets[index].tile]]

    return matches


def _wind_pung(wind: Callable[[McrFacts], Tile]) -> Predicate:
    """The pung of the wind `wind` names (the round's or the seat's), a match of its own."""

    def matches(facts: McrFacts) -> Matches:
        tile = wind(facts)
        sets = facts.reading.sets
        return [_SINGLES[index] for index in facts.pungs if sets[index].tile == tile]

    return matches


# The combination fan's tests get their sets' lowest tiles in order (`_combination`):
# the highest tells whether an honor is among them, and the first and last whether they share
# a suit (a tenth of a hand went to these two, written over every tile).


def _same_suit(tiles: Sequence[int]) -> bool:
    """Tiles in order, all of one numbered suit."""
    return tiles[-1] < EAST and tiles[0] // 9 == tiles[-1] // 9


def _three_suits(tiles: Sequence[int]) -> bool:
    """Three tiles in order, one of each numbered suit."""
    return tiles[2] < EAST and tiles[0] < 9 and 9 <= tiles[1] < 18 and tiles[2] >= 18


def _steps(tiles: Sequence[int], step: int) -> bool:
    return all(later - earlier == step for earlier, later in pairwise(tiles))


def _ranks(tiles: Sequence[int]) -> list[int]:
    return sorted(rank(tile) for tile in tiles)


def _shifted(tiles: Sequence[int]) -> bool:
    return _same_suit(tiles) and (_steps(tiles, 1) or _steps(tiles, 2))


def _all_tiles(test: Callable[[int], bool], *shapes: McrShape) -> Predicate:
    allowed = shapes or (McrShape.STANDARD, McrShape.SEVEN_PAIRS)
    return _whole(lambda f: f.shape in allowed and all(test(tile) for tile in f.kinds))


def _ranks_within(low: int, high: int) -> Predicate:
    def test(facts: McrFacts) -> bool:
        ranks = facts.numbered_ranks
        return ranks is not None and all(low <= value <= high for value in ranks)

    return _whole(test)


def _every_group(test: Callable[[Sequence[Tile], bool], bool]) -> Predicate:
    """Four sets and a pair whose every group passes `test(tiles, is_pung_or_pair)`."""
    # The test as tables by tile (a chow's lowest, a pung's or kong's, the pair's), and the
    # pair first, which fails on most readings: outside hand and all fives ran on about two
    # readings in three, and matched one time in ten.
    chows = tuple(
        tile < EAST and tile % 9 < 7 and test(TILES[tile : tile + 3], False)
        for tile in range(len(TILES))
    )
    pungs = tuple(test((TILES[tile],) * 3, True) for tile in range(len(TILES)))
    kongs = tuple(test((TILES[tile],) * 4, True) for tile in range(len(TILES)))
    pairs = tuple(test((TILES[tile],) * 2, True) for tile in range(len(TILES)))

    def matches(facts: McrFacts) -> Matches:
        reading = facts.reading
        pair = reading.pair
        if pair is None or not pairs[pair] or reading.shape is not McrShape.STANDARD:
            return _NONE
        for group in reading.sets:
            kind = group.kind
            table = chows if kind is CHOW else kongs if kind is KONG else pungs
            if not table[group.tile]:
                return _NONE
        return _ONE

    return matches


def _event(event: McrCircumstance, by_discard: bool | None) -> Predicate:
    return _whole(
        lambda f: (
            f.context.has(event) and (by_discard is None or f.context.by_discard is by_discard)
        )
    )


def _concealed(count: int) -> Predicate:
    """Exactly `count` concealed pungs or kongs: one match of those sets."""

    def matches(facts: McrFacts) -> Matches:
        reading = facts.reading
        if reading.shape not in _SET_SHAPES:
            return _NONE
        sets = reading.sets
        # The concealed ones among the pungs (`facts.pungs`), counted once.
        found = [index for index in facts.pungs if not sets[index].exposed]
        return [frozenset(found)] if len(found) == count else _NONE

    return matches


def _kongs(count: int, exposed: bool | None) -> Predicate:
    """`count` kongs or more, exposed or concealed as asked; exactly `count` of any kind (three
    or four kongs). A higher kong fan leaves the lower ones out (`excludes`), so that one
    exposed and one concealed kong count both, as the rule book has them."""

    def matches(facts: McrFacts) -> Matches:
        if not facts.kongs:
            return _NONE
        kongs = [
            index
            for index, group in enumerate(facts.sets)
            if group.kind is KONG and (exposed is None or group.exposed is exposed)
        ]
        found = len(kongs) >= count if exposed is not None else len(kongs) == count
        return [frozenset(kongs)] if found else _NONE

    return matches


def _melded_and_concealed_kong(facts: McrFacts) -> Matches:
    """Two kongs, one of them exposed: one match of the two."""
    kongs = facts.kongs
    if len(kongs) != 2 or sum(group.exposed for group in kongs) != 1:
        return _NONE
    return [frozenset(i for i, group in enumerate(facts.sets) if group.kind is KONG)]


_SET_SHAPES = (McrShape.STANDARD, McrShape.KNITTED_STRAIGHT)


_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _nine_gates(facts: McrFacts) -> Matches:
    """1112345678999 of one suit held concealed before the winning tile."""
    # Read from the counts held before (with no declared group, the concealed ones: 13 tiles
    # that match `_GATES` in one suit are all of them) rather than the tiles sorted.
    if facts.melds:
        return _NONE
    held = facts.held_before
    if held[0:9] == _GATES or held[9:18] == _GATES or held[18:27] == _GATES:
        return _ONE
    return _NONE


def _seven_shifted_pairs(facts: McrFacts) -> bool:
    pairs = list(facts.reading.pairs)
    return facts.shape is McrShape.SEVEN_PAIRS and _same_suit(pairs) and _steps(pairs, 1)


def _little_winds(facts: McrFacts) -> bool:
    pair = facts.reading.pair
    return (
        facts.standard
        and pair is not None
        and is_wind(pair)
        and sum(is_wind(facts.sets[index].tile) for index in facts.pungs) == 3
    )


def _little_dragons(facts: McrFacts) -> bool:
    pair = facts.reading.pair
    return (
        facts.standard
        and pair is not None
        and is_dragon(pair)
        and sum(is_dragon(facts.sets[index].tile) for index in facts.pungs) == 2
    )


def _terminal_chows(three_suits: bool) -> Predicate:
    """一色双龙会 / 三色双龙会: 123 and 789 twice, a pair of fives: in the pair's suit, or in
    the two other suits."""

    def test(facts: McrFacts) -> bool:
        pair = facts.reading.pair
        if not facts.standard or pair is None or len(facts.chows) != 4 or rank(pair) != 5:
            return False
        chows = sorted(
            (suit(facts.sets[index].tile), rank(facts.sets[index].tile)) for index in facts.chows
        )
        if three_suits:
            others = sorted(set(range(3)) - {suit(pair)})
            return chows == sorted((other, low) for other in others for low in (1, 7))
        return chows == [(suit(pair), 1)] * 2 + [(suit(pair), 7)] * 2

    return _whole(test)


def _all_pungs(facts: McrFacts) -> bool:
    return facts.standard and len(facts.pungs) == 4


def _flush(honors: bool) -> Predicate:
    return _whole(lambda f: len(f.suits) == 1 and any(is_honor(tile) for tile in f.kinds) is honors)


def _all_types(facts: McrFacts) -> bool:
    kinds = facts.kinds
    return (
        len(facts.suits) == 3
        and any(is_wind(tile) for tile in kinds)
        and any(is_dragon(tile) for tile in kinds)
    )


def _no_melds(by_discard: bool) -> Predicate:
    return _whole(
        lambda f: (
            f.exposed_melds == 0 and f.context.by_discard is by_discard and f.shape in _SET_SHAPES
        )
    )


def _melded_hand(facts: McrFacts) -> bool:
    return facts.standard and facts.exposed_melds == 4 and facts.context.by_discard


def _all_chows(facts: McrFacts) -> Matches:
    reading = facts.reading
    pair = reading.pair
    if pair is None or pair >= EAST or reading.shape not in _SET_SHAPES:
        return _NONE
    for group in reading.sets:
        if group.kind is not CHOW:
            return _NONE
    return _ONE


def _tile_hog(facts: McrFacts) -> Matches:
    reading = facts.reading
    if reading.shape in (McrShape.THIRTEEN_ORPHANS, McrShape.HONORS_AND_KNITTED):
        return _NONE
    # The kinds held four times counted by `list.count` in the counts held before (the
    # winning tile the fourth of its kind, or not), less the kongs, rather than a generator
    # over the 34 counts: with the families worked out uncached, 484,178 to 481,140
    # instructions a hand.
    held = facts.held_before
    fours = held.count(4) + (held[facts.context.winning] == 3)
    for group in reading.sets:
        if group.kind is KONG:
            fours -= 1
    return [WHOLE] * fours


def _knitted_straight(facts: McrFacts) -> Matches:
    reading = facts.reading
    if reading.shape is McrShape.KNITTED_STRAIGHT:
        return _ONE
    if (
        reading.shape is McrShape.HONORS_AND_KNITTED
        and sum(tile < EAST for tile in reading.knitted) == 9
    ):
        return _ONE
    return _NONE


def _honors_and_knitted(greater: bool) -> Predicate:
    return _whole(
        lambda f: (
            f.shape is McrShape.HONORS_AND_KNITTED
            and (not greater or all(tile in f.kinds for tile in TERMINALS_AND_HONORS[6:]))
        )
    )


class WaitFan:
    """A wait fan's predicate: the hand waited on one kind alone, the winning tile in this
    `position` of the reading (`McrFacts.wait_position`)."""

    def __init__(self, position: str) -> None:
        self.position = position

    def __call__(self, facts: McrFacts) -> Matches:
        return _ONE if facts.wait_position == self.position else _NONE


def _wait(position: str) -> Predicate:
    return WaitFan(position)


_OUTSIDE = frozenset(TERMINALS_AND_HONORS)
_FIVES = frozenset({4, 13, 22})


# Outside hand and all fives test every group of the readings they may match (a tenth of the
# predicates' time when each tile was tested apart): a set of the kinds that pass, once.
def _outside(tiles: Sequence[Tile], _: bool) -> bool:
    return not _OUTSIDE.isdisjoint(tiles)


def _with_five(tiles: Sequence[Tile], _: bool) -> bool:
    return not _FIVES.isdisjoint(tiles)


def _even_pung(tiles: Sequence[Tile], pung: bool) -> bool:
    return pung and tiles[0] < EAST and rank(tiles[0]) % 2 == 0


def _prevalent(facts: McrFacts) -> Tile:
    return facts.context.round.tile


def _seat(facts: McrFacts) -> Tile:
    return facts.context.seat.tile


_MPSZ = tuple(tile.mpsz for tile in TILES)
_FOURS = tuple(format_tiles((tile,) * 4) for tile in TILES)
"""Each kind written once, and its four copies (the tiles behind a fan of the win, a hog)."""


def _winning_tile(facts: McrFacts, matches: Sequence[Sets]) -> tuple[str, ...]:
    """A fan of the win: the winning tile."""
    return (_MPSZ[facts.context.winning],)


def _wait_group(facts: McrFacts, matches: Sequence[Sets]) -> tuple[str, ...]:
    """A wait fan: the group the winning tile completed in its position (the chow, or the
    pair)."""
    return (facts.winning_place[0],)


def _hog_tiles(facts: McrFacts, matches: Sequence[Sets]) -> tuple[str, ...]:
    """四归一: the four copies of each kind held four times outside a kong."""
    # The kinds held four times found by `list.index` (C speed), each written from a table,
    # rather than a `Tile` made and written for each kind held four times after a generator
    # over 34 counts: with the winning tile's text from a table too, 489,485 to 484,178
    # instructions a hand. The counts and kongs made here rather than by the facts' cached
    # ones, which nothing else reads on most readings.
    counts = list(facts.held_before)
    counts[facts.context.winning] += 1
    kongs = [group.tile for group in facts.reading.sets if group.kind is KONG]
    found: list[str] = []
    kind = -1
    for _ in range(counts.count(4)):
        kind = counts.index(4, kind + 1)
        if kind not in kongs:
            found.append(_FOURS[kind])
    return tuple(found[: len(matches)])


_KNITTED_TEXTS: dict[tuple[Tile, ...], tuple[str, ...]] = {}
"""The knitted tiles written, by the tiles (a few hundred at most)."""


def _knitted_tiles(facts: McrFacts, matches: Sequence[Sets]) -> tuple[str, ...]:
    """组合龙: the nine knitted tiles (of honors and knitted tiles, the numbered ones)."""
    knitted = facts.reading.knitted
    found = _KNITTED_TEXTS.get(knitted)
    if found is None:
        found = remember(
            _KNITTED_TEXTS, knitted, (format_tiles(tile for tile in knitted if tile < EAST),)
        )
    return found


def _pungs_and_pair(test: Callable[[int], bool]) -> Earned:
    """小四喜 / 小三元: the pungs of those honors and the pair."""

    def earned(facts: McrFacts, matches: Sequence[Sets]) -> tuple[str, ...]:
        pair = facts.reading.pair
        assert pair is not None
        found = [str(facts.sets[i]) for i in facts.pungs if test(facts.sets[i].tile)]
        return (*found, PAIR_TEXT[pair])

    return earned


E = McrCircumstance
PUNG_19 = "pung_of_terminals_or_honors"
_ITS_PUNG_OF_AN_HONOR = frozenset({PUNG_19})

FANS: tuple[Fan, ...] = (
    # 88
    Fan(
        "big_four_winds",
        "大四喜",
        "大四喜",
        "Big four winds",
        88,
        _combination("pungs", 4, lambda t: t == [27, 28, 29, 30]),
        combination=True,
        excludes=_not_counted(
            "big_three_winds",
            "all_pungs",
            "prevalent_wind",
            "seat_wind",
            PUNG_19,
            "little_four_winds",
        ),
        needs=F.WIND_PUNGS_4,
    ),
    Fan(
        "big_three_dragons",
        "大三元",
        "大三元",
        "Big three dragons",
        88,
        _combination("pungs", 3, lambda t: t == [31, 32, 33]),
        combination=True,
        excludes=_not_counted("two_dragon_pungs", "dragon_pung"),
        needs=F.DRAGON_PUNGS_3,
    ),
    Fan(
        "all_green",
        "绿一色",
        "綠一色",
        "All green",
        88,
        _all_tiles(lambda tile: tile in GREEN),
        excludes=_not_counted("half_flush", "one_voided_suit"),
        needs=F.GREEN_ONLY | F.TILE_SHAPE,
        decided=True,
    ),
    Fan(
        "nine_gates",
        "九莲宝灯",
        "九蓮寶燈",
        "Nine gates",
        88,
        _nine_gates,
        excludes={
            "full_flush": None,
            "concealed_hand": None,
            "fully_concealed_hand": None,
            "one_voided_suit": None,
            "no_honors": None,
            PUNG_19: 1,
        },
        needs=F.NO_MELDS | F.ONE_SUIT | F.NO_HONORS,
    ),
    Fan(
        "four_kongs",
        "四杠",
        "四槓",
        "Four kongs",
        88,
        _kongs(4, None),
        excludes=_not_counted(
            "three_kongs",
            "two_concealed_kongs",
            "two_melded_kongs",
            "concealed_kong",
            "melded_kong",
            "all_pungs",
            "single_wait",
        ),
        needs=F.KONGS_4,
    ),
    Fan(
        "seven_shifted_pairs",
        "连七对",
        "連七對",
        "Seven shifted pairs",
        88,
        _whole(_seven_shifted_pairs),
        excludes=_not_counted(
            "seven_pairs",
            "full_flush",
            "concealed_hand",
            "fully_concealed_hand",
            "one_voided_suit",
            "no_honors",
            "single_wait",
        ),
        needs=F.SEVEN_PAIRS | F.ONE_SUIT | F.NO_HONORS,
    ),
    Fan(
        "thirteen_orphans",
        "十三幺",
        "十三么",
        "Thirteen orphans",
        88,
        _whole(lambda f: f.shape is McrShape.THIRTEEN_ORPHANS),
        excludes=_not_counted("all_types", "concealed_hand", "fully_concealed_hand", "single_wait"),
        needs=F.THIRTEEN_ORPHANS,
        decided=True,
    ),
    # 64
    Fan(
        "all_terminals",
        "清幺九",
        "清么九",
        "All terminals",
        64,
        _all_tiles(is_terminal),
        excludes=_not_counted(
            "all_terminals_and_honors",
            "all_pungs",
            "outside_hand",
            PUNG_19,
            "no_honors",
            "double_pung",
        ),
        needs=F.TERMINALS_ONLY | F.TILE_SHAPE,
        decided=True,
    ),
    Fan(
        "little_four_winds",
        "小四喜",
        "小四喜",
        "Little four winds",
        64,
        _whole(_little_winds),
        earned=_pungs_and_pair(is_wind),
        excludes=_not_counted("big_three_winds", PUNG_19),
        needs=F.STANDARD | F.WIND_PUNGS_3,
    ),
    Fan(
        "little_three_dragons",
        "小三元",
        "小三元",
        "Little three dragons",
        64,
        _whole(_little_dragons),
        earned=_pungs_and_pair(is_dragon),
        excludes=_not_counted("two_dragon_pungs", "dragon_pung"),
        needs=F.STANDARD | F.DRAGON_PUNGS_2,
    ),
    Fan(
        "all_honors",
        "字一色",
        "字一色",
        "All honors",
        64,
        _all_tiles(is_honor),
        excludes=_not_counted(
            "all_terminals_and_honors", "all_pungs", "outside_hand", PUNG_19, "one_voided_suit"
        ),
        needs=F.HONORS_ONLY | F.TILE_SHAPE,
        decided=True,
    ),
    Fan(
        "four_concealed_pungs",
        "四暗刻",
        "四暗刻",
        "Four concealed pungs",
        64,
        _concealed(4),
        excludes=_not_counted("all_pungs", "concealed_hand", "fully_concealed_hand"),
        needs=F.CONCEALED_PUNGS_4,
    ),
    Fan(
        "pure_terminal_chows",
        "一色双龙会",
        "一色雙龍會",
        "Pure terminal chows",
        64,
        _terminal_chows(three_suits=False),
        excludes=_not_counted(
            "seven_pairs",
            "full_flush",
            "all_chows",
            "pure_double_chow",
            "two_terminal_chows",
            "one_voided_suit",
            "no_honors",
        ),
        needs=F.STANDARD | F.CHOWS_4 | F.ONE_SUIT | F.FIVE,
    ),
    # 48
    Fan(
        "quadruple_chow",
        "一色四同顺",
        "一色四同順",
        "Quadruple chow",
        48,
        _combination("chows", 4, lambda t: _same_suit(t) and _steps(t, 0)),
        combination=True,
        excludes=_not_counted("pure_triple_chow", "pure_double_chow", "tile_hog"),
        needs=F.CHOWS_4,
    ),
    Fan(
        "four_pure_shifted_pungs",
        "一色四节高",
        "一色四節高",
        "Four pure shifted pungs",
        48,
        _combination("pungs", 4, lambda t: _same_suit(t) and _steps(t, 1)),
        combination=True,
        excludes=_not_counted("pure_shifted_pungs", "all_pungs"),
        needs=F.PUNGS_4,
    ),
    # 32
    Fan(
        "four_pure_shifted_chows",
        "一色四步高",
        "一色四步高",
        "Four pure shifted chows",
        32,
        _combination("chows", 4, _shifted),
        combination=True,
        excludes=_not_counted("pure_shifted_chows", "two_terminal_chows", "short_straight"),
        needs=F.CHOWS_4,
    ),
    Fan(
        "three_kongs",
        "三杠",
        "三槓",
        "Three kongs",
        32,
        _kongs(3, None),
        excludes=_not_counted(
            "two_concealed_kongs", "two_melded_kongs", "concealed_kong", "melded_kong"
        ),
        needs=F.KONGS_3,
    ),
    Fan(
        "all_terminals_and_honors",
        "混幺九",
        "混么九",
        "All terminals and honors",
        32,
        _all_tiles(lambda tile: is_terminal(tile) or is_honor(tile)),
        excludes=_not_counted("all_pungs", "outside_hand", PUNG_19),
        needs=F.TERMINALS_HONORS_ONLY | F.TILE_SHAPE,
        decided=True,
    ),
    # 24
    Fan(
        "seven_pairs",
        "七对",
        "七對",
        "Seven pairs",
        24,
        _whole(lambda f: f.shape is McrShape.SEVEN_PAIRS),
        excludes=_not_counted("concealed_hand", "fully_concealed_hand", "single_wait"),
        needs=F.SEVEN_PAIRS,
        decided=True,
    ),
    Fan(
        "greater_honors_and_knitted_tiles",
        "七星不靠",
        "七星不靠",
        "Greater honors and knitted tiles",
        24,
        _honors_and_knitted(greater=True),
        excludes=_not_counted(
            "lesser_honors_and_knitted_tiles",
            "all_types",
            "concealed_hand",
            "fully_concealed_hand",
            "single_wait",
        ),
        needs=F.HONORS_AND_KNITTED | F.WINDS | F.DRAGONS,
    ),
    Fan(
        "all_even_pungs",
        "全双刻",
        "全雙刻",
        "All even pungs",
        24,
        _every_group(_even_pung),
        excludes=_not_counted("all_pungs", "all_simples", "no_honors"),
        needs=F.STANDARD | F.PUNGS_4 | F.NO_HONORS,
    ),
    Fan(
        "full_flush",
        "清一色",
        "清一色",
        "Full flush",
        24,
        _flush(honors=False),
        excludes=_not_counted("one_voided_suit", "no_honors"),
        needs=F.ONE_SUIT | F.NO_HONORS,
        decided=True,
    ),
    Fan(
        "pure_triple_chow",
        "一色三同顺",
        "一色三同順",
        "Pure triple chow",
        24,
        _combination("chows", 3, lambda t: _same_suit(t) and _steps(t, 0)),
        combination=True,
        excludes=_not_counted("pure_shifted_pungs", "pure_double_chow"),
        preferred=True,
        needs=F.CHOWS_3,
    ),
    Fan(
        "pure_shifted_pungs",
        "一色三节高",
        "一色三節高",
        "Pure shifted pungs",
        24,
        _combination("pungs", 3, lambda t: _same_suit(t) and _steps(t, 1)),
        combination=True,
        excludes=_not_counted("pure_triple_chow"),
        needs=F.PUNGS_3,
    ),
    Fan(
        "upper_tiles",
        "全大",
        "全大",
        "Upper tiles",
        24,
        _ranks_within(7, 9),
        excludes=_not_counted("upper_four", "no_honors"),
        needs=F.UPPER_TILES,
        decided=True,
    ),
    Fan(
        "middle_tiles",
        "全中",
        "全中",
        "Middle tiles",
        24,
        _ranks_within(4, 6),
        excludes=_not_counted("all_simples", "no_honors"),
        needs=F.MIDDLE_TILES,
        decided=True,
    ),
    Fan(
        "lower_tiles",
        "全小",
        "全小",
        "Lower tiles",
        24,
        _ranks_within(1, 3),
        excludes=_not_counted("lower_four", "no_honors"),
        needs=F.LOWER_TILES,
        decided=True,
    ),
    # 16
    Fan(
        "pure_straight",
        "清龙",
        "清龍",
        "Pure straight",
        16,
        _combination("chows", 3, lambda t: _same_suit(t) and _steps(t, 3)),
        combination=True,
        needs=F.CHOWS_3,
    ),
    Fan(
        "three_suited_terminal_chows",
        "三色双龙会",
        "三色雙龍會",
        "Three-suited terminal chows",
        16,
        _terminal_chows(three_suits=True),
        excludes=_not_counted("all_chows", "no_honors", "mixed_double_chow", "two_terminal_chows"),
        needs=F.STANDARD | F.CHOWS_4 | F.THREE_SUITS | F.FIVE,
    ),
    Fan(
        "pure_shifted_chows",
        "一色三步高",
        "一色三步高",
        "Pure shifted chows",
        16,
        _combination("chows", 3, _shifted),
        combination=True,
        needs=F.CHOWS_3,
    ),
    Fan(
        "all_fives",
        "全带五",
        "全帶五",
        "All fives",
        16,
        _every_group(_with_five),
        excludes=_not_counted("all_simples", "no_honors"),
        # Ranks 3 to 7 alone, simples only: 1,316 of its 1,318 runs in 3,000 hands missed
        # without that bit (with all chows' no honors: 454,826 to 454,144 instructions a hand).
        needs=F.STANDARD | F.FIVE | F.SIMPLES_ONLY,
    ),
    Fan(
        "triple_pung",
        "三同刻",
        "三同刻",
        "Triple pung",
        16,
        _combination("pungs", 3, lambda t: _three_suits(t) and len(set(_ranks(t))) == 1),
        combination=True,
        preferred=True,
        needs=F.PUNGS_3 | F.THREE_SUITS,
    ),
    Fan(
        "three_concealed_pungs",
        "三暗刻",
        "三暗刻",
        "Three concealed pungs",
        16,
        _concealed(3),
        excludes=_not_counted("two_concealed_pungs"),
        needs=F.CONCEALED_PUNGS_3,
    ),
    # 12
    Fan(
        "lesser_honors_and_knitted_tiles",
        "全不靠",
        "全不靠",
        "Lesser honors and knitted tiles",
        12,
        _honors_and_knitted(greater=False),
        excludes=_not_counted("all_types", "concealed_hand", "fully_concealed_hand", "single_wait"),
        needs=F.HONORS_AND_KNITTED,
        decided=True,
    ),
    Fan(
        "knitted_straight",
        "组合龙",
        "組合龍",
        "Knitted straight",
        12,
        _knitted_straight,
        earned=_knitted_tiles,
        needs=F.KNITTED,
    ),
    Fan(
        "upper_four",
        "大于五",
        "大於五",
        "Upper four",
        12,
        _ranks_within(6, 9),
        excludes=_not_counted("no_honors"),
        needs=F.UPPER_FOUR,
        decided=True,
    ),
    Fan(
        "lower_four",
        "小于五",
        "小於五",
        "Lower four",
        12,
        _ranks_within(1, 4),
        excludes=_not_counted("no_honors"),
        needs=F.LOWER_FOUR,
        decided=True,
    ),
    Fan(
        "big_three_winds",
        "三风刻",
        "三風刻",
        "Big three winds",
        12,
        _combination("pungs", 3, lambda t: all(is_wind(tile) for tile in t)),
        combination=True,
        absorbs=_ITS_PUNG_OF_AN_HONOR,
        needs=F.WIND_PUNGS_3,
    ),
    # 8
    Fan(
        "mixed_straight",
        "花龙",
        "花龍",
        "Mixed straight",
        8,
        _combination("chows", 3, lambda t: _three_suits(t) and _ranks(t) == [1, 4, 7]),
        combination=True,
        needs=F.CHOWS_3 | F.THREE_SUITS,
    ),
    Fan(
        "reversible_tiles",
        "推不倒",
        "推不倒",
        "Reversible tiles",
        8,
        _all_tiles(lambda tile: tile in REVERSIBLE),
        excludes=_not_counted("one_voided_suit"),
        needs=F.REVERSIBLE_ONLY | F.TILE_SHAPE,
        decided=True,
    ),
    Fan(
        "mixed_triple_chow",
        "三色三同顺",
        "三色三同順",
        "Mixed triple chow",
        8,
        _combination("chows", 3, lambda t: _three_suits(t) and len(set(_ranks(t))) == 1),
        combination=True,
        needs=F.CHOWS_3 | F.THREE_SUITS,
    ),
    Fan(
        "mixed_shifted_pungs",
        "三色三节高",
        "三色三節高",
        "Mixed shifted pungs",
        8,
        _combination("pungs", 3, lambda t: _three_suits(t) and _steps(_ranks(t), 1)),
        combination=True,
        needs=F.PUNGS_3 | F.THREE_SUITS,
    ),
    Fan(
        "chicken_hand",
        "无番和",
        "無番和",
        "Chicken hand",
        8,
        lambda facts: _ONE,
        fallback=True,
        needs=0,
        decided=True,
    ),
    Fan(
        "last_tile_draw",
        "妙手回春",
        "妙手回春",
        "Last tile draw",
        8,
        _event(E.LAST_TILE, by_discard=False),
        earned=_winning_tile,
        excludes=_not_counted("self_drawn"),
        needs=F.LAST_TILE | F.SELF_DRAWN,
        decided=True,
    ),
    Fan(
        "last_tile_claim",
        "海底捞月",
        "海底撈月",
        "Last tile claim",
        8,
        _event(E.LAST_TILE, by_discard=True),
        earned=_winning_tile,
        needs=F.LAST_TILE | F.BY_DISCARD,
        decided=True,
    ),
    Fan(
        "out_with_replacement_tile",
        "杠上开花",
        "槓上開花",
        "Out with replacement tile",
        8,
        _event(E.REPLACEMENT, by_discard=False),
        earned=_winning_tile,
        excludes=_not_counted("self_drawn"),
        needs=F.REPLACEMENT | F.SELF_DRAWN,
        decided=True,
    ),
    Fan(
        "robbing_the_kong",
        "抢杠和",
        "搶槓和",
        "Robbing the kong",
        8,
        _event(E.ROBBING_KONG, by_discard=True),
        earned=_winning_tile,
        excludes=_not_counted("last_copy"),
        needs=F.ROBBING_KONG | F.BY_DISCARD,
        decided=True,
    ),
    # 6
    Fan(
        "all_pungs",
        "碰碰和",
        "碰碰和",
        "All pungs",
        6,
        _whole(_all_pungs),
        needs=F.STANDARD | F.PUNGS_4,
        decided=True,
    ),
    Fan(
        "half_flush",
        "混一色",
        "混一色",
        "Half flush",
        6,
        _flush(honors=True),
        excludes=_not_counted("one_voided_suit"),
        needs=F.ONE_SUIT | F.HONORS,
        decided=True,
    ),
    Fan(
        "mixed_shifted_chows",
        "三色三步高",
        "三色三步高",
        "Mixed shifted chows",
        6,
        _combination("chows", 3, lambda t: _three_suits(t) and _steps(_ranks(t), 1)),
        combination=True,
        needs=F.CHOWS_3 | F.THREE_SUITS,
    ),
    Fan(
        "all_types",
        "五门齐",
        "五門齊",
        "All types",
        6,
        _whole(_all_types),
        needs=F.THREE_SUITS | F.WINDS | F.DRAGONS,
        decided=True,
    ),
    Fan(
        "melded_hand",
        "全求人",
        "全求人",
        "Melded hand",
        6,
        _whole(_melded_hand),
        excludes=_not_counted("single_wait"),
        needs=F.STANDARD | F.EXPOSED_MELDS_4 | F.BY_DISCARD,
        decided=True,
    ),
    Fan(
        "two_concealed_kongs",
        "双暗杠",
        "雙暗槓",
        "Two concealed kongs",
        6,
        _kongs(2, False),
        excludes=_not_counted("concealed_kong", "two_concealed_pungs"),
        needs=F.KONGS_2,
    ),
    Fan(
        "two_dragon_pungs",
        "双箭刻",
        "雙箭刻",
        "Two dragon pungs",
        6,
        _combination("pungs", 2, lambda t: all(is_dragon(tile) for tile in t)),
        combination=True,
        excludes=_not_counted("dragon_pung"),
        needs=F.DRAGON_PUNGS_2,
    ),
    # 5: not one of the rule book's 81, whose account-once would make it a concealed kong (2)
    # and a melded kong (1); the current calculator (and PyMahjongGB) count the pair as one fan
    # of 5, and where the rule book and PyMahjongGB part, the current calculator settles it.
    Fan(
        "melded_and_concealed_kong",
        "明暗杠",
        "明暗槓",
        "A melded and a concealed kong",
        5,
        _melded_and_concealed_kong,
        excludes=_not_counted("concealed_kong", "melded_kong"),
        needs=F.KONGS_2,
    ),
    # 4
    Fan(
        "outside_hand",
        "全带幺",
        "全帶么",
        "Outside hand",
        4,
        _every_group(_outside),
        needs=F.STANDARD | F.TERMINAL_OR_HONOR,
    ),
    Fan(
        "fully_concealed_hand",
        "不求人",
        "不求人",
        "Fully concealed hand",
        4,
        _no_melds(by_discard=False),
        excludes=_not_counted("self_drawn"),
        needs=F.SETS | F.NO_EXPOSED_MELDS | F.SELF_DRAWN,
        decided=True,
    ),
    Fan(
        "two_melded_kongs",
        "双明杠",
        "雙明槓",
        "Two melded kongs",
        4,
        _kongs(2, True),
        excludes=_not_counted("melded_kong"),
        needs=F.KONGS_2,
    ),
    Fan(
        "last_copy",
        "和绝张",
        "和絕張",
        "Last tile",
        4,
        _whole(lambda f: f.context.last_copy),
        earned=_winning_tile,
        needs=F.LAST_COPY,
        decided=True,
    ),
    # 2
    Fan(
        "dragon_pung",
        "箭刻",
        "箭刻",
        "Dragon pung",
        2,
        _per_pung(is_dragon),
        needs=F.DRAGON_PUNG,
    ),
    Fan(
        "prevalent_wind",
        "圈风刻",
        "圈風刻",
        "Prevalent wind",
        2,
        _wind_pung(_prevalent),
        absorbs=_ITS_PUNG_OF_AN_HONOR,
        needs=F.WIND_PUNG,
    ),
    Fan(
        "seat_wind",
        "门风刻",
        "門風刻",
        "Seat wind",
        2,
        _wind_pung(_seat),
        absorbs=_ITS_PUNG_OF_AN_HONOR,
        needs=F.WIND_PUNG,
    ),
    Fan(
        "concealed_hand",
        "门前清",
        "門前清",
        "Concealed hand",
        2,
        _no_melds(by_discard=True),
        needs=F.SETS | F.NO_EXPOSED_MELDS | F.BY_DISCARD,
        decided=True,
    ),
    Fan(
        "all_chows",
        "平和",
        "平和",
        "All chows",
        2,
        _all_chows,
        excludes=_not_counted("no_honors"),
        needs=F.SETS | F.NO_PUNGS | F.NO_HONORS,  # chows and a numbered pair: no honors
    ),
    Fan("tile_hog", "四归一", "四歸一", "Tile hog", 2, _tile_hog, earned=_hog_tiles, needs=F.HOG),
    Fan(
        "double_pung",
        "双同刻",
        "雙同刻",
        "Double pung",
        2,
        _combination("pungs", 2, lambda t: t[1] < EAST and rank(t[0]) == rank(t[1])),
        combination=True,
        needs=F.PUNGS_2,
    ),
    Fan(
        "two_concealed_pungs",
        "双暗刻",
        "雙暗刻",
        "Two concealed pungs",
        2,
        _concealed(2),
        needs=F.CONCEALED_PUNGS_2,
    ),
    Fan("concealed_kong", "暗杠", "暗槓", "Concealed kong", 2, _kongs(1, False), needs=F.KONG),
    Fan(
        "all_simples",
        "断幺",
        "斷么",
        "All simples",
        2,
        _all_tiles(lambda tile: not is_terminal(tile) and not is_honor(tile)),
        excludes=_not_counted("no_honors"),
        needs=F.SIMPLES_ONLY | F.TILE_SHAPE,
        decided=True,
    ),
    # 1
    Fan(
        "pure_double_chow",
        "一般高",
        "一般高",
        "Pure double chow",
        1,
        _combination("chows", 2, lambda t: _same_suit(t) and t[0] == t[1]),
        combination=True,
        needs=F.CHOWS_2,
    ),
    Fan(
        "mixed_double_chow",
        "喜相逢",
        "喜相逢",
        "Mixed double chow",
        1,
        _combination("chows", 2, lambda t: suit(t[0]) != suit(t[1]) and rank(t[0]) == rank(t[1])),
        combination=True,
        needs=F.CHOWS_2,
    ),
    Fan(
        "short_straight",
        "连六",
        "連六",
        "Short straight",
        1,
        _combination("chows", 2, lambda t: _same_suit(t) and t[1] - t[0] == 3),
        combination=True,
        needs=F.CHOWS_2,
    ),
    Fan(
        "two_terminal_chows",
        "老少副",
        "老少副",
        "Two terminal chows",
        1,
        _combination("chows", 2, lambda t: _same_suit(t) and _ranks(t) == [1, 7]),
        combination=True,
        needs=F.CHOWS_2,
    ),
    Fan(
        PUNG_19,
        "幺九刻",
        "么九刻",
        "Pung of terminals or honors",
        1,
        _per_pung(lambda tile: is_terminal(tile) or is_wind(tile)),
        needs=F.PUNG | F.TERMINAL_OR_HONOR,
    ),
    Fan("melded_kong", "明杠", "明槓", "Melded kong", 1, _kongs(1, True), needs=F.KONG),
    Fan(
        "one_voided_suit",
        "缺一门",
        "缺一門",
        "One voided suit",
        1,
        _whole(lambda f: len(f.suits) == 2),
        needs=F.TWO_SUITS,
        decided=True,
    ),
    Fan(
        "no_honors",
        "无字",
        "無字",
        "No honors",
        1,
        _whole(lambda f: not any(is_honor(tile) for tile in f.kinds)),
        needs=F.NO_HONORS,
        decided=True,
    ),
    Fan(
        "edge_wait",
        "边张",
        "邊張",
        "Edge wait",
        1,
        _wait("edge"),
        earned=_wait_group,
        needs=F.SETS,
    ),
    Fan(
        "closed_wait",
        "嵌张",
        "嵌張",
        "Closed wait",
        1,
        _wait("closed"),
        earned=_wait_group,
        needs=F.SETS,
    ),
    Fan(
        "single_wait",
        "单钓将",
        "單釣將",
        "Single wait",
        1,
        _wait("single"),
        earned=_wait_group,
        needs=F.SETS,
    ),
    Fan(
        "self_drawn",
        "自摸",
        "自摸",
        "Self-drawn",
        1,
        _whole(lambda f: not f.context.by_discard),
        earned=_winning_tile,
        needs=F.SELF_DRAWN,
        decided=True,
    ),
)
"""The fan of a hand's tiles and win, highest first; flowers (`FLOWER`) are counted apart."""

FLOWER = Fan("flower_tiles", "花牌", "花牌", "Flower tiles", 1, lambda facts: _NONE)
"""花牌: 1 fan a flower or season (option `flowers`), never toward the 8-fan minimum."""

BY_ID: dict[str, Fan] = {fan.id: fan for fan in (*FANS, FLOWER)}
ELEMENTS: tuple[Element, ...] = tuple(fan.element for fan in FANS)


FAMILY_FANS: dict[str, tuple[tuple[str, Combination], ...]] = {
    family: tuple(
        (fan.id, fan.predicate)
        for fan in FANS
        if isinstance(fan.predicate, Combination) and fan.predicate.family == family
    )
    for family in ("chows", "pungs")
}
"""Each family's combination fan, in table order."""
_FAMILY_MEMO: dict[str, dict[tuple[int, ...], tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]]]
_FAMILY_MEMO = {"chows": {}, "pungs": {}}
_GROUP_MEMO: dict[str, dict[tuple[int, ...], tuple[str, ...]]] = {"chows": {}, "pungs": {}}


def family_places(
    family: str, tiles: tuple[int, ...]
) -> tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]:
    """Every combination fan of the family that the family's lowest tiles (in order) match,
    with the places of its matches among them."""
    # One look-up for all of a family's fans rather than a call and a look-up for each (a
    # reading with two chows ran six): a fan matching implies the bits it needs
    # (tests/test_mcr_features.py), so those the bits rule out find nothing here either.
    memo = _FAMILY_MEMO[family]
    found = memo.get(tiles)
    if found is None:
        # A new family is looked up again by its suits relabelled in order (`_relabelled`),
        # which its matches do not depend on: a third of the bench's new families are known
        # so (255 new of 533 in 500 hands, 184 new so), and a new one costs a look-up for
        # each of its groups and every fan's test on each new group. With each new group's
        # fan tested by size alone: 481,140 to 475,742 instructions a hand.
        normal = _relabelled(tiles)
        found = memo.get(normal)
        if found is None:
            found = remember(memo, normal, _family_places(family, normal))
        remember(memo, tiles, found)
    return found


def _suit_shifts(suits: int) -> tuple[int, int, int, int]:
    """What each suit's tiles (honors last, never moved) lose when the numbered suits held,
    `suits` (a bit a suit), are relabelled 0, 1, 2 in order."""
    shifts = [0, 0, 0, 0]
    label = 0
    for suit_held in range(3):
        if suits >> suit_held & 1:
            shifts[suit_held] = 9 * (suit_held - label)
            label += 1
    return shifts[0], shifts[1], shifts[2], shifts[3]


_SUIT_SHIFTS = tuple(_suit_shifts(suits) for suits in range(8))


def _relabelled(tiles: tuple[int, ...]) -> tuple[int, ...]:
    """The tiles with their numbered suits relabelled 0, 1, 2 in the order they come (tiles
    in order keep it): every combination test reads whether tiles share a suit, whether three
    are of the three suits, ranks and the honors, never which suit a tile is of."""
    suits = 0
    for tile in tiles:
        if tile < EAST:
            suits |= 1 << tile // 9
    shifts = _SUIT_SHIFTS[suits]
    return tuple([tile - shifts[tile // 9] for tile in tiles])


def _family_places(
    family: str, tiles: tuple[int, ...]
) -> tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]:
    # A family's tiles are new on about one reading in two of fresh hands, but the two, three
    # or four of them that one fan combines far less often: the fan those tiles form are kept
    # by them (at most a few thousand pairs and triples), so that a new family costs a
    # look-up for each of its groups rather than every fan's test on each.
    # Each group's places and the getter of its tiles (`itemgetter`, C speed) are made once
    # for each number of sets (`_GROUPS`), rather than `combinations` and a list of the tiles
    # for each group on every new family (a new family cost about 38k instructions, and the
    # bench's 500 hands meet 184): 474,504 to 464,423 instructions a hand.
    groups, by_size = _GROUP_MEMO[family], _FANS_BY_SIZE[family]
    by_fan: dict[str, list[tuple[int, ...]]] = {}
    for size, places, tiles_of in _GROUPS[len(tiles)]:
        group = tiles_of(tiles)
        names = groups.get(group)
        if names is None:
            listed = list(group)
            names = tuple([name for name, test in by_size[size] if test(listed)])
            remember(groups, group, names)
        for name in names:
            found = by_fan.get(name)
            if found is None:
                by_fan[name] = [places]
            else:
                found.append(places)
    return tuple([(name, tuple(places)) for name, places in by_fan.items()])


_GROUPS: tuple[
    tuple[tuple[int, tuple[int, ...], Callable[[tuple[int, ...]], tuple[int, ...]]], ...], ...
]
_GROUPS = tuple(
    tuple(
        (size, places, itemgetter(*places))
        for size in range(2, min(4, sets) + 1)
        for places in combinations(range(sets), size)
    )
    for sets in range(5)
)
"""For each number of sets in a family, its groups of two to four: their size, their places,
and the getter of their tiles (in the order the combinations come)."""


_FANS_BY_SIZE: dict[str, dict[int, tuple[tuple[str, Callable[[Sequence[int]], bool]], ...]]] = {
    family: {
        size: tuple(
            (name, predicate.test)
            for name, predicate in FAMILY_FANS[family]
            if predicate.size == size
        )
        for size in (2, 3, 4)
    }
    for family in ("chows", "pungs")
}
"""Each family's combination fan by the number of sets they combine, in table order."""


WAIT_FANS: dict[str, str] = {
    fan.predicate.position: fan.id for fan in FANS if isinstance(fan.predicate, WaitFan)
}
"""Each wait position's fan (edge, closed, single), which the engine reads at once."""
