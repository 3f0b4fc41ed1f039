"""The riichi options: one frozen value, its presets as data.

A request names a preset (`tenhou` by default) and may set any of its fields on its own; the
preset fills every field the request leaves out. The fields are those of a single hand's
score; the table's (start and return points, uma, abortive draws, bust) are the ledger's, and
not read here yet.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.errors import InvalidRequestError
from companion.rules.options import Options, parse_options
from companion.rules.profile import options_key

KAZOE_LIMITS = ("yakuman", "sanbaiman")
"""What 13 han or more make: a counted yakuman, or sanbaiman at most."""
RENHOU_VALUES = ("off", "mangan", "yakuman")
"""Renhou refused, a 5-han yaku, or a yakuman."""


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
    renhou: str = "off"
    """`RENHOU_VALUES`."""
    honba_value: int = 300
    """What one counter adds to a win (a third of it from each payer on a self-draw)."""
    head_bump: bool = False
    """Whether only the first winner in turn wins on a discard several could claim."""
    form_hidden = frozenset({"min_tai", "tai_overrides"})  # min_tai is always 0 (problems)

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.preset not in PRESETS:
            problems.append(f'option preset: "{self.preset}" is none of {", ".join(PRESETS)}')
        if self.kazoe not in KAZOE_LIMITS:
            problems.append(f'option kazoe: "{self.kazoe}" is none of {", ".join(KAZOE_LIMITS)}')
        if self.renhou not in RENHOU_VALUES:
            problems.append(f'option renhou: "{self.renhou}" is none of {", ".join(RENHOU_VALUES)}')
        if self.double_wind_pair_fu not in (2, 4):
            problems.append("option double_wind_pair_fu: must be 2 or 4")
        if self.honba_value < 0 or self.honba_value % 3:
            problems.append(
                "option honba_value: must be a whole multiple of 3 (each of three payers pays "
                "a third on a self-draw)"
            )
        if self.min_tai:
            problems.append("option min_tai: a riichi hand needs one yaku, never a minimum")
        return problems


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
    renhou="off",
    honba_value=300,
    head_bump=False,
)
_EMA2016 = _preset(
    **{
        **_TENHOU,
        "red_fives": False,
        "kazoe": "sanbaiman",
        "multiple_yakuman": False,
    }
)
PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "tenhou": _TENHOU,
        "mleague": _preset(
            **{
                **_TENHOU,
                "kiriage": True,
                "kazoe": "sanbaiman",
                "double_wind_pair_fu": 2,
                "head_bump": True,
            }
        ),
        "ema2016": _EMA2016,
        "ema2025": _preset(**{**_EMA2016, "kiriage": True}),
        "wrc": _preset(**{**_EMA2016, "kiriage": True, "head_bump": True, "renhou": "mangan"}),
    }
)
"""Each preset's value of every field (as docs/rules-riichi.md tables them)."""


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
