"""Invariants of the engine, as properties over generated hands.

- payments sum to zero;
- the result does not depend on tile order or notation (MPSZ runs, single tiles, names);
- every reported wait, added to the hand, makes a legal win, and no other tile does;
- adding a bonus tile never lowers a hand's tai, except through a pattern that needs no bonus
  tiles (Ping Hu; Taiwan's no-flower patterns).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.scoring import ScoreResult, score
from companion.tiles import KINDS, Tile, format_tiles, parse_tiles
from shared_profiles import SHARED

SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROFILE_SETS = {profile.id: profile.structure.sets for profile in SHARED.values()}
"""Every profile of the shared request, with the sets its winning hand holds (tw: 5, the
others: 4)."""
REFUSE_ANIMALS = {"tw", "hk"}
NO_MINIMUM: dict[str, dict[str, int]] = {"hk": {"min_faan": 0}}
"""The options that pay every hand, by profile (`min_tai` 0 where not listed)."""
WINDS = ("E", "S", "W", "N")
# Patterns that ask for no bonus tiles at all: a bonus tile may take them away.
NEEDS_NO_BONUS = {"ping_hu", "no_flowers", "no_honors_or_flowers", "pure_chow_hand"}


def random_tiles(rng: random.Random, sets: int, one_suit: bool = False) -> list[Tile]:
    """Sets and a pair, all concealed, never a fifth copy."""
    while True:
        counts = [0] * KINDS
        tiles: list[int] = []
        suit = rng.randrange(3)
        for _ in range(sets):
            if rng.random() < 0.55:
                first = (suit if one_suit else rng.randrange(3)) * 9 + rng.randrange(7)
                tiles += [first, first + 1, first + 2]
            else:
                kind = suit * 9 + rng.randrange(9) if one_suit else rng.randrange(KINDS)
                tiles += [kind] * 3
        pair = suit * 9 + rng.randrange(9) if one_suit else rng.randrange(KINDS)
        tiles += [pair, pair]
        for tile in tiles:
            counts[tile] += 1
        if max(counts) <= 4:
            rng.shuffle(tiles)
            return [Tile(tile) for tile in tiles]


def no_minimum(profile: str) -> dict[str, int]:
    return NO_MINIMUM.get(profile, {"min_tai": 0})


def random_request(rng: random.Random, profile: str) -> dict[str, Any]:
    tiles = random_tiles(rng, PROFILE_SETS[profile], one_suit=rng.random() < 0.3)
    seat = rng.choice(WINDS)
    request: dict[str, Any] = {
        "profile": profile,
        "hand": format_tiles(tiles),
        "seat": seat,
        "round": rng.choice(WINDS),
        "options": no_minimum(profile),
    }
    if rng.random() < 0.5:
        request["win"] = "discard"
        request["discarder"] = rng.choice([w for w in WINDS if w != seat])
    if profile == "tw":
        request["dealer"] = rng.choice(WINDS)
        request["dealer_streak"] = rng.randrange(3)
    bonus = rng.sample(range(1, 9), rng.randrange(3))
    if bonus:
        request["bonus"] = "".join(str(n) for n in bonus) + "f"
    return request


def same_result(left: ScoreResult, right: ScoreResult) -> bool:
    if left.valid != right.valid:
        return False
    if not left.valid:
        return True
    return (
        left.tai == right.tai
        and left.raw_tai == right.raw_tai
        and {(p.id, p.tai) for p in left.patterns} == {(p.id, p.tai) for p in right.patterns}
        and dict(left.payments) == dict(right.payments)
        and left.waits == right.waits
    )


@SETTINGS
@given(seed=SEEDS, profile=st.sampled_from(sorted(PROFILE_SETS)))
def test_payments_sum_to_zero(seed: int, profile: str) -> None:
    result = score(random_request(random.Random(seed), profile))
    assert result.valid, result.error
    assert sum(result.payments.values()) == 0
    assert len(result.payments) == 4


@SETTINGS
@given(seed=SEEDS, profile=st.sampled_from(sorted(PROFILE_SETS)))
def test_order_and_notation_do_not_matter(seed: int, profile: str) -> None:
    rng = random.Random(seed)
    request = random_request(rng, profile)
    tiles = list(parse_tiles(request["hand"]))
    winning = tiles[-1]
    baseline = score(request)
    shuffled = tiles[:]
    rng.shuffle(shuffled)
    variants = [
        format_tiles(shuffled),
        " ".join(tile.mpsz for tile in shuffled),
        ", ".join(tile.english for tile in shuffled),
        format_tiles(sorted(tiles)),
    ]
    for text in variants:
        again = score({**request, "hand": text, "win_tile": winning.mpsz})
        assert same_result(baseline, again), text


@SETTINGS
@given(seed=SEEDS, profile=st.sampled_from(["sg", "tw", "hk"]))
def test_every_wait_wins_and_no_other_tile_does(seed: int, profile: str) -> None:
    rng = random.Random(seed)
    tiles = random_tiles(rng, PROFILE_SETS[profile], one_suit=rng.random() < 0.5)
    waiting = tiles[:]
    waiting.pop(rng.randrange(len(waiting)))
    if rng.random() < 0.3:
        waiting[rng.randrange(len(waiting))] = Tile(rng.randrange(KINDS))
    text = format_tiles(waiting)
    short = score({"profile": profile, "hand": text})
    if not short.valid and "one tile short" not in str(short.error):
        return  # the swap made a fifth copy: not a hand at all
    waits = set(short.waits)
    held = [0] * KINDS
    for tile in waiting:
        held[tile] += 1
    for kind in range(KINDS):
        tile = Tile(kind)
        if held[kind] >= 4:
            assert tile not in waits
            continue
        request = {"profile": profile, "hand": text + tile.mpsz, "options": no_minimum(profile)}
        result = score(request)
        assert result.valid == (tile in waits), (text, tile.mpsz, result.error)


@SETTINGS
@given(
    seed=SEEDS,
    profile=st.sampled_from(sorted(PROFILE_SETS)),
    extra=st.integers(min_value=1, max_value=12),
)
def test_a_bonus_tile_never_lowers_the_tai_unless_a_rule_says_so(
    seed: int, profile: str, extra: int
) -> None:
    request = random_request(random.Random(seed), profile)
    bonus = request.get("bonus", "")
    tile = f"{extra}f" if extra <= 8 else f"{extra - 8}a"
    if tile in {f"{digit}f" for digit in bonus.rstrip("f")} or (
        profile in REFUSE_ANIMALS and extra > 8
    ):
        return
    before = score(request)
    after = score({**request, "bonus": f"{bonus} {tile}".strip()})
    assert before.valid and after.valid
    if after.raw_tai < before.raw_tai:
        lost = {p.id for p in before.patterns} - {p.id for p in after.patterns}
        assert lost & NEEDS_NO_BONUS, (request, tile, lost)
