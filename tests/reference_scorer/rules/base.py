"""What every profile is made of: patterns as data, options, and a settlement.

A pattern is a value: an id (docs/contract.md), a display name, its tai per match, a predicate over
the facts of one reading, and what it includes or replaces. Exclusions are declared on the
pattern that wins them, never expressed by the order of checks:

- `replaces`: when this pattern scores, the named patterns do not score at all
  (Ping Hu replaces Little Ping Hu).
- `includes`: when this pattern scores, any match of a named pattern whose tiles are all among
  this pattern's tiles does not score (Little dragons includes its two dragon sets; the flower
  set includes the seat flower of its family but not the seat season).

Both are computed from the set of patterns that qualify, so their order never matters.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar, get_type_hints

from companion.context import FlowerWin, WinContext
from companion.errors import InvalidRequestError, NotAWinError
from companion.hand import Hand, Meld
from companion.tiles import KINDS, Tile, Wind, format_tiles
from reference_scorer.rules import legality
from reference_scorer.settlement import Payments
from reference_scorer.shapes import Group, GroupKind, Reading, Shape, Structure


@dataclass(frozen=True, slots=True)
class Match:
    """One occurrence of a pattern: the tiles or groups that earned it."""

    items: tuple[Group | Tile, ...]
    """The groups or tiles that earned it; shown as MPSZ (`777z`, `1f`) only when reported."""
    variant: str | None = None
    """A named alternative value of the pattern (`concealed` for a concealed pure straight)."""


Predicate = Callable[["Facts"], Sequence[Match]]


@dataclass(frozen=True)
class Pattern:
    id: str
    name: str
    tai: int
    """Tai per match."""
    predicate: Predicate
    includes: frozenset[str] = frozenset()
    replaces: frozenset[str] = frozenset()
    variants: Mapping[str, int] = field(default_factory=dict)
    """Tai of a match with that variant instead of `tai`."""
    limit: bool = False
    """A limit hand: when it scores, its value is the hand's settled tai, beyond the cap."""
    settles_as_self_draw: bool = False
    """When it scores, a discard win is settled as a self-draw (Thirteen orphans in sg-table)."""

    def tai_of(self, match: Match, overrides: Mapping[str, int]) -> int:
        if match.variant is not None and match.variant in self.variants:
            key = f"{self.id}.{match.variant}"
            return overrides.get(key, self.variants[match.variant])
        return overrides.get(self.id, self.tai)

    def with_changes(self, **changes: Any) -> Pattern:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, slots=True)
class PatternScore:
    """A pattern as it scored in the chosen reading."""

    id: str
    name: str
    tai: int
    count: int
    items: tuple[object, ...]
    """The groups or tiles that earned it (their text is `earned_by`)."""
    variant: str | None = None

    @property
    def earned_by(self) -> tuple[str, ...]:
        """MPSZ of each group or tile that earned it, e.g. `("777z", "666z")`."""
        return tuple(str(item) for item in self.items)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "tai": self.tai,
            "count": self.count,
            "earned_by": list(self.earned_by),
        }
        if self.variant is not None:
            data["variant"] = self.variant
        return data


def evaluate(
    patterns: Sequence[Pattern], facts: Facts, overrides: Mapping[str, int]
) -> list[PatternScore]:
    """Run a pattern table over one reading and apply its includes and replaces."""
    fired = [(pattern, matches) for pattern in patterns if (matches := pattern.predicate(facts))]
    dropped: set[str] = set()
    covered: dict[str, list[frozenset[object]]] = {}
    for pattern, matches in fired:
        dropped.update(pattern.replaces)
        for included in pattern.includes:
            covered.setdefault(included, []).extend(frozenset(m.items) for m in matches)
    scores: list[PatternScore] = []
    for pattern, matches in fired:
        if pattern.id in dropped:
            continue
        covers = covered.get(pattern.id)
        kept = (
            [m for m in matches if not any(set(m.items) <= cover for cover in covers)]
            if covers
            else matches
        )
        if not kept:
            continue
        if len(kept) == 1:
            (match,) = kept
            tai = pattern.tai_of(match, overrides)
            items: tuple[object, ...] = match.items
            variant = match.variant
        else:
            tai = sum(pattern.tai_of(match, overrides) for match in kept)
            items = tuple(item for match in kept for item in match.items)
            variants = {match.variant for match in kept} - {None}
            variant = variants.pop() if len(variants) == 1 else None
        scores.append(PatternScore(pattern.id, pattern.name, tai, len(kept), items, variant))
    return scores


