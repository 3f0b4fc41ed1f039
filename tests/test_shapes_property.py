"""Property tests: `companion.shapes` against a deliberately simple brute-force reference.

The reference below knows nothing of the engine's per-suit blocks or memo tables. It takes the
concealed tiles as plain ints (0-8 characters, 9-17 circles, 18-26 bamboo, 27-33 honors) and
splits them by naive recursion: the lowest tile left must start a pung, a chow or the pair.
Groups are compared as (kind, lowest tile); arrangements as (shape, sorted groups).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from companion.hand import Hand, Meld, MeldKind
from companion.shapes import (
    FIVE_SETS,
    FOUR_SETS,
    Group,
    Structure,
    arrangements,
    is_complete,
    readings,
    waits,
)
from companion.tiles import Tile

T = TypeVar("T")
RefGroup = tuple[str, int]
"""(kind, lowest tile): kind is chow, pung, kong, pair or single."""
RefArrangement = tuple[str, tuple[RefGroup, ...]]
"""(shape, sorted groups)."""
RefReading = tuple[str, tuple[RefGroup, ...], RefGroup, str]
"""(shape, sorted groups, the winning tile's group, its role)."""

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
SUITS = (range(9), range(9, 18), range(18, 27))
HONORS = range(27, 34)
MELD_KIND = {
    MeldKind.CHOW: "chow",
    MeldKind.PUNG: "pung",
    MeldKind.KONG: "kong",
    MeldKind.ADDED_KONG: "kong",
    MeldKind.CONCEALED_KONG: "kong",
}


def examples(count: int) -> settings:
    """`count` examples (the Hypothesis profile says whether they are the same every run)."""
    return settings(
        max_examples=count,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
    )


# --- The reference ----------------------------------------------------------------------------


def group_tiles(group: RefGroup) -> list[int]:
    kind, low = group
    if kind == "chow":
        return [low, low + 1, low + 2]
    return [low] * {"pung": 3, "kong": 4, "pair": 2, "single": 1}[kind]


def split(counts: list[int], sets: int, pair: bool) -> list[list[RefGroup]]:
    """Every way to split `counts` into exactly `sets` sets and (if `pair`) one pair."""
    low = next((kind for kind in range(34) if counts[kind]), None)
    if low is None:
        return [[]] if sets == 0 and not pair else []
    found: list[list[RefGroup]] = []
    options: list[tuple[RefGroup, int, bool]] = []
    if sets and counts[low] >= 3:
        options.append((("pung", low), sets - 1, pair))
    if sets and low < 27 and low % 9 <= 6 and counts[low + 1] and counts[low + 2]:
        options.append((("chow", low), sets - 1, pair))
    if pair and counts[low] >= 2:
        options.append((("pair", low), sets, False))
    for group, sets_left, pair_left in options:
        for tile in group_tiles(group):
            counts[tile] -= 1
        found.extend([group, *rest] for rest in split(counts, sets_left, pair_left))
        for tile in group_tiles(group):
            counts[tile] += 1
    return found


def ref_arrangements(
    concealed: Sequence[int], declared: Sequence[RefGroup], structure: Structure
) -> set[RefArrangement]:
    counts = [0] * 34
    for tile in concealed:
        counts[tile] += 1
    found = {
        ("standard", tuple(sorted([*declared, *groups])))
        for groups in split(counts, structure.sets - len(declared), True)
    }
    if declared:
        return found
    if structure.thirteen_orphans and len(concealed) == 14 and set(concealed) == set(ORPHANS):
        orphans = [("pair" if counts[tile] == 2 else "single", tile) for tile in ORPHANS]
        found.add(("thirteen_orphans", tuple(sorted(orphans))))
    held = [count for count in counts if count]
    if structure.seven_pairs_triplet and sorted(held) == [2] * 7 + [3]:
        groups = [("pung" if counts[tile] == 3 else "pair", tile) for tile in set(concealed)]
        found.add(("seven_pairs_triplet", tuple(sorted(groups))))
    return found


def ref_role(group: RefGroup, winning: int) -> str:
    kind, low = group
    if kind != "chow":
        return kind
    if winning == low + 1:
        return "closed"
    if (low % 9 == 0 and winning == low + 2) or (low % 9 == 6 and winning == low):
        return "edge"
    return "two_sided"


def ref_readings(
    concealed: Sequence[int], declared: Sequence[RefGroup], structure: Structure, winning: int
) -> set[RefReading]:
    found: set[RefReading] = set()
    for shape, groups in ref_arrangements(concealed, declared, structure):
        own = Counter(groups) - Counter(declared)
        for group in own:
            if winning in group_tiles(group):
                found.add((shape, groups, group, ref_role(group, winning)))
    return found


def ref_waits(
    concealed: Sequence[int], declared: Sequence[RefGroup], structure: Structure
) -> list[int]:
    held = Counter(concealed)
    for group in declared:
        held.update(group_tiles(group))
    return [
        kind
        for kind in range(34)
        if held[kind] < 4 and ref_arrangements([*concealed, kind], declared, structure)
    ]


# --- Companion's answers in the reference's terms -------------------------------------------


def declared_of(melds: Sequence[Meld]) -> list[RefGroup]:
    return [(MELD_KIND[meld.kind], int(min(meld.tiles))) for meld in melds]


def key_of(shape: str, groups: Sequence[Group]) -> RefArrangement:
    return (shape, tuple(sorted((group.kind.value, int(group.tile)) for group in groups)))


def companion_arrangements(hand: Hand, structure: Structure) -> list[RefArrangement]:
    return sorted(key_of(shape.value, groups) for shape, groups in arrangements(hand, structure))


# --- Hands ------------------------------------------------------------------------------------

Case = tuple[list[int], list[Meld]]
"""Concealed tiles (ints) and declared groups."""


_INDICES = [st.integers(0, top) for top in range(40)]
"""Strategies built once: building one per draw would cost more than the checks."""


def pick(draw: DrawFn, items: Sequence[T]) -> T:
    return items[draw(_INDICES[len(items) - 1])]


def tile_pool(draw: DrawFn) -> list[int]:
    """All kinds, or one or two suits with or without honors: narrow pools read many ways."""
    choice = pick(draw, ["all", "one", "one+honors", "two", "two+honors", "honors"])
    if choice == "all":
        return list(range(34))
    if choice == "honors":
        return list(HONORS)
    if choice.startswith("one"):
        pool = list(pick(draw, SUITS))
    else:
        first, second = pick(draw, [(0, 1), (0, 2), (1, 2)])
        pool = [*SUITS[first], *SUITS[second]]
    if choice.endswith("honors"):
        pool.extend(HONORS)
    return pool


def draw_group(draw: DrawFn, pool: list[int], held: Counter[int], kinds: list[str]) -> RefGroup:
    """A chow, pung, pair or kong from `pool` that keeps every kind within four copies."""
    kind = pick(draw, kinds)
    candidates = [(kind, low) for low in pool if fits(held, pool, (kind, low))]
    if not candidates:
        candidates = [(other, low) for other in kinds for low in pool]
        candidates = [group for group in candidates if fits(held, pool, group)]
    assume(candidates)
    group = pick(draw, candidates)
    held.update(group_tiles(group))
    return group


def fits(held: Counter[int], pool: list[int], group: RefGroup) -> bool:
    kind, low = group
    if kind == "chow" and (low >= 27 or low % 9 > 6 or low + 2 not in pool):
        return False
    tiles = group_tiles(group)
    return all(held[tile] + tiles.count(tile) <= 4 for tile in tiles)


def meld_of(draw: DrawFn, group: RefGroup) -> Meld:
    kind, _ = group
    tiles = tuple(Tile(tile) for tile in group_tiles(group))
    if kind == "chow":
        return Meld(MeldKind.CHOW, tiles)
    if kind == "pung":
        return Meld(MeldKind.PUNG, tiles)
    meld_kind = pick(draw, [MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG])
    return Meld(meld_kind, tiles)


def mutate(draw: DrawFn, tiles: list[int], held: Counter[int], pool: list[int]) -> list[int]:
    """Keep the tiles, drop one (a waiting hand), swap one for another kind (a near miss), or
    swap and drop: mostly complete hands and hands one tile short of complete."""
    tiles = list(tiles)
    change = pick(draw, ["keep", "keep", "keep", "drop", "drop", "drop", "swap", "swap+drop"])
    if change.startswith("swap"):
        index = pick(draw, range(len(tiles)))
        free = [tile for tile in pool if held[tile] < 4 and tile != tiles[index]]
        if free:
            held[tiles[index]] -= 1
            tiles[index] = pick(draw, free)
            held[tiles[index]] += 1
    if change.endswith("drop"):
        index = pick(draw, range(len(tiles)))
        held[tiles[index]] -= 1
        del tiles[index]
    return tiles


@st.composite
def built_hands(draw: DrawFn, sets: int) -> Case:
    """Random sets and a pair (sometimes with declared groups), then maybe a swap or a drop."""
    pool = tile_pool(draw)
    held: Counter[int] = Counter()
    declared = [
        draw_group(draw, pool, held, ["chow", "pung", "kong"])
        for _ in range(pick(draw, [0, 0, 0, 1, 2]))
    ]
    groups = [
        draw_group(draw, pool, held, ["chow", "chow", "pung"]) for _ in range(sets - len(declared))
    ]
    groups.append(draw_group(draw, pool, held, ["pair"]))
    tiles = [tile for group in groups for tile in group_tiles(group)]
    return mutate(draw, tiles, held, pool), [meld_of(draw, group) for group in declared]


@st.composite
def random_hands(draw: DrawFn, size: int) -> Case:
    """`size` or `size - 1` tiles drawn from a narrow pool, at most four of a kind."""
    pool = tile_pool(draw)
    held: Counter[int] = Counter()
    tiles: list[int] = []
    for _ in range(size - pick(draw, (0, 1))):
        tile = pick(draw, [kind for kind in pool if held[kind] < 4])
        held[tile] += 1
        tiles.append(tile)
    return tiles, []


@st.composite
def pairs_hands(draw: DrawFn, sets: int) -> Case:
    """Seven pairs, and for five sets a triplet (17 tiles; 14 tiles for four sets, which is no
    win as such), of different kinds or sometimes with a four of a kind; then maybe mutated."""
    pool = tile_pool(draw)
    if len(pool) < 9:
        pool.extend(SUITS[2])
    different = pick(draw, [True, True, True, False])
    held: Counter[int] = Counter()
    for size in [2] * 7 + [3] * (sets - 4):
        free = [kind for kind in pool if held[kind] + size <= 4 and not (different and held[kind])]
        assume(free)
        held[pick(draw, free)] += size
    tiles = sorted(held.elements())
    return mutate(draw, tiles, held, pool), []


@st.composite
def orphans_hands(draw: DrawFn) -> Case:
    """The thirteen orphans and one more orphan, then maybe a swap and a drop."""
    tiles = [*ORPHANS, pick(draw, ORPHANS)]
    held = Counter(tiles)
    return mutate(draw, tiles, held, list(range(34))), []


# --- The comparisons --------------------------------------------------------------------------


def check(case: Case, structure: Structure, winning_index: int = 0) -> None:
    """Compare one case; complete hands by arrangements and readings, waiting ones by waits."""
    tiles, melds = case
    declared = declared_of(melds)
    concealed = tuple(Tile(tile) for tile in tiles)
    structural = len(tiles) + 3 * len(melds)
    if structural == 3 * structure.sets + 2:
        winning = tiles[winning_index % len(tiles)]
        hand = Hand.build(concealed, melds, (), Tile(winning), sets=structure.sets)
        expected = ref_arrangements(tiles, declared, structure)
        assert companion_arrangements(hand, structure) == sorted(expected)
        assert is_complete(hand, structure) == bool(expected)
        check_readings(hand, structure, ref_readings(tiles, declared, structure, winning))
    else:
        assert structural == 3 * structure.sets + 1
        hand = Hand.build(concealed, melds, sets=structure.sets, complete=False)
        assert companion_arrangements(hand, structure) == []
        assert [int(tile) for tile in waits(hand, structure)] == ref_waits(
            tiles, declared, structure
        )


def check_readings(hand: Hand, structure: Structure, expected: set[RefReading]) -> None:
    found = readings(hand, structure, discard=False)
    keys = [
        (
            *key_of(reading.shape.value, reading.groups),
            (reading.winning_group.kind.value, int(reading.winning_group.tile)),
            reading.role.value,
        )
        for reading in found
    ]
    assert sorted(keys) == sorted(expected)
    for reading in found:
        group = reading.winning_group
        assert not group.declared and hand.winning_tile in group.tiles
        assert all(
            g.concealed == (g.meld in (None, MeldKind.CONCEALED_KONG)) for g in reading.groups
        )
    on_discard = readings(hand, structure, discard=True)
    assert len(on_discard) == len(found)
    for self_drawn, discarded in zip(found, on_discard, strict=True):
        assert discarded.winning_index == self_drawn.winning_index
        for index, (before, after) in enumerate(
            zip(self_drawn.groups, discarded.groups, strict=True)
        ):
            exposed = index == discarded.winning_index
            assert after.concealed == (before.concealed and not exposed)
            assert (after.kind, after.tile, after.meld) == (before.kind, before.tile, before.meld)


def test_the_reference_on_hands_worked_by_hand() -> None:
    nine_gates = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8]
    assert ref_waits(nine_gates, [], FOUR_SETS) == list(range(9))
    assert ref_waits([*ORPHANS[1:], 27], [], FOUR_SETS) == [0]
    assert ref_waits([*ORPHANS[1:], 27], [], FIVE_SETS) == []
    eight_pairs = [0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 9, 9, 11, 11, 28, 28]
    assert ref_waits(eight_pairs, [], FIVE_SETS) == [0, 2, 4, 6, 8, 9, 11, 28]
    assert ref_waits([0, 0, 0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 9, 9, 11, 11], [], FIVE_SETS) == []
    assert ref_waits([0], [("pung", 0), ("chow", 9), ("chow", 12), ("chow", 15)], FOUR_SETS) == []
    three_ways = [0, 0, 0, 1, 1, 1, 2, 2, 2, 12, 13, 14, 33, 33]
    assert ref_arrangements(three_ways, [], FOUR_SETS) == {
        ("standard", (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 12), ("pair", 33))),
        ("standard", (("chow", 12), ("pair", 33), ("pung", 0), ("pung", 1), ("pung", 2))),
    }
    assert ref_readings(three_ways, [], FOUR_SETS, 1) == {
        (*sorted(ref_arrangements(three_ways, [], FOUR_SETS))[0], ("chow", 0), "closed"),
        (*sorted(ref_arrangements(three_ways, [], FOUR_SETS))[1], ("pung", 1), "pung"),
    }
    assert ref_role(("chow", 18), 20) == ref_role(("chow", 24), 24) == "edge"
    assert ref_role(("chow", 19), 19) == ref_role(("chow", 24), 26) == "two_sided"


