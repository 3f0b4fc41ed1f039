"""Fu of one reading, with what made them (`fu_items`)."""

from __future__ import annotations

from typing import NamedTuple

from companion.rules.riichi.facts import RiichiFacts, is_terminal_or_honor
from companion.shapes import GroupKind, Shape, WinRole
from companion.shapes.groups import TILES, Group
from companion.tiles import KINDS


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
    (kind, concealed): tuple(_pung(kind, tile, concealed) for tile in range(KINDS))
    for kind in (GroupKind.PUNG, GroupKind.KONG)
    for concealed in (False, True)
}
"""By a pung's or kong's kind and whether it is concealed, then its tile: its item."""
_PUNG_KIND, _KONG_KIND, _PAIR_KIND = GroupKind.PUNG, GroupKind.KONG, GroupKind.PAIR


def fu_items(facts: RiichiFacts, pinfu: bool, double_wind_pair_fu: int) -> tuple[FuItem, ...]:
    """What made a reading's fu, before rounding (`rounded_fu`). Fixed: chiitoitsu 25, pinfu
    self-draw 20; an open hand of 20 fu is raised to 30."""
    if facts.shape is Shape.SEVEN_PAIRS:
        return _CHIITOITSU
    by_discard = facts.context.by_discard
    if pinfu and not by_discard:
        return _PINFU_SELF_DRAW
    closed = facts.closed
    items = [_BASE]
    if closed and by_discard:
        items.append(_CLOSED_RON)
    if not by_discard and not pinfu:
        items.append(_SELF_DRAW)
    pair = None
    for group in facts.groups:
        kind = group.kind
        if kind is _PUNG_KIND or kind is _KONG_KIND:
            items.append(_PUNGS[kind, group.concealed][group.tile])
        elif kind is _PAIR_KIND and pair is None:
            pair = group
    if pair is not None:
        tile = pair.tile
        roles = (tile == facts.seat_tile) + (tile == facts.round_tile)
        fu = 2 if facts.is_value_tile(tile) and roles < 2 else 0
        if roles == 2:
            fu = double_wind_pair_fu
        if fu:
            items.append(FuItem(fu, f"pair {pair}"))
    if facts.role in _FU_WAITS:
        items.append(_WAITS[facts.role])
    # Every item but the base earns 2 fu or more: an open hand of 20 fu has the base alone.
    if not closed and len(items) == 1:
        items.append(_OPEN_PINFU)
    return tuple(items)


def rounded_fu(items: tuple[FuItem, ...]) -> int:
    """The fu, rounded up to a ten (chiitoitsu's 25 stays)."""
    total = sum(item.fu for item in items)
    return total if total == 25 else -(-total // 10) * 10
