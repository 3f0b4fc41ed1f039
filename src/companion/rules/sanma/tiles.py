"""The tiles of three-player riichi: the 2m-8m taken out, and the dora an indicator makes
among the tiles left (1m makes 9m; every other indicator as in riichi)."""

from __future__ import annotations

from companion.rules.riichi.tiles import DORA_OF as FOUR_PLAYER_DORA_OF
from companion.tiles import Tile

OUT_OF_PLAY = frozenset(Tile(kind) for kind in range(Tile.M2, Tile.M8 + 1))
"""The 2m to 8m: 28 of the 136 tiles, not in play (108 are)."""
DORA_OF: tuple[Tile, ...] = tuple(
    Tile.M9 if indicator == Tile.M1 else dora for indicator, dora in enumerate(FOUR_PLAYER_DORA_OF)
)
"""By indicator, the dora it makes: as in riichi (9m makes 1m, West makes North), but 1m
makes 9m, the next character tile in play. The 2m-8m are no indicators here (refused)."""
