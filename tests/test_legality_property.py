"""What can happen is scored; what cannot is refused: properties over generated wins.

The generator builds a winning hand with declared groups (chows, pungs, kongs of every kind),
bonus tiles, a seat, a dealer, a win by self-draw or discard, and then only the events and
the count of table discards that such a win can have. Every such request must score. Each
contradiction applied to one of them (an event the hand or the win rules out, an impossible
count of discards, eight flowers in a `tw` hand, a flower win with tiles) must be refused,
with a message that names the field at fault.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.scoring import score
from companion.tiles import KINDS, Tile, format_tiles

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROFILES = ("sg", "sg-table", "tw")
WINDS = ("E", "S", "W", "N")
CLAIMED = ("chow", "pung", "kong", "akong")
SG_FAMILY = ("sg", "sg-table")


class Win:
    """A generated legal win and the facts its events depend on."""

    def __init__(self, rng: random.Random, profile: str) -> None:
        self.rng = rng
        self.profile = profile
        self.sets = 5 if profile == "tw" else 4
        self.concealed: list[Tile] = []
        self.melds: list[tuple[str, Tile]] = []
        self.counts = [0] * KINDS
        self._deal()
        self.winning = rng.choice(self.concealed)
        self.bonus = self._bonus()
        self.dealer = rng.choice(WINDS) if profile == "tw" else "E"
        self.seat = rng.choice(WINDS)
        open_melds = [kind for kind, _ in self.melds if kind != "ckong"]
        # tw: a hand with every set declared in the open wins its pair on a discard.
        self.discard = rng.random() < 0.5 or (profile == "tw" and len(open_melds) == self.sets)
        self.discarder = rng.choice([w for w in WINDS if w != self.seat]) if self.discard else None

    def _deal(self) -> None:
        rng = self.rng
        while True:
            counts = [0] * KINDS
            groups: list[tuple[str, int]] = []
            for _ in range(self.sets):
                roll = rng.random()
                if roll < 0.5:
                    first = rng.randrange(3) * 9 + rng.randrange(7)
                    groups.append(("chow", first))
                    for tile in (first, first + 1, first + 2):
                        counts[tile] += 1
                else:
                    kind = rng.randrange(KINDS)
                    size = 4 if roll > 0.8 else 3
                    groups.append(("kong" if size == 4 else "pung", kind))
                    counts[kind] += size
            pair = rng.randrange(KINDS)
            counts[pair] += 2
            if max(counts) <= 4:
                break
        self.counts = counts
        self.concealed = [Tile(pair), Tile(pair)]
        # A third of the hands claim nothing: the ones a first-turn win can have.
        closed = rng.random() < 0.35
        for shape, first in groups:
            tile = Tile(first)
            if shape == "kong":
                kinds = ("ckong",) if closed else ("kong", "akong", "ckong")
                self.melds.append((rng.choice(kinds), tile))
            elif not closed and rng.random() < 0.4:
                self.melds.append((shape, tile))
            else:
                run = (tile, Tile(first + 1), Tile(first + 2)) if shape == "chow" else (tile,) * 3
                self.concealed.extend(run)
        rng.shuffle(self.concealed)

    def _bonus(self) -> list[str]:
        flowers = [f"{n}f" for n in self.rng.sample(range(1, 9), self.rng.randrange(4))]
        if self.profile != "tw" and self.rng.random() < 0.2:
            flowers.append(f"{self.rng.randrange(1, 5)}a")
        return flowers

    @property
    def kongs(self) -> int:
        return sum(1 for kind, _ in self.melds if kind in ("kong", "akong", "ckong"))

    @property
    def claimed(self) -> int:
        return sum(1 for kind, _ in self.melds if kind in CLAIMED)

    @property
    def copies_of_winning(self) -> int:
        return self.counts[self.winning]

    def request(self, events: list[str], table_discards: int | None) -> dict[str, Any]:
        hand = [*self.concealed]
        hand.remove(self.winning)
        data: dict[str, Any] = {
            "profile": self.profile,
            "hand": format_tiles(hand) + self.winning.mpsz,
            "win_tile": self.winning.mpsz,
            "seat": self.seat,
            "round": self.rng.choice(WINDS),
            "options": {"min_tai": 0},
        }
        if self.melds:
            data["melds"] = [f"{kind} {tile.mpsz}" for kind, tile in self.melds]
        if self.bonus:
            data["bonus"] = "".join(self.bonus)
        if self.profile == "tw":
            data["dealer"] = self.dealer
        if self.discard:
            data["win"] = "discard"
            data["discarder"] = self.discarder
        if events:
            data["events"] = events
        if table_discards is not None:
            data["table_discards"] = table_discards
        return data


def legal_events(win: Win) -> list[str]:
    """Events this win can have, each drawn at random among those that fit together."""
    rng = win.rng
    sg = win.profile in SG_FAMILY
    events: set[str] = set()
    dealer = win.seat == win.dealer
    first_turn = rng.random() < 0.3
    if first_turn and win.claimed == 0:
        if dealer and not win.discard:
            events.add("heavenly")
        elif not dealer:
            drawn = sg and not win.discard
            from_dealer = win.discard and win.discarder == win.dealer and not win.melds
            if drawn or from_dealer:
                events.add("earthly")
    if events:
        return sorted(events)
    if not win.discard:
        if sg and (win.kongs or win.bonus) and rng.random() < 0.3:
            events.add("replacement")
        if sg and win.kongs >= 2 and rng.random() < 0.5:
            events.add("kong_on_kong")
        if rng.random() < 0.2:
            events.add("last_tile")
    else:
        if win.copies_of_winning == 1 and rng.random() < 0.4:
            events.add("robbing_kong")
        elif win.profile == "tw" and rng.random() < 0.2:
            events.add("last_discard")
    if win.profile == "tw" and not win.melds and rng.random() < 0.3:
        events.add("original_ready")
    return sorted(events)


def legal_table_discards(win: Win, events: list[str]) -> int | None:
    """A count of table discards this win can have, or None (not given)."""
    rng = win.rng
    if rng.random() < 0.4:
        return None
    if "heavenly" in events:
        return 0
    if "earthly" in events and win.discard:
        return 1
    robbing = "robbing_kong" in events
    least = win.claimed + (1 if win.discard and not robbing else 0)
    if not win.discard and win.seat != win.dealer:
        least = max(least, 1)
    count = least + rng.choice((0, 0, 1, 2, 5, 20))
    if count == 1 and win.discard and not robbing and win.discarder != win.dealer:
        count = 2
    return count


def legal_request(seed: int, profile: str) -> tuple[Win, dict[str, Any]]:
    win = Win(random.Random(seed), profile)
    events = legal_events(win)
    return win, win.request(events, legal_table_discards(win, events))


@SETTINGS
@given(seed=SEEDS, profile=st.sampled_from(PROFILES))
def test_every_win_that_can_happen_is_scored(seed: int, profile: str) -> None:
    _, request = legal_request(seed, profile)
    result = score(request)
    assert result.valid, (request, result.error)
    assert sum(result.payments.values()) == 0


# --- contradictions: each takes a legal win and breaks one rule --------------------------------

Contradiction = Callable[[Win, dict[str, Any]], "dict[str, Any] | None"]


def _with(request: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**request, **fields}


def _events(request: dict[str, Any], *added: str) -> list[str]:
    return sorted({*request.get("events", ()), *added})


def kong_on_kong_without_two_kongs(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if win.profile not in SG_FAMILY or win.discard or win.kongs >= 2:
        return None
    events = [e for e in request.get("events", ()) if e not in ("heavenly", "earthly")]
    return _with(request, events=_events({"events": events}, "kong_on_kong"), table_discards=None)


def replacement_without_kong_or_bonus(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if win.profile not in SG_FAMILY or win.discard or win.kongs:
        return None
    events = [e for e in request.get("events", ()) if e not in ("heavenly", "earthly")]
    bare = {key: value for key, value in request.items() if key != "bonus"}
    return _with(bare, events=_events({"events": events}, "replacement"))


def robbing_a_tile_the_winner_holds(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if not win.discard or win.copies_of_winning < 2:
        return None
    events = [e for e in request.get("events", ()) if e not in ("earthly", "last_discard")]
    return _with(request, events=_events({"events": events}, "robbing_kong"))


def heavenly_for_a_non_dealer(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if win.seat == win.dealer:
        return None
    return _with(request, events=["heavenly"])


def heavenly_with_a_claimed_group(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if win.seat != win.dealer or win.discard or not win.claimed:
        return None
    return _with(request, events=["heavenly"], table_discards=None)


def earthly_for_the_dealer(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if win.seat != win.dealer:
        return None
    return _with(request, events=["earthly"])


def earthly_on_a_non_dealers_discard(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if not win.discard or win.seat == win.dealer or win.discarder == win.dealer:
        return None
    return _with(request, events=["earthly"])


def a_discard_win_without_discards(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if not win.discard or "robbing_kong" in request.get("events", ()):
        return None
    return _with(request, table_discards=0)


def too_few_discards_for_the_claims(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    robbing = "robbing_kong" in request.get("events", ())
    least = win.claimed + (1 if win.discard and not robbing else 0)
    if not win.claimed or least == 0:
        return None
    return _with(request, table_discards=least - 1)


def eight_flowers_in_a_tw_hand(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if win.profile != "tw":
        return None
    return _with(request, bonus="12345678f")


def a_flower_win_with_tiles(win: Win, request: dict[str, Any]) -> dict[str, Any] | None:
    if win.profile == "sg":
        return None
    flower = {"profile": win.profile, "flower_win": "eight", "hand": request["hand"]}
    if "melds" in request:
        flower["melds"] = request["melds"]
    return flower


CONTRADICTIONS: dict[Contradiction, str] = {
    kong_on_kong_without_two_kongs: "kong_on_kong",
    replacement_without_kong_or_bonus: "replacement",
    robbing_a_tile_the_winner_holds: "robbing_kong",
    heavenly_for_a_non_dealer: "heavenly",
    heavenly_with_a_claimed_group: "heavenly",
    earthly_for_the_dealer: "earthly",
    earthly_on_a_non_dealers_discard: "earthly",
    a_discard_win_without_discards: "table_discards",
    too_few_discards_for_the_claims: "table_discards",
    eight_flowers_in_a_tw_hand: 'flower_win "eight"',
    a_flower_win_with_tiles: "leave out hand",
}


@SETTINGS
@given(
    seed=SEEDS,
    profile=st.sampled_from(PROFILES),
    contradiction=st.sampled_from(list(CONTRADICTIONS)),
)
def test_every_contradiction_is_refused_naming_its_field(
    seed: int, profile: str, contradiction: Contradiction
) -> None:
    win, request = legal_request(seed, profile)
    broken = contradiction(win, request)
    if broken is None:
        return  # this win cannot be broken that way
    broken = {key: value for key, value in broken.items() if value is not None}
    result = score(broken)
    assert not result.valid, broken
    assert CONTRADICTIONS[contradiction] in (result.error or ""), (broken, result.error)


def test_the_generator_reaches_every_event_and_every_contradiction() -> None:
    """The properties above would pass vacuously if the generator never made these cases."""
    events: set[str] = set()
    broken: set[str] = set()
    for seed in range(3000):
        profile = PROFILES[seed % 3]
        win, request = legal_request(seed, profile)
        events.update(request.get("events", ()))
        for contradiction in CONTRADICTIONS:
            if contradiction(win, request) is not None:
                broken.add(contradiction.__name__)
    assert events == {
        "replacement",
        "kong_on_kong",
        "robbing_kong",
        "last_tile",
        "last_discard",
        "heavenly",
        "earthly",
        "original_ready",
    }
    assert broken == {contradiction.__name__ for contradiction in CONTRADICTIONS}
