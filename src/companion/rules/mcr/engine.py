"""Scoring one MCR hand: its readings, each one's fan under the principles, the reading worth
most, the flowers, the minimum and the settlement.

The profile (`companion.rules.mcr.profile`) reads a request and calls `score_mcr` with its
fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.errors import InvalidRequestError, NotAWinError, Problem
from companion.hand import Hand, Meld
from companion.rules.mcr.facts import McrContext, McrEvent, McrFacts
from companion.rules.mcr.fans import (
    BY_ID,
    ELEMENTS,
    FAMILY_FANS,
    FANS,
    FLOWER,
    WAIT_FANS,
    Fan,
    family_places,
)
from companion.rules.mcr.features import hand_bits, reading_bits
from companion.rules.mcr.shapes import McrReading, McrShape, mcr_readings
from companion.rules.own_request import read_win
from companion.rules.principles import Sets, apply_principles, choose_combinations
from companion.shapes.blocks import remember
from companion.tiles import KINDS, Tile, Wind, parse_tile, parse_tiles

MINIMUM = 8
"""The fan a win needs, flowers not counted."""
BASE = 8
"""What each of the other three pays besides the fan (the discarder pays the fan too)."""
OPTIONS = {"flowers": False}
"""The options and their defaults: no bonus tiles (the EMA's tournaments play without)."""

E = McrEvent


@dataclass(frozen=True, init=False, eq=False, repr=False)
class McrScore:
    """One fan of the result: its names, its value and how many times it counts."""

    id: str
    name: str
    hans: str
    hant: str
    value: int
    count: int = 1

    def __init__(
        self,
        id: str,  # the fan's id, as the contract names it
        name: str,
        hans: str,
        hant: str,
        value: int,
        count: int = 1,
        items: tuple[str, ...] = (),
    ) -> None:
        self.__dict__.update(
            id=id, name=name, hans=hans, hant=hant, value=value, count=count, _items=items
        )

    @property
    def items(self) -> tuple[str, ...]:
        """The groups or tiles that earned it, in MPSZ (`Fan.earned_by`). A score of the
        reported reading finds them when first asked for (`Scored.deferred`), as the shared
        scorer's deferred scores do: the fan list alone never needs them."""
        found: tuple[str, ...] | None = self.__dict__["_items"]
        if found is None:
            facts, matches = self.__dict__["_earned"]
            found = self.__dict__["_items"] = BY_ID[self.id].earned_by(facts, matches)
        return found

    @property
    def fan(self) -> int:
        return self.value * self.count

    def _key(self) -> tuple[object, ...]:
        return (self.id, self.name, self.hans, self.hant, self.value, self.count, self.items)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, McrScore):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"McrScore(id={self.id!r}, name={self.name!r}, hans={self.hans!r}, "
            f"hant={self.hant!r}, value={self.value!r}, count={self.count!r}, "
            f"items={self.items!r})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "name_hans": self.hans,
            "name_hant": self.hant,
            "tai": self.fan,
            "value": self.value,
            "count": self.count,
            "earned_by": list(self.items),
        }


@dataclass(frozen=True)
class McrResult:
    """A scored MCR hand, in the contract's fields (`tai` holds the fan)."""

    patterns: tuple[McrScore, ...]
    groups: tuple[str, ...]
    fan: int
    """Every fan, flowers included."""
    flowers: int
    meets_minimum: bool
    payments: dict[Wind, int]
    winning_group: str
    """The group of `groups` that the winning tile completed."""
    wait: str
    """The winning tile's role in it: "pair", "pung", "two_sided", "closed", "edge", or
    "single" for a tile of the knitted tiles or of thirteen orphans' singles."""
    unit: str = "fan"
    valid: bool = True

    @property
    def tai(self) -> int:
        return self.fan

    def to_json(self) -> dict[str, Any]:
        """The contract's result fields (`tai` holds the fan, `unit` is "fan")."""
        return {
            "valid": self.valid,
            "profile": "mcr",
            "unit": self.unit,
            "tai": self.fan,
            "raw_tai": self.fan,
            "meets_minimum": self.meets_minimum,
            "patterns": [score.to_json() for score in self.patterns],
            "groups": list(self.groups),
            "payments": {seat.value: amount for seat, amount in self.payments.items()},
            "notes": [],
            "winning_group": self.winning_group,
            "wait": self.wait,
        }


