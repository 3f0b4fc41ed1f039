"""Sanma against the `mahjong` library's three-player mode (`OptionalRules(is_three_player=True)`,
`HandConfig(num_nuki_dora=N)`; a test dependency, never imported by src/): seeded random hands
of a table of three (the 2m-8m out of play, no claimed chow, kita 0 to 4, seats E, S and W,
honba and deposits; no contradiction the profile refuses and the library scores, such as chankan
of a tile the winner holds another copy of), 300 per table in `make check` and 6,000 per table,
24,000 in all, in `make test`, where every yaku and yakuman three players can make must come
up; han, fu, yakuman, the yaku and the winner's takings compared, 0 disagreements, the coverage
printed.

The library knows only the `tsumo` option `loss`. For `bisection` the winner's takings are
worked out from its figures as docs/rules-sanma.md says: on a self-draw each of the two payers
adds half of what the absent North would have paid (the library's `additional`, the payment of
a non-dealer payer at a table of four), rounded up to a hundred.

A difference on purpose, written once here and in docs/rules-sanma.md: the library counts each
North set aside, and the dora an indicator of North makes of them, as `dora`; Companion lists
the North tiles set aside as their own item, `kita` (1 han each), and counts in `dora` and
`ura_dora` what the indicators make of them. The han are the same; the comparison adds `kita`
to `dora` (`our_yaku`). Sanshoku doujun cannot happen with three players (its chow of
characters needs 2m-8m) and is the one yaku left out of the coverage.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld as LibraryMeld

from companion.errors import NotAWinError
from companion.rules.riichi import RiichiResult
from companion.rules.riichi.yaku import patterns_of
from companion.rules.sanma import read_options, score_sanma
from companion.tiles import Tile, Wind
from test_riichi_differential import config_of, library_yaku

HANDS_IN_CHECK = 300
"""Hands drawn per table in `make check`."""
HANDS_IN_TEST = 6_000
"""Hands drawn per table in `make test` (the slow tests): 24,000 over the four tables."""
SEATS = (Wind.EAST, Wind.SOUTH, Wind.WEST)
IN_PLAY = [0, 8, *range(9, 34)]
"""The kinds of a table of three: 1m, 9m, the circles, the bamboo and the honors."""
CHOW_STARTS = [first for first in range(9, 27) if first % 9 < 7]
"""The lowest tiles of a chow: circles and bamboo only."""
NORTH = int(Tile.NORTH)
RED_FIVES = (13 * 4, 22 * 4)
"""The red fives in the library's numbering (`mahjong.constants.AKA_DORAS` less 5m's)."""
UNDRAWN_YAKU = frozenset({"sanshoku"})
"""Yaku no hand of a table of three can make (a chow of characters needs 2m-8m)."""


@dataclass
class Drawn:
    """One random hand: Companion's request fields and the library's arguments."""

    fields: dict[str, Any]
    tiles: list[int] = field(default_factory=list)
    win_tile: int = 0
    melds: list[LibraryMeld] = field(default_factory=list)
    dora: list[int] = field(default_factory=list)
    ura_dora: list[int] = field(default_factory=list)


def mpsz(kind: int) -> str:
    return Tile(kind).mpsz


def text(tile: int, reds: bool) -> str:
    """A tile of the 136 numbering in MPSZ, a red five as `0p` or `0s` where they are played."""
    return f"0{mpsz(tile // 4)[1]}" if reds and tile in RED_FIVES else mpsz(tile // 4)


POOLS: list[tuple[float, list[int], float]] = [
    (0.4, IN_PLAY, 0.5),
    (0.55, [*range(9, 18), *range(27, 34)], 0.55),  # one suit and honors: honitsu, yakuhai
    (0.65, list(range(18, 27)), 0.55),  # one suit: chinitsu, ittsu
    (0.72, [0, 8, 9, 17, 18, 26, *range(27, 34)], 0.55),  # terminals and honors
    (0.76, [0, 8, 9, 17, 18, 26], 0.0),  # terminals: chinroutou
    (0.8, [0, 8, 9, 17, 18, 26, 13, 22, 31], 0.15),  # sanshoku doukou of the ones or nines
    (0.85, list(range(27, 34)), 0.55),  # honors: tsuuiisou, the dragon yakuman
    (0.88, [27, 28, 29, 30, 27, 28, 29, 30, 17, 26], 0.0),  # winds: the wind yakuman
    (0.93, [19, 20, 21, 23, 25, 32], 0.55),  # green tiles
    (1.0, [0, 8, 9, 10, 11, 15, 16, 17, 18, 19, 20, 24, 25, 26, 27, 31], 0.55),  # outside
]
"""The kinds a hand is drawn from, each with its share (cumulative) and how often a set is a
chow, so that the rarer yaku and yakuman come up too."""


def draw_hand(rng: random.Random, reds: bool, renhou: bool) -> Drawn | None:
    """Four sets and a pair (pungs and kongs declared now and then, chows never), seven pairs
    or thirteen orphans, of the tiles in play; a random winning tile, seat, round, win, events,
    kita, honba and deposits. None when the tiles ran out."""
    used = Counter[int]()

    def take(kind: int, count: int) -> bool:
        if used[kind] + count > 4:
            return False
        used[kind] += count
        return True

    sets: list[tuple[str, int]] = []
    concealed: list[int] = []
    declared: list[tuple[str, int]] = []
    shape = rng.random()
    if shape < 0.06:
        orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        concealed = [*orphans, rng.choice(orphans)]
    elif shape < 0.16:
        concealed = [kind for kind in rng.sample(IN_PLAY, 7) for _ in range(2)]
    elif shape < 0.18:
        first = 9 * rng.randrange(1, 3)  # nine gates of circles or bamboo
        ranks = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9)]
        concealed = [first + rank for rank in ranks]
    else:
        kong_rate = 0.9 if rng.random() < 0.04 else 0.08
        roll = rng.random()
        pool, chow_rate = next((kinds, chows) for share, kinds, chows in POOLS if roll < share)
        starts = [kind for kind in pool if kind in CHOW_STARTS]
        for _ in range(4):
            for _attempt in range(20):
                if starts and rng.random() < chow_rate:
                    first = rng.choice(starts)
                    if all(take(first + step, 1) for step in range(3)):
                        sets.append(("chow", first))
                        break
                else:
                    kind = rng.choice(pool)
                    kong = rng.random() < kong_rate
                    if take(kind, 4 if kong else 3):
                        sets.append(("kong" if kong else "pung", kind))
                        break
            else:
                return None
        pair = rng.choice(pool)
        if not take(pair, 2):
            return None
        for kind, first in sets:
            if kind != "chow" and rng.random() < (0.9 if kind == "kong" else 0.3):
                declared.append((kind, first))
            elif kind == "chow":
                concealed += [first, first + 1, first + 2]
            else:
                concealed += [first] * 3
        concealed += [pair, pair]
    held = Counter(concealed) + Counter(
        kind for sort, kind in declared for _ in range(4 if sort == "kong" else 3)
    )
    win = rng.choice(concealed)
    by_discard = rng.random() < 0.5
    seat, round_wind = rng.choice(SEATS), rng.choice([Wind.EAST, Wind.SOUTH])
    copies = Counter[int]()

    def ids_of(kind: int, count: int) -> list[int]:
        found = [kind * 4 + copies[kind] + offset for offset in range(count)]
        copies[kind] += count
        return found

    meld_texts: list[str] = []
    library_melds: list[LibraryMeld] = []
    all_tiles: list[int] = []
    closed_kongs = 0
    for sort, kind in declared:
        if sort == "pung":
            tiles = ids_of(kind, 3)
            meld_texts.append("pung " + "".join(text(tile, reds) for tile in tiles))
            library_melds.append(LibraryMeld(LibraryMeld.PON, tiles))
        else:
            concealed_kong = rng.random() < 0.5
            closed_kongs += concealed_kong
            tiles = ids_of(kind, 4)
            written = "".join(text(tile, reds) for tile in tiles)
            meld_texts.append(f"{'ckong' if concealed_kong else 'kong'} {written}")
            library_melds.append(LibraryMeld(LibraryMeld.KAN, tiles, opened=not concealed_kong))
        all_tiles += tiles
    concealed_ids = [ids_of(kind, 1)[0] for kind in concealed]
    all_tiles += concealed_ids
    win_tile = next(tile for tile in concealed_ids if tile // 4 == win)
    open_hand = len(declared) > closed_kongs
    kita = rng.randrange(4 - held[NORTH] + 1) if rng.random() < 0.5 else 0
    events: list[str] = []
    riichi = not open_hand and rng.random() < 0.5
    if riichi:
        events.append("double_riichi" if rng.random() < 0.1 else "riichi")
        if rng.random() < 0.2:
            events.append("ippatsu")
    roll = rng.random()
    kongs = any(sort == "kong" for sort, _ in declared)
    if roll < 0.05:
        events.append("last_discard" if by_discard else "last_tile")
    elif roll < 0.09 and not by_discard and (kongs or kita):
        events.append("replacement")  # after a kong, or after setting a North aside
    elif roll < 0.11 and by_discard and copies[win] == 1:
        # The robbed tile is a kong's fourth copy: a winner holding another is refused (the
        # library scores it), so chankan is drawn only for a winning tile held once.
        events.append("robbing_kong")
    elif roll < 0.14 and not declared and not riichi:
        if not by_discard:
            events.append("heavenly" if seat is Wind.EAST else "earthly")
        elif renhou and seat is not Wind.EAST:
            events.append("renhou")
    indicator = rng.choice(IN_PLAY)
    under = rng.choice(IN_PLAY) if riichi else None
    rest = list(concealed_ids)
    rest.remove(win_tile)
    others = [other for other in SEATS if other is not seat]
    fields: dict[str, Any] = {
        "hand": "".join(text(tile, reds) for tile in rest) + text(win_tile, reds),
        "win_tile": mpsz(win),
        "win": "discard" if by_discard else "self_draw",
        "seat": seat.value,
        "round": round_wind.value,
        "discarder": rng.choice(others).value if by_discard else None,
        "melds": meld_texts,
        "dora": mpsz(indicator),
        "ura_dora": mpsz(under) if under is not None else (),
        "events": events,
        "kita": kita,
        "honba": rng.choice((0, 0, 1, 2, 5)),
        "riichi_sticks": rng.choice((0, 0, 1, 3)),
    }
    return Drawn(
        fields,
        all_tiles,
        win_tile,
        library_melds,
        [indicator * 4],
        [under * 4] if under is not None else [],
    )


def library_config(drawn: Drawn, table: dict[str, Any]) -> HandConfig:
    return config_of(drawn.fields, read_options(table), three_player=True)


def hands(table: dict[str, Any], count: int) -> Iterator[Drawn]:
    rng = random.Random(f"sanma-{sorted(table.items())}")
    options = read_options(table)
    made = 0
    while made < count:
        drawn = draw_hand(rng, options.red_fives, options.renhou != "off")
        if drawn is not None:
            made += 1
            yield drawn


TABLES: list[dict[str, Any]] = [
    {},
    {"tsumo": "bisection"},
    {"tsumo": "bisection", "double_yakuman": True, "kiriage": True, "renhou": "yakuman"},
    {"open_tanyao": False, "kazoe": "sanbaiman", "red_fives": False},
]
"""Sanma's defaults (`tsumo` `loss`), `bisection`, and switches set on their own."""


