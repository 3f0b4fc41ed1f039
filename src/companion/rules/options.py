"""Options: the house rules a request may set, read from JSON into a profile's typed options.

Every profile has `min_tai` and `tai_overrides`; each subclasses `Options` with its own fields and
defaults and says what is wrong with a set of values (`problems`).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, TypeVar, get_type_hints

from companion.errors import InvalidRequestError


@dataclass(frozen=True)
class Options:
    """Options every profile has. Profiles subclass this with their own fields and defaults."""

    min_tai: int = 0
    tai_overrides: Mapping[str, int] = field(default_factory=dict)
    derived: ClassVar[frozenset[str]] = frozenset()
    """Fields a profile works out from its other options, never set by a request."""
    readers: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    """Fields read from a request by a function of their own rather than by their type
    (sg-table's `chart`), after every other option is read."""
    table_rules: ClassVar[frozenset[str]] = frozenset()
    """Options the ledger reads across hands (how the deal passes), which scoring one hand
    ignores: a table offers them, the calculator does not."""
    form_hidden: ClassVar[frozenset[str]] = frozenset()
    """Options a form does not offer, though a JSON request may still set them: those with
    one allowed value in the profile (riichi's `min_tai`, always 0)."""

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        """What is wrong with these values, one message per option (empty when all is well)."""
        problems: list[str] = []
        for key, value in self.tai_overrides.items():
            pattern_id = key.split(".", 1)[0]
            if pattern_id not in pattern_ids:
                problems.append(f'option tai_overrides: "{key}" is not a pattern of this profile')
            elif value < 0:
                problems.append(f"option tai_overrides: {key} cannot be negative")
            elif value > MAX_PATTERN_TAI:
                problems.append(f"option tai_overrides: {key} can be at most {MAX_PATTERN_TAI:,}")
        return problems

    @property
    def draw_repeats_deal(self) -> bool:
        """Whether a drawn hand counts as a dealer repeat (the streak grows, as on a dealer
        win) rather than keeping the streak as it was: the ledger asks when it replays a draw.
        No by default; a profile with a house rule for it says so (`tw`'s `drawn_hand_repeats`)."""
        return False


MAX_PATTERN_TAI = 1_000
"""The most a pattern may be set to count (`tai_overrides`): with `MAX_AGREED_COUNT`, the
streak's limit (`companion.request.MAX_STREAK`) and the stakes' (`tw`'s `MAX_STAKE`), no
payment of a hand comes near 2^53, the largest whole number a request or a result holds."""
MAX_AGREED_COUNT = 1_000
"""The most tai (faan) a table may agree on for a hand, where the profile has no cap (`tw`)."""

_OPTION_HINTS: dict[type[Options], dict[str, Any]] = {}


def _option_hints(options_type: type[Options]) -> dict[str, Any]:
    """The type of each option field, worked out once per options class."""
    hints = _OPTION_HINTS.get(options_type)
    if hints is None:
        fields = {f.name for f in dataclasses.fields(options_type)}
        every = get_type_hints(options_type)
        hints = _OPTION_HINTS[options_type] = {n: h for n, h in every.items() if n in fields}
    return hints


OptionsT = TypeVar("OptionsT", bound=Options)


def parse_options(options_type: type[OptionsT], data: Mapping[str, Any]) -> OptionsT:
    """Build a profile's options from request JSON, refusing unknown names and wrong types."""
    if not isinstance(data, Mapping):
        raise InvalidRequestError("options must be an object of option names and values")
    hints = _option_hints(options_type)
    names = hints.keys() - options_type.derived
    readers = options_type.readers
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in names:
            known = ", ".join(sorted(names))
            raise InvalidRequestError(f'unknown option "{name}": this profile has {known}')
        if name not in readers:
            values[name] = _coerce_option(name, hints[name], value)
    for name, read in readers.items():
        if name in data:
            values[name] = read(data[name])
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


MAX_WHOLE = 2**53
"""The largest whole number read from text (a form field, a query, a header, a command line's
argument): what the JSON API takes in a number."""


def parse_whole(text: str, digits: int = 16) -> int | None:
    """A whole number written in ASCII digits (a sign allowed), at most `MAX_WHOLE` either way
    (`digits` more for a caller with a larger bound of its own: a seed); None for anything
    else. The one bounded reader's whole numbers (`plain_number_text` without a point or a
    bar): `int` alone reads far more, digits of any script (`٣`, while `²` is a digit it
    refuses), a string of any length (4,300 digits and beyond, quadratic time), underscores and
    spaces. A caller refuses the None naming its field."""
    text = text.strip()
    if not plain_number_text(digits, whole=True).fullmatch(text):
        return None
    number = int(text)
    return number if digits > 16 or abs(number) <= MAX_WHOLE else None


MAX_AMOUNT = 10**12
"""The largest amount an option may hold; anything a table stakes is far below it."""
MAX_DENOMINATOR = 10**6


@functools.lru_cache(maxsize=8)
def plain_number_text(digits: int, *, whole: bool = False) -> re.Pattern[str]:
    """The text of a number a person writes, the one reader of every number a user sends (JSON
    text, forms, queries, command lines): ASCII digits (at most `digits` before the point), an
    optional sign, and unless `whole` a decimal point (six places at most) or a fraction bar.
    Not `\\d`, which takes `٣` and fullwidth digits; no exponent, which `Fraction` expands in
    full (`"1e10000000"`, ten characters, is seconds of CPU); no `_` or spaces inside, which
    `Fraction` and `int` take."""
    if whole:
        return re.compile(rf"[+-]?[0-9]{{1,{digits}}}")
    return re.compile(
        rf"[+-]?(?:[0-9]{{1,{digits}}}(?:\.[0-9]{{0,6}})?|\.[0-9]{{1,6}}"
        rf"|[0-9]{{1,{digits}}}/[0-9]{{1,7}})"
    )


def plain_number(text: str, digits: int = 13) -> Fraction | None:
    """A number as `plain_number_text` writes it, exactly; None for any other text (and for a
    fraction over zero): the caller refuses it naming its field. `Fraction` never sees text
    this has not matched, so its work is bounded by the match's length."""
    text = text.strip()
    if not plain_number_text(digits).fullmatch(text):
        return None
    try:
        return Fraction(text)
    except ZeroDivisionError:
        return None


_AMOUNT_TEXT = plain_number_text(13)


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