def read_options(options: Mapping[str, Any]) -> dict[str, bool]:
    found = dict(OPTIONS)
    for name, value in options.items():
        if name not in OPTIONS:
            raise InvalidRequestError(f'options: unknown option "{name}": mcr has flowers')
        if not isinstance(value, bool):
            raise InvalidRequestError(f"options: {name} is true or false")
        found[name] = value
    return found


def _events(names: Sequence[str]) -> frozenset[McrEvent]:
    found: set[McrEvent] = set()
    for name in names:
        try:
            found.add(McrEvent(name))
        except ValueError:
            known = ", ".join(event.value for event in McrEvent)
            raise InvalidRequestError(f'events: unknown event "{name}": mcr has {known}') from None
    return frozenset(found)


def _check_events(events: frozenset[McrEvent], hand: Hand, by_discard: bool) -> None:
    """Refuse what cannot have happened, naming the fields at fault (one refusal with its key,
    several together without one, as `InvalidHandError` has them)."""
    winning = hand.winning_tile
    assert winning is not None
    others = hand.counts()[winning] - 1
    concealed_others = hand.concealed_counts()[winning] - 1
    tile = {"tile": winning.mpsz}
    named = f"{winning.english} ({winning.mpsz})"
    problems: list[Problem] = []
    if E.REPLACEMENT in events and by_discard:
        problems.append(
            Problem(
                'events: replacement (杠上开花) is a self-draw; win must be "self_draw"',
                "refusal.mcr_replacement_discard",
            )
        )
    if E.REPLACEMENT in events and not any(meld.kind.is_kong for meld in hand.melds):
        problems.append(
            Problem(
                "events: replacement (杠上开花) without a kong in melds",
                "refusal.mcr_replacement_no_kong",
            )
        )
    if E.ROBBING_KONG in events and not by_discard:
        problems.append(
            Problem(
                'events: robbing_kong (抢杠和) on a self-draw; win must be "discard"',
                "refusal.mcr_robbing_kong_self_draw",
            )
        )
    if E.ROBBING_KONG in events and others:
        problems.append(
            Problem(
                f"events: robbing_kong (抢杠和): the robbed {named} is the fourth copy, so the "
                "winner holds no other",
                "refusal.mcr_robbing_kong_copies",
                tile,
            )
        )
    if E.ROBBING_KONG in events and E.LAST_TILE in events:
        problems.append(
            Problem(
                "events: robbing_kong with last_tile: no kong is declared on the last tile",
                "refusal.mcr_robbing_kong_last_tile",
            )
        )
    if E.LAST_COPY in events and concealed_others:
        problems.append(
            Problem(
                f"events: last_copy (和绝张), but the hand holds another {named}",
                "refusal.mcr_last_copy_held",
                tile,
            )
        )
    if len(problems) == 1:
        (only,) = problems
        raise NotAWinError(only.text, key=only.key, params=only.params)
    if problems:
        raise NotAWinError("; ".join(problem.text for problem in problems))


class Scored(NamedTuple):
    """One reading with its fan: the matches that count, by id, and their scores (without
    their tiles: only the reading reported is given them, `deferred`), their fan and whether
    one of them is preferred."""

    reading: McrReading
    facts: McrFacts
    counted: dict[str, list[Sets]]
    patterns: tuple[McrScore, ...]
    fan: int
    preferred: bool

    def deferred(self) -> list[McrScore]:
        """The scores, each to find the groups or tiles behind its counted matches when first
        asked for (`McrScore.items`)."""
        # A copy of the shared score holding the reading's facts and its matches, made by
        # copying its dict whole; its tiles are found only when read (`to_json` reads them):
        # `earned_by` on every score of every hand was 13 % of a warm hand's time (py-spy).
        facts, counted = self.facts, self.counted
        found = []
        for score in self.patterns:
            scored = object.__new__(McrScore)
            fields = score.__dict__.copy()
            fields["_items"] = None
            fields["_earned"] = (facts, counted[score.id])
            object.__setattr__(scored, "__dict__", fields)
            found.append(scored)
        return found


WHOLE_HAND: list[Sets] = [frozenset()]

# The fan as bits of an integer, bit r for the fan of rank r in `FANS`: what a reading may
# earn, what it matched and what the principles leave out are masks over them.
_IDS = tuple(fan.id for fan in FANS)
_BIT = {fan.id: 1 << rank for rank, fan in enumerate(FANS)}


def _fan_mask(names: Iterable[str]) -> int:
    return sum(_BIT[name] for name in set(names))


