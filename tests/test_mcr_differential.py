"""MCR against PyMahjongGB (a test dependency, never imported by src/): seeded random hands
drawn so that every fan comes up (400 in `make check`, 20,000 in `make test`), the fan total
and the list of fan compared, 0 disagreements, the coverage printed; and every payment sums to
zero, the winner paid exactly when the hand reaches the minimum.

Where PyMahjongGB (a 2018 copy of ChineseOfficialMahjong's calculator) differs from the rule
book on purpose, the rule book is held here, with the hand that shows it (docs/rules-mcr.md
lists it). Where the current calculator (ChineseOfficialMahjongHelper) sides with PyMahjongGB
against the rule book, Companion does too: one melded and one concealed kong are 明暗杠, 5 fan,
not a concealed kong (2) and a melded kong (1) (`melded_and_concealed_kong`).

- A kind whose four copies the hand holds is no wait: the library counts the waits of the
  shape, so that 1112345679999m waits on 8m and 9m and a win on 8m is no closed wait; Companion
  counts 8m alone and the closed wait (`dead_wait`, `agrees`: such a hand may have one wait fan
  more than the library, or another reading that the wait fan makes worth as much).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from MahjongGB import MahjongFanCalculator

from companion.hand import Hand
from companion.rules.mcr import FANS, FLOWER, McrResult, score_mcr
from companion.rules.mcr.facts import McrContext
from companion.rules.mcr.request import build_request
from companion.rules.mcr.shapes import KNITTED, complete_as_shape
from companion.tiles import TERMINALS_AND_HONORS, Tile, Wind

HANDS_IN_CHECK = 400
HANDS_IN_TEST = 20_000
SEATS = "ESWN"
NAMES = {
    **{fan.hans: fan.id for fan in (*FANS, FLOWER)},
    "独听・边张": "edge_wait",
    "独听・嵌张": "closed_wait",
    "独听・单钓": "single_wait",
}
"""The library's names of the fan: the rule book's, and its own for the three waits."""


def library_tile(kind: int) -> str:
    if kind < 27:
        return "WBT"[kind // 9] + str(kind % 9 + 1)
    if kind < 31:
        return f"F{kind - 26}"
    return f"J{3 - (kind - 31)}"  # white 5z is J3, green J2, red J1


def mpsz(kind: int) -> str:
    return Tile(kind).mpsz


@dataclass
class Drawn:
    fields: dict[str, Any]
    concealed: list[int] = field(default_factory=list)
    winning: int = 0
    packs: list[tuple[str, str, int]] = field(default_factory=list)
    flags: dict[str, Any] = field(default_factory=dict)


POOLS: list[tuple[float, list[int], float]] = [
    (0.30, list(range(34)), 0.6),
    (0.42, [*range(9), *range(27, 34)], 0.5),  # one suit and honors
    (0.54, list(range(9, 18)), 0.6),  # one suit
    (0.60, [0, 8, 9, 17, 18, 26, *range(27, 34)], 0.2),  # terminals and honors
    (0.63, [0, 8, 9, 17, 18, 26], 0.3),  # terminals
    (0.68, list(range(27, 34)), 0.0),  # honors
    (0.72, [19, 20, 21, 23, 25, 32], 0.5),  # green
    (0.76, [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31], 0.5),  # reversible
    (0.80, [*range(4), *range(9, 13), *range(18, 22)], 0.6),  # lower
    (0.84, [*range(5, 9), *range(14, 18), *range(23, 27)], 0.6),  # upper
    (0.88, [3, 4, 5, 12, 13, 14, 21, 22, 23], 0.6),  # middle
    (0.92, [1, 3, 5, 7, 10, 12, 14, 16, 19, 21, 23, 25], 0.0),  # even pungs
    (1.0, [0, 1, 2, 6, 7, 8, 9, 10, 11, 15, 16, 17, 18, 19, 20, 24, 25, 26], 0.7),  # outside
]


def _chow_starts(rng: random.Random, pool: list[int]) -> list[int]:
    """Chows that make the combination fan: a few patterns of lowest tiles."""
    suit = 9 * rng.randrange(3)
    suits = rng.sample([0, 9, 18], 3)
    rank = rng.randrange(5)
    shapes = [
        [suit + rank, suit + rank + 1, suit + rank + 2],
        [suit + rank, suit + rank + 2, suit + rank + 4] if rank < 3 else [suit, suit + 2, suit + 4],
        [suit, suit + 3, suit + 6],
        [suits[0] + rank, suits[1] + rank, suits[2] + rank],
        [suits[0] + rank, suits[1] + rank + 1, suits[2] + rank + 2],
        [suits[0], suits[1] + 3, suits[2] + 6],
        [suit + rank] * 3,
        [suit + rank, suit + rank + 3],
        [suit, suit + 6],
        [suits[0] + rank, suits[1] + rank],
        [suit + rank, suit + rank],
    ]
    return rng.choice(shapes)


def draw_hand(rng: random.Random) -> Drawn | None:
    used = Counter[int]()

    def take(kind: int, count: int) -> bool:
        if used[kind] + count > 4:
            return False
        used[kind] += count
        return True

    shape = rng.random()
    concealed: list[int] = []
    melds: list[str] = []
    packs: list[tuple[str, str, int]] = []
    groups: list[tuple[str, int]] = []  # ("chow"/"pung"/"kong", first) of four sets
    pair = -1
    if shape < 0.04:
        concealed = [*TERMINALS_AND_HONORS, rng.choice(TERMINALS_AND_HONORS)]
    elif shape < 0.11:
        if rng.random() < 0.25:
            first = 9 * rng.randrange(3) + rng.randrange(3)
            kinds = list(range(first, first + 7))
        else:
            pool = rng.choice(POOLS)[1]
            kinds = [kind for kind in (rng.choice(pool) for _ in range(7)) if take(kind, 2)]
            if len(kinds) != 7:
                return None
        concealed = [kind for kind in kinds for _ in range(2)]
    elif shape < 0.16:
        straight = list(rng.choice(KNITTED))
        honors = list(range(27, 34))
        numbered = rng.randint(7, 9) if rng.random() < 0.7 else 7
        concealed = [*rng.sample(straight, numbered), *rng.sample(honors, 14 - numbered)]
    elif shape < 0.18:
        first = 9 * rng.randrange(3)
        ranks = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9)]
        concealed = [first + value for value in ranks]
    else:
        knitted = shape < 0.24
        if knitted:
            straight = list(rng.choice(KNITTED))
            for tile in straight:
                take(tile, 1)
        roll = rng.random()
        pool, chow_rate = next((kinds, chows) for share, kinds, chows in POOLS if roll < share)
        kong_rate = 0.7 if rng.random() < 0.05 else 0.08
        wanted = 1 if knitted else 4
        forced_pair = -1
        if not knitted and rng.random() < 0.02:
            # 123 and 789 twice and a pair of fives: one suit, or three (双龙会).
            suits = rng.sample([0, 9, 18], 3)
            chosen = [suits[0], suits[0]] if rng.random() < 0.5 else [suits[1], suits[2]]
            for first in (chosen[0], chosen[0] + 6, chosen[1], chosen[1] + 6):
                for step in range(3):
                    take(first + step, 1)
                groups.append(("chow", first))
            forced_pair = suits[0] + 4
        if not knitted and rng.random() < 0.35 and chow_rate:
            for start in _chow_starts(rng, pool):
                if start % 9 < 7 and all(take(start + step, 1) for step in range(3)):
                    groups.append(("chow", start))
        if not knitted and rng.random() < 0.12:
            suit = 9 * rng.randrange(3)
            starts = rng.choice(
                [
                    [suit + 0, suit + 1, suit + 2],
                    [27, 28, 29],
                    [31, 32],
                    [31, 32, 33],
                    [suit + 1, suit + 10 if suit < 18 else 1, suit + 19 if suit < 9 else 19],
                ]
            )
            for start in starts:
                if start < 34 and take(start, 3):
                    groups.append(("pung", start))
        for _ in range(60):
            if len(groups) >= wanted:
                break
            if rng.random() < chow_rate:
                first = rng.choice([k for k in pool if k < 27 and k % 9 < 7] or [0])
                if all(used[first + step] < 4 for step in range(3)):
                    for step in range(3):
                        take(first + step, 1)
                    groups.append(("chow", first))
            else:
                kind = rng.choice(pool)
                kong = rng.random() < kong_rate
                if take(kind, 4 if kong else 3):
                    groups.append(("kong" if kong else "pung", kind))
        if len(groups) != wanted:
            return None
        for _ in range(20):
            kind = forced_pair if forced_pair >= 0 else rng.choice(pool)
            if take(kind, 2):
                pair = kind
                break
        else:
            return None
        if knitted:
            concealed.extend(straight)
        declared_rate = rng.choice([0.0, 0.0, 0.2, 0.5, 1.0])
        for kind, first in groups:
            if kind == "chow":
                tiles = [first, first + 1, first + 2]
            else:
                tiles = [first] * (3 if kind == "pung" else 4)
            if kind != "kong" and rng.random() >= declared_rate:
                concealed.extend(tiles)
            elif kind == "chow":
                melds.append(f"chow {''.join(mpsz(tile) for tile in tiles)}")
                packs.append(("CHI", library_tile(first + 1), 1))
            elif kind == "pung":
                melds.append(f"pung {mpsz(first) * 3}")
                packs.append(("PENG", library_tile(first), 1))
            else:
                exposed = rng.random() < 0.5
                kind_word = rng.choice(["kong", "akong"]) if exposed else "ckong"
                melds.append(f"{kind_word} {mpsz(first) * 4}")
                packs.append(("GANG", library_tile(first), 1 if exposed else 0))
        concealed.extend([pair, pair])
    if not concealed:
        return None
    winning = rng.choice(concealed)
    rest = list(concealed)
    rest.remove(winning)
    self_draw = rng.random() < 0.5
    seat = rng.choice(SEATS)
    round_wind = rng.choice(SEATS)
    total = Counter(concealed)
    in_melds = sum(meld_tiles.count(winning) for meld_tiles in _meld_tiles(melds))
    others = total[winning] - 1 + in_melds
    events: list[str] = []
    has_kong = any(meld.startswith(("kong", "ckong")) for meld in melds)
    if rng.random() < 0.1:
        events.append("last_tile")
    if rng.random() < 0.12 and total[winning] == 1:
        events.append("last_copy")
    if rng.random() < 0.15:
        if self_draw and has_kong:
            events.append("replacement")
        elif not self_draw and others == 0 and "last_tile" not in events:
            events.append("robbing_kong")
    fields: dict[str, Any] = {
        "hand": "".join(mpsz(tile) for tile in concealed),
        "win_tile": mpsz(winning),
        "melds": melds,
        "win": "self_draw" if self_draw else "discard",
        "seat": seat,
        "round": round_wind,
        "events": events,
    }
    if rng.random() < 0.1:
        flowers = rng.sample(range(1, 9), rng.randint(1, 8))
        fields["bonus"] = "".join(f"{number}f" for number in flowers)
        fields["options"] = {"flowers": True}
    if not self_draw:
        fields["discarder"] = rng.choice([s for s in SEATS if s != seat])
    flags = {
        "isSelfDrawn": self_draw,
        "is4thTile": "last_copy" in events or "robbing_kong" in events,
        "isAboutKong": "replacement" in events or "robbing_kong" in events,
        "isWallLast": "last_tile" in events,
        "seatWind": SEATS.index(seat),
        "prevalentWind": SEATS.index(round_wind),
        "flowerCount": len(fields.get("bonus", "")) // 2,
    }
    return Drawn(fields, rest, winning, packs, flags)


def built_request(fields: dict[str, Any]) -> tuple[Hand, McrContext, Wind | None]:
    """A drawn hand's fields read as the engine reads a request (`build_request`), for the
    bench and the tests that score a built hand."""
    return build_request(
        fields["hand"],
        fields["win_tile"],
        fields["win"],
        fields["seat"],
        fields["round"],
        fields.get("discarder"),
        fields["melds"],
        fields.get("bonus", ""),
        fields["events"],
        fields.get("options"),
    )


def _meld_tiles(melds: list[str]) -> list[list[int]]:
    from companion.hand import Meld

    return [[int(tile) for tile in Meld.parse(text).tiles] for text in melds]


def library_fan(drawn: Drawn) -> Counter[str] | None:
    try:
        found = MahjongFanCalculator(
            pack=tuple(drawn.packs),
            hand=tuple(library_tile(tile) for tile in drawn.concealed),
            winTile=library_tile(drawn.winning),
            verbose=True,
            **drawn.flags,
        )
    except TypeError as error:
        if "ERROR_NOT_WIN" in str(error):
            return None
        raise
    fan: Counter[str] = Counter()
    for _value, count, name, _english in found:
        fan[name] += count
    return fan


def library_expectation(fan: Counter[str]) -> Counter[str]:
    """The library's fan as the rule book counts them (the module's docstring)."""
    expected: Counter[str] = Counter()
    for name, count in fan.items():
        expected[NAMES[name]] += count
    return expected


WAIT_FAN = ("edge_wait", "closed_wait", "single_wait")


def shape_waits(counts: list[int], sets: int) -> list[int]:
    """The kinds that complete `sets` sets and a pair, copies not limited (the library's waits
    of the shape: a fifth copy counts)."""
    found = []
    for kind in range(34):
        counts[kind] += 1
        if complete_as_shape(counts, sets):
            found.append(kind)
        counts[kind] -= 1
    return found


def dead_wait(drawn: Drawn) -> bool:
    """Whether the hand's shape also waited on a kind it held all four of: the library counts
    that kind as a wait, so that the hand had two and earns no wait fan; the rule book (and
    Companion) count only the waits that can come, so the hand may earn one."""
    held = Counter(drawn.concealed)
    for pack_type, tile, _ in drawn.packs:
        kind = next(kind for kind in range(34) if library_tile(kind) == tile)
        held.update([kind - 1, kind, kind + 1] if pack_type == "CHI" else [kind] * 4)
    counts = [drawn.concealed.count(kind) for kind in range(34)]
    waits = set(shape_waits(counts, 4 - len(drawn.packs)))
    if not drawn.packs and sum(count % 2 for count in counts) == 1:
        waits |= {kind for kind in range(34) if counts[kind] % 2}
    return any(held[kind] >= 4 for kind in waits)


def agrees(got: Counter[str], expected: Counter[str], drawn: Drawn) -> bool:
    """The same fan; or, on a hand with a dead wait, one wait fan more, or another reading
    that the wait fan makes worth as much as the library's."""
    if got == expected:
        return True
    if not dead_wait(drawn):
        return False
    extra = got - expected
    one_more = not expected - got and sum(extra.values()) == 1 and set(extra) <= set(WAIT_FAN)
    as_much = total(got) == total(expected) and any(got[name] for name in WAIT_FAN)
    return one_more or as_much


