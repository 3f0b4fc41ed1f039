"""A club's ratings (companion.clubs.ratings): Tenhou-style R worked by hand, OpenSkill against
the `openskill` package called directly, totals, seasons, leaderboards and refused input."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from companion.clubs.ratings import (
    Finish,
    Game,
    Period,
    RatingOrder,
    Ratings,
    RatingsError,
    place_bases,
    rate_games,
    tenhou_factor,
)
from companion.errors import InvalidRequestError


def game(game_id: str, at: datetime, *finishes: tuple[str, int, Fraction | Decimal]) -> Game:
    return Game(
        game_id=game_id,
        finished_at=at,
        family="riichi",
        seats=len(finishes),
        finishes=tuple(Finish(name, place, result) for name, place, result in finishes),
    )


NIGHT = datetime(2025, 3, 1, 19, tzinfo=UTC)

THREE_GAMES = [
    game(
        "g1",
        NIGHT,
        ("A", 1, Decimal("45.5")),
        ("B", 2, Decimal(10)),
        ("C", 3, Decimal("-15.2")),
        ("D", 4, Decimal("-40.3")),
    ),
    # A and E tie for second.
    game(
        "g2",
        NIGHT + timedelta(hours=1),
        ("C", 1, Fraction(50)),
        ("A", 2, Fraction(5)),
        ("E", 2, Fraction(5)),
        ("B", 4, Fraction(-60)),
    ),
    # B and C tie for third.
    game(
        "g3",
        NIGHT + timedelta(hours=2),
        ("D", 1, Fraction(1, 3)),
        ("A", 2, Fraction(0)),
        ("B", 3, Fraction(0)),
        ("C", 3, Fraction(-1, 3)),
    ),
]


# --- Tenhou-style R, by hand -------------------------------------------------------------------


def test_tenhou_r_over_three_games_worked_by_hand() -> None:
    # Game 1: everyone at 1500, no game before (f = 1), the table's average is everyone's own R,
    # so each moves by their place base alone: A 1530, B 1510, C 1490, D 1470.
    #
    # Game 2: average (1530 + 1510 + 1490 + 1500) / 4 = 1507.5. A and E tied second share
    # (+10 - 10) / 2 = 0. A, B and C have one game behind them (f = 0.998), E none (f = 1).
    #   C: 0.998 * (+30 + (1507.5 - 1490) / 40) = 0.998 * 30.4375  = +30.376625 -> 1520.376625
    #   A: 0.998 * (  0 + (1507.5 - 1530) / 40) = 0.998 * -0.5625  = -0.561375  -> 1529.438625
    #   E: 1     * (  0 + (1507.5 - 1500) / 40) =                    +0.1875    -> 1500.1875
    #   B: 0.998 * (-30 + (1507.5 - 1510) / 40) = 0.998 * -30.0625 = -30.002375 -> 1479.997625
    #
    # Game 3: average (1529.438625 + 1479.997625 + 1520.376625 + 1470) / 4 = 1499.95321875.
    # B and C tied third share (-10 - 30) / 2 = -20. A, B, C have two games behind them
    # (f = 0.996), D one (f = 0.998).
    #   D: 0.998 * (+30 + 29.95321875 / 40)  = 0.998 * 30.74883046875  = +30.6873328078125
    #   A: 0.996 * (+10 - 29.48540625 / 40)  = 0.996 * 9.26286484375   = +9.225813384375
    #   B: 0.996 * (-20 + 19.95559375 / 40)  = 0.996 * -19.50111015625 = -19.423105715625
    #   C: 0.996 * (-20 - 20.42340625 / 40)  = 0.996 * -20.51058515625 = -20.428542815625
    ratings = rate_games(THREE_GAMES)
    expected = {
        "A": ["1530", "1529.438625", "1538.664438384375"],
        "B": ["1510", "1479.997625", "1460.574519284375"],
        "C": ["1490", "1520.376625", "1499.948082184375"],
        "D": ["1470", "1500.6873328078125"],
        "E": ["1500.1875"],
    }
    assert {
        player: [point.tenhou_r for point in entry.history]
        for player, entry in ratings.players.items()
    } == {player: [Decimal(value) for value in values] for player, values in expected.items()}
    assert ratings.players["A"].tenhou_r == Decimal("1538.664438384375")
    assert [point.game_id for point in ratings.players["D"].history] == ["g1", "g3"]
    assert ratings.players["D"].history[1].finished_at == NIGHT + timedelta(hours=2)


def test_tenhou_r_ignores_the_callers_decimal_context() -> None:
    from decimal import localcontext

    with localcontext() as context:
        context.prec = 6
        assert rate_games(THREE_GAMES).players["A"].tenhou_r == Decimal("1538.664438384375")


def test_the_factor_falls_by_0_002_a_game_down_to_0_2() -> None:
    assert tenhou_factor(0) == 1
    assert tenhou_factor(1) == Decimal("0.998")
    assert tenhou_factor(250) == Decimal("0.5")
    assert tenhou_factor(399) == Decimal("0.202")
    assert tenhou_factor(400) == Decimal("0.2")
    assert tenhou_factor(2000) == Decimal("0.2")


@pytest.mark.parametrize(
    ("places", "bases"),
    [
        ((1, 2, 3, 4), (30, 10, -10, -30)),
        ((4, 3, 2, 1), (-30, -10, 10, 30)),
        ((1, 1, 3, 4), (20, 20, -10, -30)),
        ((1, 2, 2, 4), (30, 0, 0, -30)),
        ((3, 1, 3, 2), (-20, 30, -20, 10)),
        ((1, 1, 1, 4), (10, 10, 10, -30)),
        ((1, 2, 2, 2), (30, -10, -10, -10)),
        ((1, 1, 1, 1), (0, 0, 0, 0)),
        # sanma: +30 0 -30
        ((1, 2, 3), (30, 0, -30)),
        ((1, 1, 3), (15, 15, -30)),
        ((1, 2, 2), (30, -15, -15)),
        ((1, 1, 1), (0, 0, 0)),
    ],
)
def test_tied_places_share_the_bases_they_span(
    places: tuple[int, ...], bases: tuple[int, ...]
) -> None:
    assert place_bases(places) == tuple(Decimal(base) for base in bases)


def test_a_sanma_game_moves_r_by_its_own_bases() -> None:
    finishes = (Finish("A", 1, Fraction(20)), Finish("B", 2, Fraction(0)), Finish("C", 3, -20))
    ratings = rate_games([Game("s1", NIGHT, "sanma", 3, finishes)])
    assert [ratings.players[name].tenhou_r for name in "ABC"] == [1530, 1500, 1470]


# --- OpenSkill, totals and the rest against plain loops ----------------------------------------


def season(players: int, games: int, seed: int) -> list[Game]:
    """A club's season: games on evenings over a year, about one in eight with a tie."""
    rng = random.Random(seed)
    names = [f"Player {number}" for number in range(1, players + 1)]
    played = []
    at = datetime(2025, 1, 6, 19, tzinfo=UTC)
    for number in range(games):
        at += timedelta(hours=rng.choice([1, 1, 2, 24, 48, 72]))
        places = [1, 2, 3, 4]
        if rng.random() < 0.125:
            tied = rng.randrange(3)
            places[tied + 1] = places[tied]
        if rng.random() < 0.02:
            places = [1, 1, 1, 1]
        seated = rng.sample(names, 4)
        results = [Fraction(rng.randrange(-700, 700), 10) for _ in seated]
        played.append(
            game(f"game {number}", at, *zip(seated, places, results, strict=True)),
        )
    return played


