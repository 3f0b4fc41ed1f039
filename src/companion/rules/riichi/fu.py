"""Fu of one reading, with what made them (`fu_items`)."""

from __future__ import annotations

from typing import NamedTuple

from companion.rules.riichi.facts import RiichiFacts, is_terminal_or_honor
from companion.shapes import GroupKind, WinRole


class FuItem(NamedTuple):
    fu: int
    reason: str
    """`base`, `closed_ron`, `self_draw`, `pung 777z`, `pair 11z`, `wait`, `chiitoitsu`,
    `open_pinfu` (the 10 an open hand of 20 fu is raised by), `pinfu_self_draw`."""

    def to_json(self) -> dict[str, object]:
        return {"fu": self.fu, "for": self.reason}


def fu_items(facts: RiichiFacts, pinfu: bool, double_wind_pair_fu: int) -> tuple[FuItem, ...]:
    """What made a reading's fu, before rounding (`rounded_fu`). Fixed: chiitoitsu 25, pinfu
    self-draw 20; an open hand of 20 fu is raised to 30."""
    if facts.seven_pairs:
        return (FuItem(25, "chiitoitsu"),)
    items = [FuItem(20, "base")]
    by_discard = facts.context.by_discard
    if pinfu and not by_discard:
        return (FuItem(20, "pinfu_self_draw"),)
    if facts.closed and by_discard:
        items.append(FuItem(10, "closed_ron"))
    if not by_discard and not pinfu:
        items.append(FuItem(2, "self_draw"))
    for group in facts.pungs:
        fu = 4 if group.concealed else 2
        if is_terminal_or_honor(group.tile):
            fu *= 2
        if group.kind is GroupKind.KONG:
            fu *= 4
        items.append(FuItem(fu, f"{group.kind.value} {group}"))
    pair = facts.pair
    if pair is not None:
        tile = pair.tile
        roles = (tile == facts.seat_tile) + (tile == facts.round_tile)
        fu = 2 if facts.is_value_tile(tile) and roles < 2 else 0
        if roles == 2:
            fu = double_wind_pair_fu
        if fu:
            items.append(FuItem(fu, f"pair {pair}"))
    if facts.role in (WinRole.CLOSED, WinRole.EDGE, WinRole.PAIR):
        items.append(FuItem(2, f"wait {facts.role.value}"))
    if not facts.closed and sum(item.fu for item in items) == 20:
        items.append(FuItem(10, "open_pinfu"))
    return tuple(items)


def rounded_fu(items: tuple[FuItem, ...]) -> int:
    """The fu, rounded up to a ten (chiitoitsu's 25 stays)."""
    total = sum(item.fu for item in items)
    return total if total == 25 else -(-total // 10) * 10
