"""A hand: concealed tiles (with the winning tile), declared groups and bonus tiles.

`Hand.build` checks everything that can be checked without a profile's scoring rules and reports
every problem it finds, one message each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from companion.errors import InvalidHandError, Problem, TileParseError
from companion.tiles import KINDS, Tile, format_tiles, parse_tile, parse_tiles


class MeldKind(Enum):
    """A declared group, written as in a scoring request (docs/contract.md)."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    """Exposed kong claimed from a discard."""
    ADDED_KONG = "akong"
    """Exposed kong made by adding a drawn tile to a declared pung."""
    CONCEALED_KONG = "ckong"

    __hash__ = object.__hash__  # members are singletons; Enum's default hash is slow

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)

    @property
    def size(self) -> int:
        return 4 if self.is_kong else 3


_MELD_ALIASES = {
    "chi": MeldKind.CHOW,
    "chii": MeldKind.CHOW,
    "pong": MeldKind.PUNG,
    "pon": MeldKind.PUNG,
    "kan": MeldKind.KONG,
    "added_kong": MeldKind.ADDED_KONG,
    "concealed_kong": MeldKind.CONCEALED_KONG,
}


@dataclass(frozen=True, slots=True)
class Meld:
    kind: MeldKind
    tiles: tuple[Tile, ...]

    @classmethod
    def parse(cls, text: str) -> Meld:
        """`"pung 777z"`, `"chow 123m"`, `"ckong 1111p"`; a pung or kong may give one tile
        (`"kong 5s"`) and a chow its lowest tile (`"chow 3p"`)."""
        kind_word, _, tile_text = text.strip().partition(" ")
        kind_key = kind_word.lower()
        try:
            kind = MeldKind(kind_key)
        except ValueError:
            if kind_key not in _MELD_ALIASES:
                known = ", ".join(kind.value for kind in MeldKind)
                raise TileParseError(
                    f'unknown group "{text.strip()}": start it with one of {known}'
                ) from None
            kind = _MELD_ALIASES[kind_key]
        tiles = parse_tiles(tile_text)
        if len(tiles) == 1 and not tiles[0].is_bonus:
            tiles = _expand_single(kind, tiles[0])
        return cls(kind, tiles)

    @property
    def first(self) -> Tile:
        return min(self.tiles)

    def problems(self) -> list[str]:
        tiles = sorted(self.tiles)
        if any(tile.is_bonus for tile in tiles):
            return [f"{self}: bonus tiles never form a group"]
        if len(tiles) != self.kind.size:
            return [f"{self} must have {self.kind.size} tiles, not {len(tiles)}"]
        if self.kind is MeldKind.CHOW:
            first = tiles[0]
            consecutive = tiles == [first, first + 1, first + 2]
            if first.is_honor or not consecutive or first.suit is not tiles[2].suit:
                return [f"{self} is not a chow: it needs three consecutive tiles of one suit"]
            return []
        if len(set(tiles)) != 1:
            name = "kong" if self.kind.is_kong else "pung"
            return [f"{self} is not a {name}: its tiles must all be the same"]
        return []

    def __str__(self) -> str:
        return f"{self.kind.value} {format_tiles(self.tiles)}"


def _expand_single(kind: MeldKind, tile: Tile) -> tuple[Tile, ...]:
    if kind is MeldKind.CHOW:
        if tile.is_honor or tile.rank > 7:
            raise TileParseError(
                f"a chow cannot start at {tile.english} ({tile.mpsz})",
                key="refusal.chow_start",
                params={"tile": tile.mpsz},
            )
        return (tile, Tile(tile + 1), Tile(tile + 2))
    return (tile,) * kind.size


@dataclass(frozen=True, slots=True)
class Hand:
    """A validated hand.

    `concealed` holds the tiles not in declared groups, in the order given; for a complete hand
    it includes `winning_tile`. A waiting hand (one tile short) has `winning_tile` None.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    bonus: tuple[Tile, ...]
    winning_tile: Tile | None
    sets: int
    """How many sets the hand's profile asks for besides the pair: 4, or 5 in Taiwan."""

    @classmethod
    def build(
        cls,
        concealed: Sequence[Tile],
        melds: Sequence[Meld] = (),
        bonus: Sequence[Tile] = (),
        winning_tile: Tile | None = None,
        *,
        sets: int = 4,
        complete: bool = True,
    ) -> Hand:
        """Validate and build. `complete` asks for 3*sets+2 structural tiles, else 3*sets+1
        (a waiting hand, whose `winning_tile` stays None). A complete hand's winning tile
        defaults to the last concealed tile written."""
        if sets not in (4, 5):
            raise ValueError("sets must be 4 or 5")
        problems: list[str | Problem] = []
        concealed = tuple(concealed)
        playing = tuple([tile for tile in concealed if tile < KINDS])
        if len(playing) != len(concealed):
            misplaced = [tile for tile in concealed if tile >= KINDS]
            names = ", ".join(tile.english for tile in misplaced)
            problems.append(f"{names}: bonus tiles are set aside; list them as bonus tiles")
        for meld in melds:
            problems.extend(meld.problems())
        if bonus:
            problems.extend(_bonus_problems(bonus))

        structural = len(playing) + 3 * len(melds)
        expected = 3 * sets + (2 if complete else 1)
        if structural != expected:
            problems.append(
                Problem(
                    _count_message(structural, expected, sets, complete, melds),
                    "refusal.tile_count" if complete else "refusal.tile_count_waiting",
                    {"count": structural, "expected": expected},
                )
            )

        held = [0] * len(Tile)
        for tile in playing:
            held[tile] += 1
        for meld in melds:
            for tile in meld.tiles:
                held[tile] += tile < KINDS
        if max(held) > 4:
            for kind, count in enumerate(held):
                if count > 4:
                    tile = Tile(kind)
                    problems.append(
                        Problem(
                            f"{tile.english} ({tile.mpsz}) appears {count} times counting "
                            "declared groups; there are four",
                            "refusal.fifth_copy",
                            {"tile": tile.mpsz, "count": count},
                        )
                    )

        if complete:
            if winning_tile is None and playing:
                winning_tile = playing[-1]
            if winning_tile is None:
                problems.append(Problem("there is no winning tile", "refusal.no_winning_tile"))
            elif winning_tile not in playing:
                problems.append(
                    Problem(
                        f"the winning tile {winning_tile.english} ({winning_tile.mpsz}) is not "
                        "among the concealed tiles",
                        "refusal.winning_tile_missing",
                        {"tile": winning_tile.mpsz},
                    )
                )
        elif winning_tile is not None:
            raise ValueError("a waiting hand has no winning tile")

        if problems:
            raise InvalidHandError(problems)
        return cls(playing, tuple(melds), tuple(bonus), winning_tile, sets)

    @property
    def is_complete(self) -> bool:
        return self.winning_tile is not None

    @property
    def is_closed(self) -> bool:
        """No declared group at all (a concealed kong counts as declared)."""
        return not self.melds

    def counts(self) -> list[int]:
        """Counts of every playing kind in the concealed tiles and the declared groups."""
        counts = [0] * KINDS
        for tile in self.concealed:
            counts[tile] += 1
        for meld in self.melds:
            for tile in meld.tiles:
                counts[tile] += 1
        return counts

    def concealed_counts(self) -> list[int]:
        counts = [0] * KINDS
        for tile in self.concealed:
            counts[tile] += 1
        return counts

    def without_winning_tile(self) -> Hand:
        """The waiting hand before the winning tile arrived."""
        if self.winning_tile is None:
            return self
        concealed = list(self.concealed)
        # The last copy written is the one that arrived, so the first ones keep their order.
        index = len(concealed) - 1 - concealed[::-1].index(self.winning_tile)
        del concealed[index]
        return Hand(tuple(concealed), self.melds, self.bonus, None, self.sets)

    def with_winning_tile(self, tile: Tile) -> Hand:
        """This waiting hand completed by `tile` (not re-validated: callers check copies)."""
        return Hand((*self.concealed, tile), self.melds, self.bonus, tile, self.sets)

    def __str__(self) -> str:
        parts = [format_tiles(self.concealed)]
        parts.extend(f"[{meld}]" for meld in self.melds)
        if self.bonus:
            parts.append("+" + format_tiles(self.bonus))
        return " ".join(parts)