SEASON = season(players=40, games=300, seed=38)


def test_the_season_has_ties_and_every_player() -> None:
    tied = [played for played in SEASON if len({f.place for f in played.finishes}) < 4]
    assert len(tied) > 20
    assert len(rate_games(SEASON).players) == 40


def test_openskill_equals_the_package_called_directly() -> None:
    model = PlackettLuce()
    skill: dict[str, PlackettLuceRating] = {}
    history: dict[str, list[tuple[str, float, float, float]]] = {}
    for played in SEASON:
        names = [finish.player for finish in played.finishes]
        teams = [[skill.get(name, model.rating())] for name in names]
        rated = model.rate(teams, ranks=[finish.place for finish in played.finishes])
        for name, (rating,) in zip(names, rated, strict=True):
            skill[name] = rating
            history.setdefault(name, []).append(
                (played.game_id, rating.mu, rating.sigma, rating.ordinal())
            )

    ratings = rate_games(SEASON)
    assert set(ratings.players) == set(skill)
    for name, entry in ratings.players.items():
        assert (entry.mu, entry.sigma, entry.ordinal) == (
            skill[name].mu,
            skill[name].sigma,
            skill[name].mu - 3 * skill[name].sigma,
        )
        assert [
            (point.game_id, point.mu, point.sigma, point.ordinal) for point in entry.history
        ] == history[name]


