"""A scoring profile: its shapes, pattern table, options and settlement, run by the scorer."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

from companion.context import Circumstance, FlowerWin, WinContext
from companion.errors import InvalidRequestError, NotAWinError
from companion.hand import Hand, Meld
from companion.rules import legality
from companion.rules.compiled import CompiledTable, compiled
from companion.rules.facts import tiles_item
from companion.rules.house_rules import HouseRule
from companion.rules.options import MAX_AGREED_COUNT, Options, parse_options
from companion.rules.patterns import (
    Match,
    Pattern,
    PatternScore,
    derive_patterns,
)
from companion.rules.value import Count, HandValue, Shortfall, ValueFields
from companion.settlement import Payments
from companion.shapes import Reading, Structure
from companion.tiles import Tile, Wind

if TYPE_CHECKING:
    from companion.result import MultiResult, ScoreResult

OptionsT = TypeVar("OptionsT", bound=Options)
"""A profile's options type."""
ValueT = TypeVar("ValueT", bound=HandValue)
"""A profile's value of a hand (`companion.rules.value`)."""

_MAX_PARSED_OPTIONS = 1024
"""Past this many distinct options a profile forgets them all and parses them again."""


def options_key(value: Any) -> Hashable | None:
    """A request's options as a hashable value that tells apart exactly what parsing tells
    apart (each value's type with it: `1`, `1.0` and `true` are equal in Python but not to the
    parser), or None for anything unusual, which is parsed every time."""
    if isinstance(value, Mapping):
        items = []
        for name, item in value.items():
            found = options_key(item)
            if not isinstance(name, str) or found is None:
                return None
            items.append((name, found))
        return ("object", tuple(sorted(items)))
    if value is None or isinstance(value, str | bool | int | float):
        return (type(value).__name__, value)
    return None


class _Played(NamedTuple):
    """The winning shapes and the pattern table under one combination of house rules."""

    structure: Structure
    patterns: tuple[Pattern, ...]
    table: CompiledTable
    """`patterns` compiled (`compiled` keeps it for the tuple)."""


class SetAside(NamedTuple):
    """A tile set aside rather than kept in the hand (sanma's kita): the request field counting
    them, the tile and how many a hand may set aside."""

    field: str
    tile: Tile
    most: int


