"""The facts of one reading of one hand, as predicates ask them, and its feature bits.

`Feature` (`companion.rules.features`) names what a pattern may need of a reading before it can
match (a dragon pung, one suit, a self-draw, a circumstance...). `Facts.features` holds the bits a
reading has: the hand's, worked out once per hand (`HandFacts`), and the reading's own. A
compiled pattern table runs only the predicates whose needs the bits meet
(`companion.rules.compiled.CompiledTable`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.context import Circumstance, WinContext, WinType
from companion.hand import Hand, MeldKind
from companion.rules.features import (
    CIRCUMSTANCE_BITS,
    CONCEALED_PUNG_BITS,
    DRAGON_COUNT_BITS,
    ROLE_BITS,
    SHAPE_BITS,
    WIND_COUNT_BITS,
    Feature,
)
from companion.rules.options import Options
from companion.rules.patterns import Match, needs
from companion.shapes import Group, GroupKind, Reading, Shape, WinRole, block_keys
from companion.shapes.blocks import BLOCK_OF, SIMPLES, UNIT, keys_with_melds
from companion.shapes.groups import SUMMARY_FIELD, summary
from companion.tiles import KINDS, Suit, Tile, Wind, format_tiles

_KIND_BIT = tuple(1 << kind for kind in range(KINDS))
"""Each playing kind as one bit: a hand's kinds are one integer, tested with masks."""
_SUITS_OF: dict[int, frozenset[Suit]] = {}
"""The suits present, by the hand's numbered-suit presence bits (eight sets in all)."""


class HandFacts:
    """What every reading of one hand shares, computed once per hand; `features` its bits
    (with the win's context, when given: `hand_features`)."""

    __slots__ = (
        "_counts",
        "_kind_mask",
        "_kinds",
        "animals",
        "bonus",
        "features",
        "flowers",
        "hand",
        "has_honors",
        "suit_bits",
    )

    def __init__(
        self,
        hand: Hand,
        context: WinContext | None = None,
        context_bits: int | None = None,
        keys: Sequence[int] | None = None,
        features: int | None = None,
    ) -> None:
        """`context_bits`: `context_features(context)`, `keys`: the concealed tiles'
        `block_keys`, `features`: `hand_features`, when the caller has them already."""
        self.hand = hand
        self._counts: list[int] | None = None
        self._kinds: frozenset[Tile] | None = None
        self._kind_mask: int | None = None
        all_keys = _all_keys(hand, block_keys(hand.concealed) if keys is None else keys)
        self.suit_bits = _suit_bits(all_keys)
        """Which numbered suits the hand holds: bit 0 characters, 1 circles, 2 bamboo."""
        self.has_honors = all_keys[3] != 0
        bonus = self.bonus = hand.bonus
        if bonus:
            self.flowers = tuple([tile for tile in bonus if Tile.PLUM <= tile <= Tile.WINTER])
            self.animals = tuple([tile for tile in bonus if tile >= Tile.CAT])
        else:
            self.flowers = self.animals = ()
        if features is None:
            if context_bits is None and context is not None:
                context_bits = context_features(context)
            features = hand_features(hand, keys, context_bits)
        self.features = features

    @property
    def kind_mask(self) -> int:
        """The hand's playing kinds, concealed and declared, as bits (`1 << kind`)."""
        found = self._kind_mask
        if found is None:
            found = 0
            bit = _KIND_BIT
            for tile in self.hand.concealed:
                found |= bit[tile]
            for meld in self.hand.melds:
                for tile in meld.tiles:
                    found |= bit[tile]
            self._kind_mask = found
        return found

    @property
    def kinds(self) -> frozenset[Tile]:
        """The playing kinds of the hand, concealed and declared."""
        found = self._kinds
        if found is None:
            kinds = set(self.hand.concealed)
            for meld in self.hand.melds:
                kinds.update(meld.tiles)
            found = self._kinds = frozenset(kinds)
        return found

    @property
    def suits(self) -> frozenset[Suit]:
        """The numbered suits of the hand."""
        found = _SUITS_OF.get(self.suit_bits)
        if found is None:
            found = _SUITS_OF[self.suit_bits] = frozenset(
                Tile(9 * suit).suit for suit in range(3) if self.suit_bits >> suit & 1
            )
        return found

    @property
    def counts(self) -> list[int]:
        """Counts of every playing kind, concealed and declared."""
        if self._counts is None:
            self._counts = self.hand.counts()
        return self._counts