def test_tenhou_r_equals_a_plain_loop() -> None:
    bases = (30, 10, -10, -30)
    r: dict[str, float] = {}
    games: dict[str, int] = {}
    for played in SEASON:
        before = {finish.player: r.get(finish.player, 1500.0) for finish in played.finishes}
        average = sum(before.values()) / 4
        places = [finish.place for finish in played.finishes]
        for finish in played.finishes:
            tied = places.count(finish.place)
            base = sum(bases[finish.place - 1 : finish.place - 1 + tied]) / tied
            f = max(0.2, 1 - 0.002 * games.get(finish.player, 0))
            own = before[finish.player]
            r[finish.player] = own + f * (base + (average - own) / 40)
            games[finish.player] = games.get(finish.player, 0) + 1

    ratings = rate_games(SEASON)
    for name, entry in ratings.players.items():
        assert float(entry.tenhou_r) == pytest.approx(r[name], abs=1e-9)
        assert entry.games == games[name]


def test_totals_games_and_average_place() -> None:
    totals: dict[str, Fraction] = {}
    places: dict[str, list[int]] = {}
    for played in SEASON:
        for finish in played.finishes:
            totals[finish.player] = totals.get(finish.player, Fraction(0)) + finish.result
            places.setdefault(finish.player, []).append(finish.place)

    ratings = rate_games(SEASON)
    for name, entry in ratings.players.items():
        assert entry.total == totals[name]
        assert entry.games == len(places[name])
        assert entry.average_place == Fraction(sum(places[name]), len(places[name]))
        assert [point.place for point in entry.history] == places[name]
        running = [sum(point.result for point in entry.history[: n + 1]) for n in range(5)]
        assert [point.total for point in entry.history[:5]] == running


def test_totals_add_decimals_and_fractions_exactly() -> None:
    ratings = rate_games(THREE_GAMES)
    assert ratings.players["A"].total == Fraction("45.5") + 5 + 0
    assert ratings.players["C"].total == Fraction("-15.2") + 50 - Fraction(1, 3)
    assert ratings.players["D"].total == Fraction("-40.3") + Fraction(1, 3)
    assert isinstance(ratings.players["A"].total, Fraction)
    assert ratings.players["A"].average_place == Fraction(5, 3)
    assert ratings.players["B"].average_place == 3


# --- As of a date, a season --------------------------------------------------------------------


def test_as_of_a_date_rates_the_games_finished_by_its_end() -> None:
    day = SEASON[150].finished_at.date()
    kept = [played for played in SEASON if played.finished_at.date() <= day]
    assert 150 < len(kept) < 300
    as_of = rate_games(SEASON, Period.as_of(day))
    assert as_of.games == len(kept)
    assert as_of.players == rate_games(kept).players
    assert as_of.period == Period(last=day)