class Profile(Generic[OptionsT, ValueT]):
    """A scoring profile: its shapes, pattern table, options, value of a hand and settlement.

    Subclasses set the class attributes and implement the value's methods (`value_of`,
    `under_minimum`, `settle`, `result_fields`, `agreed_counts`, `agreed_value`; a counting
    profile gets them from `CountingProfile`); they may refine `check_context` and
    `check_hand`. The scorer calls only these. A profile is generic over its options type and
    its value type: `Profile[SgOptions, Count]` gets `SgOptions` and `Count` in every method.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    structure: ClassVar[Structure]
    patterns: ClassVar[tuple[Pattern, ...]]
    flower_wins: ClassVar[Mapping[FlowerWin, Pattern]] = {}
    """The pattern of each flower win the profile has (scored without a hand)."""
    options_type: type[OptionsT]
    several_winners: ClassVar[bool] = False
    """Whether several players may win on one discard (`scoring.score_several`)."""
    unit: ClassVar[str] = "tai"
    """What a hand's value is counted in (the result's `unit`): `tai`, or `faan` in `hk`."""
    earthly_self_draw: ClassVar[bool] = True
    """Whether an earthly hand may be self-drawn on the first draw, or is only ever won on the
    dealer's first discard."""
    prefers_readings: ClassVar[bool] = False
    """Whether `preference` tells readings apart (else every tie goes to the first reading,
    and the scorer never asks)."""

    # What the profile scores and settles, declared. The adapters (the calculator, the table
    # pages, the command line) offer and show only these, and never ask for a profile by id;
    # tests/test_profile_capabilities.py holds each declaration against the engine.
    circumstances: ClassVar[tuple[Circumstance, ...]] = ()
    """The circumstances the profile scores, in the order a form offers them; others are
    refused."""
    drawn_circumstances: ClassVar[frozenset[Circumstance]] = frozenset()
    """Of `circumstances`, the wins on a drawn tile: never a discard win. (Heavenly, the dealer's
    first draw, is refused as a discard win by the shared legality checks, for every
    profile.)"""
    pay_for_all: ClassVar[bool] = False
    """Whether a seat may pay for all (`liable`)."""
    animals: ClassVar[bool] = False
    """Whether animal tiles score (elsewhere they are refused, or ignored with a note)."""
    table_discards: ClassVar[bool] = False
    """Whether the count of discards on the table (`table_discards`) changes the score."""
    dealer_streak: ClassVar[bool] = False
    """Whether the dealer's streak (and so `dealer`, `dealer_streak`) changes the score."""
    instant_payouts: ClassVar[bool] = False
    """Whether the table settles instant payouts (bites, flower sets, kongs) between hands."""
    house_rules: ClassVar[tuple[HouseRule, ...]] = ()
    """The options that change the winning shapes or the pattern table, in the order they
    apply: `structure_for` and `patterns_for` are worked out from those that hold."""
    reads_own_requests: ClassVar[bool] = False
    """Whether the profile reads a request of its own (riichi: dora, honba, its circumstances, red
    fives): the scorer then hands the request whole to `score_request`,
    `score_several_requests` and `waits_request`, and none of the shared reading runs."""
    request_fields: ClassVar[tuple[str, ...]] = ()
    """The request fields beyond the shared ones that the profile reads (riichi's `dora`,
    `ura_dora`, `honba`, `riichi_sticks`): a form offers them."""
    bonus_tiles: ClassVar[bool] = True
    """Whether a hand may hold flowers, seasons or animals at all (riichi's never do): a form
    offers none where it may not."""
    keeps_tables: ClassVar[bool] = True
    """Whether the ledger keeps tables of the profile (a profile may score hands without
    keeping tables: the ledger then refuses its tables)."""
    points_game: ClassVar[bool] = False
    """Whether a table plays a points game (riichi): every player starts with points, riichi
    sticks and honba sit on the table, and the game ends with final results (uma and oka).
    Its hands are game outcomes (`rules/riichi/game.py`), not agreed tai settled in money."""
    table_points: ClassVar[bool] = False
    """Whether an event ranks a table by table points (MCR: 4, 2, 1 and 0 by place, shared on
    ties) and then by the table's scores, rather than by money or final results
    (`events/standings.py`)."""
    deal_passes: ClassVar[bool] = False
    """Whether the deal passes to the next player after every hand, won or drawn (MCR): no
    dealer repeats and no streak."""
    game_hands: ClassVar[int | None] = None
    """How many hands a table plays where the rules fix it (MCR: 16, four rounds of four): the
    table plans that length and no other, and the game is over after them."""
    names_dealer: ClassVar[bool] = True
    """Whether a scoring request names the dealer and the streak (`dealer`, `dealer_streak`):
    a table fills them into a whole hand's request only where it does (MCR has no dealer)."""
    seats: ClassVar[tuple[Wind, ...]] = tuple(Wind)
    """The seats at a table, in turn order (East deals): the winds a request may name as a seat,
    a discarder or the round (sanma's are E, S and W)."""
    out_of_play: ClassVar[frozenset[Tile]] = frozenset()
    """The tiles the profile's set leaves out (sanma's 2m-8m): refused anywhere in a request, so
    a form offers none of them."""
    claimed_chows: ClassVar[bool] = True
    """Whether a chow may be claimed (declared in `melds`): sanma has none."""
    family: ClassVar[str] = ""
    """The profile whose words a form uses for this one's events and fields, where it is built
    from another (sanma from riichi: rinshan kaihou, pao); "" for its own."""
    set_aside: ClassVar[SetAside | None] = None
    """A tile a player may set aside for a replacement, counted in a request field (sanma's
    North, `kita`), or None."""

    def __init__(self) -> None:
        options = {option.name for option in dataclasses.fields(self.options_type)}
        for rule in self.house_rules:
            # A rule of an option the profile lacks, or naming a pattern its table lacks, is a
            # programming error: refused when the profile is made at import.
            if rule.option not in options:
                raise ValueError(f"{self.id}: a house rule of no option: {rule.option}")
            derive_patterns(self.patterns, rule.changes, rule.adds)
        # The pattern table is compiled once, when the profile is made at import.
        compiled(self.patterns)

    def parse_options(self, data: Mapping[str, Any]) -> OptionsT:
        # Equal requests get the same options object, so that the scorer's memos, which tell
        # options apart by identity, serve every request of a table and not only one.
        key = options_key(data)
        parsed = self._parsed_options
        options = parsed.get(key) if key is not None else None
        if options is None:
            options = self.read_options(data)
            if key is not None:
                if len(parsed) >= _MAX_PARSED_OPTIONS:
                    parsed.clear()
                parsed[key] = options
        return options

    def read_options(self, data: Mapping[str, Any]) -> OptionsT:
        """The options of a request, read and checked (`InvalidRequestError` naming the
        option at fault); `parse_options` keeps what this returns for equal requests."""
        options = parse_options(self.options_type, data)
        held = self.pattern_ids_for(options)
        problems = options.problems(held | self._house_rule_patterns.keys())
        for key in options.tai_overrides:
            rule = self._house_rule_patterns.get(key.split(".", 1)[0])
            if rule is not None and key.split(".", 1)[0] not in held:
                problems.append(
                    f'option tai_overrides: "{key}" is a pattern of this profile only when option '
                    f"{rule.option} is {json.dumps(rule.value)}"
                )
        if problems:
            raise InvalidRequestError("; ".join(problems))
        return options

    @cached_property
    def _parsed_options(self) -> dict[Hashable, OptionsT]:
        return {}

    def pattern_ids(self) -> frozenset[str]:
        return self._pattern_ids

    @cached_property
    def _house_rule_patterns(self) -> dict[str, HouseRule]:
        """The patterns that only house rules bring into the table, with the rule of each."""
        return {pattern.id: rule for rule in self.house_rules for pattern in rule.adds}

    def pattern_ids_for(self, options: OptionsT) -> frozenset[str]:
        """The patterns these options may name (`tai_overrides`): the profile's, and those the
        house rules that hold add."""
        added = [
            pattern.id
            for rule in self.house_rules
            if rule.adds and rule.holds(options)
            for pattern in rule.adds
        ]
        return self._pattern_ids.union(added) if added else self._pattern_ids

    @cached_property
    def _pattern_ids(self) -> frozenset[str]:
        return frozenset(self._patterns_by_id)

    def check_context(self, context: WinContext, options: OptionsT) -> None:
        """Refuse a win context that contradicts itself (raise `NotAWinError`)."""
        if context.flower_win is FlowerWin.SEVEN_CAPTURE and not context.by_discard:
            raise NotAWinError(
                "a seven-flower capture is settled as a discard by the holder",
                key="refusal.seven_flowers_self_draw",
            )
        if context.flower_win is FlowerWin.EIGHT and context.by_discard:
            raise NotAWinError(
                "an eight-flower win is settled as a self-draw", key="refusal.eight_flowers_discard"
            )
        if context.by_discard:
            if context.discarder is None and context.flower_win is not None:
                raise InvalidRequestError(
                    "a seven-flower capture needs the eighth tile's holder",
                    key="refusal.seven_flowers_no_holder",
                )
            if context.discarder is None:
                raise InvalidRequestError(
                    "a discard win needs the discarder's seat", key="refusal.no_discarder"
                )
            if context.discarder is context.seat:
                raise NotAWinError(
                    "the winner cannot win on their own discard", key="refusal.own_discard"
                )
        elif context.discarder is not None and context.flower_win is None:
            raise NotAWinError(
                "a self-drawn win has no discarder", key="refusal.self_draw_discarder"
            )
        if context.flower_win is None and (
            context.circumstances or context.table_discards is not None
        ):
            legality.check_context(context, self.table(context))

    @property
    def event_names(self) -> tuple[str, ...]:
        """The circumstances the profile scores, as a request's `events` field names them, in a
        form's order."""
        return tuple(circumstance.value for circumstance in self.circumstances)

    def score_request(self, data: Mapping[str, Any]) -> ScoreResult:
        """Score a request the profile reads itself (`reads_own_requests`)."""
        raise NotImplementedError

    def score_several_requests(self, requests: Sequence[Any]) -> MultiResult:
        """Score the winners of one discard, each a request the profile reads itself."""
        raise NotImplementedError

    def waits_request(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The waits of a hand one tile short, in a request the profile reads itself, and what
        each scores: `{"profile", "waits", "scores"}` as the waits API answers."""
        raise NotImplementedError

    def undeclared_circumstance(self, context: WinContext) -> Circumstance | None:
        """The first circumstance of the context the profile does not score (not in
        `circumstances`)."""
        return next(
            (e for e in Circumstance if context.has(e) and e not in self.circumstances), None
        )

    def check_liability(self, context: WinContext) -> None:
        """Refuse a seat that pays for all where the profile has no pay-for-all, and the winner
        as that seat where it has."""
        if context.liable is None:
            return
        if not self.pay_for_all:
            raise NotAWinError(
                f"the {self.id} profile has no pay-for-all; use sg-table",
                key="refusal.no_pay_for_all",
                params={"profile": self.id},
            )
        if context.liable is context.seat:
            raise NotAWinError(
                "the winner cannot be the seat that pays for all", key="refusal.liable_winner"
            )

    def table(self, context: WinContext) -> legality.Table:
        """Who deals at this table, and how its earthly hand is won."""
        return legality.Table(self.dealer_of(context), self.earthly_self_draw)

    def dealer_of(self, context: WinContext) -> Wind:
        """The dealer's seat: the request's `dealer` unless the profile fixes it."""
        return context.dealer

    def check_possible(self, hand: Hand, context: WinContext) -> None:
        """Refuse an ordinary win whose circumstances or counts the hand's tiles contradict (nothing
        to do where `legality.can_contradict` says so: the scorer then skips the call)."""
        legality.check_hand(hand, context)

    def check_tiles(self, concealed: Sequence[Tile], melds: Sequence[Meld]) -> None:
        """Refuse, before the hand is built and counted, tiles that can never be a win in this
        profile (raise `NotAWinError` with the reason)."""

    def check_hand(self, hand: Hand, context: WinContext, options: OptionsT) -> list[str]:
        """Notes about the hand, or `NotAWinError` for tiles the profile refuses."""
        return []

    def structure_for(self, options: OptionsT) -> Structure:
        """The winning shapes under these options: the profile's, and those the house rules
        that hold allow."""
        return self._played(options).structure

    def patterns_for(self, options: OptionsT) -> tuple[Pattern, ...]:
        """The pattern table under these options: the profile's, changed and added to by the
        house rules that hold, then `finish_patterns`. The same tuple for equal options, so
        that `table_for` compiles it once."""
        return self._played(options).patterns

    def house_rules_key(self, options: OptionsT) -> Hashable:
        """What tells apart the shapes and tables of these options: which house rules hold.
        A profile whose `finish_patterns` reads another option adds that option's value (one
        table is kept per key, so only an option of few values, read once it is checked)."""
        return tuple([rule.holds(options) for rule in self.house_rules])

    def finish_patterns(
        self, patterns: tuple[Pattern, ...], options: OptionsT
    ) -> tuple[Pattern, ...]:
        """The table after the house rules, changed once more by the profile as a whole (hk's
        limit hands, worth the table's maximum); by default as it is."""
        return patterns

    def _played(self, options: OptionsT) -> _Played:
        # Asked two or three times a request: looked up by the options object first (equal
        # requests share one, `parse_options`), which is quicker than working out the key.
        by_options = self._played_by_options
        entry = by_options.get(id(options))
        if entry is not None and entry[0] is options:
            return entry[1]
        played = self._played_under(options)
        if len(by_options) >= _MAX_PARSED_OPTIONS:
            by_options.clear()
        # The entry holds the options, so that their id is not reused while it is kept.
        by_options[id(options)] = (options, played)
        return played

    @cached_property
    def _played_by_options(self) -> dict[int, tuple[OptionsT, _Played]]:
        return {}

    def _played_under(self, options: OptionsT) -> _Played:
        key = self.house_rules_key(options)
        played = self._played_by_key.get(key)
        if played is None:
            structure, patterns = self.structure, self.patterns
            for rule in self.house_rules:
                if rule.holds(options):
                    structure = rule.structure(structure)
                    patterns = derive_patterns(patterns, rule.changes, rule.adds)
            patterns = self.finish_patterns(patterns, options)
            played = _Played(structure, patterns, compiled(patterns))
            self._played_by_key[key] = played
        return played

    @cached_property
    def _played_by_key(self) -> dict[Hashable, _Played]:
        return {}

    def table_for(self, options: OptionsT) -> CompiledTable:
        """The pattern table under these options, compiled for the scorer (once per table)."""
        return self._played(options).table

    def preference(self, reading: Reading) -> int:
        """Among readings of equal value, the highest preference is reported; on a tie of
        preferences too, the first in reading order."""
        return 0

    def pattern(self, pattern_id: str) -> Pattern:
        return self._patterns_by_id[pattern_id]

    @cached_property
    def _limit_ids(self) -> frozenset[str]:
        return frozenset(p.id for p in self._patterns_by_id.values() if p.limit)

    @cached_property
    def self_draw_ids(self) -> frozenset[str]:
        """The patterns that, when they score, settle a discard win as a self-draw."""
        return frozenset(p.id for p in self._patterns_by_id.values() if p.settles_as_self_draw)

    @cached_property
    def _patterns_by_id(self) -> dict[str, Pattern]:
        return {p.id: p for p in (*self.patterns, *self.flower_wins.values())}

    def score_flower_win(
        self, hand: Hand, context: WinContext, options: OptionsT
    ) -> list[PatternScore]:
        """The flower win's single pattern; the bonus tiles, when listed, must bear it out."""
        assert context.flower_win is not None
        pattern = self.flower_wins.get(context.flower_win)
        if pattern is None:
            # Unreachable from a request: every profile with flower wins has both.
            raise NotAWinError(f"the {self.id} profile has no {context.flower_win.value} win")
        flowers = sorted(tile for tile in hand.bonus if tile.is_flower)
        needed = 7 if context.flower_win is FlowerWin.SEVEN_CAPTURE else 8
        if hand.bonus and len(flowers) != needed:
            raise NotAWinError(
                f"{pattern.name} needs {needed} flowers and seasons; the bonus tiles hold "
                f"{len(flowers)}",
                key="refusal.flower_win_count",
                params={"flower_patterns": [pattern.id], "needed": needed, "count": len(flowers)},
            )
        tai = pattern.tai_of(Match(()), options.tai_overrides)
        # A flower win sent without its bonus tiles names no tile (not an empty one).
        earned_by = (tiles_item(flowers),) if flowers else ()
        return [PatternScore(pattern.id, pattern.name, tai, 1, earned_by)]

    # The value of a hand: made of a reading's scores, ranked by the scorer, held against the
    # table's minimum, settled and shown. Each profile declares its own (`companion.rules.value`).

    def value_of(self, raw: int, scores: Sequence[PatternScore], options: OptionsT) -> ValueT:
        """The value of a reading whose patterns scored `scores`, `raw` the sum of their tai.
        Only the scores' ids and tai may count: the scorer asks on scores whose tiles are not
        found yet, and remembers the answer by the reading's feature bits."""
        raise NotImplementedError

    def under_minimum(
        self, value: ValueT, scores: Sequence[PatternScore], options: OptionsT
    ) -> Shortfall | None:
        """None when a hand of this value, with these scores (none for a count a table agreed),
        meets the table's minimum; otherwise how it falls short (its `note` says so: it pays
        nothing)."""
        raise NotImplementedError

    def settle(self, value: ValueT, context: WinContext, options: OptionsT) -> Payments:
        """What each seat is paid for a hand of this value in this context (a function of the
        three: the scorer remembers it by value)."""
        raise NotImplementedError

    def result_fields(self, value: ValueT) -> ValueFields:
        """The result's fields that the value fills (`tai`, `raw_tai`)."""
        raise NotImplementedError

    def agreed_counts(self, options: OptionsT) -> tuple[int | None, frozenset[int]]:
        """The counts a table may agree on without the hand: the most an ordinary hand settles
        at (None: no cap) and the values of the limit hands beyond it."""
        raise NotImplementedError

    def agreed_value(self, count: int, options: OptionsT) -> ValueT:
        """The value of a count the table agreed on without the hand (the ledger's quick
        entries); `InvalidRequestError` for a count no hand of this profile settles at."""
        raise NotImplementedError

    def agreed_minimum(self, options: OptionsT) -> int:
        """The least count a table may agree on for a win (a form offers none below it)."""
        return int(options.min_tai)

    def agreed_flowers(self, options: OptionsT) -> bool:
        """Whether a count agreed without the hand may add flowers, each worth one more of the
        profile's unit and never counted toward the minimum (MCR with option `flowers`)."""
        return False

    def table_points_of(self, scores: Sequence[Fraction]) -> tuple[Fraction, ...]:
        """Each player's table points for a table's scores (`table_points` profiles)."""
        raise NotImplementedError

    def dealer_tai(self, context: WinContext) -> int | None:
        """Dealer tai shown beside the hand's tai; None where the profile has none."""
        return None


class CountingProfile(Profile[OptionsT, Count]):
    """A profile that counts a hand in one whole number (tai, faan), capped or not: its value is
    a `Count`, ranked by the settled count and then the raw total, paid by the settled count."""

    cap: ClassVar[int | None] = None
    """The most a hand settles at, limit hands apart (`cap_of` under the options); None for no
    cap."""

    def cap_of(self, options: OptionsT) -> int:
        assert self.cap is not None
        return self.cap

    def value_of(self, raw: int, scores: Sequence[PatternScore], options: OptionsT) -> Count:
        """The raw total cut to the cap; a limit hand is worth the most of its limits."""
        limit_ids = self._limit_ids
        if limit_ids:
            limits = [s.tai for s in scores if s.id in limit_ids]
            if limits:
                return Count(max(limits), raw)
        return Count(raw if self.cap is None else min(raw, self.cap_of(options)), raw)

    def under_minimum(
        self, value: Count, scores: Sequence[PatternScore], options: OptionsT
    ) -> Shortfall | None:
        """The settled count against the table's minimum (`min_tai`)."""
        tai = value.tai
        return None if tai >= options.min_tai else self.short_of_minimum(value, tai, options)

    def short_of_minimum(
        self,
        value: Count,
        counted: int,
        options: OptionsT,
        left_out: tuple[tuple[str, str], ...] = (),
    ) -> Shortfall:
        """How a hand of this value, counting `counted` towards the minimum (the patterns
        `left_out` not counted), falls short of it."""
        return Shortfall(counted, value.tai, options.min_tai, self.unit, left_out)

    def result_fields(self, value: Count) -> ValueFields:
        # A count is the result's two fields already.
        return value

    def agreed_counts(self, options: OptionsT) -> tuple[int | None, frozenset[int]]:
        cap = self.cap_of(options) if self.cap is not None else None
        limits = frozenset(
            options.tai_overrides.get(pattern.id, pattern.tai)
            for pattern in self.patterns_for(options)
            if pattern.limit
        )
        return cap, limits

    def agreed_value(self, count: int, options: OptionsT) -> Count:
        unit = self.unit
        if count < 0:
            raise InvalidRequestError(f"{unit} cannot be negative", key="refusal.agreed_negative")
        cap, limits = self.agreed_counts(options)
        if cap is None and count > MAX_AGREED_COUNT:
            raise InvalidRequestError(
                f"{unit} can be at most {MAX_AGREED_COUNT:,} for a {self.id} hand, not {count}",
                key="refusal.agreed_too_many",
                params={"profile": self.id, "count": count},
            )
        if cap is not None and count > cap and count not in limits:
            above = sorted(limit for limit in limits if limit > cap)
            beyond = f" or a limit hand's {', '.join(map(str, above))}" if above else ""
            raise InvalidRequestError(
                f"a {self.id} hand settles at 0 to {cap} {unit}{beyond}, not {count}",
                key="refusal.agreed_over_cap" + ("_limits" if above else ""),
                params={"profile": self.id, "cap": cap, "count": count}
                | ({"limits": above} if above else {}),
            )
        # Agreed without the hand: nothing was counted before a cap.
        return Count(count, count)


AnyProfile = Profile[Any, Any]
"""A profile whatever its options and value types: what the registry holds and the scorer
runs."""
