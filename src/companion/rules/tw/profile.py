"""The `tw` profile: its checks of a hand and its win, dealer tai and settlement."""

from __future__ import annotations

from collections.abc import Sequence

from companion.context import Circumstance, WinContext
from companion.errors import NotAWinError
from companion.hand import Hand, Meld
from companion.rules.profile import CountingProfile
from companion.rules.tw.options import TwOptions
from companion.rules.tw.patterns import FLOWER_WINS, HOUSE_RULES, OPEN_MELDS, PATTERNS
from companion.rules.value import Count
from companion.settlement import Amount, Payments, collect, others
from companion.shapes import FIVE_SETS, Reading, WinRole
from companion.tiles import (
    FLOWERS,
    SEASONS,
    TERMINALS_AND_HONORS,
    Tile,
    Wind,
    english_list,
)

_EIGHT_BONUS = frozenset(FLOWERS + SEASONS)


def dealer_tai_value(context: WinContext) -> int:
    """1 dealer tai plus 2 per prior consecutive dealer win."""
    return 1 + 2 * context.dealer_streak


def payers(context: WinContext) -> tuple[Wind, ...]:
    """Self-draw: each of the other three; discard: the discarder alone."""
    if context.self_drawn:
        return others(context.seat)
    assert context.discarder is not None
    return (context.discarder,)


def dealer_tai_on(context: WinContext, payer: Wind) -> int:
    """The dealer tai on one of the win's payments: when the dealer wins, or the dealer's
    discard is won on. A non-dealer's self-draw carries none, even on the dealer's payment;
    flower wins none."""
    if context.flower_win is not None:
        return 0
    if context.seat is context.dealer or (context.by_discard and payer is context.dealer):
        return dealer_tai_value(context)
    return 0