def test_a_season_starts_everyone_afresh() -> None:
    first, last = SEASON[100].finished_at.date(), SEASON[200].finished_at.date()
    kept = [played for played in SEASON if first <= played.finished_at.date() <= last]
    ratings = rate_games(SEASON, Period.season(first, last))
    assert ratings.games == len(kept)
    assert ratings.players == rate_games(kept).players
    # The first game of the season finds every one of its players new.
    opening = kept[0]
    bases = place_bases(tuple(finish.place for finish in opening.finishes))
    for finish, base in zip(opening.finishes, bases, strict=True):
        point = ratings.players[finish.player].history[0]
        assert (point.game_id, point.tenhou_r) == (opening.game_id, 1500 + base)


def test_a_period_counts_its_first_and_last_days_whole() -> None:
    period = Period.season(date(2025, 3, 1), date(2025, 3, 1))
    assert period.holds(datetime(2025, 3, 1, 0, 0))
    assert period.holds(datetime(2025, 3, 1, 23, 59, 59))
    assert not period.holds(datetime(2025, 2, 28, 23, 59, 59))
    assert not period.holds(datetime(2025, 3, 2))
    assert Period().holds(datetime(1999, 1, 1))
    assert len(rate_games(THREE_GAMES, Period.as_of(date(2025, 2, 28))).players) == 0


# --- Leaderboards ------------------------------------------------------------------------------


def test_each_order_ranks_by_its_rating_best_first() -> None:
    ratings = rate_games(SEASON)
    for order, value in (
        (RatingOrder.OPENSKILL, lambda entry: entry.ordinal),
        (RatingOrder.TENHOU, lambda entry: entry.tenhou_r),
        (RatingOrder.TOTAL, lambda entry: entry.total),
    ):
        board = ratings.leaderboard(order)
        assert len(board) == 40
        values = [value(entry) for entry in board]
        assert values == sorted(values, reverse=True)
    assert ratings.leaderboard(RatingOrder.TOTAL) != ratings.leaderboard(RatingOrder.TENHOU)
    assert [order.value for order in RatingOrder] == ["openskill", "tenhou", "total"]


def test_the_minimum_of_games_leaves_out_the_players_below_it() -> None:
    ratings = rate_games(THREE_GAMES)
    assert [entry.player for entry in ratings.leaderboard(RatingOrder.TENHOU)] == [
        "A",
        "D",
        "E",
        "C",
        "B",
    ]
    assert [entry.player for entry in ratings.leaderboard(RatingOrder.TENHOU, 2)] == [
        "A",
        "D",
        "C",
        "B",
    ]
    assert [entry.player for entry in ratings.leaderboard(RatingOrder.TOTAL, 3)] == [
        "A",
        "C",
        "B",
    ]
    assert ratings.leaderboard(RatingOrder.OPENSKILL, 4) == ()


def test_equal_ratings_go_to_more_games_then_by_name() -> None:
    at = NIGHT
    games = [
        game("1", at, ("Z", 1, 0), ("Y", 1, 0), ("X", 1, 0), ("W", 1, 0)),
        game("2", at, ("Z", 1, 0), ("V", 1, 0), ("U", 1, 0), ("T", 1, 0)),
    ]
    board = rate_games(games).leaderboard(RatingOrder.TOTAL)
    assert [entry.player for entry in board] == ["Z", "T", "U", "V", "W", "X", "Y"]


@pytest.mark.parametrize("minimum", [-1, 1.5, True])
def test_a_minimum_that_is_not_a_count_is_refused(minimum: object) -> None:
    with pytest.raises(RatingsError, match="minimum of games"):
        rate_games(THREE_GAMES).leaderboard(RatingOrder.TOTAL, minimum)  # type: ignore[arg-type]


