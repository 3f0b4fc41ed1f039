"""A scored MCR hand as the contract has it: each fan's score (`McrScore`) and the result
(`McrResult`), made by the engine (`companion.rules.mcr.engine`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.mcr.fans import BY_ID
from companion.tiles import Wind


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
