"""The hand-wide feature bits the scorer reads off the block keys (`hand_features`), against
the same bits worked out tile by tile, on hands drawn from small sets of kinds so that one
suit, terminals only, green only and a whole suit come up often."""

from __future__ import annotations

import random

import pytest

from companion.hand import Hand, Meld, MeldKind
from companion.rules.facts import hand_features
from companion.rules.features import Feature
from companion.tiles import Tile

GREEN = {Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN}
KIND_BITS = (
    Feature.HONORS
    | Feature.NO_HONORS
    | Feature.ONE_SUIT
    | Feature.NO_SUIT
    | Feature.TERMINALS_ONLY
    | Feature.TERMINALS_HONORS_ONLY
    | Feature.GREEN_ONLY
    | Feature.ALL_NINE
    | Feature.NO_MELDS
    | Feature.ONLY_CONCEALED_KONGS
)


def expected_bits(tiles: list[Tile], melds: list[Meld]) -> int:
    kinds = set(tiles) | {tile for meld in melds for tile in meld.tiles}
    suits = {tile // 9 for tile in kinds if tile < Tile.EAST}
    honors = any(tile >= Tile.EAST for tile in kinds)
    bits = Feature.HONORS if honors else Feature.NO_HONORS
    if len(suits) == 1:
        bits |= Feature.ONE_SUIT
    elif not suits:
        bits |= Feature.NO_SUIT
    if all(tile >= Tile.EAST or tile % 9 in (0, 8) for tile in kinds):
        bits |= Feature.TERMINALS_HONORS_ONLY
        if not honors:
            bits |= Feature.TERMINALS_ONLY
    if kinds <= GREEN:
        bits |= Feature.GREEN_ONLY
    if any(all(Tile(9 * suit + rank) in kinds for rank in range(9)) for suit in range(3)):
        bits |= Feature.ALL_NINE
    if not melds:
        bits |= Feature.NO_MELDS | Feature.ONLY_CONCEALED_KONGS
    elif all(meld.kind is MeldKind.CONCEALED_KONG for meld in melds):
        bits |= Feature.ONLY_CONCEALED_KONGS
    return bits


def random_hand(rng: random.Random) -> tuple[list[Tile], list[Meld]]:
    pools = [
        list(range(34)),
        list(range(9)),
        [0, 8, 9, 17, 18, 26, *range(27, 34)],
        [0, 8, 9, 17, 18, 26],
        [int(tile) for tile in GREEN],
        [*range(9, 18), 27, 31],
    ]
    pool = rng.choice(pools)
    counts = [0] * 34
    tiles: list[Tile] = []
    for _ in range(rng.randrange(1, 15)):
        kind = rng.choice(pool)
        if counts[kind] < 4:
            counts[kind] += 1
            tiles.append(Tile(kind))
    melds: list[Meld] = []
    if rng.random() < 0.3:
        kind = rng.choice(pool)
        meld_kind = rng.choice([MeldKind.PUNG, MeldKind.CONCEALED_KONG])
        if counts[kind] + meld_kind.size <= 4:  # four copies of a kind at most, as in play
            melds.append(Meld(meld_kind, (Tile(kind),) * meld_kind.size))
    return tiles, melds


@pytest.mark.parametrize("seed", range(4))
def test_hand_bits_match_the_tiles(seed: int) -> None:
    rng = random.Random(f"hand-bits-{seed}")
    for _ in range(3000):
        tiles, melds = random_hand(rng)
        hand = Hand(tuple(tiles), tuple(melds), (), None, 4)
        found = hand_features(hand) & KIND_BITS
        assert found == expected_bits(tiles, melds), (tiles, melds)


def test_nine_gates_bit() -> None:
    gates = [Tile(kind) for kind in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
    for extra in range(9):
        tiles = [*gates, Tile(extra)]
        hand = Hand(tuple(tiles), (), (), Tile(extra), 4)
        assert hand_features(hand) & Feature.NINE_GATES
    # The same tiles with the winning tile elsewhere in the count are not nine gates.
    tiles = [*gates[:-1], Tile(4), Tile(8)]
    assert not hand_features(Hand(tuple(tiles), (), (), Tile(8), 4)) & Feature.NINE_GATES