def _all_keys(hand: Hand, keys: Sequence[int]) -> Sequence[int]:
    """The block keys of the hand's playing tiles, concealed and declared."""
    return keys_with_melds(keys, hand.melds) if hand.melds else keys


def _suit_bits(keys: Sequence[int]) -> int:
    return (keys[0] != 0) | (keys[1] != 0) << 1 | (keys[2] != 0) << 2


def hand_features(
    hand: Hand, keys: Sequence[int] | None = None, context_bits: int | None = None
) -> int:
    """The feature bits every reading of the hand shares (with `context_bits`, those of the
    win's context), read off the block keys of its tiles (`keys`: the concealed tiles',
    when the caller has them) with a few masks rather than tile by tile."""
    if keys is None:
        keys = block_keys(hand.concealed)
    melds = hand.melds
    if melds:
        keys = _all_keys(hand, keys)
    key0, key1, key2, key3 = keys
    numbered = key0 | key1 | key2
    bits = _KIND_FEATURES[
        (key0 != 0)
        | (key1 != 0) << 1
        | (key2 != 0) << 2
        | (key3 != 0) << 3
        | (not numbered & SIMPLES) << 4
        | (not (key0 | key1 | key2 & _NOT_GREEN_BAMBOO | key3 & _NOT_GREEN_HONORS)) << 5
    ]
    if context_bits is not None:
        bits |= context_bits
    if (
        (key0 | key0 >> 1 | key0 >> 2) & _NINE_LOW == _NINE_LOW
        or (key1 | key1 >> 1 | key1 >> 2) & _NINE_LOW == _NINE_LOW
        or (key2 | key2 >> 1 | key2 >> 2) & _NINE_LOW == _NINE_LOW
    ):
        bits |= Feature.ALL_NINE
    bonus = hand.bonus
    if bonus:
        bits |= _bonus_features(bonus)
    else:
        bits |= _NO_FLOWER
    if not melds:
        bits |= _CONCEALED
        winning = hand.winning_tile
        # In one suit its key is the three keys or'd, and the winning tile is of that suit.
        if (
            bits & _ONE_SUIT
            and not key3
            and winning is not None
            and numbered - UNIT[winning] == _NINE_GATES_KEY
        ):
            bits |= Feature.NINE_GATES
    elif all(meld.kind is MeldKind.CONCEALED_KONG for meld in melds):
        bits |= Feature.ONLY_CONCEALED_KONGS
    return bits


def _kind_features(index: int) -> int:
    """The bits of a hand's kinds, by `hand_features`' index: bits 0-2 whether it holds each
    numbered suit, 3 honors, 4 no simples (2-8), 5 green tiles only."""
    bits = Feature.HONORS if index & 8 else Feature.NO_HONORS
    suits = (index & 7).bit_count()
    if suits == 1:
        bits |= Feature.ONE_SUIT
    elif not suits:
        bits |= Feature.NO_SUIT
    if index & 16:
        bits |= (
            Feature.TERMINALS_HONORS_ONLY
            if index & 8
            else Feature.TERMINALS_ONLY | Feature.TERMINALS_HONORS_ONLY
        )
    if index & 32:
        bits |= Feature.GREEN_ONLY
    return bits


_KIND_FEATURES = tuple(_kind_features(index) for index in range(64))
_NINE_LOW = sum(1 << 3 * offset for offset in range(9))
"""The low bit of each of a numbered block's nine kinds."""
_NINE_GATES_KEY = sum(
    count << 3 * offset for offset, count in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3))
)
"""A numbered block's key holding 1112345678999."""
_NO_FLOWER, _ONE_SUIT = int(Feature.NO_FLOWER), int(Feature.ONE_SUIT)
_CONCEALED = Feature.NO_MELDS | Feature.ONLY_CONCEALED_KONGS


