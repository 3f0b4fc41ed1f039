"""The principles by which the elements of a hand's value are counted, over data: which element
leaves out which, and which are formed by combining sets. No profile's names appear here; a
profile declares its elements (`Element`) and hands this module the matches of one reading.

The principles, as the Chinese rule books name them:

- **Non-repeat** (不重复): an element implied by another that is counted is not counted
  (`Element.excludes`, by id, all of its matches or a number of them). Elements are judged in
  their table's order, highest first, and one left out leaves nothing out itself.
- **Account-once** (套算一次) and **non-separation** (不拆移): the elements formed by combining
  sets (`Element.combination`) are chosen so that each set joins the sets already combined at
  most once: the chosen combinations, as sets of sets, form a forest. A combination inside
  another (two of the three chows of a straight) is then never counted beside it.
- **Non-identical** (不得相同): a set used in one combination does not form the same element
  again with another set.
- **High versus low** (就高不就低): among the choices the principles allow, the one worth most;
  among equal ones, the one whose elements come first in the table.
- A set-level element (`Element.absorbs`) leaves out the named elements' matches made of its
  own sets only (a pung of the seat wind is not also a pung of an honor).
- An element marked `fallback` counts only when nothing else does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from companion.shapes.blocks import remember

Sets = frozenset[int]
"""One match: the indices of the sets that earned it (empty for a whole-hand element)."""


@dataclass(frozen=True)
class Element:
    """What the principles need to know of a pattern, yaku or fan."""

    id: str
    value: int
    excludes: Mapping[str, int | None] = field(default_factory=dict)
    """Ids not counted when this one is: None leaves out every match, a number that many."""
    absorbs: frozenset[str] = frozenset()
    """Ids whose matches made only of this element's sets are not counted."""
    combination: bool = False
    fallback: bool = False


def _acyclic(chosen: Sequence[Sets]) -> bool:
    """Whether the combinations form a forest: each joins sets not yet joined to each other."""
    parent: dict[int, int] = {}

    def root(item: int) -> int:
        while parent.get(item, item) != item:
            item = parent[item]
        return item

    for sets in chosen:
        roots = {root(item) for item in sets}
        if len(roots) != len(sets):
            return False
        first, *rest = roots
        for other in rest:
            parent[other] = first
    return True


def _identical_shared(chosen: Sequence[tuple[int, Sets]]) -> bool:
    seen: set[tuple[int, int]] = set()
    for rank, sets in chosen:
        for item in sets:
            if (rank, item) in seen:
                return True
            seen.add((rank, item))
    return False


_RANKS: dict[int, tuple[Sequence[Element], dict[str, int]]] = {}


def _ranks(table: Sequence[Element]) -> dict[str, int]:
    """Each element's place in its table, read once a table (a profile's table is judged for
    every reading of every hand; the table is kept beside its ranks, so that its id stays
    its own)."""
    known = _RANKS.get(id(table))
    if known is None or known[0] is not table:
        known = (table, {element.id: rank for rank, element in enumerate(table)})
        _RANKS[id(table)] = known
    return known[1]


def choose_combinations(
    table: Sequence[Element], found: Mapping[str, Sequence[Sets]]
) -> dict[str, list[Sets]]:
    """The combinations counted: of every allowed choice (account-once, non-separation,
    non-identical) the one worth most, then the one with more of the earlier elements."""
    ranks = _ranks(table)
    candidates = [
        (ranks[name], sets)
        for name, matches in found.items()
        if name in ranks and table[ranks[name]].combination
        for sets in matches
    ]
    candidates.sort(key=lambda entry: (entry[0], sorted(entry[1])))
    best_choice: Sequence[tuple[int, Sets]]
    if _disjoint([sets for _, sets in candidates]):
        # No two share a set (most readings: none or one candidate): every principle allows
        # them all, and all are worth most (every value is positive). Skips the search.
        best_choice = candidates
    else:
        # The choice depends on the candidates' places, values and sets alone, which many
        # readings share (two chows of one suit and one of another...): the search, over
        # every subset of them, runs once for each such set of candidates.
        key = tuple([(rank, table[rank].value, sets) for rank, sets in candidates])
        known = _CHOICES.get(key)
        if known is None:
            known = remember(_CHOICES, key, _best_choice(table, candidates))
        best_choice = known
    chosen: dict[str, list[Sets]] = {}
    for rank, sets in best_choice:
        chosen.setdefault(table[rank].id, []).append(sets)
    return chosen


_CHOICES: dict[tuple[tuple[int, int, Sets], ...], tuple[tuple[int, Sets], ...]] = {}


def _disjoint(matches: Sequence[Sets]) -> bool:
    seen: set[int] = set()
    for sets in matches:
        if not seen.isdisjoint(sets):
            return False
        seen |= sets
    return True


def _best_choice(
    table: Sequence[Element], candidates: Sequence[tuple[int, Sets]]
) -> tuple[tuple[int, Sets], ...]:
    """Of every choice of the candidates the principles allow, the one worth most, then the
    one with more of the earlier elements."""
    best: tuple[int, list[int]] | None = None
    best_choice: tuple[tuple[int, Sets], ...] = ()
    for size in range(len(candidates), 0, -1):
        for choice in combinations(candidates, size):
            if _identical_shared(choice) or not _acyclic([sets for _, sets in choice]):
                continue
            total = sum(table[rank].value for rank, _ in choice)
            counts = [0] * len(table)
            for rank, _ in choice:
                counts[rank] += 1
            key = (total, counts)
            if best is None or key > best:
                best, best_choice = key, choice
    return best_choice


def apply_principles(
    table: Sequence[Element], found: Mapping[str, Sequence[Sets]]
) -> dict[str, list[Sets]]:
    """The matches that count, by id in table order, from every element's matches on one
    reading (`found`, by id)."""
    chosen = choose_combinations(table, found)
    ranks = _ranks(table)
    # Only the elements that matched, in table order: a table of 81 has a dozen on a reading,
    # and every pass below would otherwise go over all of them.
    matched = [table[rank] for rank in sorted(ranks[name] for name in found if name in ranks)]
    counted: dict[str, list[Sets]] = {}
    for element in matched:
        if element.combination:
            matches = chosen.get(element.id, [])
        else:
            matches = list(found.get(element.id, ()))
        if matches and not element.fallback:
            counted[element.id] = matches
    for element in matched:
        present = counted.get(element.id)
        if not present:
            continue
        for name, many in element.excludes.items():
            if name in counted:
                kept = counted[name][many:] if many is not None else []
                if kept:
                    counted[name] = kept
                else:
                    del counted[name]
        for name in element.absorbs:
            if name in counted:
                kept = [
                    other for other in counted[name] if not any(other <= sets for sets in present)
                ]
                if kept:
                    counted[name] = kept
                else:
                    del counted[name]
    counted = {name: matches for name, matches in counted.items() if matches}
    if not counted:
        for element in matched:
            if element.fallback and found.get(element.id):
                counted[element.id] = list(found[element.id])
    return {element.id: counted[element.id] for element in matched if element.id in counted}
