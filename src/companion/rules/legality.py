"""What cannot happen at a table, refused before a hand is scored.

Every profile asks these questions of an ordinary win; a profile supplies only who its dealer
is and whether its earthly hand may be self-drawn. Each refusal is one `NotAWinError` whose
message names the request fields that contradict each other (`events`, `seat`, `dealer`,
`discarder`, `win`, `melds`, `bonus`, `table_discards`, `win_tile`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.context import Circumstance, WinContext
from companion.errors import NotAWinError
from companion.hand import Hand, Meld, MeldKind
from companion.tiles import KINDS, Tile, Wind

# The dealer's first-turn win is a plain draw from the wall: none of these can describe it.
NOT_WITH_HEAVENLY = (
    Circumstance.LAST_TILE,
    Circumstance.LAST_DISCARD,
    Circumstance.ROBBING_KONG,
    Circumstance.KONG_ON_KONG,
    Circumstance.ORIGINAL_READY,
)
# An earthly hand comes on the first turn: the wall is not near its end and no kong is made.
NOT_WITH_EARTHLY = (Circumstance.LAST_TILE, Circumstance.LAST_DISCARD, Circumstance.ROBBING_KONG)
# Groups made from another player's discard (an added kong began as a claimed pung).
CLAIMED = frozenset((MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG))
# Declared by a winner about their own hand: two winners of one discard may differ on it.
OWN_CIRCUMSTANCES = frozenset((Circumstance.ORIGINAL_READY,))


@dataclass(frozen=True, slots=True)
class Table:
    """What a profile says about its table: who deals, and how its earthly hand is won."""

    dealer: Wind
    earthly_self_draw: bool
    """Whether an earthly hand may be a self-draw on the first draw (sg) or only a win on the
    dealer's first discard (tw)."""


def _listed(circumstances: Sequence[Circumstance]) -> str:
    return ", ".join(circumstance.value for circumstance in circumstances)


def _melds(melds: Sequence[Meld]) -> str:
    return ", ".join(str(meld) for meld in melds)


def _tile(tile: Tile) -> str:
    return f"{tile.english} ({tile.mpsz})"


def check_context(context: WinContext, table: Table) -> None:
    """Refuse circumstances and counts of an ordinary win that contradict each other."""
    if not context.circumstances and context.table_discards is None:
        return  # every check below asks about a circumstance or the discard count
    if context.has(Circumstance.ROBBING_KONG) and context.self_drawn:
        raise NotAWinError(
            "robbing_kong wins on another player's kong tile: enter it as a discard win, with "
            "the kong's declarer as discarder",
            key="refusal.robbing_kong_self_draw",
        )
    _check_heavenly(context, table)
    _check_earthly(context, table)
    _check_discard_count(context, table)


def _check_heavenly(context: WinContext, table: Table) -> None:
    if not context.has(Circumstance.HEAVENLY):
        return
    if context.seat is not table.dealer:
        raise NotAWinError(
            f"heavenly is the dealer's win: seat {context.seat.value} is not the dealer "
            f"({table.dealer.value})",
            key="refusal.heavenly_not_dealer",
            params={"seat": context.seat.value, "dealer_seat": table.dealer.value},
        )
    if context.by_discard:
        raise NotAWinError(
            "heavenly is the dealer's self-draw on the first turn: win must be self_draw, "
            "with no discarder",
            key="refusal.heavenly_discard",
        )
    clashing = [circumstance for circumstance in NOT_WITH_HEAVENLY if context.has(circumstance)]
    if clashing:
        raise NotAWinError(
            f"heavenly is won on the dealer's first draw, so events cannot also hold "
            f"{_listed(clashing)}",
            key="refusal.heavenly_events",
            params={"events": [circumstance.value for circumstance in clashing]},
        )
    if context.table_discards not in (None, 0):
        raise NotAWinError(
            f"heavenly comes before any discard: table_discards must be 0, not "
            f"{context.table_discards}",
            key="refusal.heavenly_discards",
            params={"count": context.table_discards},
        )


