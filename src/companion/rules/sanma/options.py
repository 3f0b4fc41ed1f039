"""The sanma options: riichi's switches of one hand, with the three-player table's values
(`honba_value` 200), the payment of a self-draw (`tsumo`), and riichi's options of a whole game
(its `table_rules`) at a table of three's values: 35,000 to start, 40,000 to return, uma +15
0 -15, and the noten payments of 2,000 in all (`noten_total`).

Sanma has one rule set, the one Tenhou and Mahjong Soul play; riichi's presets are rule sets
of four players and are not read here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.errors import InvalidRequestError
from companion.rules.options import parse_options
from companion.rules.profile import options_key
from companion.rules.riichi.options import (
    MAX_TABLE_POINTS,
    RiichiOptions,
    uma_reader,
)
from companion.rules.sanma.tiles import DORA_OF
from companion.tiles import Tile, Wind

TSUMO_PAYMENTS = ("loss", "bisection")
"""How a self-draw is paid at a table of three: each payer pays as at a table of four (the
winner takes less than on a discard: "tsumo loss"), or the absent North's payment is split
between the two payers."""
SEATS = (Wind.EAST, Wind.SOUTH, Wind.WEST)
"""The seats of a table of three, in turn order; East deals."""
ABORTIVE_KINDS = frozenset({"nine_terminals", "four_kongs"})
"""The abortive draws three players can have: the four winds, four riichi and three winners
on a discard need a fourth player."""


@dataclass(frozen=True)
class SanmaOptions(RiichiOptions):
    """One three-player hand's switches (riichi's, less its presets and its table's), read by
    `read_options`."""

    honba_value: int = 200
    """What one counter adds to a win (half of it from each payer on a self-draw)."""
    tsumo: str = "loss"
    """`TSUMO_PAYMENTS`: how a self-draw is paid."""
    start_points: int = 35_000
    return_points: int = 40_000
    uma: tuple[int, ...] = (15, 0, -15)
    triple_ron_draws: bool = False
    noten_total: int = 2_000
    """What the noten players pay the tenpai players, together, at an exhaustive draw (1
    tenpai: half of it from each other; 2 tenpai: half of it to each from the noten player)."""

    seats: ClassVar[tuple[Wind, ...]] = SEATS
    dora_of: ClassVar[tuple[Tile, ...]] = DORA_OF
    derived: ClassVar[frozenset[str]] = frozenset({"preset", "triple_ron_draws"})
    """Riichi's presets (rule sets of four players), and three winners on one discard (three
    players leave two to win on it): a request may not set them."""
    table_rules: ClassVar[frozenset[str]] = (RiichiOptions.table_rules - {"triple_ron_draws"}) | {
        "noten_total"
    }
    readers: ClassVar[Mapping[str, Callable[[Any], Any]]] = {"uma": uma_reader(len(SEATS))}
    abortive_kinds: ClassVar[frozenset[str]] = ABORTIVE_KINDS

    @property
    def split_absent(self) -> bool:
        return self.tsumo == "bisection"

    @property
    def noten_payment(self) -> int:
        return self.noten_total

    def problems(self, pattern_ids: frozenset[str]) -> list[str]:
        problems = super().problems(pattern_ids)
        if self.tsumo not in TSUMO_PAYMENTS:
            problems.append(f'option tsumo: "{self.tsumo}" is none of {", ".join(TSUMO_PAYMENTS)}')
        # Two tenpai share the total and two noten pay it in halves: whole hundreds each way.
        if not 0 <= self.noten_total <= MAX_TABLE_POINTS or self.noten_total % 200:
            problems.append(
                "option noten_total: must be a whole multiple of 200 from 0 to "
                f"{MAX_TABLE_POINTS:,} (its halves are paid at a draw)"
            )
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