def ours(result: McrResult) -> Counter[str]:
    return Counter({score.id: score.count for score in result.patterns})


def total(fan: Counter[str]) -> int:
    values = {item.id: item.value for item in (*FANS, FLOWER)}
    return sum(values[name] * count for name, count in fan.items())


def run(hands: int, seed: int) -> tuple[int, Counter[str], list[str]]:
    rng = random.Random(seed)
    compared = 0
    coverage: Counter[str] = Counter()
    problems: list[str] = []
    while compared < hands:
        drawn = draw_hand(rng)
        if drawn is None:
            continue
        library = library_fan(drawn)
        if library is None:
            continue
        expected = library_expectation(library)
        try:
            result = score_mcr(**drawn.fields)
        except Exception as error:
            problems.append(f"{drawn.fields}: refused ({error}); library {dict(expected)}")
            compared += 1
            continue
        got = ours(result)
        compared += 1
        coverage.update(got.keys())
        if got != expected and agrees(got, expected, drawn):
            coverage["(rule book: a dead wait)"] += 1
        paid = result.payments
        if sum(paid.values()) != 0 or (paid[Wind.parse(drawn.fields["seat"])] > 0) is not (
            result.meets_minimum
        ):
            problems.append(f"{drawn.fields}: payments {paid}")
        if not agrees(got, expected, drawn) or total(got) != result.fan:
            problems.append(f"{drawn.fields}:\n  ours    {dict(got)}\n  library {dict(expected)}")
    return compared, coverage, problems


