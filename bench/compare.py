"""Benchmark: scoring and waits, Companion against the PyPI peers `mahjong` and `pymahjonggb`.

Each side is timed on seeded random hands already converted to its own input format, so that only
the work itself is timed, and the result's fields are read inside the timed loop (our pattern
ids, tai and payments; `mahjong`'s yaku, han and cost; PyMahjongGB's fan list):

* sg scoring   -- 14-tile complete hands, all concealed, four sets and a pair, won by self-draw
                  with a random seat and round wind: our `sg` profile from a parsed hand to the
                  settled result (patterns, tai and payments) vs `mahjong`
                  `HandCalculator.estimate_hand_value` (yaku, han, fu and points) and
                  `pymahjonggb` `MahjongFanCalculator` (Chinese Official fans);
* waits        -- 13-tile tenpai hands (a complete hand less one tile): our `waits` vs `mahjong`
                  `Shanten.calculate_shanten`, which only answers "tenpai or not";
* tw scoring   -- 17-tile complete hands, five sets and a pair: our `tw` profile, alone;
* hk, sg-table -- the 14-tile hands of sg scoring, scored by our `hk` and `sg-table` profiles;
* riichi       -- riichi wins as a table meets them (`draw_riichi`: closed and open hands, melds
                  and kongs, ron and tsumo, riichi, ippatsu, haitei and rinshan now and then, dora
                  and ura dora indicators, red fives), under the tenhou preset: our riichi
                  scorer (`score_riichi_request`, yaku, han, fu and payments) vs `mahjong`
                  `HandCalculator.estimate_hand_value` with the `OptionalRules` that match the
                  preset (yaku, han, fu and cost), on the same hands;
* sanma        -- three-player wins drawn as the riichi ones are (`draw_sanma`: the 108 tiles in
                  play, no claimed chow, three seats, North tiles set aside as kita), under
                  sanma's defaults (tsumo loss): our sanma reading untimed and riichi's scorer
                  (`score_riichi_request`) vs `mahjong` `estimate_hand_value` in its three-player
                  mode (`is_three_player`, `num_nuki_dora`), on the same hands;
* mcr scoring  -- the differential test's MCR hands (tests/test_mcr_differential.py's
                  `draw_hand`: every shape and fan, declared groups, kongs, discards and
                  self-draws, events and flowers): our `mcr` engine from a hand read by
                  `build_request` to the result (fan ids and counts, the total and payments)
                  vs `pymahjonggb` `MahjongFanCalculator` on the same hands in its own packs
                  and flags (its fan list). Warm rounds only.

The headline figures (`*_per_s`) are the steady state of a long-running process that never sees
the same hand twice: every timed round scores a fresh seeded set of hands that no earlier round
used, after one untimed warm-up round on another set; per-suit memos (ours, and the peers' own
caches) are kept across rounds, as in a server, but no hand is ever scored twice, so nothing
measured is a cache of whole hands. The cold figures (`*_cold_per_s`) clear the memos (ours with
`companion.scoring.clear_memos`, and the riichi scorer's tables by features with
`companion.rules.riichi.engine.clear_memos`; `mahjong`'s divider cache) before each round, again
on fresh hands. Every round times each side in turn, so that a slow spell of the machine falls
on all of them and the ratios hold within one run.

Our scoring is timed through `companion.scoring.score_hand(profile, hand, context, options)` (the
hand parsed outside the timing); `score` on a request dict, which parses the hand's text on every
call, is shown beside it for reference. Our riichi scoring likewise is timed through
`score_riichi_request` on a request that `read_riichi_request` read outside the timing (the
text, the options, the hand built and checked); `score_riichi` on the request's fields, which
reads them on every call, is shown beside it (`riichi_score_text_per_s`, on hands of its own
seed). A hand a side does not accept as a win is counted and reported: none of the sg, tw, hk
and sg-table hands (every one is a concealed self-drawn win), and about 15 % of the riichi hands
(an open hand or a closed ron with no yaku: both sides refuse the same hands).

    python bench/compare.py [--quick] [--json] [--hands N] [--rounds N] [--seed N] [--profile]
                            [--only GROUP,...]

`--quick` times 1000 hands of each kind per round over 5 rounds (under a minute on 2 busy cores);
the default is 3000 hands over 7 rounds. `--only riichi` (or any of `GROUPS`, comma-separated)
times those groups alone; the others' figures and ratios are null. `--json` prints only a JSON
object: hands per second by side (`sg_score_per_s`, `sg_score_dict_per_s`,
`mahjong_score_per_s`, `gb_score_per_s`, `waits_per_s`, `mahjong_shanten_per_s`,
`tw_score_per_s`, `hk_score_per_s`, `sgtable_score_per_s`, `riichi_score_per_s`,
`riichi_score_text_per_s`, `mahjong_riichi_score_per_s`, `sanma_score_per_s`,
`mahjong_sanma_score_per_s`, `mcr_score_per_s`, `gb_mcr_score_per_s`, and `..._cold_per_s`),
the target ratios (`sg_vs_gb`, `sg_vs_mahjong`, `waits_vs_shanten`, `tw_cost_vs_sg`,
`sgtable_cost_vs_sg`, `sg_cold_vs_mahjong`, `hk_cost_vs_sg`, `riichi_vs_mahjong`,
`sanma_vs_mahjong`, `mcr_vs_gb`, each with `..._pass`) and the run's
particulars (`riichi_mix`: the shares of open, ron, riichi and red-five hands). `--profile`
adds cProfile's top functions of our sg, riichi and mcr scoring loops (on standard error with
`--json`). A peer that is not installed (`pip install -e '.[bench]'`) is reported and
skipped; its figures and ratios are null.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion import scoring, shapes
from companion.context import WinContext, WinType
from companion.errors import NotAWinError
from companion.hand import Hand
from companion.rules import get_profile
from companion.rules.riichi import engine as riichi_engine
from companion.rules.riichi import request as riichi_request
from companion.shapes import FOUR_SETS, waits
from companion.tiles import WINDS, Tile, format_tiles

# bench/shapes.py: the colleague's shapes benchmark, shared helpers (the script's directory is
# on sys.path when run as `python bench/compare.py`).
from shapes import (
    KINDS,
    Row,
    _version,
    complete_hand,
    counts_34,
    print_table,
)

GB_CODES = tuple(
    [f"W{rank}" for rank in range(1, 10)]
    + [f"B{rank}" for rank in range(1, 10)]
    + [f"T{rank}" for rank in range(1, 10)]
    + [f"F{rank}" for rank in range(1, 5)]
    + ["J3", "J2", "J1"]
)
"""pymahjonggb codes by kind. Unlike bench/shapes.py (where a dragon's identity never matters)
the dragons follow their meaning, which scoring needs: J1 is red, J2 green, J3 white (white
counts in Reversible Tiles, green in All Green); Companion's order is white, green, red."""


# --- Hands ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """A complete concealed hand won by self-draw."""

    tiles: tuple[int, ...]
    """14 or 17 tile kinds, the winning tile last."""
    seat: int
    """The winner's seat wind, 0-3 for East-North."""
    round: int
    """The round wind, 0-3."""


def make_deals(count: int, sets: int, rng: random.Random) -> list[Deal]:
    deals: list[Deal] = []
    for _ in range(count):
        tiles = complete_hand(rng, sets)
        winning = tiles.pop(rng.randrange(len(tiles)))
        deals.append(Deal((*tiles, winning), rng.randrange(4), rng.randrange(4)))
    return deals


def tenpai_of(deals: Sequence[Deal], rng: random.Random) -> list[tuple[int, ...]]:
    """Each complete hand less one random tile: 13 tiles that wait at least on that tile."""
    hands: list[tuple[int, ...]] = []
    for deal in deals:
        tiles = list(deal.tiles)
        del tiles[rng.randrange(len(tiles))]
        hands.append(tuple(sorted(tiles)))
    return hands


# --- Riichi hands -----------------------------------------------------------------------------

RIICHI_SEATS = "ESWN"
RED_FIVES = frozenset({4 * 4, 13 * 4, 22 * 4})
"""The red fives in the library's numbering of the 136 tiles (the first copy of each suit's
five, `mahjong.constants.AKA_DORAS`); Companion writes them 0m, 0p, 0s."""
VALUE_HONORS = (31, 32, 33)
"""The dragons: an open hand given a yakuhai leans on them, or on the seat or round wind."""


@dataclass(frozen=True)
class RiichiDeal:
    """A riichi win as a table meets one: Companion's request fields (`score_riichi`'s
    keywords, `hand` included) and the library's arguments, tiles in its 136 numbering."""

    fields: dict[str, Any]
    tiles: tuple[int, ...]
    """Every tile of the hand, its melds' included."""
    win_tile: int
    melds: tuple[tuple[str, tuple[int, ...], bool], ...]
    """The library's melds: `chi`, `pon` or `kan`, their tiles, and whether opened."""
    dora: tuple[int, ...]
    ura_dora: tuple[int, ...]


def mpsz_of(tiles: Sequence[int]) -> str:
    """Tiles of the 136 numbering as MPSZ runs, a red five as 0 (`123m0p55p`)."""
    text: list[str] = []
    run: list[str] = []
    suit = ""
    for tile in tiles:
        kind = tile // 4
        letter = "mpsz"[kind // 9]
        if letter != suit and run:
            text.append("".join(run) + suit)
            run = []
        suit = letter
        run.append("0" if tile in RED_FIVES else str(kind % 9 + 1))
    if run:
        text.append("".join(run) + suit)
    return "".join(text)


def draw_riichi(rng: random.Random) -> RiichiDeal | None:
    """A random riichi win: 4 % seven pairs, else four sets and a pair (a fifth of them from
    one suit and the honors); 40 % of the hands open, half of those with a yakuhai pung; the
    kongs declared, half of them concealed; ron 55 %; riichi on 55 % of the closed hands (a
    twentieth double, a sixth of them ippatsu); now and then haitei, houtei or rinshan; a dora
    indicator and one more per kong, as many ura dora under a riichi; each copy of a five red
    one time in four. None when the tiles ran out."""
    copies = [rng.sample(range(4), 4) for _ in range(KINDS)]

    def take(kind: int, count: int) -> list[int] | None:
        if len(copies[kind]) < count:
            return None
        return [kind * 4 + copies[kind].pop() for _ in range(count)]

    seat, round_wind = rng.randrange(4), rng.randrange(2)
    opened = rng.random() < 0.4
    concealed: list[int] = []
    melds: list[tuple[str, tuple[int, ...], bool]] = []
    texts: list[str] = []
    if rng.random() < 0.04:
        opened = False
        for kind in rng.sample(range(KINDS), 7):
            concealed += take(kind, 2) or []
    else:
        pool = list(range(KINDS))
        if rng.random() < 0.2:
            first = 9 * rng.randrange(3)
            pool = [*range(first, first + 9), *range(27, 34)]
        chows = [kind for kind in pool if kind < 27 and kind % 9 < 7]
        sets: list[tuple[str, list[int]]] = []
        for index in range(4):
            if index == 0 and opened and rng.random() < 0.5:
                kind = rng.choice((*VALUE_HONORS, 27 + seat, 27 + round_wind))
                found, sort = take(kind, 3), "pon"
            elif rng.random() < 0.55:
                low = rng.choice(chows)
                parts = [take(low + step, 1) for step in range(3)]
                found = None if None in parts else [part[0] for part in parts if part]
                sort = "chi"
            else:
                kong = rng.random() < 0.06
                found, sort = take(rng.choice(pool), 4 if kong else 3), "kan" if kong else "pon"
            if found is None:
                return None
            sets.append((sort, found))
        pair = take(rng.choice(pool), 2)
        if pair is None:
            return None
        declared = [sort == "kan" or (opened and rng.random() < 0.5) for sort, _ in sets]
        if opened and not any(declared[index] for index, (sort, _) in enumerate(sets)):
            declared[0] = True
        for (sort, found), declare in zip(sets, declared, strict=True):
            if not declare:
                concealed += found
                continue
            closed_kong = sort == "kan" and not (opened and rng.random() < 0.5)
            melds.append((sort, tuple(found), not closed_kong))
            word = {"chi": "chow", "pon": "pung", "kan": "kong"}[sort]
            texts.append(f"{'ckong' if closed_kong else word} {mpsz_of(found)}")
        concealed += pair
        opened = any(meld_open for _, _, meld_open in melds)
    win = rng.choice(concealed)
    by_discard = rng.random() < 0.55
    events: list[str] = []
    riichi = not opened and rng.random() < 0.55
    if riichi:
        events.append("double_riichi" if rng.random() < 0.05 else "riichi")
        if rng.random() < 0.15:
            events.append("ippatsu")
    roll = rng.random()
    if roll < 0.03:
        events.append("last_discard" if by_discard else "last_tile")
    elif roll < 0.1 and not by_discard and any(sort == "kan" for sort, _, _ in melds):
        events.append("replacement")
    kongs = sum(sort == "kan" for sort, _, _ in melds)
    indicators = [take(rng.randrange(KINDS), 1) for _ in range(1 + kongs)]
    unders = [take(rng.randrange(KINDS), 1) for _ in range(1 + kongs)] if riichi else []
    if None in indicators or None in unders:
        return None
    dora = tuple(found[0] for found in indicators if found)
    ura = tuple(found[0] for found in unders if found)
    rest = sorted(concealed)
    rest.remove(win)
    fields: dict[str, Any] = {
        # The winning tile written last, as a player writes the tile that arrived.
        "hand": mpsz_of(rest) + mpsz_of([win]),
        "win_tile": mpsz_of([win]),
        "win": "discard" if by_discard else "self_draw",
        "seat": RIICHI_SEATS[seat],
        "round": RIICHI_SEATS[round_wind],
        "discarder": RIICHI_SEATS[(seat + rng.randrange(1, 4)) % 4] if by_discard else None,
        "melds": texts,
        "dora": mpsz_of(dora),
        "ura_dora": mpsz_of(ura) if ura else (),
        "events": events,
        "options": {"preset": "tenhou"},
    }
    every = sorted([*concealed, *(tile for _, found, _ in melds for tile in found)])
    return RiichiDeal(fields, tuple(every), win, tuple(melds), dora, ura)


def riichi_deals(count: int, seed: str) -> list[RiichiDeal]:
    rng = random.Random(seed)
    deals: list[RiichiDeal] = []
    while len(deals) < count:
        deal = draw_riichi(rng)
        if deal is not None:
            deals.append(deal)
    return deals


def riichi_mix(deals: Sequence[RiichiDeal]) -> str:
    """The share of open, ron, riichi and seven-pairs hands, and of red fives, in `deals`."""
    count = len(deals) or 1
    share = {
        "open": sum(any(opened for _, _, opened in deal.melds) for deal in deals),
        "ron": sum(deal.fields["win"] == "discard" for deal in deals),
        "riichi": sum(
            bool({"riichi", "double_riichi"} & set(deal.fields["events"])) for deal in deals
        ),
        "red five": sum(bool(RED_FIVES & set(deal.tiles)) for deal in deals),
        "melds": sum(bool(deal.melds) for deal in deals),
    }
    return ", ".join(f"{name} {100 * found / count:.0f} %" for name, found in share.items())


SANMA_SEATS = "ESW"
SANMA_KINDS = (0, 8, *range(9, KINDS))
"""The kinds of a table of three: 1m, 9m, the circles, the bamboo and the honors."""
NORTH = 30


def draw_sanma(rng: random.Random) -> RiichiDeal | None:
    """A random three-player win, drawn as `draw_riichi` draws a riichi win, of the 108 tiles in
    play (no 2m-8m) and with no claimed chow (an open hand's chows stay concealed, a pung or
    kong is declared), three seats; the North tiles left in the wall after the hand's are set
    aside (kita) two times in three, as players do. `fields` holds `kita`; sanma's default
    options (`tsumo` "loss")."""
    copies = {kind: rng.sample(range(4), 4) for kind in SANMA_KINDS}

    def take(kind: int, count: int) -> list[int] | None:
        if len(copies[kind]) < count:
            return None
        return [kind * 4 + copies[kind].pop() for _ in range(count)]

    seat, round_wind = rng.randrange(3), rng.randrange(2)
    opened = rng.random() < 0.4
    concealed: list[int] = []
    melds: list[tuple[str, tuple[int, ...], bool]] = []
    texts: list[str] = []
    if rng.random() < 0.04:
        opened = False
        for kind in rng.sample(SANMA_KINDS, 7):
            concealed += take(kind, 2) or []
    else:
        pool = list(SANMA_KINDS)
        if rng.random() < 0.2:
            first = 9 * rng.randrange(1, 3)
            pool = [*range(first, first + 9), *range(27, 34)]
        chows = [kind for kind in pool if 9 <= kind < 27 and kind % 9 < 7]
        sets: list[tuple[str, list[int]]] = []
        for index in range(4):
            if index == 0 and opened and rng.random() < 0.5:
                kind = rng.choice((*VALUE_HONORS, 27 + seat, 27 + round_wind))
                found, sort = take(kind, 3), "pon"
            elif rng.random() < 0.5:
                low = rng.choice(chows)
                parts = [take(low + step, 1) for step in range(3)]
                found = None if None in parts else [part[0] for part in parts if part]
                sort = "chi"
            else:
                kong = rng.random() < 0.06
                found, sort = take(rng.choice(pool), 4 if kong else 3), "kan" if kong else "pon"
            if found is None:
                return None
            sets.append((sort, found))
        pair = take(rng.choice(pool), 2)
        if pair is None:
            return None
        declared = [
            sort == "kan" or (sort == "pon" and opened and rng.random() < 0.6) for sort, _ in sets
        ]
        if opened and not any(declared):
            opened = False
        for (sort, found), declare in zip(sets, declared, strict=True):
            if not declare:
                concealed += found
                continue
            closed_kong = sort == "kan" and not (opened and rng.random() < 0.5)
            melds.append((sort, tuple(found), not closed_kong))
            word = {"pon": "pung", "kan": "kong"}[sort]
            texts.append(f"{'ckong' if closed_kong else word} {mpsz_of(found)}")
        concealed += pair
        opened = any(meld_open for _, _, meld_open in melds)
    win = rng.choice(concealed)
    by_discard = rng.random() < 0.55
    kita = len(copies[NORTH]) if rng.random() < 0.67 else 0
    kita = rng.randrange(kita + 1) if kita else 0
    del copies[NORTH][:kita]
    events: list[str] = []
    riichi = not opened and rng.random() < 0.55
    if riichi:
        events.append("double_riichi" if rng.random() < 0.05 else "riichi")
        if rng.random() < 0.15:
            events.append("ippatsu")
    roll = rng.random()
    kongs = sum(sort == "kan" for sort, _, _ in melds)
    if roll < 0.03:
        events.append("last_discard" if by_discard else "last_tile")
    elif roll < 0.1 and not by_discard and (kongs or kita):
        events.append("replacement")
    indicators = [take(rng.choice(SANMA_KINDS), 1) for _ in range(1 + kongs)]
    unders = [take(rng.choice(SANMA_KINDS), 1) for _ in range(1 + kongs)] if riichi else []
    if None in indicators or None in unders:
        return None
    dora = tuple(found[0] for found in indicators if found)
    ura = tuple(found[0] for found in unders if found)
    rest = sorted(concealed)
    rest.remove(win)
    fields: dict[str, Any] = {
        "hand": mpsz_of(rest) + mpsz_of([win]),
        "win_tile": mpsz_of([win]),
        "win": "discard" if by_discard else "self_draw",
        "seat": SANMA_SEATS[seat],
        "round": SANMA_SEATS[round_wind],
        "discarder": SANMA_SEATS[(seat + rng.randrange(1, 3)) % 3] if by_discard else None,
        "melds": texts,
        "dora": mpsz_of(dora),
        "ura_dora": mpsz_of(ura) if ura else (),
        "events": events,
        "kita": kita,
        "options": {},
    }
    every = sorted([*concealed, *(tile for _, found, _ in melds for tile in found)])
    return RiichiDeal(fields, tuple(every), win, tuple(melds), dora, ura)


def sanma_deals(count: int, seed: str) -> list[RiichiDeal]:
    rng = random.Random(seed)
    deals: list[RiichiDeal] = []
    while len(deals) < count:
        deal = draw_sanma(rng)
        if deal is not None:
            deals.append(deal)
    return deals


# Every memo the engine keeps across hands (an engine older than `scoring.clear_memos` kept
# only the per-suit ones), so that the same script can time an earlier commit.
clear_memos: Callable[[], None] = getattr(scoring, "clear_memos", shapes.clear_memos)


# --- Sides ------------------------------------------------------------------------------------


@dataclass
class Side:
    """One engine's scoring of complete hands: inputs converted untimed, then `run` on each,
    which reads the answer's fields and says whether the engine saw a win."""

    key: str
    engine: str
    run: Callable[[Any], bool]
    prepare: Callable[[Deal], object]
    clear: Callable[[], None] | None = None
    """Clears the side's memo before a cold round."""
    note: str = ""


def companion_side(profile_id: str, *, parsed: bool = True) -> Side:
    """Our scoring of a profile. `parsed`: `score_hand` on a hand built once, else `score` on a
    request dict, whose hand text it parses on every call. Either reads the pattern ids, the
    tai and the payments."""
    profile = get_profile(profile_id)
    sets = profile.structure.sets
    options = profile.parse_options({"min_faan": 0} if profile_id == "hk" else {"min_tai": 0})

    def read(result: scoring.ScoreResult) -> bool:
        if not result.valid:
            return False
        ids = [pattern.id for pattern in result.patterns]
        return bool(ids) and result.tai >= 0 and len(result.payments) == 4

    if parsed:

        def prepare_hand(deal: Deal) -> tuple[Hand, WinContext]:
            tiles = [Tile(tile) for tile in deal.tiles]
            hand = Hand.build(tiles, winning_tile=tiles[-1], sets=sets)
            seat, round_wind = WINDS[deal.seat], WINDS[deal.round]
            return hand, WinContext(win=WinType.SELF_DRAW, seat=seat, round=round_wind)

        def run_hand(item: tuple[Hand, WinContext]) -> bool:
            return read(scoring.score_hand(profile, item[0], item[1], options))

        engine = f"companion {profile_id} score_hand"
        return Side(profile_id, engine, run_hand, prepare_hand, clear_memos)

    def prepare_request(deal: Deal) -> dict[str, Any]:
        return {
            "profile": profile_id,
            "hand": format_tiles(Tile(tile) for tile in deal.tiles),
            "win_tile": Tile(deal.tiles[-1]).mpsz,
            "win": "self_draw",
            "seat": WINDS[deal.seat].value,
            "round": WINDS[deal.round].value,
        }

    def run_request(request: dict[str, Any]) -> bool:
        return read(scoring.score(request))

    engine = f"companion {profile_id} score(dict)"
    note = "parses the request and its MPSZ text every call"
    return Side(f"{profile_id}_dict", engine, run_request, prepare_request, note=note)


def mahjong_side() -> Side:
    from mahjong.constants import EAST
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    calculator = HandCalculator()

    def prepare(deal: Deal) -> tuple[list[int], int, HandConfig]:
        copies = [0] * KINDS
        tiles136: list[int] = []
        for kind in deal.tiles:
            tiles136.append(kind * 4 + copies[kind])
            copies[kind] += 1
        config = HandConfig(
            is_tsumo=True, player_wind=EAST + deal.seat, round_wind=EAST + deal.round
        )
        return sorted(tiles136), tiles136[-1], config

    def run(item: tuple[list[int], int, HandConfig]) -> bool:
        response = calculator.estimate_hand_value(item[0], item[1], config=item[2])
        if response.error is not None:
            return False
        names = [yaku.name for yaku in response.yaku or ()]
        return bool(names) and response.han is not None and response.cost is not None

    return Side(
        "mahjong",
        "mahjong HandCalculator.estimate_hand_value",
        run,
        prepare,
        clear=HandDivider._divide_hand_impl.cache_clear,
        note="riichi: yaku, han, fu, points",
    )


def pymahjonggb_side() -> Side:
    from MahjongGB import MahjongFanCalculator  # type: ignore[import-not-found]

    def prepare(deal: Deal) -> tuple[object, ...]:
        hand = tuple(GB_CODES[tile] for tile in deal.tiles[:-1])
        win_tile = GB_CODES[deal.tiles[-1]]
        # pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong, isWallLast,
        # seatWind, prevalentWind
        return ((), hand, win_tile, 0, True, False, False, False, deal.seat, deal.round)

    def run(item: tuple[Any, ...]) -> bool:
        try:
            fans = MahjongFanCalculator(*item)
        except TypeError:  # ERROR_NOT_WIN and the like: an answer all the same
            return False
        return bool([fan[1] for fan in fans])

    return Side("gb", "pymahjonggb MahjongFanCalculator", run, prepare, note="C++, Chinese fans")


def riichi_clear() -> None:
    """Every memo the riichi scorer keeps (the shapes' per-suit ones and its own)."""
    clear_memos()
    riichi_memos: Callable[[], None] | None = getattr(riichi_engine, "clear_memos", None)
    if riichi_memos is not None:
        riichi_memos()


def riichi_read(result: Any) -> bool:
    ids = [pattern.id for pattern in result.patterns]
    return bool(ids) and result.han >= 0 and result.fu >= 0 and len(result.payments) == 4


def riichi_side(*, parsed: bool = True) -> Side:
    """Our riichi scorer. `parsed`: `score_riichi_request` on a request read once
    (`read_riichi_request`: the text, the options, the hand built and checked), else
    `score_riichi` on the request's fields, which reads them on every call. Either reads the
    pattern ids, the han, the fu and the payments; a refusal (`NotAWinError`) is an answer."""
    if parsed:
        read = riichi_request.read_riichi_request
        score = riichi_engine.score_riichi_request

        def prepare(deal: RiichiDeal) -> object:
            fields = dict(deal.fields)
            return read(fields.pop("hand"), **fields)

        def run(item: Any) -> bool:
            try:
                return riichi_read(score(item))
            except NotAWinError:
                return False

        engine = "companion riichi score_riichi_request"
        return Side("riichi", engine, run, prepare, riichi_clear, note="tenhou preset")

    score_text = riichi_engine.score_riichi

    def prepare_fields(deal: RiichiDeal) -> dict[str, Any]:
        return dict(deal.fields)

    def run_fields(fields: dict[str, Any]) -> bool:
        try:
            return riichi_read(score_text(**fields))
        except NotAWinError:
            return False

    note = "reads the fields' text every call"
    return Side(
        "riichi_text", "companion riichi score_riichi", run_fields, prepare_fields, note=note
    )


def mahjong_riichi_side() -> Side:
    """`mahjong` at four players, as the riichi differential test sets it."""
    return _mahjong_side(
        "mahjong_riichi", "yaku, han, fu, points", RIICHI_SEATS, three_player=False
    )


def sanma_side() -> Side:
    """Our sanma scorer: riichi's `score_riichi_request` on a request that sanma's
    `read_sanma_request` read untimed (the text, the options, the kita, the hand built and
    checked). It reads the pattern ids, the han, the fu and the payments."""
    from companion.rules.sanma import read_sanma_request

    score = riichi_engine.score_riichi_request

    def prepare(deal: RiichiDeal) -> object:
        fields = dict(deal.fields)
        return read_sanma_request(fields.pop("hand"), **fields)

    def run(item: Any) -> bool:
        try:
            return riichi_read(score(item))
        except NotAWinError:
            return False

    engine = "companion sanma score_riichi_request"
    return Side("sanma", engine, run, prepare, riichi_clear, note="tsumo loss")


def mahjong_sanma_side() -> Side:
    """`mahjong` in its three-player mode, as the sanma differential test sets it."""
    return _mahjong_side("mahjong_sanma", "three-player mode", SANMA_SEATS, three_player=True)


def _mahjong_side(name: str, note: str, seats: Sequence[str], *, three_player: bool) -> Side:
    """`mahjong`'s `estimate_hand_value` with the tenhou preset's rules (open tanyao, red
    fives, no double yakuman, counted yakuman, no kiriage, no renhou), as the differential
    tests set them: four players, or its three-player mode (`is_three_player`, the kita as
    `num_nuki_dora`; no chow is dealt there)."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld as LibraryMeld

    calculator = HandCalculator()
    rules = OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=True,
        has_double_yakuman=False,
        kazoe_limit=HandConfig.KAZOE_LIMITED,
        kiriage=False,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=False,
        is_three_player=three_player,
    )
    sorts = {"chi": LibraryMeld.CHI, "pon": LibraryMeld.PON, "kan": LibraryMeld.KAN}

    def prepare(deal: RiichiDeal) -> tuple[Any, ...]:
        fields = deal.fields
        events = set(fields["events"])
        config = HandConfig(
            is_tsumo=fields["win"] == "self_draw",
            is_riichi="riichi" in events,
            is_daburu_riichi="double_riichi" in events,
            is_ippatsu="ippatsu" in events,
            is_rinshan="replacement" in events,
            is_haitei="last_tile" in events,
            is_houtei="last_discard" in events,
            player_wind=EAST + seats.index(fields["seat"]),
            round_wind=EAST + seats.index(fields["round"]),
            num_nuki_dora=fields.get("kita", 0),
            options=rules,
        )
        melds = [
            LibraryMeld(sorts[sort], list(tiles), opened=opened)
            for sort, tiles, opened in deal.melds
        ]
        return (
            list(deal.tiles),
            deal.win_tile,
            melds,
            list(deal.dora),
            list(deal.ura_dora),
            config,
        )

    def run(item: tuple[Any, ...]) -> bool:
        tiles, win_tile, melds, dora, ura_dora, config = item
        response = calculator.estimate_hand_value(
            tiles,
            win_tile,
            melds=melds,
            dora_indicators=dora,
            ura_dora_indicators=ura_dora,
            config=config,
        )
        if response.error is not None:
            return False
        names = [yaku.name for yaku in response.yaku or ()]
        return bool(names) and response.han is not None and response.cost is not None

    return Side(
        name,
        "mahjong HandCalculator.estimate_hand_value",
        run,
        prepare,
        clear=HandDivider._divide_hand_impl.cache_clear,
        note=note,
    )


# --- MCR ------------------------------------------------------------------------------------


def mcr_drawn(count: int, seed: str) -> list[Any]:
    """`count` hands drawn as the MCR differential test draws them (tests/test_mcr_differential.py,
    imported from the tests folder: it needs `pytest` and PyMahjongGB), each in both formats."""
    tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    from test_mcr_differential import draw_hand

    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        drawn = draw_hand(rng)
        if drawn is not None:
            found.append(drawn)
    return found


def mcr_jobs(count: int, seed: int, batches: int) -> tuple[list[Job], list[str]]:
    """Our mcr engine and PyMahjongGB on the same drawn hands, each round a fresh set; or none,
    with the reason, when the drawing's imports are missing."""
    try:
        rounds = [mcr_drawn(count, f"{seed}-mcr-{index}") for index in range(batches)]
    except ImportError as missing:
        return [], [f"mcr: {missing.name} is not installed: skipped (pip install -e '.[bench]')"]
    from MahjongGB import MahjongFanCalculator

    from companion.errors import CompanionError
    from companion.rules.mcr.engine import score_built
    from test_mcr_differential import built_request, library_tile

    def prepare_ours(drawn: Any) -> Any:
        try:
            return built_request(drawn.fields)
        except CompanionError:
            return None  # events the engine refuses: counted as no win

    def ours(item: Any) -> bool:
        if item is None:
            return False
        try:
            result = score_built(*item)
        except CompanionError:
            return False
        ids = [(score.id, score.count) for score in result.patterns]
        return bool(ids) and result.fan >= 0 and len(result.payments) == 4

    def prepare_gb(drawn: Any) -> tuple[object, ...]:
        flags = drawn.flags
        return (
            tuple(drawn.packs),
            tuple(library_tile(tile) for tile in drawn.concealed),
            library_tile(drawn.winning),
            flags["flowerCount"],
            flags["isSelfDrawn"],
            flags["is4thTile"],
            flags["isAboutKong"],
            flags["isWallLast"],
            flags["seatWind"],
            flags["prevalentWind"],
        )

    def gb(item: tuple[Any, ...]) -> bool:
        try:
            fans = MahjongFanCalculator(*item)
        except TypeError:  # ERROR_NOT_WIN and the like: an answer all the same
            return False
        return bool([fan[1] for fan in fans])

    ours_inputs = [[prepare_ours(drawn) for drawn in batch] for batch in rounds]
    gb_inputs = [[prepare_gb(drawn) for drawn in batch] for batch in rounds]
    note = "fan ids, counts, payments"
    return [
        Job("mcr_score_per_s", "mcr scoring", "companion mcr score_built", ours, ours_inputs, note),
        Job(
            "gb_mcr_score_per_s",
            "mcr scoring",
            "pymahjonggb MahjongFanCalculator",
            gb,
            gb_inputs,
            "C++, its fan list",
        ),
    ], []


def profile_mcr(count: int, seed: int, top: int = 15) -> str:
    """cProfile of our mcr scoring over `count` hands no timed round used."""
    jobs, skipped = mcr_jobs(count, seed + 1, 1)
    if not jobs:
        return "\n".join(skipped)
    ours = jobs[0]
    side = Side(ours.key, ours.engine, ours.run, lambda deal: deal)
    return profile_loop(side, ours.inputs[0], top)


# --- Timing -----------------------------------------------------------------------------------


@dataclass
class Job:
    """One engine's passes: `inputs[0]` the warm-up set, then one fresh set per timed round
    (the warm rounds, then the cold ones)."""

    key: str
    """The JSON key of its warm figure; the cold one is `..._cold_per_s`."""
    operation: str
    engine: str
    run: Callable[[Any], bool]
    inputs: list[list[Any]]
    note: str = ""
    clear: Callable[[], None] | None = None
    """Clears the engine's memo; a job with one is also timed cold."""
    accepted: int = 0
    """Inputs of the timed warm rounds the engine answered as a win (or, for waits, as
    waiting)."""

    def timed(self, round_index: int, *, cold: bool) -> float:
        if cold and self.clear is not None:
            self.clear()
        run, items = self.run, self.inputs[round_index]
        accepted = 0
        start = time.perf_counter()
        for item in items:
            accepted += run(item)
        spent = time.perf_counter() - start
        if not cold and round_index:
            self.accepted += accepted
        return spent


def side_job(side: Side, inputs: list[list[Any]], operation: str, key: str) -> Job:
    return Job(key, operation, side.engine, side.run, inputs, side.note, side.clear)


def time_interleaved(jobs: Sequence[Job], rounds: int) -> tuple[list[float], list[float]]:
    """Median seconds per round of each job, warm and cold. Round 0 is the untimed warm-up;
    rounds 1..`rounds` are timed warm, the next `rounds` cold (memos cleared, untimed, before
    each). Every round times each job in turn, so that a slow spell falls on all of them."""
    for job in jobs:
        job.timed(0, cold=False)
    warm: list[list[float]] = [[] for _ in jobs]
    cold: list[list[float]] = [[] for _ in jobs]
    for index in range(1, rounds + 1):
        for spent, job in zip(warm, jobs, strict=True):
            spent.append(job.timed(index, cold=False))
    for index in range(rounds + 1, 2 * rounds + 1):
        for spent, job in zip(cold, jobs, strict=True):
            if job.clear is not None:
                spent.append(job.timed(index, cold=True))
    return (
        [statistics.median(times) for times in warm],
        [statistics.median(times) if times else 0.0 for times in cold],
    )


@dataclass
class Figures:
    """Hands per second by JSON key (None for a side that was skipped), and the table rows."""

    per_second: dict[str, float | None] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)


def measure(jobs: Sequence[Job], rounds: int, count: int) -> Figures:
    warm, cold = time_interleaved(jobs, rounds)
    figures = Figures()
    for job, seconds, cold_seconds in zip(jobs, warm, cold, strict=True):
        rate = count / seconds
        figures.per_second[job.key] = rate
        engine = f"{job.engine} [warm]" if job.clear else job.engine
        agree = f"{job.accepted}/{count * rounds} {'wait' if 'waits' in job.operation else 'wins'}"
        figures.rows.append(Row(job.operation, engine, count, rate, seconds, agree, job.note))
        if job.clear is not None:
            rate = count / cold_seconds
            figures.per_second[job.key.replace("_per_s", "_cold_per_s")] = rate
            figures.rows.append(
                Row(job.operation, f"{job.engine} [cold]", count, rate, cold_seconds, "")
            )
    return figures


# --- Targets and output -----------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    numerator: str
    denominator: str
    bound: float
    at_most: bool = False
    """True when the ratio must stay at or below `bound`, else at or above it."""


TARGETS = (
    Target("sg_vs_gb", "sg scoring / pymahjonggb fans", "sg_score_per_s", "gb_score_per_s", 0.25),
    Target(
        "sg_vs_mahjong",
        "sg scoring / mahjong hand value",
        "sg_score_per_s",
        "mahjong_score_per_s",
        4.0,
    ),
    Target(
        "waits_vs_shanten", "waits / mahjong shanten", "waits_per_s", "mahjong_shanten_per_s", 3.0
    ),
    Target(
        "tw_cost_vs_sg",
        "tw hand cost / sg hand cost",
        "sg_score_per_s",
        "tw_score_per_s",
        1.5,
        at_most=True,
    ),
    Target(
        "sgtable_cost_vs_sg",
        "sg-table hand cost / sg hand cost",
        "sg_score_per_s",
        "sgtable_score_per_s",
        1.3,
        at_most=True,
    ),
    Target(
        "sg_cold_vs_mahjong",
        "sg scoring cold / mahjong hand value",
        "sg_score_cold_per_s",
        "mahjong_score_per_s",
        2.0,
    ),
    Target(
        "hk_cost_vs_sg",
        "hk hand cost / sg hand cost",
        "sg_score_per_s",
        "hk_score_per_s",
        2.0,
        at_most=True,
    ),
    Target(
        "riichi_vs_mahjong",
        "riichi scoring / mahjong hand value",
        "riichi_score_per_s",
        "mahjong_riichi_score_per_s",
        3.0,
    ),
    Target(
        "sanma_vs_mahjong",
        "sanma scoring / mahjong three-player hand value",
        "sanma_score_per_s",
        "mahjong_sanma_score_per_s",
        3.0,
    ),
    Target(
        "mcr_vs_gb", "mcr scoring / pymahjonggb fans", "mcr_score_per_s", "gb_mcr_score_per_s", 0.3
    ),
)


def ratios(per_second: dict[str, float | None]) -> dict[str, tuple[float | None, bool | None]]:
    """Each target's ratio and whether it passes (None when a side is missing)."""
    found: dict[str, tuple[float | None, bool | None]] = {}
    for target in TARGETS:
        top, bottom = per_second.get(target.numerator), per_second.get(target.denominator)
        if top is None or bottom is None:
            found[target.key] = (None, None)
            continue
        ratio = top / bottom
        passed = ratio <= target.bound if target.at_most else ratio >= target.bound
        found[target.key] = (ratio, passed)
    return found


def print_targets(found: dict[str, tuple[float | None, bool | None]], note: str) -> None:
    print()
    print(f"targets (ratios within this run; {note})")
    for target in TARGETS:
        ratio, passed = found[target.key]
        bound = f"{'<=' if target.at_most else '>='} {target.bound:g}x"
        shown = "n/a" if ratio is None else f"{ratio:.3g}x"
        mark = "skipped" if passed is None else ("PASS" if passed else "FAIL")
        print(f"  {target.label:<38} {shown:>9}  (target {bound:<8}) {mark}")


def machine() -> str:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    parts = [platform.machine(), cpu, f"{os.cpu_count()} CPUs", platform.platform(terse=True)]
    return ", ".join(part for part in parts if part)


def profile_loop(side: Side, inputs: Sequence[object], top: int = 15) -> str:
    """cProfile of one pass of `side` over `inputs` (hands no timed round used): the top
    functions by cumulative and by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for item in inputs:
        side.run(item)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    for order in ("cumulative", "tottime"):
        out.write(f"\n--- {side.engine}: {len(inputs)} hands, top {top} by {order} ---\n")
        stats.sort_stats(order).print_stats(top)
    return out.getvalue()


# --- Main -------------------------------------------------------------------------------------


def round_deals(count: int, seed: str, sets_of_rounds: int, sets: int = 4) -> list[list[Deal]]:
    """`sets_of_rounds` fresh seeded sets of `count` deals, one per round (round 0 the warm-up).
    Each of our profiles gets hands of its own seed: they share the per-suit memos, which would
    otherwise hold every hand's blocks for the profile timed after the first."""
    return [
        make_deals(count, sets, random.Random(f"{seed}-{sets}-{index}"))
        for index in range(sets_of_rounds)
    ]


def waits_jobs(tenpai: list[list[tuple[int, ...]]]) -> list[Job]:
    """Our waits, and `mahjong`'s shanten when installed, on the 13-tile hands of each round."""
    hands = [
        [Hand.build([Tile(tile) for tile in tiles], complete=False) for tiles in batch]
        for batch in tenpai
    ]

    def our_waits(hand: Hand) -> bool:
        return bool(waits(hand, FOUR_SETS))

    note = "the waiting tiles"
    jobs = [Job("waits_per_s", "waits", "companion waits", our_waits, hands, note, clear_memos)]
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        return jobs
    shanten = Shanten()
    counts = [[counts_34(tiles) for tiles in batch] for batch in tenpai]

    def tenpai_or_not(hand: list[int]) -> bool:
        return shanten.calculate_shanten(hand) == 0

    engine = "mahjong Shanten.calculate_shanten"
    note = "tenpai or not; no waits"
    jobs.append(Job("mahjong_shanten_per_s", "waits", engine, tenpai_or_not, counts, note))
    return jobs


GROUPS = ("sg", "waits", "tw", "hk", "sg-table", "riichi", "sanma", "mcr")
"""What `--only` may name: sg scoring with its peers, the waits with `mahjong`'s shanten, `tw`,
`hk` and `sg-table` scoring, riichi and sanma scoring with `mahjong`'s, mcr scoring with
PyMahjongGB's."""
KEYS = (
    "sg_score_per_s",
    "sg_score_cold_per_s",
    "sg_score_dict_per_s",
    "mahjong_score_per_s",
    "mahjong_score_cold_per_s",
    "gb_score_per_s",
    "waits_per_s",
    "waits_cold_per_s",
    "mahjong_shanten_per_s",
    "tw_score_per_s",
    "tw_score_cold_per_s",
    "hk_score_per_s",
    "hk_score_cold_per_s",
    "sgtable_score_per_s",
    "sgtable_score_cold_per_s",
    "riichi_score_per_s",
    "riichi_score_cold_per_s",
    "riichi_score_text_per_s",
    "mahjong_riichi_score_per_s",
    "mahjong_riichi_score_cold_per_s",
    "sanma_score_per_s",
    "sanma_score_cold_per_s",
    "mahjong_sanma_score_per_s",
    "mahjong_sanma_score_cold_per_s",
    "mcr_score_per_s",
    "gb_mcr_score_per_s",
)
"""Every figure of the JSON (null when its side was not run or not installed)."""


def main(argv: Sequence[str] | None = None) -> int:
    began = time.perf_counter()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="1000 hands, 5 rounds")
    parser.add_argument("--json", action="store_true", help="print only a JSON object")
    parser.add_argument("--hands", type=int, help="hands of each kind per round (default 3000)")
    parser.add_argument("--rounds", type=int, help="timed rounds, median kept (default 7)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--profile", action="store_true", help="cProfile our sg and riichi scoring loops"
    )
    parser.add_argument(
        "--only", help=f"a comma-separated list of groups to time (of {', '.join(GROUPS)})"
    )
    args = parser.parse_args(argv)
    count = args.hands or (1000 if args.quick else 3000)
    rounds = args.rounds or (5 if args.quick else 7)

    only = set(args.only.split(",")) if args.only else set(GROUPS)
    unknown = only - set(GROUPS)
    if unknown:
        parser.error(f"--only: no such group {', '.join(sorted(unknown))} (of {', '.join(GROUPS)})")

    skipped: list[str] = []
    versions: dict[str, str] = {}
    peers: list[Side] = []
    for module, package, make in (
        ("mahjong", "mahjong", mahjong_side),
        ("MahjongGB", "pymahjonggb", pymahjonggb_side),
    ):
        try:
            __import__(module)
        except ImportError:
            skipped.append(f"{package} is not installed: skipped (pip install -e '.[bench]')")
            continue
        versions[package] = _version(package)
        peers.append(make())

    # One warm-up set, `rounds` warm and `rounds` cold: no hand is scored twice.
    batches = 2 * rounds + 1

    def inputs_of(side: Side, deals: Sequence[Sequence[Any]]) -> list[list[Any]]:
        return [[side.prepare(deal) for deal in batch] for batch in deals]

    jobs: list[Job] = []
    if "sg" in only:
        four = round_deals(count, f"{args.seed}", batches)
        sg = companion_side("sg")
        jobs.append(side_job(sg, inputs_of(sg, four), "sg scoring", "sg_score_per_s"))
        by_dict = companion_side("sg", parsed=False)
        dict_deals = round_deals(count, f"{args.seed}-dict", batches)
        dict_job = side_job(
            by_dict, inputs_of(by_dict, dict_deals), "sg scoring", "sg_score_dict_per_s"
        )
        dict_job.clear = None  # the same engine as score_hand: warm figures only
        jobs.append(dict_job)
        # The peers score sg's hands: their caches are their own.
        jobs += [
            side_job(side, inputs_of(side, four), "sg scoring", f"{side.key}_score_per_s")
            for side in peers
        ]
    if "waits" in only:
        # The waits get hands of their own too: sg's scoring reads the waits of its hands.
        tenpai = [
            tenpai_of(deals, random.Random(f"{args.seed}-tenpai-{index}"))
            for index, deals in enumerate(round_deals(count, f"{args.seed}-waits", batches))
        ]
        jobs.extend(waits_jobs(tenpai))
    if "tw" in only:
        five = round_deals(count, f"{args.seed}", batches, 5)
        tw = companion_side("tw")
        jobs.append(side_job(tw, inputs_of(tw, five), "tw scoring", "tw_score_per_s"))
    if "hk" in only:
        hk = companion_side("hk")
        hk_deals = round_deals(count, f"{args.seed}-hk", batches)
        jobs.append(side_job(hk, inputs_of(hk, hk_deals), "hk scoring", "hk_score_per_s"))
    if "sg-table" in only:
        table = companion_side("sg-table")
        table_deals = round_deals(count, f"{args.seed}-sg-table", batches)
        jobs.append(
            side_job(
                table, inputs_of(table, table_deals), "sg-table scoring", "sgtable_score_per_s"
            )
        )
    mix = ""
    riichi = riichi_side()
    if "riichi" in only:
        riichi_sets = [
            riichi_deals(count, f"{args.seed}-riichi-{index}") for index in range(batches)
        ]
        mix = riichi_mix([deal for batch in riichi_sets[1:] for deal in batch])
        operation = "riichi scoring"
        jobs.append(
            side_job(riichi, inputs_of(riichi, riichi_sets), operation, "riichi_score_per_s")
        )
        by_text = riichi_side(parsed=False)
        text_sets = [
            riichi_deals(count, f"{args.seed}-riichi-text-{index}") for index in range(batches)
        ]
        text_job = side_job(
            by_text, inputs_of(by_text, text_sets), operation, "riichi_score_text_per_s"
        )
        text_job.clear = None  # the same engine as score_riichi_request: warm figures only
        jobs.append(text_job)
        if "mahjong" in versions:
            library = mahjong_riichi_side()
            jobs.append(
                side_job(
                    library,
                    inputs_of(library, riichi_sets),
                    operation,
                    "mahjong_riichi_score_per_s",
                )
            )
    if "sanma" in only:
        sanma = sanma_side()
        sanma_sets = [sanma_deals(count, f"{args.seed}-sanma-{index}") for index in range(batches)]
        operation = "sanma scoring"
        jobs.append(side_job(sanma, inputs_of(sanma, sanma_sets), operation, "sanma_score_per_s"))
        if "mahjong" in versions:
            library = mahjong_sanma_side()
            jobs.append(
                side_job(
                    library, inputs_of(library, sanma_sets), operation, "mahjong_sanma_score_per_s"
                )
            )
    if "mcr" in only:
        if "pymahjonggb" not in versions:
            skipped.append("mcr: pymahjonggb is not installed: skipped")
        else:
            # No cold rounds: one warm-up set and one for each warm round.
            mcr_found, why = mcr_jobs(count, args.seed, rounds + 1)
            jobs.extend(mcr_found)
            skipped.extend(why)
    # The prepared inputs of every round are millions of objects: keep the garbage collector's
    # full passes over them out of whichever side happens to be running.
    gc.collect()
    gc.freeze()
    figures = measure(jobs, rounds, count)
    for key in KEYS:
        figures.per_second.setdefault(key, None)

    found = ratios(figures.per_second)
    profile_text = ""
    if args.profile:
        if "sg" in only:
            extra = make_deals(count, 4, random.Random(f"{args.seed}-profile"))
            sg_side = companion_side("sg")
            profile_text = profile_loop(sg_side, [sg_side.prepare(deal) for deal in extra])
        if "riichi" in only:
            extra_riichi = riichi_deals(count, f"{args.seed}-riichi-profile")
            profile_text += profile_loop(riichi, [riichi.prepare(deal) for deal in extra_riichi])
        if "mcr" in only:
            profile_text += profile_mcr(count, args.seed)
    elapsed = time.perf_counter() - began
    accepted = {job.key: job.accepted for job in jobs}

    if args.json:
        data: dict[str, Any] = {
            key: None if value is None else round(value, 1)
            for key, value in figures.per_second.items()
        }
        for key, (ratio, passed) in found.items():
            data[key] = None if ratio is None else round(ratio, 4)
            data[f"{key}_pass"] = passed
        verdicts = [passed for _, passed in found.values()]
        data.update(
            all_pass=None if None in verdicts else all(verdicts),
            companion_entry="score_hand",
            riichi_entry="score_riichi_request",
            riichi_mix=mix or None,
            groups=sorted(only),
            hands=count,
            hands_timed={
                "complete_14": count,
                "tenpai_13": count,
                "complete_17": count,
                "complete_14_hk": count,
                "complete_14_sgtable": count,
                "riichi": count,
                "sanma": count,
                "mcr": count,
                "rounds_warm": rounds,
                "rounds_cold": rounds,
            },
            accepted=accepted,
            refused={key: count * rounds - answered for key, answered in accepted.items()},
            rounds=rounds,
            seed=args.seed,
            python=sys.version.split()[0],
            machine=machine(),
            load_average=os.getloadavg()[0],
            peers=versions,
            skipped=skipped,
            seconds=round(elapsed, 1),
        )
        print(json.dumps(data, indent=2))
        if profile_text:
            print(profile_text, file=sys.stderr)
        return 0

    header = "; ".join(
        [
            f"{count} fresh hands of each kind per round (seed {args.seed})",
            f"median of {rounds} rounds after a warm-up",
            f"Python {sys.version.split()[0]}",
            *(f"{name} {version}" for name, version in versions.items()),
        ]
    )
    lines = [
        f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}",
        "our scoring is timed through companion.scoring.score_hand; no hand is scored twice",
        *(
            [
                "riichi through score_riichi_request on a request read untimed (tenhou preset);"
                f" hands: {mix}"
            ]
            if mix
            else []
        ),
        *skipped,
    ]
    print_table(figures.rows, header, lines)
    print_targets(found, "warm figures; the cold one as named")
    print(f"\n{elapsed:.1f} s in main()")
    if profile_text:
        print(profile_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