class TwProfile(CountingProfile[TwOptions]):
    id = "tw"
    name = "Taiwan (mahjchina, 16 tiles)"
    structure = FIVE_SETS
    patterns = PATTERNS
    flower_wins = FLOWER_WINS
    options_type = TwOptions
    house_rules = HOUSE_RULES
    several_winners = True
    prefers_readings = True
    earthly_self_draw = False
    # The mahjchina table has no pattern for replacement or kong_on_kong: those are refused
    # rather than silently ignored, as in sg.
    circumstances = (
        Circumstance.ROBBING_KONG,
        Circumstance.LAST_TILE,
        Circumstance.LAST_DISCARD,
        Circumstance.HEAVENLY,
        Circumstance.EARTHLY,
        Circumstance.ORIGINAL_READY,
    )
    drawn_circumstances = frozenset((Circumstance.LAST_TILE,))
    table_discards = True
    dealer_streak = True

    def check_tiles(self, concealed: Sequence[Tile], melds: Sequence[Meld]) -> None:
        playing = [tile for tile in concealed if not tile.is_bonus]
        if not melds and len(playing) == 14 and set(playing) == set(TERMINALS_AND_HONORS):
            raise NotAWinError(
                "Thirteen Orphans is not a Taiwanese win: in the tw profile a win is five sets "
                "and a pair (17 tiles) or seven pairs and a triplet",
                key="refusal.tw_thirteen_orphans",
            )
        if len(playing) + 3 * len(melds) == 14:
            raise NotAWinError(
                "14 tiles is a four-sets-and-a-pair hand of 13-tile mahjong; a Taiwanese win "
                "has five sets and a pair: 17 tiles, a kong counting as three",
                key="refusal.tw_fourteen_tiles",
            )

    def check_context(self, context: WinContext, options: TwOptions) -> None:
        super().check_context(context, options)
        self.check_liability(context)
        if context.flower_win is not None:
            if context.circumstances:
                named = sorted(circumstance.value for circumstance in context.circumstances)
                raise NotAWinError(
                    "a flower win scores alone: leave out the events " + ", ".join(named),
                    key="refusal.flower_win_events",
                    params={"events": named},
                )
            return
        unscored = self.undeclared_circumstance(context)
        if unscored is not None:
            raise NotAWinError(
                f"the {self.id} profile has no {unscored.value} pattern: leave the event out",
                key="refusal.unscored_event_pattern",
                params={"profile": self.id, "event": unscored.value},
            )
        self._check_win_type(context)

    def _check_win_type(self, context: WinContext) -> None:
        if context.has(Circumstance.LAST_TILE) and context.by_discard:
            raise NotAWinError(
                "last_tile is a self-draw of the final live-wall tile; a win on the discard "
                "after it is last_discard",
                key="refusal.last_tile_discard",
            )
        if context.has(Circumstance.LAST_DISCARD) and context.self_drawn:
            raise NotAWinError(
                "last_discard is a win on a discard, not a self-draw",
                key="refusal.last_discard_self_draw",
            )

    def check_hand(self, hand: Hand, context: WinContext, options: TwOptions) -> list[str]:
        # Every check but the last needs bonus tiles or declared groups: most hands have
        # neither, and the scorer asks on every hand.
        bonus, melds = hand.bonus, hand.melds
        if bonus:
            animals = [tile for tile in bonus if tile.is_animal]
            if animals:
                raise NotAWinError(
                    f"animal tiles are not Taiwanese tiles: take out {english_list(animals)}",
                    key="refusal.tw_animals",
                    params={"tiles": [tile.mpsz for tile in animals]},
                )
        if context.flower_win is not None:
            return []
        if melds and context.has(Circumstance.ORIGINAL_READY):
            raise NotAWinError(
                "an original ready hand keeps its initial tiles, with no melds: the hand declares "
                + ", ".join(str(meld) for meld in melds),
                key="refusal.original_ready_melds",
                params={"melds": [str(meld) for meld in melds]},
            )
        if bonus and _EIGHT_BONUS.issubset(bonus):
            raise NotAWinError(
                "bonus holds all eight flowers: holding all eight ends the hand at once, so "
                'enter it as flower_win "eight", without a hand',
                key="refusal.eight_flowers_in_hand",
            )
        open_melds = len([meld for meld in melds if meld.kind in OPEN_MELDS]) if melds else 0
        if open_melds == hand.sets and context.self_drawn:
            if not options.exposed_self_draw:
                raise NotAWinError(
                    "all five sets are declared, so the pair must be won on a discard (Exposed "
                    "hand); a table that allows the self-draw sets option exposed_self_draw",
                    key="refusal.exposed_self_draw",
                )
            return [
                "all five sets are declared but the win is a self-draw: Exposed hand needs the "
                "pair completed by a discard"
            ]
        return []

    def preference(self, reading: Reading) -> int:
        # Where the winning tile may complete the pair or a chow for the same tai (456m5m5m won
        # on 5m), report the pair wait, as the source's own calculator does.
        return 1 if reading.role is WinRole.PAIR else 0

    def stake(self, tai: int, options: TwOptions) -> Amount:
        """One payment: base plus per_tai for each tai (the hand's and that payment's dealer
        tai); an int when it is whole."""
        base, per_tai = options.base, options.per_tai
        if base.denominator == 1 and per_tai.denominator == 1:
            return base.numerator + per_tai.numerator * tai
        return base + per_tai * tai

    def settle(self, value: Count, context: WinContext, options: TwOptions) -> Payments:
        """Self-draw: each of the other three pays; discard: the discarder alone pays. Each
        payment carries its own dealer tai."""
        tai = value.tai
        owed = {
            payer: self.stake(tai + dealer_tai_on(context, payer), options)
            for payer in payers(context)
        }
        return collect(context.seat, owed)

    def dealer_tai(self, context: WinContext) -> int | None:
        # Every payment that carries dealer tai carries the same amount.
        return max(dealer_tai_on(context, payer) for payer in payers(context))


TW = TwProfile()