def _check_earthly(context: WinContext, table: Table) -> None:
    if not context.has(Circumstance.EARTHLY):
        return
    dealer = table.dealer.value
    if context.seat is table.dealer:
        raise NotAWinError(
            f"earthly is a non-dealer's win: seat {context.seat.value} is the dealer, whose "
            "first-turn win is heavenly",
            key="refusal.earthly_dealer",
            params={"seat": context.seat.value},
        )
    if context.self_drawn and not table.earthly_self_draw:
        raise NotAWinError(
            f"earthly is won on the dealer's first discard: win must be discard, with the "
            f"dealer ({dealer}) as discarder",
            key="refusal.earthly_self_draw",
            params={"dealer_seat": dealer},
        )
    if context.by_discard and context.discarder is not table.dealer:
        assert context.discarder is not None
        raise NotAWinError(
            f"earthly is won on the dealer's first discard: the discarder must be the dealer "
            f"({dealer}), not {context.discarder.value}",
            key="refusal.earthly_discarder",
            params={"dealer_seat": dealer, "discarder_seat": context.discarder.value},
        )
    clashing = [circumstance for circumstance in NOT_WITH_EARTHLY if context.has(circumstance)]
    if clashing:
        raise NotAWinError(
            f"earthly is won on the first turn, so events cannot also hold {_listed(clashing)}",
            key="refusal.earthly_events",
            params={"events": [circumstance.value for circumstance in clashing]},
        )
    if context.by_discard and context.table_discards not in (None, 1):
        raise NotAWinError(
            f"earthly is won on the dealer's first discard: table_discards must be 1, not "
            f"{context.table_discards}",
            key="refusal.earthly_discards",
            params={"count": context.table_discards},
        )


def _wins_on_a_discard(context: WinContext) -> bool:
    """The winning tile is a discard (a robbed kong tile is not one)."""
    return context.by_discard and not context.has(Circumstance.ROBBING_KONG)


def _check_discard_count(context: WinContext, table: Table) -> None:
    count = context.table_discards
    if count is None:
        return
    if _wins_on_a_discard(context):
        if count == 0:
            raise NotAWinError(
                "table_discards counts the winning discard, so a discard win has at least 1",
                key="refusal.discards_zero",
            )
        if count == 1 and context.discarder is not table.dealer:
            assert context.discarder is not None
            raise NotAWinError(
                f"table_discards 1 makes the winning discard the hand's first, which is the "
                f"dealer's: the discarder must be {table.dealer.value}, not "
                f"{context.discarder.value}",
                key="refusal.discards_one",
                params={
                    "dealer_seat": table.dealer.value,
                    "discarder_seat": context.discarder.value,
                },
            )
    elif context.self_drawn and context.seat is not table.dealer and count == 0:
        raise NotAWinError(
            f"table_discards 0 means nobody has discarded, so only the dealer "
            f"({table.dealer.value}) has drawn: seat {context.seat.value}'s self-draw needs at "
            "least 1",
            key="refusal.discards_none_drawn",
            params={"dealer_seat": table.dealer.value, "seat": context.seat.value},
        )


def _kongs(hand: Hand) -> list[Meld]:
    return [meld for meld in hand.melds if meld.kind.is_kong]


def can_contradict(context: WinContext) -> bool:
    """Whether `check_hand` has anything to check in this context: every check asks about an
    circumstance or the discard count."""
    return bool(context.circumstances) or context.table_discards is not None