def check(hands: int, seed: int, every_fan: bool) -> None:
    compared, coverage, problems = run(hands, seed)
    held = coverage["(rule book: a dead wait)"]
    print(
        f"\nmcr against PyMahjongGB: {compared} hands, {len(problems)} disagreements, "
        f"{held} compared as the rule book counts a dead wait"
    )
    print("coverage: " + ", ".join(f"{fan.id} {coverage[fan.id]}" for fan in (*FANS, FLOWER)))
    missing = [fan.id for fan in (*FANS, FLOWER) if not coverage[fan.id]]
    assert not problems, "\n".join(problems[:40])
    if every_fan:
        assert not missing, f"never drawn: {missing}"


def test_mcr_against_pymahjonggb() -> None:
    check(HANDS_IN_CHECK, 2026, every_fan=False)


@pytest.mark.slow
def test_mcr_against_pymahjonggb_many() -> None:
    check(HANDS_IN_TEST, 81, every_fan=True)


def test_a_melded_and_a_concealed_kong_as_the_current_calculator_counts_them() -> None:
    """明暗杠: one melded and one concealed kong are one fan of 5, as the library and the current
    calculator count them (the rule book's account-once would make them 2 + 1)."""
    fields = {
        "hand": "123s456s77z",
        "win_tile": "7z",
        "melds": ["kong 1111m", "ckong 5555p"],
        "win": "discard",
        "discarder": "S",
    }
    drawn = Drawn(
        fields,
        concealed=[18, 19, 20, 21, 22, 23, 33],
        winning=33,
        packs=[("GANG", "W1", 1), ("GANG", "B5", 0)],
        flags={
            "isSelfDrawn": False,
            "is4thTile": False,
            "isAboutKong": False,
            "isWallLast": False,
            "seatWind": 0,
            "prevalentWind": 0,
            "flowerCount": 0,
        },
    )
    library = library_fan(drawn)
    assert library == Counter({"明暗杠": 1, "连六": 1, "幺九刻": 1, "独听・单钓": 1})
    result = score_mcr(**fields)
    assert (
        ours(result)
        == library_expectation(library)
        == Counter(
            {
                "melded_and_concealed_kong": 1,
                "short_straight": 1,
                "pung_of_terminals_or_honors": 1,
                "single_wait": 1,
            }
        )
    )
    assert result.fan == 8


def test_a_dead_wait_as_the_rule_book_counts_it() -> None:
    """The hand of `dead_wait`: 1112345679999m waits on 8m alone, the four 9m being held."""
    fields = {"hand": "1112345679999m8m", "win": "discard", "discarder": "S"}
    drawn = Drawn(
        fields,
        concealed=[0, 0, 0, 1, 2, 3, 4, 5, 6, 8, 8, 8, 8],
        winning=7,
        flags={
            "isSelfDrawn": False,
            "is4thTile": False,
            "isAboutKong": False,
            "isWallLast": False,
            "seatWind": 0,
            "prevalentWind": 0,
            "flowerCount": 0,
        },
    )
    library = library_expectation(library_fan(drawn) or Counter())
    got = ours(score_mcr(**fields))
    assert got - library == Counter({"closed_wait": 1})
    assert dead_wait(drawn) and agrees(got, library, drawn)