_EXCLUDES = tuple(_fan_mask(fan.excludes) for fan in FANS)
"""What each fan leaves out (wholly, or the number it names)."""
_DECIDED = _fan_mask(fan.id for fan in FANS if fan.decided)
_FALLBACK = _fan_mask(fan.id for fan in FANS if fan.fallback)
_COMBINATION = _fan_mask(fan.id for fan in FANS if fan.combination)
_ABSORBERS = _fan_mask(fan.id for fan in FANS if fan.absorbs)
_EXCLUDERS = _fan_mask(fan.id for fan in FANS if fan.excludes)
_FAMILY_MASKS = tuple(
    (family, _fan_mask(name for name, _ in FAMILY_FANS[family])) for family in ("chows", "pungs")
)
_UNCOMMON = _fan_mask(
    fan.id for fan in FANS if any(many is not None for many in fan.excludes.values())
) | _fan_mask(
    name for fan in FANS for name in fan.absorbs if BY_ID[name].excludes or BY_ID[name].absorbs
)
"""Fan whose presence sends a reading to `apply_principles` itself: one that leaves out a
number of another's matches (nine gates), or an absorbed fan with rules of its own (none)."""

_CHUNKS = tuple(range(0, max(fan.needs for fan in FANS).bit_length(), 8))
_ALLOWED: tuple[dict[int, int], ...] = tuple({} for _ in _CHUNKS)
_ALLOWED_BY_BITS: dict[int, int] = {}


def _allowed_by(chunk: int, value: int) -> int:
    """The fan whose needs, in the eight feature bits from `chunk`, are within `value`."""
    return _fan_mask(fan.id for fan in FANS if (fan.needs >> chunk) & 255 & ~value == 0)


def _allowed(bits: int) -> int:
    """The fan a reading with these feature bits may earn, as a mask over the fan."""
    # Eight bits at a time, each byte's fan kept by its value (5 to 55 values a byte in
    # 3,000 hands): the fan allowed were kept by the whole of the bits before, 1,598 sets of
    # bits in 3,000 hands, so that half the readings went over all 81 fan. With the
    # principles over masks (`_counted`): 47k of 675k instructions a hand. The answer is
    # also kept by the whole of the bits, looked up first: a warm run meets most sets of bits
    # again, and a hit is one look-up rather than eight (9k of 510k instructions a hand).
    known = _ALLOWED_BY_BITS.get(bits)
    if known is not None:
        return known
    allowed = -1
    for chunk, memo in zip(_CHUNKS, _ALLOWED, strict=True):
        value = (bits >> chunk) & 255
        found = memo.get(value)
        if found is None:
            found = memo[value] = _allowed_by(chunk, value)
        allowed &= found
    return remember(_ALLOWED_BY_BITS, bits, allowed)


_RUNS: dict[int, tuple[Fan, ...]] = {}


def _run(mask: int) -> tuple[Fan, ...]:
    """The fan of `mask` (those whose predicates run: neither decided nor combined by
    family), in table order, kept by the mask."""
    found = _RUNS.get(mask)
    if found is None:
        found = _RUNS[mask] = tuple(fan for fan in FANS if mask & _BIT[fan.id])
    return found


_WAITS = _fan_mask(WAIT_FANS.values())
_PREDICATES = ~(_DECIDED | _COMBINATION | _WAITS)


class Counted(NamedTuple):
    """What the principles count of one reading's matches: the matches by id, the scores
    (without their tiles), their fan and whether one is preferred (`_worth`)."""

    counted: dict[str, list[Sets]]
    patterns: tuple[McrScore, ...]
    fan: int
    preferred: bool


_MOST = 8
"""More matches of one fan than a reading holds (four sets, seven pairs)."""
_SCORES: dict[str, tuple[tuple[McrScore, int, bool], ...]] = {
    fan.id: tuple(
        (
            McrScore(fan.id, fan.english, fan.hans, fan.hant, fan.value, count),
            fan.value * count,
            fan.preferred,
        )
        for count in range(_MOST + 1)
    )
    for fan in FANS
}
"""Each fan's score without its tiles, its fan and whether it is preferred, by the number of
matches counted, made once: a score costs about a microsecond to make and a reading counts
four or five (an entry for no match is never read)."""


def _disjoint(matches: list[Sets]) -> bool:
    return len(matches) < 2 or len(frozenset().union(*matches)) == sum(map(len, matches))