WINNING = st.integers(0, 16)
"""Which concealed tile of a complete hand is the winning tile."""


@examples(1200)
@given(built_hands(4), WINNING)
def test_four_set_built_hands(case: Case, winning: int) -> None:
    check(case, FOUR_SETS, winning)


@examples(1200)
@given(built_hands(5), WINNING)
def test_five_set_built_hands(case: Case, winning: int) -> None:
    check(case, FIVE_SETS, winning)


@examples(700)
@given(random_hands(14), WINNING)
def test_four_set_random_hands(case: Case, winning: int) -> None:
    check(case, FOUR_SETS, winning)


@examples(700)
@given(random_hands(17), WINNING)
def test_five_set_random_hands(case: Case, winning: int) -> None:
    check(case, FIVE_SETS, winning)


@examples(400)
@given(pairs_hands(4), WINNING)
def test_seven_pairs_are_read_only_as_sets_in_four_set_hands(case: Case, winning: int) -> None:
    check(case, FOUR_SETS, winning)


@examples(500)
@given(pairs_hands(5), WINNING)
def test_seven_pairs_and_a_triplet(case: Case, winning: int) -> None:
    check(case, FIVE_SETS, winning)


@examples(300)
@given(orphans_hands(), WINNING)
def test_thirteen_orphans(case: Case, winning: int) -> None:
    check(case, FOUR_SETS, winning)
