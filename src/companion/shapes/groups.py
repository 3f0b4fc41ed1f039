"""What a reading is made of: groups, the winning tile's role, the winning shapes, and readings.

Plain values only; the per-suit tables (`blocks`), readings (`readings`) and waits (`waits`)
build on them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from companion.hand import MeldKind
from companion.tiles import Tile, format_tiles

TILES = tuple(Tile)
_set_attribute = object.__setattr__
"""Every tile by its number, for turning a kind back into its `Tile` without a call."""


class GroupKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    SINGLE = "single"
    """One tile of Thirteen Orphans."""

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow


@dataclass(frozen=True, slots=True)
class Group:
    """A set, a pair, or a single orphan in a reading.

    `concealed` as the rules have it: not declared (a concealed kong is concealed) and, on a discard
    win, not completed by the winning tile.
    """

    kind: GroupKind
    tile: Tile
    """The lowest tile of the group."""
    concealed: bool
    meld: MeldKind | None = None
    """The declared group this came from; None for a group read from the concealed tiles."""
    text: str = field(init=False, repr=False, compare=False)
    """Its MPSZ (`777z`, `123m`): made with the group, since every result shows its groups."""

    def __post_init__(self) -> None:
        key = (self.kind, self.tile)
        text = _GROUP_TEXT.get(key)
        if text is None:
            tile = self.tile
            if self.kind is GroupKind.CHOW and (tile >= Tile.EAST or tile % 9 > 6):
                text = ""  # no such chow: the tables of groups on every tile hold it unused
            else:
                text = _GROUP_TEXT[key] = format_tiles(self.tiles)
        _set_attribute(self, "text", text)

    @property
    def declared(self) -> bool:
        return self.meld is not None

    @property
    def tiles(self) -> tuple[Tile, ...]:
        tile = self.tile
        if self.kind is GroupKind.CHOW:
            return (tile, TILES[tile + 1], TILES[tile + 2])
        return (tile,) * _GROUP_SIZE[self.kind]

    @property
    def is_set(self) -> bool:
        return self.kind in (GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG)

    @property
    def is_pung_or_kong(self) -> bool:
        return self.kind in (GroupKind.PUNG, GroupKind.KONG)

    def __str__(self) -> str:
        return self.text


_GROUP_TEXT: dict[tuple[GroupKind, Tile], str] = {}
"""The MPSZ of each kind of group on each tile, made once (a few hundred in all)."""
_GROUP_SIZE = {
    GroupKind.CHOW: 3,
    GroupKind.PUNG: 3,
    GroupKind.KONG: 4,
    GroupKind.PAIR: 2,
    GroupKind.SINGLE: 1,
}


def _groups_on_every_tile(kind: GroupKind, concealed: bool) -> tuple[Group, ...]:
    return tuple(Group(kind, tile, concealed) for tile in TILES)


# Groups are immutable, so each undeclared one is made once at import and shared by every
# reading: building a frozen dataclass costs more than the rest of a memo miss.
CONCEALED_CHOW = _groups_on_every_tile(GroupKind.CHOW, True)
CONCEALED_PUNG = _groups_on_every_tile(GroupKind.PUNG, True)
CONCEALED_PAIR = _groups_on_every_tile(GroupKind.PAIR, True)
CONCEALED_SINGLE = _groups_on_every_tile(GroupKind.SINGLE, True)
EXPOSED: dict[GroupKind, tuple[Group, ...]] = {
    kind: _groups_on_every_tile(kind, False) for kind in GroupKind
}
"""By kind and lowest tile: the undeclared group completed by a discard (not concealed)."""


class WinRole(Enum):
    """What the winning tile did in a reading."""

    PAIR = "pair"
    PUNG = "pung"
    TWO_SIDED = "two_sided"
    """One end of a chow whose other end was also a wait (45 waiting on 3 or 6)."""
    CLOSED = "closed"
    """The middle tile of a chow."""
    EDGE = "edge"
    """The 3 of 1-2-3 or the 7 of 7-8-9."""
    SINGLE = "single"
    """A Thirteen Orphans tile that is not the pair."""

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow


class Shape(Enum):
    STANDARD = "standard"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    SEVEN_PAIRS_TRIPLET = "seven_pairs_triplet"
    SEVEN_PAIRS = "seven_pairs"

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow


@dataclass(frozen=True, slots=True)
class Structure:
    """The winning shapes a profile accepts."""

    sets: int = 4
    thirteen_orphans: bool = False
    seven_pairs_triplet: bool = False
    seven_pairs: bool = False
    """Seven pairs of seven different kinds, no declared group (a house rule in `hk`)."""


FOUR_SETS = Structure(sets=4, thirteen_orphans=True)
"""Singapore: four sets and a pair, or Thirteen Orphans."""
FIVE_SETS = Structure(sets=5, seven_pairs_triplet=True)
"""Taiwan: five sets and a pair, or seven different pairs and a triplet."""


class Reading(NamedTuple):
    """One way to read a complete hand, with the winning tile's place in it. (A named tuple:
    immutable like the groups, and made for every hand scored at a tuple's cost.)"""

    shape: Shape
    groups: tuple[Group, ...]
    """Declared groups in the order given, then concealed sets by tile, then the pair."""
    winning_index: int
    role: WinRole

    @property
    def winning_group(self) -> Group:
        return self.groups[self.winning_index]

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(group for group in self.groups if group.is_set)

    @property
    def pair(self) -> Group | None:
        pairs = [group for group in self.groups if group.kind is GroupKind.PAIR]
        return pairs[0] if len(pairs) == 1 else None

    def __str__(self) -> str:
        return " ".join(str(group) for group in self.groups)


