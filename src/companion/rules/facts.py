"""The facts of one reading of one hand, as predicates ask them, and its feature bits.

`Feature` (`companion.rules.features`) names what a pattern may need of a reading before it can
match (a dragon pung, one suit, a self-draw, an event...). `Facts.features` holds the bits a
reading has: the hand's, worked out once per hand (`HandFacts`), and the reading's own. A
compiled pattern table runs only the predicates whose needs the bits meet
(`companion.rules.compiled.CompiledTable`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.context import Event, WinContext, WinType
from companion.hand import Hand, MeldKind
from companion.rules.features import (
    CONCEALED_PUNG_BITS,
    DRAGON_COUNT_BITS,
    EVENT_BITS,
    ROLE_BITS,
    SHAPE_BITS,
    WIND_COUNT_BITS,
    Feature,
)
from companion.rules.options import Options
from companion.rules.patterns import Match, needs
from companion.shapes import Group, GroupKind, Reading, Shape
from companion.tiles import KINDS, Suit, Tile, Wind, format_tiles


def _kind_mask(kinds: frozenset[int]) -> int:
    return sum(1 << kind for kind in kinds)


_KIND_BIT = tuple(1 << kind for kind in range(KINDS))
"""Each playing kind as one bit: a hand's kinds are one integer, tested with masks."""
_TERMINAL_MASK = _kind_mask(frozenset(kind for kind in range(27) if kind % 9 in (0, 8)))
_HONOR_MASK = _kind_mask(frozenset(range(27, KINDS)))
_GREEN_MASK = _kind_mask(frozenset((Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN)))
_SUIT_MASKS = tuple(_kind_mask(frozenset(range(9 * suit, 9 * suit + 9))) for suit in range(3))
"""The kinds of characters, circles and bamboo."""
_M_MASK, _P_MASK, _S_MASK = _SUIT_MASKS
_SET_KINDS = frozenset((GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG))
_SUITS_OF: dict[int, frozenset[Suit]] = {}
"""The suits present, by the hand's numbered-suit presence bits (eight sets in all)."""


class HandFacts:
    """What every reading of one hand shares, computed once per hand; `features` its bits
    (with the win's context, when given)."""

    __slots__ = (
        "_counts",
        "_kinds",
        "animals",
        "bonus",
        "features",
        "flowers",
        "hand",
        "has_honors",
        "kind_mask",
        "suit_bits",
    )

    def __init__(
        self, hand: Hand, context: WinContext | None = None, context_bits: int | None = None
    ) -> None:
        """`context_bits`: `context_features(context)`, when the caller has it already."""
        self.hand = hand
        self._counts: list[int] | None = None
        self._kinds: frozenset[Tile] | None = None
        kinds = set(hand.concealed)
        for meld in hand.melds:
            kinds.update(meld.tiles)
        bit = _KIND_BIT
        self.kind_mask = mask = sum([bit[kind] for kind in kinds])
        """The hand's playing kinds, concealed and declared, as bits (`_KIND_BIT`)."""
        self.suit_bits = (
            (mask & _M_MASK != 0) | (mask & _P_MASK != 0) << 1 | (mask & _S_MASK != 0) << 2
        )
        """Which numbered suits the hand holds: bit 0 characters, 1 circles, 2 bamboo."""
        self.has_honors = mask & _HONOR_MASK != 0
        bonus = hand.bonus
        self.bonus = bonus
        if bonus:
            self.flowers = tuple([tile for tile in bonus if Tile.PLUM <= tile <= Tile.WINTER])
            self.animals = tuple([tile for tile in bonus if tile >= Tile.CAT])
        else:
            self.flowers = self.animals = ()
        features = self._features()
        if context_bits is None and context is not None:
            context_bits = context_features(context)
        if context_bits is not None:
            features |= context_bits
        self.features = features

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

    def _features(self) -> int:
        mask = self.kind_mask
        bits = 0
        flowers = len(self.flowers)
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
        if self.animals:
            bits |= Feature.ANIMAL
            if len(set(self.animals)) == 4:
                bits |= Feature.ANIMALS_4
        bits |= Feature.HONORS if self.has_honors else Feature.NO_HONORS
        suits = self.suit_bits
        if suits in (1, 2, 4):
            bits |= Feature.ONE_SUIT
        elif not suits:
            bits |= Feature.NO_SUIT
        if not mask & ~_TERMINAL_MASK:
            bits |= Feature.TERMINALS_ONLY | Feature.TERMINALS_HONORS_ONLY
        elif not mask & ~(_TERMINAL_MASK | _HONOR_MASK):
            bits |= Feature.TERMINALS_HONORS_ONLY
        if not mask & ~_GREEN_MASK:
            bits |= Feature.GREEN_ONLY
        melds = self.hand.melds
        if not melds:
            bits |= Feature.NO_MELDS | Feature.ONLY_CONCEALED_KONGS
        elif all(meld.kind is MeldKind.CONCEALED_KONG for meld in melds):
            bits |= Feature.ONLY_CONCEALED_KONGS
        return bits


def context_features(context: WinContext) -> int:
    """The feature bits of the win's context alone: how it was won, its events, whether the
    table's discards are known. The same for every hand won in that context."""
    bits = Feature.SELF_DRAWN if context.win is WinType.SELF_DRAW else Feature.BY_DISCARD
    events = context.events
    if events:
        for event in events:
            bits |= EVENT_BITS[event]
        if Event.HEAVENLY in events or Event.EARTHLY in events:
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
    ) -> None:
        """`waits`: the hand's waits before its winning tile, or what reads them when a
        predicate first asks (few do, and reading them costs as much as the readings)."""
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
        features = SHAPE_BITS[shape] | ROLE_BITS[reading.role] | shared.features
        chows = pungs = dragons = winds = kongs = concealed_pungs = 0
        seat_tile, round_tile = _WIND_TILE[context.seat], _WIND_TILE[context.round]
        for group in groups:
            kind = group.kind
            if kind is _CHOW:
                chows += 1
            elif kind is _PUNG or kind is _KONG:
                pungs += 1
                tile = group.tile
                if tile >= _EAST:
                    if tile >= _WHITE:
                        dragons += 1
                    else:
                        winds += 1
                        if tile is seat_tile:
                            features |= Feature.SEAT_WIND_PUNG
                        if tile is round_tile:
                            features |= Feature.ROUND_WIND_PUNG
                if kind is _KONG:
                    kongs += 1
                if group.concealed:
                    concealed_pungs += 1
        features |= DRAGON_COUNT_BITS[dragons] | WIND_COUNT_BITS[winds]
        if concealed_pungs >= 2:
            features |= CONCEALED_PUNG_BITS[min(concealed_pungs, 5)]
        if kongs:
            features |= Feature.KONG if kongs < 4 else Feature.KONG | Feature.KONGS_4
        if chows >= 3:
            features |= Feature.CHOWS_3 if chows == 3 else Feature.CHOWS_3 | Feature.CHOWS_4
        if shape is Shape.STANDARD:
            if not pungs:
                features |= Feature.ALL_CHOWS
            if not chows:
                features |= Feature.ALL_PUNGS
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


_CHOW, _PUNG, _KONG = GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG
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