def table_id(table: dict[str, Any]) -> str:
    return "-".join(map(str, table.values())) or "defaults"


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_sanma_agrees_with_the_mahjong_librarys_three_player_mode(table: dict[str, Any]) -> None:
    compare(table, HANDS_IN_CHECK)


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_sanma_agrees_with_the_mahjong_library_on_every_yaku(table: dict[str, Any]) -> None:
    """6,000 hands a table, and every yaku and yakuman of a table of three among them."""
    coverage = compare(table, HANDS_IN_TEST)
    options = read_options(table)
    played = {pattern.id for pattern in patterns_of(options)} - UNDRAWN_YAKU
    played |= {"dora", "ura_dora", "kita"} | ({"aka_dora"} if options.red_fives else set())
    assert sorted(played - coverage.keys()) == []


def compare(table: dict[str, Any], count: int) -> Counter[str]:
    """Score `count` hands drawn for the table with both, assert they agree, print and return
    how often each pattern came up (and each number of kita, and the self-draws)."""
    disagreements: list[str] = []
    coverage = Counter[str]()
    scored = 0
    bisection = read_options(table).tsumo == "bisection"
    for drawn in hands(table, count):
        response = HandCalculator.estimate_hand_value(
            drawn.tiles,
            drawn.win_tile,
            melds=drawn.melds,
            dora_indicators=drawn.dora,
            ura_dora_indicators=drawn.ura_dora,
            config=library_config(drawn, table),
        )
        fields = {**drawn.fields, "options": table}
        hand = fields.pop("hand")
        try:
            ours = score_sanma(hand, **fields)
        except NotAWinError as refusal:
            if response.error is None:
                disagreements.append(f"{drawn.fields}: refused ({refusal}), library {response.han}")
            continue
        if response.error is not None:
            disagreements.append(f"{drawn.fields}: scored, library {response.error}")
            continue
        scored += 1
        coverage.update(pattern.id for pattern in ours.patterns)
        coverage[f"kita={drawn.fields['kita']}"] += 1
        coverage[drawn.fields["win"]] += 1
        expected = library_expectation(response, bisection)
        seat = Wind(drawn.fields["seat"])
        found = {
            "han": ours.han if not ours.yakuman else 0,
            "fu": ours.fu if not ours.yakuman and ours.limit is None else None,
            "yakuman": ours.yakuman,
            "paid": ours.payments[seat] + ours.deposits,
            "yaku": our_yaku(ours),
        }
        if ours.limit is not None:
            expected["fu"] = None  # past a limit the fu pay nothing
        expected["yaku"] = library_yaku(response)
        if found != expected:
            disagreements.append(f"{drawn.fields}: ours {found}, library {expected}")
    print(f"\nsanma {table}: {scored} hands scored; coverage {dict(sorted(coverage.items()))}")
    assert disagreements == []
    return coverage