def _counted(
    found: dict[str, list[Sets]], decided: int = 0, combined: list[Sets] | None = None
) -> Counted:
    """What the principles count (`apply_principles`) of a reading's matches: `found`, by id,
    and the fan `decided` by its bits (a mask), each one match of the whole hand; `combined`,
    where the caller has them, every match of a combination fan in `found`."""
    mask = decided | sum(map(_BIT.__getitem__, found))
    counted: dict[str, list[Sets]] | None = None
    if not mask & _UNCOMMON:
        # The principles over masks: non-repeat as each counted fan's exclusions taken off
        # the fan still counted, in table order; the combinations chosen by the principles'
        # own search only when two candidates share a set; absorbed matches dropped after
        # (an absorbed fan leaves nothing out itself, `_UNCOMMON`). `apply_principles` went
        # over every matched fan's exclusions by id; an outline of them kept by the ids
        # missed on two readings in three (2,326 sets of ids in 3,000 hands), and a third
        # of the readings share a set between candidates or hold an absorbing wind pung.
        # tests/test_mcr_features.py holds this to `apply_principles` on every reading.
        chosen = None
        if mask & _COMBINATION:
            if combined is None:
                combined = [
                    sets
                    for name, matches in found.items()
                    if _BIT[name] & _COMBINATION
                    for sets in matches
                ]
            if not _disjoint(combined):
                chosen = choose_combinations(ELEMENTS, found)
                mask = (mask & ~_COMBINATION) | sum(map(_BIT.__getitem__, chosen))
        alive = mask & ~_FALLBACK
        # Only a fan that leaves something out changes `alive` (9k of 578k instructions a hand).
        rest = alive & _EXCLUDERS
        while rest:
            low = rest & -rest
            rest ^= low
            if alive & low:
                alive &= ~_EXCLUDES[low.bit_length() - 1]
        if not alive:
            alive = mask & _FALLBACK
        counted = {}
        rest = alive
        while rest:
            low = rest & -rest
            rest ^= low
            name = _IDS[low.bit_length() - 1]
            if low & _COMBINATION:
                if chosen is not None:
                    matches = chosen[name]
                else:
                    matches = found[name]
                    if len(matches) > 1:
                        # As the principles order a combination fan's matches: by their sets.
                        matches = sorted(matches, key=sorted)
            else:
                matches = found.get(name, WHOLE_HAND)
            counted[name] = matches
        if alive & _ABSORBERS:
            rest = alive & _ABSORBERS
            while rest:
                low = rest & -rest
                rest ^= low
                present = counted[_IDS[low.bit_length() - 1]]
                for name in BY_ID[_IDS[low.bit_length() - 1]].absorbs:
                    if name in counted:
                        kept = [
                            other
                            for other in counted[name]
                            if not any(other <= sets for sets in present)
                        ]
                        if kept:
                            counted[name] = kept
                        else:
                            del counted[name]
    else:
        whole = dict.fromkeys(
            (_IDS[rank] for rank in range(len(FANS)) if decided >> rank & 1), WHOLE_HAND
        )
        counted = apply_principles(ELEMENTS, whole | found)
    patterns = []
    total = 0
    preferred = False
    # Each score looked up by its fan and the number of its matches, all made beforehand
    # (`_SCORES`): a key tuple and a miss test for each score cost more.
    for name, matches in counted.items():
        score, fan, first = _SCORES[name][len(matches)]
        patterns.append(score)
        total += fan
        preferred = preferred or first
    return Counted(counted, tuple(patterns), total, preferred)


def _scored(reading: McrReading, facts: McrFacts, bits: int | None) -> Scored:
    """The reading's fan: by its feature bits (`_allowed`), or, with no bits, by running every
    fan's predicate (what the bits are held to: tests/test_mcr_features.py)."""
    # Only the fan that match are handed on: most of the 81 do not, and the principles then
    # pass over fewer ids.
    found: dict[str, list[Sets]]
    if bits is None:
        found = {fan.id: matches for fan in FANS if (matches := fan.predicate(facts))}
        return Scored(reading, facts, *_counted(found))
    allowed = _allowed(bits)
    found = {}
    for fan in _run(allowed & _PREDICATES):
        matches = fan.predicate(facts)
        if matches:
            found[fan.id] = matches
    if allowed & _WAITS:
        # The three wait fans need the same bits and read one position: one look at it
        # rather than three predicates (two calls a reading fewer; with the hand before the
        # winning tile read without a `Hand`, 22k of 628k instructions a hand).
        position = facts.wait_position
        if position is not None and allowed & _BIT[WAIT_FANS[position]]:
            found[WAIT_FANS[position]] = WHOLE_HAND
    # The combination fan come from the families alone, and their matches are gathered as
    # they are made, for the principles' test of a shared set.
    combined: list[Sets] = []
    for family, family_mask in _FAMILY_MASKS:
        if allowed & family_mask:
            members, tiles = facts.family(family)
            for name, places in family_places(family, tiles):
                matches = [frozenset([members[at] for at in match]) for match in places]
                found[name] = matches
                combined += matches
    return Scored(reading, facts, *_counted(found, allowed & _DECIDED, combined))