# --- Refused input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("finishes", "message"),
    [
        ((), "game x has no players"),
        ((("A", 1, 0), ("B", 2, 0), ("A", 3, 0), ("C", 4, 0)), "game x names A twice"),
        ((("A", 1, 0), ("B", 2, 0), ("C", 3, 0), ("D", 5, 0)), r"places 1, 2, 3, 5 do not fit 4"),
        ((("A", 1, 0), ("B", 1, 0), ("C", 2, 0), ("D", 3, 0)), r"places 1, 1, 2, 3 do not fit 4"),
        ((("A", 0, 0), ("B", 2, 0), ("C", 3, 0), ("D", 4, 0)), r"places 0, 2, 3, 4 do not fit 4"),
        ((("A", 2, 0), ("B", 2, 0), ("C", 3, 0), ("D", 4, 0)), r"places 2, 2, 3, 4 do not fit 4"),
        ((("A", 1, 0), ("B", 2, 0)), "game x has 2 seats: games of three or four are rated"),
    ],
)
def test_a_game_that_cannot_be_rated_is_refused(
    finishes: tuple[tuple[str, int, int], ...], message: str
) -> None:
    with pytest.raises(RatingsError, match=message):
        Game("x", NIGHT, "riichi", len(finishes), tuple(Finish(*each) for each in finishes))


def test_a_game_whose_players_do_not_fill_its_seats_is_refused() -> None:
    finishes = (Finish("A", 1, 0), Finish("B", 2, 0), Finish("C", 3, 0))
    with pytest.raises(RatingsError, match="game x has 4 seats but 3 players finished it"):
        Game("x", NIGHT, "riichi", 4, finishes)


@pytest.mark.parametrize(
    ("player", "place", "result", "message"),
    [
        ("", 1, 0, "a player is named by a non-empty text"),
        ("A", 1.0, 0, "A's place is a whole number"),
        ("A", True, 0, "A's place is a whole number"),
        ("A", 1, 0.5, "A's result must be an exact amount"),
        ("A", 1, Decimal("NaN"), "A's result must be an exact amount"),
        ("A", 1, "12", "A's result must be an exact amount"),
    ],
)
def test_a_finish_that_is_not_a_name_a_place_and_an_amount_is_refused(
    player: str, place: object, result: object, message: str
) -> None:
    with pytest.raises(RatingsError, match=message):
        Finish(player, place, result)  # type: ignore[arg-type]


def test_games_out_of_order_twice_or_of_two_families_are_refused() -> None:
    first, second, third = THREE_GAMES
    with pytest.raises(RatingsError, match=r"game g2 finished at .* before game g3"):
        rate_games([first, third, second])
    with pytest.raises(RatingsError, match="game g1 is given twice"):
        rate_games([first, second, first])
    mcr = Game("m1", third.finished_at, "mcr", 4, third.finishes)
    with pytest.raises(RatingsError, match="m1 is a mcr game after riichi games"):
        rate_games([first, second, mcr])
    naive = Game("n1", datetime(2025, 3, 2), "riichi", 4, third.finishes)
    with pytest.raises(RatingsError, match="game n1 finished at a time without a time zone"):
        rate_games([first, naive])
    # Checked outside the period as well: a season refuses what the whole history would.
    with pytest.raises(RatingsError, match="given twice"):
        rate_games([first, second, first], Period.as_of(date(2000, 1, 1)))


def test_a_season_that_ends_before_it_starts_is_refused() -> None:
    with pytest.raises(RatingsError, match=r"cannot end \(2025-01-01\) before it starts"):
        Period.season(date(2025, 2, 1), date(2025, 1, 1))


def test_a_refusal_is_a_request_error() -> None:
    # So the service, the API and the command line treat it as they treat any bad request.
    assert issubclass(RatingsError, InvalidRequestError)


def test_ratings_are_pure() -> None:
    """Rating imports nothing of the ledger, the API, the web pages or the command line."""
    code = (
        "import sys, companion.clubs.ratings; "
        "print(' '.join(sorted(name for name in sys.modules if name.startswith('companion'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "companion.clubs.ratings" in loaded
    assert [
        name
        for name in loaded
        if name.split(".")[1:2] in (["ledger"], ["api"], ["web"], ["cli"], ["events"])
    ] == []
    assert isinstance(rate_games([]), Ratings)