def check_hand(hand: Hand, context: WinContext) -> None:
    """Refuse circumstances and counts of an ordinary win that the hand's tiles contradict."""
    if not can_contradict(context):
        return
    kong_count = len(_kongs(hand))
    if context.has(Circumstance.KONG_ON_KONG) and kong_count < 2:
        raise NotAWinError(
            f"kong_on_kong wins on the replacement tile of a second kong: melds must hold at "
            f"least two kongs, not {kong_count}",
            key="refusal.kong_on_kong_kongs",
            params={"count": kong_count},
        )
    if context.has(Circumstance.REPLACEMENT) and kong_count == 0 and not hand.bonus:
        raise NotAWinError(
            "replacement wins on the tile drawn after a kong or a bonus tile: melds hold no "
            "kong and bonus is empty",
            key="refusal.replacement_nothing",
        )
    claimed = [meld for meld in hand.melds if meld.kind in CLAIMED]
    if context.has(Circumstance.HEAVENLY) and claimed:
        raise NotAWinError(
            f"heavenly is the dealer's dealt hand: melds can hold only concealed kongs (ckong), "
            f"not {_melds(claimed)}",
            key="refusal.heavenly_melds",
            params={"melds": [str(meld) for meld in claimed]},
        )
    if context.has(Circumstance.EARTHLY):
        if context.by_discard and hand.melds:
            raise NotAWinError(
                f"earthly on the dealer's first discard comes before the winner's first turn: "
                f"melds must be empty, not {_melds(hand.melds)}",
                key="refusal.earthly_discard_melds",
                params={"melds": [str(meld) for meld in hand.melds]},
            )
        if claimed:
            raise NotAWinError(
                f"earthly is won before any claim: melds can hold only concealed kongs (ckong), "
                f"not {_melds(claimed)}",
                key="refusal.earthly_melds",
                params={"melds": [str(meld) for meld in claimed]},
            )
    robbed = hand.winning_tile
    if context.has(Circumstance.ROBBING_KONG) and robbed is not None:
        others = hand.counts()[robbed] - 1
        if others:
            raise NotAWinError(
                f"robbing_kong takes the fourth {_tile(robbed)} from a kong, so the winner holds "
                f"no other copy: hand and melds hold {others} more",
                key="refusal.robbing_kong_copies",
                params={"tile": robbed.mpsz, "count": others},
            )
    count = context.table_discards
    needed = len(claimed) + (1 if _wins_on_a_discard(context) else 0)
    if count is not None and claimed and count < needed:
        groups = "1 claimed group" if len(claimed) == 1 else f"{len(claimed)} claimed groups"
        winning = ", and the winning discard is one more" if _wins_on_a_discard(context) else ""
        key = "refusal.discards_too_few" + ("_one" if len(claimed) == 1 else "")
        raise NotAWinError(
            f"table_discards {count} is too few: melds hold {groups}, each taken from a "
            f"discard{winning}, so at least {needed}",
            key=key + ("_discard" if winning else ""),
            params={"count": count, "groups": len(claimed), "needed": needed},
        )


def check_one_discard(winners: Sequence[tuple[Hand, WinContext]]) -> None:
    """Refuse winners of one discard whose tiles or circumstances contradict each other: one
    winning tile, the same circumstances (apart from each winner's own declarations), and at most
    four copies of any tile in all their hands together, the shared discard counted once."""
    if len(winners) < 2:
        return
    tiles = {context.seat: hand.winning_tile for hand, context in winners}
    if len(set(tiles.values())) > 1:
        listed = ", ".join(
            f"{seat.value} on {tile.mpsz if tile else '?'}" for seat, tile in tiles.items()
        )
        raise NotAWinError(f"the winners of one discard win on the same tile (win_tile): {listed}")
    shared = {context.seat: context.circumstances - OWN_CIRCUMSTANCES for _, context in winners}
    if len(set(shared.values())) > 1:
        listed = "; ".join(
            f"{seat.value} has {_listed(sorted(circumstances, key=lambda e: e.value)) or 'none'}"
            for seat, circumstances in shared.items()
        )
        raise NotAWinError(f"the winners of one discard share its events: {listed}")
    totals = [0] * KINDS
    for hand, _ in winners:
        for kind, count in enumerate(hand.counts()):
            totals[kind] += count
    discard = next(iter(tiles.values()))
    if discard is not None:
        totals[discard] -= len(winners) - 1
    for kind, total in enumerate(totals):
        if total > 4:
            raise NotAWinError(
                f"the winners' hand and melds together hold {total} copies of "
                f"{_tile(Tile(kind))}, the shared discard counted once: there are only four",
                key="refusal.winners_copies",
                params={"count": total, "tile": Tile(kind).mpsz},
            )