def _bonus_features(bonus: Sequence[Tile]) -> int:
    bits = 0
    flowers = len([tile for tile in bonus if Tile.PLUM <= tile <= Tile.WINTER])
    if flowers:
        bits |= Feature.FLOWER
        if flowers >= 4:
            bits |= Feature.FLOWERS_4
            if flowers == 7:
                bits |= Feature.FLOWERS_7
            elif flowers == 8:
                bits |= Feature.FLOWERS_8
    else:
        bits |= Feature.NO_FLOWER
    animals = {tile for tile in bonus if tile >= Tile.CAT}
    if animals:
        bits |= Feature.ANIMAL
        if len(animals) == 4:
            bits |= Feature.ANIMALS_4
    return bits


def _block_mask(kinds: Sequence[int]) -> int:
    """The count bits of these kinds in their block's key."""
    return sum(7 << 3 * (kind - 9 * BLOCK_OF[kind]) for kind in kinds)


_NOT_GREEN_BAMBOO = _block_mask([Tile.S1, Tile.S5, Tile.S7, Tile.S9])
_NOT_GREEN_HONORS = _block_mask([kind for kind in range(27, KINDS) if kind != Tile.GREEN])


def context_features(context: WinContext) -> int:
    """The feature bits of the win's context alone: how it was won, its circumstances, whether the
    table's discards are known. The same for every hand won in that context."""
    bits = Feature.SELF_DRAWN if context.win is WinType.SELF_DRAW else Feature.BY_DISCARD
    circumstances = context.circumstances
    if circumstances:
        for circumstance in circumstances:
            bits |= CIRCUMSTANCE_BITS[circumstance]
        if Circumstance.HEAVENLY in circumstances or Circumstance.EARTHLY in circumstances:
            bits |= Feature.DISCARDS_KNOWN
    if context.table_discards is not None:
        bits |= Feature.DISCARDS_KNOWN
    return bits


