"""Riichi against the `mahjong` library (a test dependency, never imported by src/): seeded
random hands per table (300 in `make check`, 20,000 in `make test`, where every yaku and
yakuman the table plays must come up), han, fu, yakuman, the winner's takings and the yaku
compared, 0 disagreements, the coverage of the patterns printed.

Differences on purpose, adjusted here and listed in docs/rules-riichi.md: with
`multiple_yakuman` off (the EMA and WRC presets) a hand is one yakuman, where the library adds
them (`library_expectation`); a pair of the seat wind that is also the round wind earns 2 fu in
the M-League preset and 4 in the library (`on_library_rules`: such a hand is compared as
Companion scores it under the library's rule). The library's other switches are set to the
table's (open tanyao, red fives, kiriage, kazoe, double yakuman, renhou). Liability (pao),
several winners on one discard and head bump are Companion's alone (the library scores one hand
for one winner): tests/test_riichi_profile.py and tests/test_riichi.py check them against
payments worked out by hand. Requests Companion refuses as impossible and the library scores
(chankan on a tile the winner holds another copy of, tenhou with riichi...) are never drawn
(`draw_hand`), so that no refusal goes uncompared.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from mahjong.constants import AKA_DORAS
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld as LibraryMeld

from companion.errors import NotAWinError
from companion.rules.riichi import PRESETS, RiichiOptions, RiichiResult, read_options, score_riichi
from companion.rules.riichi.yaku import patterns_of
from companion.tiles import Tile, Wind

HANDS_IN_CHECK = 300
"""Hands drawn per table in `make check`."""
HANDS_IN_TEST = 20_000
"""Hands drawn per table in `make test` (the slow tests)."""
SUITS = "mps"


@dataclass
class Drawn:
    """One random hand: Companion's request fields and the library's arguments."""

    fields: dict[str, Any]
    tiles: list[int] = field(default_factory=list)
    """Every tile, in the library's 136 numbering."""
    win_tile: int = 0
    melds: list[LibraryMeld] = field(default_factory=list)
    dora: list[int] = field(default_factory=list)
    ura_dora: list[int] = field(default_factory=list)


def mpsz(kind: int) -> str:
    return Tile(kind).mpsz


POOLS: list[tuple[float, list[int], float]] = [
    (0.42, list(range(34)), 0.55),
    (0.6, [*range(9), *range(27, 34)], 0.55),  # one suit and honors: honitsu, yakuhai
    (0.7, list(range(9, 18)), 0.55),  # one suit: chinitsu, ittsu
    (0.76, [0, 8, 9, 17, 18, 26, *range(27, 34)], 0.55),  # terminals and honors
    (0.79, [0, 8, 9, 17, 18, 26], 0.55),  # terminals: chinroutou
    (0.84, list(range(27, 34)), 0.55),  # honors: tsuuiisou, the dragon yakuman
    (0.88, [27, 28, 29, 30, 27, 28, 29, 30, 8, 17], 0.0),  # winds: the wind yakuman
    (0.93, [19, 20, 21, 23, 25, 32], 0.55),  # green tiles
    (1.0, [0, 1, 2, 6, 7, 8, 9, 10, 11, 15, 16, 17, 18, 19, 20, 24, 25, 26], 0.55),  # outside chows
]
"""The kinds a hand is drawn from, each with its share (cumulative) and how often a set is a
chow, so that the rarer yaku and yakuman come up too."""


