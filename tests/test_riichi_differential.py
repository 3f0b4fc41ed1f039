"""Riichi against the `mahjong` library (a test dependency, never imported by src/): seeded
random hands per preset, han, fu, yakuman, the limit and the payments compared, 0
disagreements, the coverage of the yaku printed.

Differences on purpose, adjusted here in `library_expectation` and listed in
docs/rules-riichi.md: with `multiple_yakuman` off (the EMA and WRC presets) a hand is one
yakuman, where the library adds them; and the library's other house rules are set to the
preset's (open tanyao, kiriage, kazoe, no double yakuman). Red fives, renhou, liability and
several winners are not drawn here yet.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld as LibraryMeld

from companion.errors import NotAWinError
from companion.rules.riichi import PRESETS, read_options, score_riichi
from companion.tiles import Tile, Wind

HANDS_PER_PRESET = 300
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


def draw_hand(rng: random.Random) -> Drawn | None:
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
    else:
        # Lean on few suits and on honors now and then, so the rarer yaku are drawn too.
        pool = list(range(34)) if rng.random() < 0.6 else [*range(9), *range(27, 34)]
        for _ in range(4):
            for _attempt in range(20):
                if rng.random() < 0.55:
                    first = rng.choice([k for k in pool if k < 27 and k % 9 < 7] or [0])
                    if all(take(first + step, 1) for step in range(3)):
                        sets.append(("chow", first))
                        break
                else:
                    kind = rng.choice(pool)
                    kong = rng.random() < 0.08
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
            meld_texts.append(f"chow {mpsz(first)}")
            library_melds.append(LibraryMeld(LibraryMeld.CHI, tiles))
        elif kind == "pung":
            tiles = ids_of(first, 3)
            meld_texts.append(f"pung {mpsz(first)}")
            library_melds.append(LibraryMeld(LibraryMeld.PON, tiles))
        else:
            concealed_kong = rng.random() < 0.5
            closed_kongs += concealed_kong
            tiles = ids_of(first, 4)
            meld_texts.append(f"{'ckong' if concealed_kong else 'kong'} {mpsz(first)}")
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
    elif roll < 0.1 and by_discard:
        events.append("robbing_kong")
    indicator = rng.randrange(34)
    under = rng.randrange(34) if riichi else None
    rest = list(concealed)
    rest.remove(win)
    fields: dict[str, Any] = {
        # The winning tile written last: the hand's last tile is the one that arrived.
        "hand": "".join(mpsz(kind) for kind in rest) + mpsz(win),
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


def library_config(drawn: Drawn, preset: str) -> HandConfig:
    options = read_options({"preset": preset})
    fields = drawn.fields
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
        player_wind=Tile.EAST + Wind(fields["seat"]).index,
        round_wind=Tile.EAST + Wind(fields["round"]).index,
        options=OptionalRules(
            has_open_tanyao=options.open_tanyao,
            has_aka_dora=False,
            has_double_yakuman=options.double_yakuman,
            kazoe_limit=(
                HandConfig.KAZOE_LIMITED
                if options.kazoe == "yakuman"
                else HandConfig.KAZOE_SANBAIMAN
            ),
            kiriage=options.kiriage,
            fu_for_open_pinfu=True,
            fu_for_pinfu_tsumo=False,
        ),
    )


def hands(preset: str) -> Iterator[Drawn]:
    rng = random.Random(f"riichi-{preset}")
    made = 0
    while made < HANDS_PER_PRESET:
        drawn = draw_hand(rng)
        if drawn is not None:
            made += 1
            yield drawn


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_riichi_agrees_with_the_mahjong_library(preset: str) -> None:
    disagreements: list[str] = []
    coverage = Counter[str]()
    scored = 0
    for drawn in hands(preset):
        response = HandCalculator.estimate_hand_value(
            drawn.tiles,
            drawn.win_tile,
            melds=drawn.melds,
            dora_indicators=drawn.dora,
            ura_dora_indicators=drawn.ura_dora,
            config=library_config(drawn, preset),
        )
        fields = {**drawn.fields, "options": {"preset": preset}}
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
        expected = library_expectation(response, preset)
        if ours.limit is not None:
            # Past a limit the fu pay nothing: the points are compared, not the fu.
            expected["fu"] = None
        found = {
            "han": ours.han if not ours.yakuman else 0,
            "fu": ours.fu if not ours.yakuman and ours.limit is None else None,
            "yakuman": ours.yakuman,
            "paid": paid(ours.payments, Wind(drawn.fields["seat"])),
        }
        if found != expected:
            disagreements.append(f"{drawn.fields}: ours {found}, library {expected}")
    print(f"\n{preset}: {scored} hands scored; coverage {dict(sorted(coverage.items()))}")
    assert disagreements == []


def paid(payments: dict[Wind, int], seat: Wind) -> int:
    return payments[seat]


def library_expectation(response: Any, preset: str) -> dict[str, Any]:
    """The library's result as ours should read: its yakuman count from its han (13 a
    yakuman), and, where `multiple_yakuman` is off, one yakuman at most."""
    options = read_options({"preset": preset})
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