class HandFacts:
    """What every reading of one hand shares, computed once per hand."""

    __slots__ = ("animals", "bonus", "counts", "flowers", "has_honors", "kinds", "suits")

    def __init__(self, hand: Hand) -> None:
        tiles = list(hand.concealed)
        for meld in hand.melds:
            tiles.extend(meld.tiles)
        counts = [0] * KINDS
        for tile in tiles:
            counts[tile] += 1
        self.counts: list[int] = counts
        self.kinds = frozenset(tiles)
        self.suits = frozenset(_SUIT_OF[tile] for tile in self.kinds if tile < Tile.EAST)
        self.has_honors = any(tile >= Tile.EAST for tile in self.kinds)
        self.bonus = hand.bonus
        self.flowers = tuple(tile for tile in hand.bonus if Tile.PLUM <= tile <= Tile.WINTER)
        self.animals = tuple(tile for tile in hand.bonus if tile >= Tile.CAT)


_TILES = tuple(Tile)
_SUIT_OF = {tile: tile.suit for tile in Tile}
_SET_KINDS = frozenset((GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG))


class Facts:
    """Everything a predicate may ask of one reading of one hand."""

    __slots__ = (
        "animals",
        "bonus",
        "chows",
        "concealed_sets",
        "context",
        "counts",
        "declared",
        "flowers",
        "groups",
        "hand",
        "has_honors",
        "kinds",
        "options",
        "pair",
        "pungs",
        "reading",
        "sets",
        "shape",
        "suits",
        "waits",
    )

    def __init__(
        self,
        hand: Hand,
        reading: Reading,
        context: WinContext,
        waits: tuple[Tile, ...],
        options: Options,
        shared: HandFacts | None = None,
    ) -> None:
        self.hand = hand
        self.reading = reading
        self.context = context
        self.waits = waits
        self.options = options
        self.shape: Shape = reading.shape
        groups = reading.groups
        self.groups: tuple[Group, ...] = groups
        sets = tuple(g for g in groups if g.kind in _SET_KINDS)
        self.sets: tuple[Group, ...] = sets
        pairs = [g for g in groups if g.kind is GroupKind.PAIR]
        self.pair: Group | None = pairs[0] if len(pairs) == 1 else None
        self.chows = tuple(g for g in sets if g.kind is GroupKind.CHOW)
        self.pungs = tuple(g for g in sets if g.kind is not GroupKind.CHOW)  # pungs and kongs
        self.concealed_sets = tuple(g for g in sets if g.concealed)
        self.declared = tuple(g for g in sets if g.meld is not None)
        if shared is None:
            shared = HandFacts(hand)
        self.counts = shared.counts
        self.kinds = shared.kinds
        self.suits = shared.suits
        self.has_honors = shared.has_honors
        self.bonus = shared.bonus
        self.flowers = shared.flowers
        self.animals = shared.animals

    @property
    def seat(self) -> Wind:
        return self.context.seat


def no_reading(facts: Facts) -> tuple[Match, ...]:
    """The predicate of a flower win, which is scored without a reading of the hand."""
    return ()


def match_all(facts: Facts) -> tuple[Match, ...]:
    """One match earned by every group of the reading (for whole-hand patterns)."""
    return (Match(facts.groups),)


def tiles_item(tiles: Sequence[Tile]) -> str:
    return format_tiles(sorted(tiles))


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class Options:
    """Options every profile has. Profiles subclass this with their own fields and defaults."""

    min_tai: int = 0
    tai_overrides: Mapping[str, int] = field(default_factory=dict)
    derived: ClassVar[frozenset[str]] = frozenset()
    """Fields a profile works out from its other options, never set by a request."""

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        """What is wrong with these values, one message per option (empty when all is well)."""
        problems: list[str] = []
        for key, value in self.tai_overrides.items():
            pattern_id = key.split(".", 1)[0]
            if pattern_id not in pattern_ids:
                problems.append(f'option tai_overrides: "{key}" is not a pattern of this profile')
            elif value < 0:
                problems.append(f"option tai_overrides: {key} cannot be negative")
        return problems


_OPTION_HINTS: dict[type[Options], dict[str, Any]] = {}


def _option_hints(options_type: type[Options]) -> dict[str, Any]:
    """The type of each option field, worked out once per options class."""
    hints = _OPTION_HINTS.get(options_type)
    if hints is None:
        fields = {f.name for f in dataclasses.fields(options_type)}
        every = get_type_hints(options_type)
        hints = _OPTION_HINTS[options_type] = {n: h for n, h in every.items() if n in fields}
    return hints


