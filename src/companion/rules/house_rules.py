"""House rules: an option that changes the winning shapes or the pattern table, declared as data
on a profile (`Profile.house_rules`) rather than written into the scorer."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from companion.rules.options import Options
from companion.rules.patterns import Pattern, PatternChanges
from companion.shapes import Shape, Structure


@dataclass(frozen=True)
class HouseRule:
    """An option that changes the winning shapes or the pattern table, declared on the profile
    (`Profile.house_rules`) instead of written into its `structure_for` or `patterns_for`.

    While the request's option `option` is `value`, the patterns named in `changes` take those
    changes (`Pattern.with_changes` arguments), the patterns in `adds` join the table after
    them, and the shapes in `allows` are wins too. "Seven pairs is a win worth 3 tai" is one:
    `HouseRule("seven_pairs", adds=(seven_pairs_pattern,), allows=frozenset({SEVEN_PAIRS}))`.
    """

    option: str
    value: object = True
    changes: PatternChanges = field(default_factory=dict)
    adds: tuple[Pattern, ...] = ()
    allows: frozenset[Shape] = frozenset()
    about: str | None = None
    """The pattern the option is about, whose value a form may show beside it, where it is
    neither the one pattern it adds nor the one it changes (`pattern_id`)."""

    def __post_init__(self) -> None:
        if Shape.STANDARD in self.allows:
            raise ValueError(f"house rule {self.option}: sets and a pair are always a win")

    def holds(self, options: Options) -> bool:
        """Whether the rule is played under these options."""
        return bool(getattr(options, self.option) == self.value)

    @property
    def pattern_id(self) -> str | None:
        """The pattern the option brings in or changes: `about`, else the one it adds, else
        the one it changes; None where it names several or none."""
        if self.about is not None:
            return self.about
        named = [pattern.id for pattern in self.adds] or list(self.changes)
        return named[0] if len(named) == 1 else None

    def structure(self, structure: Structure) -> Structure:
        """`structure` with the shapes this rule allows."""
        if not self.allows:
            return structure
        return dataclasses.replace(structure, **{shape.value: True for shape in self.allows})
