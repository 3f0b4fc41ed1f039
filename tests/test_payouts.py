"""Instant payouts of the Singapore table: every amount, the start-of-hand variants, the
cumulative animal set, tile checks, options, and `companion payout`."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.cli import main
from companion.errors import InvalidRequestError, NotAWinError, TileParseError
from companion.payouts import (
    AMOUNTS,
    NotPayableError,
    PayoutKind,
    explain_payout,
    instant_payout,
)
from companion.rules.singapore.options import SgTableOptions
from companion.rules.singapore.profile import SG, SG_TABLE
from companion.settlement import Payments
from companion.tiles import Tile, Wind


def net(payments: Payments) -> dict[str, Fraction]:
    return {wind.value: amount for wind, amount in payments.items()}


def holder_gets(seat: str, each: int | Fraction) -> dict[str, Fraction]:
    """Each of the other three pays `each` to `seat`."""
    return {s: Fraction(3 * each) if s == seat else Fraction(-each) for s in "ESWN"}


@pytest.mark.parametrize(
    ("kind", "during_play", "at_start"),
    [
        ("bite", 2, 4),
        ("own_flowers", 2, 4),
        ("four_flowers", 4, 4),
        ("four_seasons", 4, 4),
        ("animal_set", 4, 4),
        ("all_animals", 8, 12),
        ("concealed_kong", 2, 0),
    ],
)
def test_amounts(kind: str, during_play: int, at_start: int) -> None:
    assert net(instant_payout("sg-table", kind, "S")) == holder_gets("S", during_play)
    assert net(instant_payout("sg-table", kind, "S", at_start=True)) == holder_gets("S", at_start)


def test_exposed_kong_pays_one() -> None:
    assert net(instant_payout("sg-table", PayoutKind.EXPOSED_KONG, Wind.NORTH)) == holder_gets(
        "N", 1
    )


def test_exposed_kong_cannot_be_held_at_the_start() -> None:
    with pytest.raises(NotPayableError, match="during play"):
        instant_payout("sg-table", "exposed_kong", "E", at_start=True)


def test_concealed_kong_dealt_whole_pays_nothing_with_a_note() -> None:
    payout = explain_payout("sg-table", "concealed_kong", "W", at_start=True)
    assert net(payout.payments) == holder_gets("W", 0)
    assert payout.transfers() == []
    assert payout.payout_notes == ("A kong dealt whole at the start pays nothing",)


def test_all_animals_is_two_bites_and_the_set() -> None:
    payout = explain_payout("sg-table", "all_animals", "E", tiles="1a2a3a4a")
    assert payout.parts == (
        (PayoutKind.BITE, 2),
        (PayoutKind.BITE, 2),
        (PayoutKind.ANIMAL_SET, 4),
    )
    assert payout.each == 8
    start = explain_payout("sg-table", "all_animals", "E", at_start=True)
    assert [units for _, units in start.parts] == [4, 4, 4] and start.each == 12


def test_animal_set_alone_is_paid_on_top_of_the_bites() -> None:
    bites = 2 * instant_payout("sg-table", "bite", "E")[Wind.EAST]
    animal_set = instant_payout("sg-table", "animal_set", "E")[Wind.EAST]
    assert bites + animal_set == instant_payout("sg-table", "all_animals", "E")[Wind.EAST] == 24


def test_payments_sum_to_zero_and_each_other_seat_pays() -> None:
    for kind in PayoutKind:
        for seat in Wind:
            payments = instant_payout("sg-table", kind, seat)
            assert sum(payments.values()) == 0
            assert all(payments[other] < 0 for other in Wind if other is not seat)


def test_amounts_are_data_for_every_single_kind() -> None:
    assert set(AMOUNTS) == set(PayoutKind) - {PayoutKind.ALL_ANIMALS}


# --- the one-tai share ------------------------------------------------------------------------


def test_amounts_are_in_units_of_the_share() -> None:
    options = SG_TABLE.parse_options({"share": "0.5"})
    assert net(instant_payout(options, "bite", "E")) == holder_gets("E", 1)
    assert net(instant_payout(SgTableOptions(share=Fraction(1, 4)), "own_flowers", "N")) == (
        holder_gets("N", Fraction(1, 2))
    )


def test_other_profiles_have_no_instant_payouts() -> None:
    with pytest.raises(InvalidRequestError, match="no instant payouts"):
        instant_payout("sg", "bite", "E")
    with pytest.raises(InvalidRequestError, match="sg-table"):
        instant_payout(SG.parse_options({}), "bite", "E")
    with pytest.raises(InvalidRequestError, match="unknown profile"):
        instant_payout("jp", "bite", "E")


def test_malformed_kinds_and_seats() -> None:
    with pytest.raises(InvalidRequestError, match="unknown payout event"):
        instant_payout("sg-table", "wedding", "E")
    with pytest.raises(InvalidRequestError, match="seat"):
        instant_payout("sg-table", "bite", "X")
    assert instant_payout("sg-table", "Four-Flowers", "e")[Wind.EAST] == 12


# --- the tiles bear the payout out ------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "seat", "tiles"),
    [
        ("bite", "E", "1a2a"),
        ("bite", "E", "3a4a"),
        ("bite", "E", "1a2a3a"),
        ("bite", "E", [Tile.ROOSTER, Tile.CENTIPEDE, Tile.PLUM]),
        ("own_flowers", "E", "1f5f"),
        ("own_flowers", "W", "3f7f2a"),
        ("four_flowers", "N", "1234f"),
        ("four_seasons", "N", "5678f1f"),
        ("animal_set", "S", "1234a"),
        ("all_animals", "S", "cat mouse rooster centipede"),
        ("exposed_kong", "E", "5555s"),
        ("exposed_kong", "E", "5s"),
        ("concealed_kong", "E", "7777z"),
    ],
)
def test_tiles_that_bear_the_payout_out(kind: str, seat: str, tiles: str | list[Tile]) -> None:
    assert sum(instant_payout("sg-table", kind, seat, tiles=tiles).values()) == 0


@pytest.mark.parametrize(
    ("kind", "seat", "tiles", "message"),
    [
        ("bite", "E", "1a", "both animals"),
        ("bite", "E", "1a3a", "both animals"),
        ("bite", "E", "2a4a", "both animals"),
        ("bite", "E", "", "both animals"),
        ("own_flowers", "E", "1f6f", "without spring"),
        ("own_flowers", "S", "1f5f", "South seat"),
        ("four_flowers", "E", "123f5f", "without bamboo flower"),
        ("four_seasons", "E", "567f", "without winter"),
        ("animal_set", "E", "1a2a3a", "without centipede"),
        ("all_animals", "E", "1a2a4a", "without rooster"),
        ("exposed_kong", "E", "555s", "not a kong"),
        ("concealed_kong", "E", "5556s", "not a kong"),
        ("concealed_kong", "E", "1f1f1f1f", "not a kong"),
    ],
)
def test_tiles_that_contradict_the_payout(kind: str, seat: str, tiles: str, message: str) -> None:
    with pytest.raises(NotPayableError, match=message):
        instant_payout("sg-table", kind, seat, tiles=tiles)


def test_not_payable_is_a_contradiction_not_a_malformed_request() -> None:
    assert issubclass(NotPayableError, NotAWinError)


def test_bonus_kinds_refuse_playing_tiles_and_repeats() -> None:
    with pytest.raises(InvalidRequestError, match="5 of bamboo"):
        instant_payout("sg-table", "bite", "E", tiles="1a2a5s")
    with pytest.raises(InvalidRequestError, match="exists once"):
        instant_payout("sg-table", "bite", "E", tiles="1a1a2a")
    with pytest.raises(TileParseError):
        instant_payout("sg-table", "bite", "E", tiles="1x")


# --- companion payout -------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as leave:
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["payout", "--profile", "sg-table", "bite", "--seat", "S", "--at-start", "--json"], capsys
    )
    assert code == 0
    data = json.loads(out)
    assert data["valid"] is True and data["event"] == "bite" and data["at_start"] is True
    assert data["each"] == 4
    assert data["payments"] == {"E": -4, "S": 12, "W": -4, "N": -4}
    assert data["transfers"][0] == {"from": "W", "to": "S", "amount": 4}


def test_cli_readable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["payout", "all_animals", "--seat", "E", "--tiles", "1a2a3a4a"], capsys)
    assert code == 0
    assert "Each other player pays E 8" in out and "Net: E +24, S -8, W -8, N -8" in out
    assert out.count("Bite: 2") == 2


def test_cli_option_share(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["payout", "concealed_kong", "--seat", "N", "--option", "share=0.5", "--json"], capsys
    )
    assert code == 0 and json.loads(out)["payments"]["N"] == 3


def test_cli_kong_dealt_at_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["payout", "concealed_kong", "--seat", "W", "--at-start"], capsys)
    assert code == 0 and "Nobody pays." in out and "dealt whole" in out


def test_cli_contradiction_is_valid_false(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["payout", "bite", "--seat", "E", "--tiles", "1a3a", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["valid"] is False and "both animals" in data["error"]
    code, out, _ = run(["payout", "exposed_kong", "--seat", "E", "--at-start"], capsys)
    assert code == 0 and out.startswith("No payout:")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["payout", "wedding", "--seat", "E"], "unknown payout event"),
        (["payout", "bite", "--seat", "Q"], "seat must be a wind"),
        (["payout", "bite", "--seat", "E", "--profile", "sg"], "no instant payouts"),
        (["payout", "bite", "--seat", "E", "--option", "share=0"], "option share"),
        (["payout", "bite", "--seat", "E", "--option", "colour=red"], 'option "colour"'),
        (["payout", "bite", "--seat", "E", "--tiles", "1a2a9s"], "9 of bamboo"),
    ],
)
def test_cli_refusals_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and message in err


def test_cli_seat_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["payout", "bite"], capsys)
    assert code == 2 and "--seat" in err