def win_role(group: Group, winning_tile: Tile) -> WinRole:
    """The role of `winning_tile` in `group`, which must contain it."""
    if group.kind is GroupKind.PAIR:
        return WinRole.PAIR
    if group.kind is GroupKind.SINGLE:
        return WinRole.SINGLE
    if group.kind is not GroupKind.CHOW:
        return WinRole.PUNG
    if winning_tile == group.tile + 1:
        return WinRole.CLOSED
    rank = group.tile.rank
    if (rank == 1 and winning_tile == group.tile + 2) or (rank == 7 and winning_tile == group.tile):
        return WinRole.EDGE
    return WinRole.TWO_SIDED


CHOW_ROLES = tuple(
    tuple(win_role(Group(GroupKind.CHOW, tile, True), TILES[tile + place]) for place in range(3))
    for tile in TILES[:25]
)
"""By a chow's lowest tile and the winning tile's place in it (0-2): the winning tile's role,
as `win_role` has it (made once: the hot path looks it up). Honors are left out."""


CHOWS, PUNGS, CONCEALED_PUNGS, KONGS, DRAGON_PUNGS, WIND_PUNGS = (1 << 4 * f for f in range(6))
"""The fields of a `summary`, four bits each: chows; pungs and kongs; those of them concealed;
kongs; dragon pungs and kongs; wind pungs and kongs."""
SUMMARY_FIELD = 15
"""A field's mask, once shifted down."""


def summary(groups: Iterable[Group]) -> int:
    """How many sets of each sort the groups hold, as the fields of one integer (`CHOWS`...).
    Summaries add: a reading's is the sum of its blocks' and its declared groups', so the
    per-block tables keep one per decomposition and no reading's groups are walked."""
    found = 0
    for group in groups:
        kind = group.kind
        if kind is GroupKind.CHOW:
            found += CHOWS
        elif kind is GroupKind.PUNG or kind is GroupKind.KONG:
            found += PUNGS
            if kind is GroupKind.KONG:
                found += KONGS
            if group.concealed:
                found += CONCEALED_PUNGS
            if group.tile >= Tile.WHITE:
                found += DRAGON_PUNGS
            elif group.tile >= Tile.EAST:
                found += WIND_PUNGS
    return found


def declared_group(kind: MeldKind, first: Tile) -> Group:
    """The group a declared meld stands for in every reading."""
    if kind is MeldKind.CHOW:
        return Group(GroupKind.CHOW, first, False, kind)
    if kind is MeldKind.PUNG:
        return Group(GroupKind.PUNG, first, False, kind)
    return Group(GroupKind.KONG, first, kind is MeldKind.CONCEALED_KONG, kind)