class Facts:
    """Everything a predicate may ask of one reading of one hand.

    `features` is worked out on construction; the reading's groups split by kind (`sets`,
    `chows`, `pungs`, `concealed_sets`, `declared`, `pair`) only when a predicate first asks.
    """

    __slots__ = (
        "_chows",
        "_concealed_pungs",
        "_concealed_sets",
        "_declared",
        "_pair",
        "_pungs",
        "_sets",
        "_shared",
        "_waits",
        "_waits_of",
        "animals",
        "bonus",
        "context",
        "features",
        "flowers",
        "groups",
        "hand",
        "has_honors",
        "options",
        "reading",
        "shape",
    )

    def __init__(
        self,
        hand: Hand,
        reading: Reading,
        context: WinContext,
        waits: tuple[Tile, ...] | Callable[[], tuple[Tile, ...]],
        options: Options,
        shared: HandFacts | None = None,
        features: int | None = None,
    ) -> None:
        """`waits`: the hand's waits before its winning tile, or what reads them when a
        predicate first asks (few do, and reading them costs as much as the readings).
        `features`: the reading's `reading_features`, when the caller has them already."""
        self.hand = hand
        self.reading = reading
        self.context = context
        if isinstance(waits, tuple):
            self._waits: tuple[Tile, ...] | None = waits
            self._waits_of: Callable[[], tuple[Tile, ...]] | None = None
        else:
            self._waits = None
            self._waits_of = waits
        self.options = options
        shape = reading.shape
        self.shape: Shape = shape
        groups = reading.groups
        self.groups: tuple[Group, ...] = groups
        self._sets: tuple[Group, ...] | None = None
        if shared is None:
            shared = HandFacts(hand, context)
        self._shared = shared
        self.has_honors = shared.has_honors
        self.bonus = shared.bonus
        self.flowers = shared.flowers
        self.animals = shared.animals
        if features is None:
            features = reading_features(reading, context, shared.features)
        self.features: int = features

    def _split(self) -> tuple[Group, ...]:
        sets: list[Group] = []
        pairs: list[Group] = []
        chows: list[Group] = []
        pungs: list[Group] = []
        concealed: list[Group] = []
        concealed_pungs: list[Group] = []
        declared: list[Group] = []
        for group in self.groups:
            kind = group.kind
            if kind is GroupKind.PAIR:
                pairs.append(group)
                continue
            if kind is _CHOW:
                chows.append(group)
            elif kind is _PUNG or kind is _KONG:
                pungs.append(group)
                if group.concealed:
                    concealed_pungs.append(group)
            else:
                continue
            sets.append(group)
            if group.concealed:
                concealed.append(group)
            if group.meld is not None:
                declared.append(group)
        self._pair = pairs[0] if len(pairs) == 1 else None
        self._chows = tuple(chows)
        self._pungs = tuple(pungs)
        self._concealed_sets = tuple(concealed)
        self._concealed_pungs = tuple(concealed_pungs)
        self._declared = tuple(declared)
        found = self._sets = tuple(sets)
        return found

    @property
    def sets(self) -> tuple[Group, ...]:
        """The reading's chows, pungs and kongs."""
        found = self._sets
        return self._split() if found is None else found

    @property
    def pair(self) -> Group | None:
        if self._sets is None:
            self._split()
        return self._pair

    @property
    def chows(self) -> tuple[Group, ...]:
        if self._sets is None:
            self._split()
        return self._chows

    @property
    def pungs(self) -> tuple[Group, ...]:
        """Pungs and kongs."""
        if self._sets is None:
            self._split()
        return self._pungs

    @property
    def concealed_sets(self) -> tuple[Group, ...]:
        if self._sets is None:
            self._split()
        return self._concealed_sets

    @property
    def concealed_pungs(self) -> tuple[Group, ...]:
        """The concealed pungs and kongs."""
        if self._sets is None:
            self._split()
        return self._concealed_pungs

    @property
    def declared(self) -> tuple[Group, ...]:
        if self._sets is None:
            self._split()
        return self._declared

    @property
    def counts(self) -> list[int]:
        """Counts of every playing kind, concealed and declared."""
        return self._shared.counts

    @property
    def kinds(self) -> frozenset[Tile]:
        """The playing kinds of the hand, concealed and declared."""
        return self._shared.kinds

    @property
    def kind_mask(self) -> int:
        """The playing kinds of the hand as bits, one per kind (`1 << kind`)."""
        return self._shared.kind_mask

    @property
    def suits(self) -> frozenset[Suit]:
        """The numbered suits of the hand."""
        return self._shared.suits

    @property
    def waits(self) -> tuple[Tile, ...]:
        """The kinds the hand waited on before its winning tile."""
        found = self._waits
        if found is None:
            assert self._waits_of is not None
            found = self._waits = self._waits_of()
        return found

    @property
    def seat(self) -> Wind:
        return self.context.seat


class LaterFacts(Facts):
    """A reading's `Facts`, made on first access of any of them. The scorer hands one to the
    patterns of the reading it keeps when their tiles are found only when asked for (most
    callers never ask), so that a hand whose feature bits decide it makes no `Facts` at all."""

    __slots__ = ("_arguments",)

    def __init__(
        self,
        hand: Hand,
        reading: Reading,
        context: WinContext,
        waits: tuple[Tile, ...] | Callable[[], tuple[Tile, ...]],
        options: Options,
        keys: Sequence[int],
        hand_features: int,
        features: int,
    ) -> None:
        # Facts.__init__ is left for the first access: every slot is unset until then.
        self._arguments = (hand, reading, context, waits, options, keys, hand_features, features)

    def __getattr__(self, name: str) -> Any:
        """Called for an unset slot only, that is before the facts are made: make them."""
        hand, reading, context, waits, options, keys, hand_features, features = self._arguments
        shared = HandFacts(hand, context, keys=keys, features=hand_features)
        Facts.__init__(self, hand, reading, context, waits, options, shared, features)
        return object.__getattribute__(self, name)


def reading_features(reading: Reading, context: WinContext, hand_features: int) -> int:
    """A reading's feature bits: the hand's (`hand_features`), its shape's, its winning tile's
    role's and its groups'. The scorer needs no more of a reading than these to know its
    outcome when its bits decide it, so it works them out without making `Facts` (and for a
    standard reading from its blocks' summaries, `standard_features`)."""
    shape = reading.shape
    features = ROLE_BITS[reading.role] | hand_features
    seat_tile, round_tile = _WIND_TILE[context.seat], _WIND_TILE[context.round]
    for group in reading.groups:
        if group.kind is _PUNG or group.kind is _KONG:
            if group.tile is seat_tile:
                features |= _SEAT_WIND_PUNG
            if group.tile is round_tile:
                features |= _ROUND_WIND_PUNG
    counts = summary(reading.groups)
    if shape is Shape.STANDARD:
        return features | SUMMARY_FEATURES[counts]
    return features | SHAPE_BITS[shape] | _set_features(counts, False)


