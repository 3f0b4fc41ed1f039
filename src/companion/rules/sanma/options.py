"""The sanma options: riichi's switches of one hand, with the three-player table's values
(`honba_value` 200), and the payment of a self-draw (`tsumo`).

Sanma has one rule set, the one Tenhou and Mahjong Soul play; riichi's presets are rule sets
of four players and are not read here. Riichi's options of a whole game (its `table_rules`)
are not offered either: they belong to a table of three, which sanma does not keep yet.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.errors import InvalidRequestError
from companion.rules.options import parse_options
from companion.rules.profile import options_key
from companion.rules.riichi.options import RiichiOptions
from companion.rules.sanma.tiles import DORA_OF
from companion.tiles import Tile, Wind

TSUMO_PAYMENTS = ("loss", "bisection")
"""How a self-draw is paid at a table of three: each payer pays as at a table of four (the
winner takes less than on a discard: "tsumo loss"), or the absent North's payment is split
between the two payers."""
SEATS = (Wind.EAST, Wind.SOUTH, Wind.WEST)
"""The seats of a table of three, in turn order; East deals."""


@dataclass(frozen=True)
class SanmaOptions(RiichiOptions):
    """One three-player hand's switches (riichi's, less its presets and its table's), read by
    `read_options`."""

    honba_value: int = 200
    """What one counter adds to a win (half of it from each payer on a self-draw)."""
    tsumo: str = "loss"
    """`TSUMO_PAYMENTS`: how a self-draw is paid."""

    seats: ClassVar[tuple[Wind, ...]] = SEATS
    dora_of: ClassVar[tuple[Tile, ...]] = DORA_OF
    derived: ClassVar[frozenset[str]] = RiichiOptions.table_rules | {"preset"}
    """Riichi's presets (rule sets of four players) and its options of a whole game, which
    sanma does not read: a request may not set them."""

    @property
    def split_absent(self) -> bool:
        return self.tsumo == "bisection"

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.tsumo not in TSUMO_PAYMENTS:
            problems.append(f'option tsumo: "{self.tsumo}" is none of {", ".join(TSUMO_PAYMENTS)}')
        return problems


_READ: dict[Hashable, SanmaOptions] = {}
"""Options read before, by `options_key` of the request's (equal requests share them)."""


def read_options(data: Mapping[str, Any]) -> SanmaOptions:
    """A request's options: sanma's defaults, then those it sets, checked; an
    `InvalidRequestError` names the option at fault."""
    key = options_key(data)
    found = _READ.get(key) if key is not None else None
    if found is None:
        if not isinstance(data, Mapping):
            raise InvalidRequestError("options must be an object of option names and values")
        found = parse_options(SanmaOptions, data)
        problems = found.problems(frozenset())
        if problems:
            raise InvalidRequestError("; ".join(problems))
        if key is not None:
            if len(_READ) >= 1024:
                _READ.clear()
            _READ[key] = found
    return found