def our_yaku(ours: RiichiResult) -> Counter[str]:
    """Our patterns as the library names them: a yakuhai counted once a tile, and the kita one
    item with the dora (the difference on purpose: the library's `dora` holds both)."""
    found = Counter[str]()
    for pattern in ours.patterns:
        if pattern.id in ("dora", "kita"):
            found["dora"] = 1
        else:
            found[pattern.id] += pattern.count if pattern.id.startswith("yakuhai") else 1
    return found


def _up(points: int) -> int:
    return -(-points // 100) * 100


def library_expectation(response: Any, bisection: bool) -> dict[str, Any]:
    """The library's result as ours should read: its yakuman count from its han (13 a
    yakuman), and the winner's takings, with `bisection` worked out from its figures."""
    yakuman = sum(
        (yaku.han_open if response.is_open_hand else yaku.han_closed) // 13
        for yaku in response.yaku
        if yaku.is_yakuman
    )
    cost = response.cost
    total = cost["total"]
    if bisection and cost["additional"]:
        # A self-draw: North's payment (a non-dealer payer's at a table of four) split in two.
        total += 2 * _up(cost["additional"] // 2)
    return {
        "han": 0 if yakuman else response.han,
        "fu": None if yakuman else response.fu,
        "yakuman": yakuman,
        "paid": total,
    }