def _bonus_problems(bonus: Sequence[Tile]) -> list[str]:
    if all(tile >= _FIRST_BONUS for tile in bonus) and len(set(bonus)) == len(bonus):
        return []  # the usual case: distinct bonus tiles, nothing to report
    problems: list[str] = []
    seen: Counter[Tile] = Counter()
    for tile in bonus:
        if not tile.is_bonus:
            problems.append(
                f"{tile.english} ({tile.mpsz}) is not a bonus tile: only flowers, seasons and "
                "animals are set aside"
            )
        seen[tile] += 1
    for tile, count in sorted(seen.items()):
        if tile.is_bonus and count > 1:
            problems.append(f"bonus tile {tile.english} ({tile.mpsz}) is listed {count} times")
    return problems


_FIRST_BONUS = min(tile for tile in Tile if tile.is_bonus)


def _count_message(
    structural: int, expected: int, sets: int, complete: bool, melds: Sequence[Meld]
) -> str:
    word = {4: "four", 5: "five"}[sets]
    shape = (
        f"a hand of {word} sets and a pair"
        if complete
        else f"a hand one tile short of {word} sets and a pair"
    )
    kong_note = " (a kong counts as three)" if any(m.kind.is_kong for m in melds) else ""
    return f"the hand has {structural} structural tiles{kong_note}, but {shape} has {expected}"


def parse_hand(
    hand: str,
    melds: Iterable[str] = (),
    bonus: str = "",
    winning_tile: str | None = None,
    *,
    sets: int = 4,
    complete: bool = True,
) -> Hand:
    """Parse the text form of the command line and the scoring request, then validate."""
    return Hand.build(
        parse_tiles(hand),
        [Meld.parse(text) for text in melds],
        parse_tiles(bonus) if bonus else (),
        parse_tile(winning_tile) if winning_tile else None,
        sets=sets,
        complete=complete,
    )