def red_text(tile: int, reds: bool) -> str:
    """A tile of the library's 136 numbering in MPSZ: its first five of a suit is red where the
    preset has red fives (as in the library)."""
    return f"0{mpsz(tile // 4)[1]}" if reds and tile in AKA_DORAS else mpsz(tile // 4)


def draw_hand(rng: random.Random, reds: bool, renhou: bool) -> Drawn | None:
    """Four sets and a pair (some declared), seven pairs or thirteen orphans, with a random
    winning tile, seat, round, win and events; None when the tiles ran out."""
    used = Counter[int]()

    def take(kind: int, count: int) -> bool:
        if used[kind] + count > 4:
            return False
        used[kind] += count
        return True

    sets: list[tuple[str, int]] = []  # (kind of group, first tile)
    shape = rng.random()
    concealed: list[int] = []
    declared: list[tuple[str, int]] = []
    if shape < 0.06:
        orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        concealed = [*orphans, rng.choice(orphans)]
    elif shape < 0.16:
        kinds = rng.sample(range(34), 7)
        concealed = [kind for kind in kinds for _ in range(2)]
    elif shape < 0.18:
        # Nine gates: 1112345678999 of a suit and one more of it.
        first = 9 * rng.randrange(3)
        ranks = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9)]
        concealed = [first + rank for rank in ranks]
    else:
        kong_rate = 0.9 if rng.random() < 0.04 else 0.08
        # Lean on few suits and on honors now and then, so the rarer yaku are drawn too.
        roll = rng.random()
        pool, chow_rate = next((kinds, chows) for share, kinds, chows in POOLS if roll < share)
        for _ in range(4):
            for _attempt in range(20):
                if rng.random() < chow_rate:
                    first = rng.choice([k for k in pool if k < 27 and k % 9 < 7] or [0])
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
            declare = rng.random() < (0.9 if kind == "kong" else 0.25)
            if declare:
                declared.append((kind, first))
            elif kind == "chow":
                concealed += [first, first + 1, first + 2]
            else:
                concealed += [first] * 3
        concealed += [pair, pair]
        if len(declared) == 4 and all(kind == "chow" for kind, _ in declared):
            return None
    win = rng.choice(concealed)
    by_discard = rng.random() < 0.5
    seat, round_wind = rng.choice(list(Wind)), rng.choice([Wind.EAST, Wind.SOUTH])
    meld_texts: list[str] = []
    library_melds: list[LibraryMeld] = []
    closed_kongs = 0
    copies = Counter[int]()

    def ids_of(kind: int, count: int) -> list[int]:
        found = [kind * 4 + copies[kind] + offset for offset in range(count)]
        copies[kind] += count
        return found

    all_tiles: list[int] = []
    for kind, first in declared:
        if kind == "chow":
            tiles = [tile for step in range(3) for tile in ids_of(first + step, 1)]
            meld_texts.append("chow " + "".join(red_text(tile, reds) for tile in tiles))
            library_melds.append(LibraryMeld(LibraryMeld.CHI, tiles))
        elif kind == "pung":
            tiles = ids_of(first, 3)
            meld_texts.append("pung " + "".join(red_text(tile, reds) for tile in tiles))
            library_melds.append(LibraryMeld(LibraryMeld.PON, tiles))
        else:
            concealed_kong = rng.random() < 0.5
            closed_kongs += concealed_kong
            tiles = ids_of(first, 4)
            written = "".join(red_text(tile, reds) for tile in tiles)
            meld_texts.append(f"{'ckong' if concealed_kong else 'kong'} {written}")
            library_melds.append(LibraryMeld(LibraryMeld.KAN, tiles, opened=not concealed_kong))
        all_tiles += tiles
    concealed_ids = [ids_of(kind, 1)[0] for kind in concealed]
    all_tiles += concealed_ids
    win_tile = next(tile for tile in concealed_ids if tile // 4 == win)
    open_hand = len(declared) > closed_kongs
    events: list[str] = []
    riichi = not open_hand and rng.random() < 0.5
    if riichi:
        events.append("double_riichi" if rng.random() < 0.1 else "riichi")
        if rng.random() < 0.2:
            events.append("ippatsu")
    roll = rng.random()
    if roll < 0.05:
        events.append("last_discard" if by_discard else "last_tile")
    elif roll < 0.08 and not by_discard and any(kind == "kong" for kind, _ in declared):
        events.append("replacement")
    elif roll < 0.1 and by_discard and copies[win] == 1:
        # The robbed tile is a kong's fourth copy: a winner holding another is refused (the
        # library scores it), so chankan is drawn only for a winning tile held once.
        events.append("robbing_kong")
    elif roll < 0.13 and not declared and not riichi:
        # A win in the first go-around: tenhou, chiihou, or renhou where it is played.
        if not by_discard:
            events.append("heavenly" if seat is Wind.EAST else "earthly")
        elif renhou and seat is not Wind.EAST:
            events.append("renhou")
    indicator = rng.randrange(34)
    under = rng.randrange(34) if riichi else None
    rest = list(concealed_ids)
    rest.remove(win_tile)
    fields: dict[str, Any] = {
        # The winning tile written last: the hand's last tile is the one that arrived.
        "hand": "".join(red_text(tile, reds) for tile in rest) + red_text(win_tile, reds),
        "win_tile": mpsz(win),
        "win": "discard" if by_discard else "self_draw",
        "seat": seat.value,
        "round": round_wind.value,
        "discarder": seat.next(rng.randrange(1, 4)).value if by_discard else None,
        "melds": meld_texts,
        "dora": mpsz(indicator),
        "ura_dora": mpsz(under) if under is not None else (),
        "events": events,
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
    return config_of(drawn.fields, read_options(table))


def config_of(
    fields: dict[str, Any], options: RiichiOptions, *, three_player: bool = False
) -> HandConfig:
    """The library's `HandConfig` for a drawn hand's fields and the table's options; the honba,
    the riichi sticks and the kita where the fields hold them (the sanma test draws them; the
    library's default is 0), and its three-player mode for sanma's test."""
    events = set(fields["events"])
    return HandConfig(
        is_tsumo=fields["win"] == "self_draw",
        is_riichi="riichi" in events,
        is_daburu_riichi="double_riichi" in events,
        is_ippatsu="ippatsu" in events,
        is_rinshan="replacement" in events,
        is_chankan="robbing_kong" in events,
        is_haitei="last_tile" in events,
        is_houtei="last_discard" in events,
        is_tenhou="heavenly" in events,
        is_chiihou="earthly" in events,
        is_renhou="renhou" in events,
        player_wind=Tile.EAST + Wind(fields["seat"]).index,
        round_wind=Tile.EAST + Wind(fields["round"]).index,
        tsumi_number=fields.get("honba", 0),
        kyoutaku_number=fields.get("riichi_sticks", 0),
        num_nuki_dora=fields.get("kita", 0),
        options=OptionalRules(
            has_open_tanyao=options.open_tanyao,
            has_aka_dora=options.red_fives,
            has_double_yakuman=options.double_yakuman,
            kazoe_limit=(
                HandConfig.KAZOE_LIMITED
                if options.kazoe == "yakuman"
                else HandConfig.KAZOE_SANBAIMAN
            ),
            kiriage=options.kiriage,
            fu_for_open_pinfu=True,
            fu_for_pinfu_tsumo=False,
            renhou_as_yakuman=options.renhou == "yakuman",
            is_three_player=three_player,
        ),
    )


def hands(table: dict[str, Any], count: int) -> Iterator[Drawn]:
    rng = random.Random(f"riichi-{sorted(table.items())}")
    options = read_options(table)
    reds, renhou = options.red_fives, options.renhou != "off"
    made = 0
    while made < count:
        drawn = draw_hand(rng, reds, renhou)
        if drawn is not None:
            made += 1
            yield drawn


TABLES = [
    *({"preset": preset} for preset in sorted(PRESETS)),
    {"preset": "tenhou", "double_yakuman": True, "kiriage": True, "renhou": "yakuman"},
    {"preset": "mleague", "open_tanyao": False, "kazoe": "yakuman"},
]
"""Each preset, and two with fields set on their own."""


@pytest.mark.parametrize("table", TABLES, ids=lambda table: "-".join(map(str, table.values())))
def test_riichi_agrees_with_the_mahjong_library(table: dict[str, Any]) -> None:
    compare(table, HANDS_IN_CHECK)


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=lambda table: "-".join(map(str, table.values())))
def test_riichi_agrees_with_the_mahjong_library_on_every_yaku(table: dict[str, Any]) -> None:
    """20,000 hands a table, and every yaku and yakuman the table plays among them."""
    coverage = compare(table, HANDS_IN_TEST)
    options = read_options(table)
    played = {pattern.id for pattern in patterns_of(options)} | {"dora", "ura_dora"}
    if options.red_fives:
        played.add("aka_dora")
    assert sorted(played - coverage.keys()) == []


def compare(table: dict[str, Any], count: int) -> Counter[str]:
    """Score `count` hands drawn for the table with both, assert they agree, print and return
    how often each pattern came up."""
    disagreements: list[str] = []
    coverage = Counter[str]()
    scored = 0
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
            ours = score_riichi(hand, **fields)
        except NotAWinError as refusal:
            if response.error is None:
                disagreements.append(f"{drawn.fields}: refused ({refusal}), library {response.han}")
            continue
        if response.error is not None:
            disagreements.append(f"{drawn.fields}: scored, library {response.error}")
            continue
        scored += 1
        coverage.update(pattern.id for pattern in ours.patterns)
        if on_library_rules(ours, drawn, table):
            ours = score_riichi(hand, **{**fields, "options": {**fields["options"], **LIBRARY}})
        expected = library_expectation(response, table)
        if ours.limit is not None:
            # Past a limit the fu pay nothing: the points are compared, not the fu.
            expected["fu"] = None
        found = {
            "han": ours.han if not ours.yakuman else 0,
            "fu": ours.fu if not ours.yakuman and ours.limit is None else None,
            "yakuman": ours.yakuman,
            "paid": paid(ours.payments, Wind(drawn.fields["seat"])),
            "yaku": our_yaku(ours),
        }
        expected["yaku"] = library_yaku(response)
        if found != expected:
            disagreements.append(f"{drawn.fields}: ours {found}, library {expected}")
    print(f"\n{table}: {scored} hands scored; coverage {dict(sorted(coverage.items()))}")
    assert disagreements == []
    return coverage


OUR_ID = {
    "tsumo": "menzen_tsumo",
    "daburu_riichi": "double_riichi",
    "iipeiko": "iipeikou",
    "chantai": "chanta",
    "honroto": "honroutou",
    "sanshoku_douko": "sanshoku_doukou",
    "shosangen": "shousangen",
    "ryanpeiko": "ryanpeikou",
    "chuuren_poutou": "chuuren",
    "shosuushi": "shousuushii",
    "ryuisou": "ryuuiisou",
    "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou",
    "daisuushi": "daisuushii",
    "daburu_kokushi": "kokushi_13",
    "daburu_chuuren_poutou": "junsei_chuuren",
    "renhou_yakuman": "renhou",
    **dict.fromkeys(("haku", "hatsu", "chun"), "yakuhai_dragon"),
    **{f"seat_wind_{wind}": "yakuhai_seat" for wind in ("east", "south", "west", "north")},
    **{f"round_wind_{wind}": "yakuhai_round" for wind in ("east", "south", "west", "north")},
}
"""Companion's id of each of the library's yaku, where the names differ (the library has one
yakuhai per tile; Companion one per role, counted)."""
_LIBRARY_NAMES = {yaku.yaku_id: name for name, yaku in vars(YakuConfig()).items()}


def library_yaku(response: Any) -> Counter[str]:
    names = (_LIBRARY_NAMES[yaku.yaku_id] for yaku in response.yaku)
    return Counter(OUR_ID.get(name, name) for name in names)


def our_yaku(ours: RiichiResult) -> Counter[str]:
    found = Counter[str]()
    for pattern in ours.patterns:
        found[pattern.id] += pattern.count if pattern.id.startswith("yakuhai") else 1
    return found


LIBRARY = {"double_wind_pair_fu": 4}
"""The library's rule where a preset's differs on purpose: a pair of a wind that is both the
seat and the round wind earns 4 fu in the library, 2 in the M-League preset."""


def on_library_rules(ours: RiichiResult, drawn: Drawn, table: dict[str, Any]) -> bool:
    """Whether this hand scores differently under the preset's rule than under the library's
    (`LIBRARY`): then the library is held to Companion's score under the library's rule."""
    seat, round_wind = drawn.fields["seat"], drawn.fields["round"]
    wind = Wind(seat).tile.mpsz
    double_wind_pair = seat == round_wind and any(
        item.reason == f"pair {wind[0]}{wind}" for item in ours.fu_items
    )
    return double_wind_pair and read_options(table).double_wind_pair_fu == 2


def paid(payments: dict[Wind, int], seat: Wind) -> int:
    return payments[seat]


def library_expectation(response: Any, table: dict[str, Any]) -> dict[str, Any]:
    """The library's result as ours should read: its yakuman count from its han (13 a
    yakuman), and, where `multiple_yakuman` is off, one yakuman at most."""
    options = read_options(table)
    yakuman = sum(
        (yaku.han_open if response.is_open_hand else yaku.han_closed) // 13
        for yaku in response.yaku
        if yaku.is_yakuman
    )
    cost = response.cost
    total = cost["total"]
    if yakuman and not options.multiple_yakuman and yakuman > 1:
        total = total // yakuman  # one yakuman: the library's payments scale with the count
        yakuman = 1
    return {
        "han": 0 if yakuman else response.han,
        "fu": None if yakuman else response.fu,
        "yakuman": yakuman,
        "paid": total,
    }