def parse_options(options_type: type[Options], data: Mapping[str, Any]) -> Options:
    """Build a profile's options from request JSON, refusing unknown names and wrong types."""
    if not isinstance(data, Mapping):
        raise InvalidRequestError("options must be an object of option names and values")
    hints = _option_hints(options_type)
    names = hints.keys() - options_type.derived
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in names:
            known = ", ".join(sorted(names))
            raise InvalidRequestError(f'unknown option "{name}": this profile has {known}')
        values[name] = _coerce_option(name, hints[name], value)
    return options_type(**values)


def _coerce_option(name: str, hint: Any, value: Any) -> Any:
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRequestError(f"option {name} must be a whole number")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise InvalidRequestError(f"option {name} must be true or false")
        return value
    if hint is Fraction:
        return parse_amount(value, f"option {name}")
    if hint is str:
        if not isinstance(value, str):
            raise InvalidRequestError(f"option {name} must be a string")
        return value
    origin = getattr(hint, "__origin__", None)
    if origin is not None and issubclass(origin, Mapping) and hint.__args__[1] is int:
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        ):
            raise InvalidRequestError(f"option {name} must map names to whole numbers")
        return types.MappingProxyType(dict(value))
    raise InvalidRequestError(f"option {name} cannot be set from a request")


MAX_AMOUNT = 10**12
"""The largest amount an option may hold; anything a table stakes is far below it."""
MAX_DENOMINATOR = 10**6
_AMOUNT_TEXT = re.compile(r"[+-]?(?:\d{1,13}(?:\.\d{0,6})?|\.\d{1,6}|\d{1,13}/\d{1,7})")


