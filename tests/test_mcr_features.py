"""The MCR fan's feature bits (`rules/mcr/features.py`) against the fan's own predicates: on
every reading of seeded hands (the differential test's drawing, which brings up every fan),
no fan matches a reading whose bits lack what it needs, a decided fan matches (once, the whole
hand) exactly where its bits are, and every reading scores as when every predicate runs."""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement

from companion.errors import CompanionError
from companion.hand import Hand
from companion.rules.mcr.counting import _counted
from companion.rules.mcr.engine import scored_readings
from companion.rules.mcr.facts import McrContext, McrFacts
from companion.rules.mcr.fans import ELEMENTS, FANS, _family_places, _relabelled
from companion.rules.mcr.features import McrFeature, _tile_bits, hand_bits, reading_bits, tile_bits
from companion.rules.mcr.shapes import (
    CHOW,
    _concealed_sets,
    _standard_readings,
    mcr_readings,
    sets_and_pair,
)
from companion.rules.principles import apply_principles
from companion.shapes.groups import TILES
from test_mcr_differential import built_request, draw_hand

HANDS = 3000
WHOLE = [frozenset[int]()]


def built_hands(count: int, seed: str) -> list[tuple[Hand, McrContext]]:
    rng = random.Random(seed)
    found: list[tuple[Hand, McrContext]] = []
    while len(found) < count:
        drawn = draw_hand(rng)
        if drawn is None:
            continue
        try:
            built, context, _ = built_request(drawn.fields)
        except CompanionError:
            continue
        found.append((built, context))
    return found


def names(bits: int) -> list[str]:
    return [name for name, bit in vars(McrFeature).items() if name.isupper() and bits & bit]


def test_every_fan_matches_only_where_its_bits_allow_and_decided_ones_exactly_there() -> None:
    problems: list[str] = []
    decided_seen = dict.fromkeys((fan.id for fan in FANS if fan.decided), 0)
    readings = 0
    for built, context in built_hands(HANDS, "mcr-features"):
        waiting = built.without_winning_tile()
        shared = hand_bits(built.counts(), context, len(built.melds))
        for reading in mcr_readings(built, context.by_discard):
            readings += 1
            facts = McrFacts(
                reading, context, waiting.concealed, len(built.melds), tuple(waiting.counts())
            )
            bits = shared | reading_bits(reading)
            for fan in FANS:
                matches = fan.predicate(facts)
                allowed = bits & fan.needs == fan.needs
                if matches and not allowed:
                    problems.append(f"{fan.id} matched {reading.groups} without {names(bits)}")
                if fan.decided and allowed:
                    decided_seen[fan.id] += 1
                    if matches != WHOLE:
                        problems.append(f"{fan.id} decided on {reading.groups}: {matches}")
    assert problems == []
    assert readings > HANDS
    assert [name for name, seen in decided_seen.items() if not seen] == []


def test_every_reading_scores_as_when_every_predicate_runs() -> None:
    for built, context in built_hands(HANDS, "mcr-features-scores"):
        fast = scored_readings(built, context)
        slow = scored_readings(built, context, by_predicates=True)
        assert [(entry.counted, entry.patterns) for entry in fast] == [
            (entry.counted, entry.patterns) for entry in slow
        ], str(built)


def test_a_fan_needing_nothing_is_the_chicken_hand_alone() -> None:
    assert [fan.id for fan in FANS if not fan.needs] == ["chicken_hand"]


def test_the_counted_fan_is_what_the_principles_count() -> None:
    """The engine's outline of the principles by fan ids (`counting._counted`) against
    `apply_principles` itself, on every reading's matches, every predicate run."""
    compared = 0
    for built, context in built_hands(HANDS, "mcr-features-principles"):
        for entry in scored_readings(built, context, by_predicates=True):
            found = {fan.id: matches for fan in FANS if (matches := fan.predicate(entry.facts))}
            assert _counted(found).counted == apply_principles(ELEMENTS, found), str(built)
            compared += 1
    assert compared > HANDS


def test_the_readings_by_block_are_the_walk_over_the_whole_hand() -> None:
    """Four sets and a pair read block by block (`shapes._standard_readings`, each block's
    readings kept by its counts) against `sets_and_pair` over the whole hand, in order."""
    compared = 0
    for built, _ in built_hands(HANDS, "mcr-features-blocks"):
        counts = built.concealed_counts()
        walked = [
            (_concealed_sets(sets, built.concealed[0], by_discard=False), TILES[pair])
            for sets, pair in sets_and_pair(counts, 4 - len(built.melds))
        ]
        key = sum(count << 3 * kind for kind, count in enumerate(counts))
        assert _standard_readings(key) == walked, str(built)
        compared += len(walked)
    assert compared > HANDS // 2  # a few hands are of special shapes alone


def test_each_family_comes_in_the_order_of_its_lowest_tiles() -> None:
    """`McrFacts.family` sorts only a hand with declared groups: the concealed sets of every
    reading come in the order of their lowest tiles already."""
    for built, context in built_hands(HANDS, "mcr-features-families"):
        waiting = built.without_winning_tile()
        for reading in mcr_readings(built, context.by_discard):
            facts = McrFacts(
                reading, context, waiting.concealed, len(built.melds), tuple(waiting.counts())
            )
            for family in ("chows", "pungs"):
                members = [
                    index
                    for index, group in enumerate(reading.sets)
                    if (group.kind is CHOW) == (family == "chows")
                ]
                ordered = sorted(members, key=lambda index: reading.sets[index].tile)
                tiles = tuple(reading.sets[index].tile for index in ordered)
                assert facts.family(family) == (ordered, tiles)


def test_combination_fan_do_not_depend_on_which_suit() -> None:
    """A family's combination matches are looked up by its suits relabelled in order
    (`fans._relabelled`): every family of two to four chows (any lowest tiles, repeats
    allowed) and of two to four pungs matches as its relabelled tiles do."""
    lows = [tile for tile in range(27) if tile % 9 < 7]
    families = [
        *(
            ("chows", tiles)
            for size in (2, 3, 4)
            for tiles in combinations_with_replacement(lows, size)
        ),
        *(("pungs", tiles) for size in (2, 3, 4) for tiles in combinations(range(34), size)),
    ]
    moved = 0
    for family, tiles in families:
        normal = _relabelled(tiles)
        if normal != tiles:
            moved += 1
            assert _family_places(family, tiles) == _family_places(family, normal), tiles
    assert moved > 10_000


def test_the_kinds_bits_by_block_are_the_whole_hands() -> None:
    # Every set of kinds of each block alone, then seeded random hands' worth of kinds across
    # all four blocks: the tables give what `_tile_bits` works out from the whole mask.
    rng = random.Random(27)
    masks = [value << start for start in (0, 9, 18) for value in range(512)]
    masks += [value << 27 for value in range(128)]
    masks += [rng.getrandbits(34) & rng.getrandbits(34) for _ in range(20_000)]
    assert [tile_bits(kinds) for kinds in masks] == [_tile_bits(kinds) for kinds in masks]