def scored_readings(
    hand: Hand, context: McrContext, *, by_predicates: bool = False
) -> list[Scored]:
    """Every reading with its fan, in reading order (`mcr_readings`); `by_predicates` runs
    every fan's predicate rather than reading the feature bits first (for the tests)."""
    # The hand before the winning tile as `Hand.without_winning_tile` has it (the last copy
    # written is the one that arrived), without making a `Hand`, and its counts from the
    # whole hand's rather than counted again.
    winning = context.winning
    concealed = list(hand.concealed)
    del concealed[len(concealed) - 1 - concealed[::-1].index(winning)]
    before = tuple(concealed)
    counts = hand.counts()
    melds = len(hand.melds)
    shared = hand_bits(counts, context, melds)
    counts[winning] -= 1
    held = tuple(counts)
    found = []
    for reading in mcr_readings(hand, context.by_discard):
        # The facts' dict filled at once, as `McrFacts(...)` fills it, rather than through
        # the frozen dataclass's five setattr calls (with the reading's likewise in
        # `mcr_readings`: 16k of 563k instructions a hand).
        facts = object.__new__(McrFacts)
        facts.__dict__.update(
            reading=reading,
            context=context,
            concealed_before=before,
            melds=melds,
            held_before=held,
        )
        found.append(
            _scored(reading, facts, None if by_predicates else shared | reading_bits(reading))
        )
    return found


def _worth(entry: Scored) -> tuple[int, bool, bool]:
    """The fan, then, between readings worth the same: one with a preferred fan, then four
    sets and a pair over seven pairs; the first of equals is reported."""
    return (entry.fan, entry.preferred, entry.reading.shape is not McrShape.SEVEN_PAIRS)


_SETTLED: dict[tuple[int, int, int, bool], dict[Wind, int]] = {}


def settle(fan: int, winner: Wind, payer: Wind | None, meets: bool) -> dict[Wind, int]:
    """8 + fan from each other player on a self-draw; on a discard, 8 + fan from the
    discarder and 8 from the other two. Nothing under the minimum."""
    # Worked out once for each fan, seats and minimum (about a thousand in 3,000 hands), each
    # result given its own copy: the loop over the seats, an enum's iteration, cost 17k of
    # 736k instructions a hand (`bench/instructions.py`).
    key = (fan, id(winner), id(payer), meets)  # `Wind` hashes its name in Python
    known = _SETTLED.get(key)
    if known is None:
        known = remember(_SETTLED, key, _settle(fan, winner, payer, meets))
    return dict(known)


def _settle(fan: int, winner: Wind, payer: Wind | None, meets: bool) -> dict[Wind, int]:
    payments = dict.fromkeys(Wind, 0)
    if not meets:
        return payments
    for seat in Wind:
        if seat is winner:
            continue
        paid = BASE + fan if payer is None or seat is payer else BASE
        payments[seat] -= paid
        payments[winner] += paid
    return payments


def build_request(
    hand: str,
    win_tile: str | None,
    win: str,
    seat: str,
    round: str,
    discarder: str | None,
    melds: Sequence[str],
    bonus: str,
    events: Sequence[str],
    options: Mapping[str, Any] | None,
) -> tuple[Hand, McrContext, Wind | None]:
    rules = read_options(options or {})
    tiles = parse_tiles(hand)
    flowers = parse_tiles(bonus) if bonus else ()
    if flowers and not rules["flowers"]:
        raise InvalidRequestError(
            "bonus: flowers are not played (option flowers is off by default)"
        )
    if any(tile.is_animal for tile in flowers):
        raise InvalidRequestError("bonus: mcr has flowers and seasons, no animals")
    declared = tuple(Meld.parse(text) for text in melds)
    winning = parse_tile(win_tile) if win_tile else None
    built = Hand.build(tiles, declared, flowers, winning_tile=winning, sets=4)
    winner, by_discard, payer = read_win(win, seat, discarder)
    found = _events(events)
    _check_events(found, built, by_discard)
    assert built.winning_tile is not None
    in_melds = sum(meld.tiles.count(built.winning_tile) for meld in built.melds)
    last_copy = E.ROBBING_KONG in found or E.LAST_COPY in found or in_melds == 3
    context = McrContext(
        winner, Wind.parse(round), by_discard, found, built.winning_tile, last_copy
    )
    return built, context, payer