def parse_amount(value: Any, what: str) -> Fraction:
    """An exact amount from a JSON number or a decimal string ("0.5", "1/2").

    Only plain decimals and fractions of sensible size are read: an exponent such as "1e5000"
    would make the arithmetic, and the JSON of every payment, as large as it says."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise InvalidRequestError(f"{what} must be a number")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidRequestError(f"{what} must be a number, not {value!r}")
        value = repr(value) if "e" not in repr(value) else f"{value:.6f}"
    if isinstance(value, str):
        text = value.strip()
        if not _AMOUNT_TEXT.fullmatch(text):
            shown = text if len(text) <= 20 else text[:20] + "…"
            raise InvalidRequestError(
                f"{what} must be a plain number such as 2, 0.5 or 1/2, not {shown!r}"
            )
        try:
            amount = Fraction(text)
        except ZeroDivisionError:
            raise InvalidRequestError(f"{what} cannot divide by zero") from None
    else:
        amount = Fraction(value)
    if abs(amount) > MAX_AMOUNT or amount.denominator > MAX_DENOMINATOR:
        raise InvalidRequestError(f"{what} must be at most {MAX_AMOUNT:,} and exact to a millionth")
    return amount


# ---------------------------------------------------------------------------------------------
# Profiles


class Profile:
    """A scoring profile: its shapes, pattern table, options and settlement.

    Subclasses set the class attributes and implement `settle`; they may refine
    `check_context`, `check_hand` and `settled_tai`. The scorer calls only these.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    structure: ClassVar[Structure]
    patterns: ClassVar[tuple[Pattern, ...]]
    flower_wins: ClassVar[Mapping[FlowerWin, Pattern]] = {}
    """The pattern of each flower win the profile has (scored without a hand)."""
    options_type: ClassVar[type[Options]] = Options
    cap: ClassVar[int | None] = None
    """The most tai a hand settles at, limit hands apart; None for no cap."""
    several_winners: ClassVar[bool] = False
    """Whether several players may win on one discard (`scoring.score_several`)."""
    unit: ClassVar[str] = "tai"
    """What a hand's value is counted in (the result's `unit`): `tai`, or `faan` in `hk`."""
    earthly_self_draw: ClassVar[bool] = True
    """Whether an earthly hand may be self-drawn on the first draw, or is only ever won on the
    dealer's first discard."""

    def parse_options(self, data: Mapping[str, Any]) -> Options:
        options = parse_options(self.options_type, data)
        problems = options.problems(self.pattern_ids())
        if problems:
            raise InvalidRequestError("; ".join(problems))
        return options

    def pattern_ids(self) -> frozenset[str]:
        return frozenset(self._patterns_by_id)

    def check_context(self, context: WinContext, options: Options) -> None:
        """Refuse a win context that contradicts itself (raise `NotAWinError`)."""
        if context.flower_win is FlowerWin.SEVEN_CAPTURE and not context.by_discard:
            raise NotAWinError("a seven-flower capture is settled as a discard by the holder")
        if context.flower_win is FlowerWin.EIGHT and context.by_discard:
            raise NotAWinError("an eight-flower win is settled as a self-draw")
        if context.by_discard:
            if context.discarder is None and context.flower_win is not None:
                raise InvalidRequestError("a seven-flower capture needs the eighth tile's holder")
            if context.discarder is None:
                raise InvalidRequestError("a discard win needs the discarder's seat")
            if context.discarder is context.seat:
                raise NotAWinError("the winner cannot win on their own discard")
        elif context.discarder is not None and context.flower_win is None:
            raise NotAWinError("a self-drawn win has no discarder")
        if context.flower_win is None:
            legality.check_context(context, self.table(context))

    def table(self, context: WinContext) -> legality.Table:
        """Who deals at this table, and how its earthly hand is won."""
        return legality.Table(self.dealer_of(context), self.earthly_self_draw)

    def dealer_of(self, context: WinContext) -> Wind:
        """The dealer's seat: the request's `dealer` unless the profile fixes it."""
        return context.dealer

    def check_possible(self, hand: Hand, context: WinContext) -> None:
        """Refuse an ordinary win whose events or counts the hand's tiles contradict."""
        legality.check_hand(hand, context)

    def check_tiles(self, concealed: Sequence[Tile], melds: Sequence[Meld]) -> None:
        """Refuse, before the hand is built and counted, tiles that can never be a win in this
        profile (raise `NotAWinError` with the reason)."""

    def check_hand(self, hand: Hand, context: WinContext, options: Options) -> list[str]:
        """Notes about the hand, or `NotAWinError` for tiles the profile refuses."""
        return []

    def structure_for(self, options: Options) -> Structure:
        """The winning shapes under these options (an option may allow another shape)."""
        return self.structure

    def patterns_for(self, options: Options) -> tuple[Pattern, ...]:
        """The pattern table under these options (an option may change a pattern)."""
        return self.patterns

    def counted_for_minimum(
        self, settled: int, scores: Sequence[PatternScore], options: Options
    ) -> int:
        """The value compared with the table's minimum (`min_tai`): the settled value, unless
        the profile leaves some patterns out of it."""
        return settled

    def preference(self, reading: Reading) -> int:
        """Among readings worth the same tai, the highest preference is reported; on a tie of
        preferences too, the first in reading order."""
        return 0

    def settled_tai(self, raw_tai: int, scores: Sequence[PatternScore], options: Options) -> int:
        limits = [s.tai for s in scores if s.id in self._limit_ids]
        if limits:
            return max(limits)
        return raw_tai if self.cap is None else min(raw_tai, self.cap_of(options))

    def cap_of(self, options: Options) -> int:
        assert self.cap is not None
        return self.cap

    def pattern(self, pattern_id: str) -> Pattern:
        return self._patterns_by_id[pattern_id]

    @cached_property
    def _limit_ids(self) -> frozenset[str]:
        return frozenset(p.id for p in self._patterns_by_id.values() if p.limit)

    @cached_property
    def _patterns_by_id(self) -> dict[str, Pattern]:
        return {p.id: p for p in (*self.patterns, *self.flower_wins.values())}

    def score_flower_win(
        self, hand: Hand, context: WinContext, options: Options
    ) -> list[PatternScore]:
        """The flower win's single pattern; the bonus tiles, when listed, must bear it out."""
        assert context.flower_win is not None
        pattern = self.flower_wins.get(context.flower_win)
        if pattern is None:
            raise NotAWinError(f"the {self.id} profile has no {context.flower_win.value} win")
        flowers = sorted(tile for tile in hand.bonus if tile.is_flower)
        needed = 7 if context.flower_win is FlowerWin.SEVEN_CAPTURE else 8
        if hand.bonus and len(flowers) != needed:
            raise NotAWinError(
                f"{pattern.name} needs {needed} flowers and seasons; the bonus tiles hold "
                f"{len(flowers)}"
            )
        tai = pattern.tai_of(Match(()), options.tai_overrides)
        # A flower win sent without its bonus tiles names no tile (not an empty one).
        earned_by = (tiles_item(flowers),) if flowers else ()
        return [PatternScore(pattern.id, pattern.name, tai, 1, earned_by)]

    def settle(self, tai: int, context: WinContext, options: Options) -> Payments:
        raise NotImplementedError

    def dealer_tai(self, context: WinContext) -> int | None:
        """Dealer tai shown beside the hand's tai; None where the profile has none."""
        return None
