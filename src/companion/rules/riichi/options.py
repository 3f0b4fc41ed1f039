"""The riichi options: one frozen value, its presets as data.

A request names a preset (`tenhou` by default) and may set any of its fields on its own; the
preset fills every field the request leaves out. Most fields are those of a single hand's
score; the table's (`TABLE_RULES`: length, start and return points, uma, draws, chombo, the
end of the game, ties) are read by the game over a whole hanchan (`game.py`), never by the
score of one hand.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from companion.errors import InvalidRequestError
from companion.rules.options import Options, parse_options
from companion.rules.profile import options_key
from companion.rules.riichi.tiles import DORA_OF
from companion.rules.riichi.yaku import OPTIONAL_YAKU, RENHOU
from companion.tiles import WINDS, Tile, Wind

KAZOE_LIMITS = ("yakuman", "sanbaiman")
"""What 13 han or more make: a counted yakuman, or sanbaiman at most."""
RENHOU_VALUES = tuple(str(value) for value in RENHOU.plays)
"""Renhou refused, a 5-han yaku, or a yakuman (`yaku.RENHOU`)."""
LENGTHS = ("hanchan", "tonpuusen")
"""A game of the East and South rounds, or of the East round only."""
CHOMBO_STYLES = ("mangan", "penalty")
"""A chombo paid at once as a mangan self-draw reversed, or points off the final result."""
TIE_RULES = ("seat", "share")
"""Players level on points ranked by their starting seat (East first), or sharing their places'
uma and oka equally."""
LIABLE_YAKUMAN = frozenset({"daisangen", "daisuushii"})
"""The yakuman a seat pays for when its discard let them be completed, at every table."""
MAX_TABLE_POINTS = 1_000_000
"""The most a table may start with or return to (far beyond any real table)."""


def _optional_fields(namespace: dict[str, Any]) -> None:
    """Give a class body being run (`namespace`) a field for each optional yaku's option, as
    if written out there: its type and its default (`yaku.OPTIONAL_YAKU`)."""
    # The optional yaku are declared once, with their patterns; a field written out here too
    # would be one more place to add a local yaku. The fields are made before the dataclass
    # is, so the form, the parser and the presets read them as any other.
    annotations = namespace["__annotations__"]
    for entry in OPTIONAL_YAKU:
        annotations[entry.option] = type(entry.default).__name__
        namespace[entry.option] = entry.default


PLACES = {4: ("four", "[20, 10, -10, -20]"), 3: ("three", "[15, 0, -15]")}
"""How a table of four and one of three (`sanma`) say their places' count, and an uma of
theirs."""
NOTEN_PAYMENT = 3_000
"""What the noten players pay the tenpai players, together, at an exhaustive draw (a table of
four; `sanma` reads its `noten_total`)."""
ABORTIVE_KINDS = frozenset(
    {"nine_terminals", "four_winds", "four_kongs", "four_riichi", "triple_ron"}
)
"""The abortive draws a table of four may have (`outcomes.AbortiveKind`'s values)."""


def uma_reader(places: int) -> Callable[[Any], tuple[int, ...]]:
    """The reader of an uma of `places` whole numbers, first place's first: a list from a
    request, a tuple from a preset."""
    count, example = PLACES[places]

    def read_uma(value: Any) -> tuple[int, ...]:
        if (
            not isinstance(value, list | tuple)
            or len(value) != places
            or not all(isinstance(item, int) and not isinstance(item, bool) for item in value)
        ):
            raise InvalidRequestError(
                f"option uma must be {count} whole numbers, first place's first, such as {example}"
            )
        return tuple(value)

    return read_uma


@dataclass(frozen=True)
class RiichiOptions(Options):
    """One hand's switches. Read with `read_options`, which fills them from the preset."""

    preset: str = "tenhou"
    red_fives: bool = True
    """Whether `0m 0p 0s` may be played (one dora each)."""
    open_tanyao: bool = True
    """Whether tanyao counts on an open hand."""
    kiriage: bool = False
    """Whether 4 han 30 fu and 3 han 60 fu are a mangan."""
    kazoe: str = "yakuman"
    """What 13 han or more make (`KAZOE_LIMITS`)."""
    double_yakuman: bool = False
    """Whether the `_13`, `_tanki` and `junsei_` forms and daisuushii are worth two."""
    multiple_yakuman: bool = True
    """Whether several yakuman add up; otherwise the hand is one (two with `double_yakuman`)."""
    double_wind_pair_fu: int = 4
    """The fu of a pair of a wind that is both the seat and the round wind: 4, or 2."""
    _optional_fields(locals())  # a field for each optional yaku (`renhou`...), off by default
    honba_value: int = 300
    """What one counter adds to a win (a third of it from each payer on a self-draw)."""
    head_bump: bool = False
    """Whether only the first winner in turn wins on a discard several could claim."""
    suukantsu_liability: bool = False
    """Whether the seat whose discard gave a suukantsu its fourth kong pays for it, as for a
    daisangen or a daisuushii (no preset here plays it; some tables do)."""
    length: str = "hanchan"
    """`LENGTHS`: how many rounds the game has (it may run one round over with `extension`)."""
    start_points: int = 25_000
    """What every player starts with."""
    return_points: int = 30_000
    """What a player's result is counted from; above `start_points` the difference of all four
    is the oka, paid to first place."""
    uma: tuple[int, ...] = (20, 10, -10, -20)
    """What each place adds to its result, first place's first (in thousands of points)."""
    abortive_draws: bool = True
    """Whether a hand may end in an abortive draw (kyuushu kyuuhai, four winds, four kongs,
    four riichi, three winners on a discard)."""
    triple_ron_draws: bool = True
    """Whether three winners on one discard make an abortive draw instead of three wins."""
    nagashi_mangan: bool = True
    """Whether an exhaustive draw may pay a nagashi mangan."""
    bust_ends: bool = True
    """Whether the game ends at once when a player goes below zero."""
    chombo: str = "mangan"
    """`CHOMBO_STYLES`: a reversed mangan at once, or `chombo_penalty` off the final result."""
    chombo_penalty: int = 20_000
    """The points a chombo costs at the end (`chombo` "penalty"), after uma and oka."""
    ties: str = "seat"
    """`TIE_RULES`: how players level on points at the end are placed."""
    all_last_stop: bool = True
    """Whether the dealer of the last hand, leading after keeping the deal, may stop the game."""
    extension: bool = True
    """Whether the game goes on one round at most when nobody has the return points after the
    last hand, ending as soon as someone has."""

    seats: ClassVar[tuple[Wind, ...]] = WINDS
    """The seats at the table, in turn order, East (the dealer) first: four here, three in
    `sanma`, whose options say so."""
    dora_of: ClassVar[tuple[Tile, ...]] = DORA_OF
    """By indicator, the dora it makes (`DORA_OF`; sanma's 1m makes 9m)."""

    readers: ClassVar[Mapping[str, Callable[[Any], Any]]] = {"uma": uma_reader(4)}
    abortive_kinds: ClassVar[frozenset[str]] = ABORTIVE_KINDS
    """The abortive draws the table may have (where `abortive_draws` allows them)."""
    table_rules: ClassVar[frozenset[str]] = frozenset(
        {
            "length",
            "start_points",
            "return_points",
            "uma",
            "abortive_draws",
            "triple_ron_draws",
            "nagashi_mangan",
            "bust_ends",
            "chombo",
            "chombo_penalty",
            "ties",
            "all_last_stop",
            "extension",
        }
    )

    @property
    def liable_yakuman(self) -> frozenset[str]:
        """The yakuman a seat pays for when its discard let them be completed (`liable`)."""
        return LIABLE_YAKUMAN | {"suukantsu"} if self.suukantsu_liability else LIABLE_YAKUMAN

    @property
    def split_absent(self) -> bool:
        """Whether a self-draw's payment of the seat nobody sits in is split between the payers
        (sanma's `tsumo` "bisection"); never at a table of four."""
        return False

    @property
    def noten_payment(self) -> int:
        """What the noten players pay the tenpai players, together, at an exhaustive draw."""
        return NOTEN_PAYMENT

    @property
    def oka(self) -> int:
        """The points first place takes on top: what the return takes from each player (four,
        or three in `sanma`)."""
        return (self.return_points - self.start_points) * len(self.seats)

    @property
    def rounds(self) -> int:
        """The rounds the game plays before any extension."""
        return 2 if self.length == "hanchan" else 1

    form_hidden: ClassVar[frozenset[str]] = frozenset({"min_tai", "tai_overrides"})
    """Not offered by a form: `min_tai` is always 0 (`problems`), and the yaku are the rules'."""

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.preset not in PRESETS:
            problems.append(f'option preset: "{self.preset}" is none of {", ".join(PRESETS)}')
        if self.kazoe not in KAZOE_LIMITS:
            problems.append(f'option kazoe: "{self.kazoe}" is none of {", ".join(KAZOE_LIMITS)}')
        for entry in OPTIONAL_YAKU:
            value = entry.value_in(self)
            if value not in entry.plays:
                allowed = ", ".join(map(str, entry.plays))
                problems.append(f'option {entry.option}: "{value}" is none of {allowed}')
        if self.double_wind_pair_fu not in (2, 4):
            problems.append("option double_wind_pair_fu: must be 2 or 4")
        # Bounded as a table's points are: a counter worth 3e15 would pay, a thousand counters
        # on, far past 2^53, which a table refuses only once the hand is recorded.
        payers = len(self.seats) - 1
        if not 0 <= self.honba_value <= MAX_TABLE_POINTS or self.honba_value % payers:
            share = _SHARES[payers]
            problems.append(
                f"option honba_value: must be a whole multiple of {payers} from 0 to "
                f"{MAX_TABLE_POINTS:,} (each of {share} on a self-draw)"
            )
        if self.min_tai:
            problems.append("option min_tai: a riichi hand needs one yaku, never a minimum")
        problems.extend(self._table_problems())
        return problems

    def _table_problems(self) -> list[str]:
        problems: list[str] = []
        for name, allowed in (
            ("length", LENGTHS),
            ("chombo", CHOMBO_STYLES),
            ("ties", TIE_RULES),
        ):
            value = getattr(self, name)
            if value not in allowed:
                problems.append(f'option {name}: "{value}" is none of {", ".join(allowed)}')
        for name in ("start_points", "return_points", "chombo_penalty"):
            value = getattr(self, name)
            if not 0 < value <= MAX_TABLE_POINTS or value % 100:
                problems.append(
                    f"option {name}: must be a whole hundred from 100 to {MAX_TABLE_POINTS:,}"
                )
        if self.return_points < self.start_points:
            problems.append("option return_points: cannot be below start_points (the oka)")
        if sum(self.uma) != 0:
            problems.append(f"option uma: the {PLACES[len(self.seats)][0]} must add up to zero")
        if list(self.uma) != sorted(self.uma, reverse=True):
            problems.append("option uma: a place cannot add more than the place above it")
        if any(abs(item) > MAX_TABLE_POINTS // 1000 for item in self.uma):
            problems.append(f"option uma: each at most {MAX_TABLE_POINTS // 1000:,} either way")
        return problems


_SHARES = {3: "three payers pays a third", 2: "two payers pays half"}
"""How a counter's value is shared on a self-draw, by the number of payers."""


def _preset(**fields: Any) -> Mapping[str, Any]:
    return MappingProxyType(fields)


_TENHOU = _preset(
    red_fives=True,
    open_tanyao=True,
    kiriage=False,
    kazoe="yakuman",
    double_yakuman=False,
    multiple_yakuman=True,
    double_wind_pair_fu=4,
    **{entry.option: entry.default for entry in OPTIONAL_YAKU},
    honba_value=300,
    head_bump=False,
    length="hanchan",
    start_points=25_000,
    return_points=30_000,
    uma=(20, 10, -10, -20),
    abortive_draws=True,
    triple_ron_draws=True,
    nagashi_mangan=True,
    bust_ends=True,
    chombo="mangan",
    chombo_penalty=20_000,
    ties="seat",
    all_last_stop=True,
    extension=True,
)
_NO_TENHOU_TABLE = _preset(
    abortive_draws=False,
    triple_ron_draws=False,
    bust_ends=False,
    all_last_stop=False,
    extension=False,
)
_EMA2016 = _preset(
    **{
        **_TENHOU,
        **_NO_TENHOU_TABLE,
        "red_fives": False,
        "kazoe": "sanbaiman",
        "multiple_yakuman": False,
        "start_points": 30_000,
        "uma": (15, 5, -5, -15),
        "nagashi_mangan": False,
        "chombo": "penalty",
        "ties": "share",
    }
)
_PRESETS: dict[str, Mapping[str, Any]] = {
    "tenhou": _TENHOU,
    "mleague": _preset(
        **{
            **_TENHOU,
            **_NO_TENHOU_TABLE,
            "kiriage": True,
            "kazoe": "sanbaiman",
            "double_wind_pair_fu": 2,
            "head_bump": True,
            "uma": (30, 10, -10, -30),
        }
    ),
    "ema2016": _EMA2016,
    "ema2025": _preset(**{**_EMA2016, "kiriage": True}),
    "wrc": _preset(**{**_EMA2016, "kiriage": True, "head_bump": True}),
}
PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        name: _preset(
            **{
                **fields,
                **{entry.option: entry.presets.get(name, entry.default) for entry in OPTIONAL_YAKU},
            }
        )
        for name, fields in _PRESETS.items()
    }
)
"""Each preset's value of every field (as docs/rules-riichi.md tables them), the optional
yaku's as each declares them (`OptionalYaku.presets`)."""


_READ: dict[Hashable, RiichiOptions] = {}
"""Options read before, by `options_key` of the request's (equal requests share them)."""


def read_options(data: Mapping[str, Any]) -> RiichiOptions:
    """A request's options: its preset's fields, then those it sets on its own, checked; an
    `InvalidRequestError` names the option at fault."""
    key = options_key(data)
    found = _READ.get(key) if key is not None else None
    if found is None:
        found = _read_options(data)
        if key is not None:
            if len(_READ) >= 1024:
                _READ.clear()
            _READ[key] = found
    return found


def _read_options(data: Mapping[str, Any]) -> RiichiOptions:
    if not isinstance(data, Mapping):
        raise InvalidRequestError("options must be an object of option names and values")
    preset = data.get("preset", "tenhou")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise InvalidRequestError(f"option preset: {preset!r} is none of {', '.join(PRESETS)}")
    options = parse_options(RiichiOptions, {**PRESETS[preset], **data})
    problems = options.problems(frozenset())
    if problems:
        raise InvalidRequestError("; ".join(problems))
    return options