def score_mcr(
    hand: str,
    *,
    win_tile: str | None = None,
    win: str = "self_draw",
    seat: str = "E",
    round: str = "E",
    discarder: str | None = None,
    melds: Sequence[str] = (),
    bonus: str = "",
    events: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
) -> McrResult:
    """Score an MCR hand given as the contract's request fields."""
    built, context, payer = build_request(
        hand, win_tile, win, seat, round, discarder, melds, bonus, events, options
    )
    return score_built(built, context, payer)


def score_built(built: Hand, context: McrContext, payer: Wind | None) -> McrResult:
    """Score a hand `build_request` has read (its fields already checked): the readings, the
    one worth most, the flowers, the minimum and the settlement."""
    scored = scored_readings(built, context)
    if not scored:
        raise NotAWinError(
            "not a win: the tiles make no four sets and a pair, seven pairs, thirteen orphans, "
            "honors and knitted tiles, or knitted straight with a set and a pair",
            key="refusal.mcr_not_a_win",
        )
    best = scored[0] if len(scored) == 1 else max(scored, key=_worth)
    reading, patterns, fan = best.reading, best.deferred(), best.fan
    flowers = len(built.bonus)
    if flowers:
        tiles = tuple(tile.mpsz for tile in sorted(built.bonus))
        patterns = [
            *patterns,
            McrScore(FLOWER.id, FLOWER.english, FLOWER.hans, FLOWER.hant, 1, flowers, tiles),
        ]
    meets = fan >= MINIMUM
    group, wait = best.facts.winning_place
    # The result's dict filled at once, as `McrResult(...)` fills it (defaults included),
    # rather than through the frozen dataclass's eleven setattr calls.
    result = object.__new__(McrResult)
    result.__dict__.update(
        patterns=tuple(patterns),
        groups=reading.groups,
        fan=fan + flowers,
        flowers=flowers,
        meets_minimum=meets,
        payments=settle(fan + flowers, context.seat, payer, meets),
        winning_group=group,
        wait=wait,
        unit="fan",
        valid=True,
    )
    return result


@dataclass(frozen=True)
class McrWait:
    """A tile a hand one short waits on, and what the win on it scores (None, with the
    reason, where the win is refused)."""

    tile: str
    result: McrResult | None
    refusal: str | None = None
    refusal_key: str | None = None
    """The refusal's stable key, for saying it in another language (None: English only)."""
    refusal_params: Mapping[str, Any] | None = None


def wait_kinds(waiting: Hand) -> tuple[Tile, ...]:
    """The kinds that complete a hand one tile short into any MCR shape, in tile order; a kind
    whose four copies the hand already holds is none."""
    held = waiting.counts()
    return tuple(
        Tile(kind)
        for kind in range(KINDS)
        if held[kind] < 4 and mcr_readings(waiting.with_winning_tile(Tile(kind)), by_discard=False)
    )


def mcr_waits(hand: str, *, melds: Sequence[str] = (), **fields: Any) -> tuple[McrWait, ...]:
    """The waits of a hand one tile short (`hand` of 13 tiles less three a meld), each scored
    as `score_mcr` scores it with that winning tile and the other `fields`, in tile order.
    A kind whose four copies are all in the hand is no wait."""
    tiles = parse_tiles(hand)
    declared = tuple(Meld.parse(text) for text in melds)
    waiting = Hand.build(tiles, declared, sets=4, complete=False)
    found: list[McrWait] = []
    for tile in wait_kinds(waiting):
        try:
            result = score_mcr(hand + tile.mpsz, win_tile=tile.mpsz, melds=melds, **fields)
        except NotAWinError as refusal:
            found.append(McrWait(tile.mpsz, None, refusal.message, refusal.key, refusal.params))
        else:
            found.append(McrWait(tile.mpsz, result))
    return tuple(found)


__all__ = ["BY_ID", "McrResult", "McrScore", "McrWait", "mcr_waits", "score_mcr"]
