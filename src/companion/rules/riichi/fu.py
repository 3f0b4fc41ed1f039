"""Fu of one reading, with what made them (`fu_items`)."""

from __future__ import annotations

from typing import NamedTuple

from companion.rules.riichi.facts import RiichiFacts, is_terminal_or_honor
from companion.shapes import GroupKind, Shape, WinRole
from companion.shapes.groups import TILES, Group
from companion.tiles import KINDS, Tile


class FuItem(NamedTuple):
    fu: int
    reason: str
    """`base`, `closed_ron`, `self_draw`, `pung 777z`, `pair 11z`, `wait`, `chiitoitsu`,
    `open_pinfu` (the 10 an open hand of 20 fu is raised by), `pinfu_self_draw`."""

    def to_json(self) -> dict[str, object]:
        return {"fu": self.fu, "for": self.reason}


# Items are immutable values: each is made once and shared by every reading that earns it (a
# reading made a new named tuple and its text for each, about a sixth of a warm hand).
_CHIITOITSU = (FuItem(25, "chiitoitsu"),)
_PINFU_SELF_DRAW = (FuItem(20, "pinfu_self_draw"),)
_BASE = FuItem(20, "base")
_CLOSED_RON = FuItem(10, "closed_ron")
_SELF_DRAW = FuItem(2, "self_draw")
_OPEN_PINFU = FuItem(10, "open_pinfu")
_WAITS = {role: FuItem(2, f"wait {role.value}") for role in WinRole}
_FU_WAITS = frozenset({WinRole.CLOSED, WinRole.EDGE, WinRole.PAIR})


def _pung(kind: GroupKind, tile: int, concealed: bool) -> FuItem:
    fu = 4 if concealed else 2
    if is_terminal_or_honor(tile):
        fu *= 2
    if kind is GroupKind.KONG:
        fu *= 4
    return FuItem(fu, f"{kind.value} {Group(kind, TILES[tile], concealed)}")


_PUNGS = {
    kind: tuple(
        tuple(_pung(kind, tile, concealed) for tile in range(KINDS)) for concealed in (False, True)
    )
    for kind in (GroupKind.PUNG, GroupKind.KONG)
}
"""By a pung's or kong's kind, whether it is concealed, and its tile: its item."""
_PAIR_KIND = GroupKind.PAIR
_SEVEN_PAIRS = Shape.SEVEN_PAIRS
_WHITE, _EAST = int(Tile.WHITE), int(Tile.EAST)


def fu_items(facts: RiichiFacts, pinfu: bool, double_wind_pair_fu: int) -> tuple[FuItem, ...]:
    """What made a reading's fu, before rounding (`rounded_fu`). Fixed: chiitoitsu 25, pinfu
    self-draw 20; an open hand of 20 fu is raised to 30."""
    return reading_fu(
        facts.shape,
        facts.groups,
        facts.role,
        facts.context.by_discard,
        facts.closed,
        facts.seat_tile,
        facts.round_tile,
        pinfu,
        double_wind_pair_fu,
    )[0]


def reading_fu(
    shape: Shape,
    groups: tuple[Group, ...],
    role: WinRole,
    by_discard: bool,
    closed: bool,
    seat_tile: int,
    round_tile: int,
    pinfu: bool,
    double_wind_pair_fu: int,
) -> tuple[tuple[FuItem, ...], int]:
    """`fu_items` of a reading given by its parts, and the fu they make (`rounded_fu`): what
    the scorer asks of each reading that has yaku, without making its facts."""
    if shape is _SEVEN_PAIRS:
        return _CHIITOITSU, 25
    if pinfu and not by_discard:
        return _PINFU_SELF_DRAW, 20
    items = [_BASE]
    total = 20
    if closed and by_discard:
        items.append(_CLOSED_RON)
        total += 10
    if not by_discard and not pinfu:
        items.append(_SELF_DRAW)
        total += 2
    pair = None
    pungs = _PUNGS
    for group in groups:
        kind = group.kind
        if kind in pungs:
            item = pungs[kind][group.concealed][group.tile]
            items.append(item)
            total += item.fu
        elif kind is _PAIR_KIND and pair is None:
            pair = group
    if pair is not None and pair.tile >= _EAST:
        tile = pair.tile
        roles = (tile == seat_tile) + (tile == round_tile)
        # A pair of a dragon, the seat or the round wind; of a wind that is both, the option's.
        fu = double_wind_pair_fu if roles == 2 else 2 if roles or tile >= _WHITE else 0
        if fu:
            items.append(FuItem(fu, f"pair {pair}"))
            total += fu
    if role in _FU_WAITS:
        items.append(_WAITS[role])
        total += 2
    # Every item but the base earns 2 fu or more: an open hand of 20 fu has the base alone.
    if not closed and len(items) == 1:
        items.append(_OPEN_PINFU)
        total += 10
    return tuple(items), -(-total // 10) * 10


def rounded_fu(items: tuple[FuItem, ...]) -> int:
    """The fu, rounded up to a ten (chiitoitsu's 25 stays)."""
    total = sum(item.fu for item in items)
    return total if total == 25 else -(-total // 10) * 10