def standard_features(counts: int, role: WinRole, standard_bits: int) -> int:
    """A standard reading's feature bits from its sets' `summary` and its winning tile's role,
    with `standard_bits`: the hand's `hand_features` and `wind_features`. The same bits as
    `reading_features` finds by walking the reading's groups."""
    return standard_bits | SUMMARY_FEATURES[counts] | ROLE_BITS[role]


def wind_features(hand: Hand, keys: Sequence[int], context: WinContext) -> int:
    """The seat and round wind bits of every standard reading of the hand: its honors are
    read in one way only, so a wind held three times is a pung in each of them."""
    honors = keys[3]
    seat, round_ = _WIND_TILE[context.seat], _WIND_TILE[context.round]
    features = 0
    if (honors >> 3 * (seat - _EAST)) & 7 >= 3:
        features = _SEAT_WIND_PUNG
    if (honors >> 3 * (round_ - _EAST)) & 7 >= 3:
        features |= _ROUND_WIND_PUNG
    for meld in hand.melds:
        if meld.kind is not MeldKind.CHOW:
            tile = meld.tiles[0]
            if tile == seat:
                features |= _SEAT_WIND_PUNG
            if tile == round_:
                features |= _ROUND_WIND_PUNG
    return features


def _set_features(counts: int, standard: bool) -> int:
    """The feature bits of a reading's sets, from their `summary`."""
    chows = counts & SUMMARY_FIELD
    pungs = counts >> 4 & SUMMARY_FIELD
    concealed_pungs = counts >> 8 & SUMMARY_FIELD
    kongs = counts >> 12 & SUMMARY_FIELD
    features = DRAGON_COUNT_BITS[counts >> 16 & SUMMARY_FIELD]
    features |= WIND_COUNT_BITS[counts >> 20 & SUMMARY_FIELD]
    if concealed_pungs >= 2:
        features |= CONCEALED_PUNG_BITS[min(concealed_pungs, 5)]
    if kongs:
        features |= Feature.KONG if kongs < 4 else Feature.KONG | Feature.KONGS_4
    if chows >= 3:
        features |= Feature.CHOWS_3 if chows == 3 else Feature.CHOWS_3 | Feature.CHOWS_4
    if standard:
        features |= Feature.STANDARD
        if not pungs:
            features |= Feature.ALL_CHOWS
        if not chows:
            features |= Feature.ALL_PUNGS
    return features


class _StandardFeatures(dict[int, int]):
    """A standard reading's shape and set bits by its sets' `summary`, each worked out on
    first use: summaries are few (a handful of counts up to five), so this never grows far."""

    def __missing__(self, counts: int) -> int:
        found = self[counts] = _set_features(counts, True)
        return found


SUMMARY_FEATURES = _StandardFeatures()
"""By a standard reading's `summary`: its shape's and sets' feature bits."""


_CHOW, _PUNG, _KONG = GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG
_SEAT_WIND_PUNG, _ROUND_WIND_PUNG = int(Feature.SEAT_WIND_PUNG), int(Feature.ROUND_WIND_PUNG)
_EAST, _WHITE = int(Tile.EAST), int(Tile.WHITE)
_WIND_TILE = {wind: wind.tile for wind in Wind}


def no_reading(facts: Facts) -> tuple[Match, ...]:
    """The predicate of a flower win, which is scored without a reading of the hand."""
    return ()


@needs(0, decided=True)
def match_all(facts: Facts) -> tuple[Match, ...]:
    """One match earned by every group of the reading (for whole-hand patterns)."""
    return (Match(facts.groups),)


def tiles_item(tiles: Sequence[Tile]) -> str:
    return format_tiles(sorted(tiles))
