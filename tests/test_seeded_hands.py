"""The engine on seeded requests: its results are those recorded, and its claims hold.

The requests cover every profile with declared groups (chows, pungs, every kind of kong), bonus
tiles (animals too, which some profiles refuse), events, table state, options, special shapes
(Thirteen Orphans, seven pairs, seven pairs and a triplet, nine gates, honor and one-suit hands),
flower wins, hands one tile short, and refusals of every kind.

- **No result changes unnoticed.** `tests/seeded/<profile>.txt` records 2,000 seeded requests a
  profile and 100 pairs of winners on one discard, each line a request and its `to_json()`
  (`request 17 {...} => {...}`), in the order they are drawn, so that a re-recording's diff
  shows which results moved and on which requests. The lines are JSON with fewer quotes and
  commas (`tests/seeded_record.py` says how): as readable as JSON lines and a quarter smaller
  (3.5 MB rather than 4.8 MB), for files whose every version the repository keeps. A refusal
  is recorded as refused (`valid` false, or the type of the error raised) with its other
  fields (the waits of a hand one tile short, each winner of a pair), without its message:
  rewording a refusal changes nothing recorded. The results were first recorded from the
  engine once it had matched the scorer it replaced (the reference kept for issue 16) on
  50,000 requests a profile. When a result differs, the test names the first request that
  differs (profile, index, the request), its first differing field with the value recorded
  and the value now (`patterns[1].tai: expected 2, actual 3`), and how many others differ. A
  change that is meant to change results records them again (`make record-seeded`) and says
  why in its commit; recording the same results again writes the same bytes.
- **The engine's claims hold** on every reading of `SEEDED_HANDS` requests a profile (2,000 in
  the suite, 50,000 with `make seeded`): each decided pattern's bits against its predicate, a
  standard reading's summed bits against its groups' bits, and the bits a table does not read
  against its outcome.

`COMPANION_SEEDED_HANDS` (`SEEDED_HANDS`, 2,000 by default) is how many requests a profile both
tests take; the results are compared on as many as are recorded (2,000 at most) and on pairs in
proportion. `make check` runs this module with 200 (and 10 pairs), a second or two, so that a
change to a result shows in the edit-test loop; `make test` runs the 2,000.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion import scoring
from companion.context import Circumstance
from companion.errors import CompanionError
from companion.request import parse_request
from companion.rules import get_profile
from companion.rules.facts import Facts, HandFacts, standard_features, wind_features
from companion.shapes import Reading, block_keys, readings
from companion.shapes.arrange import candidates
from companion.tiles import KINDS, TERMINALS_AND_HONORS, Tile
from seeded_record import Entry, read_line, read_record, record_path, write_line, write_record
from shared_profiles import SHARED

SEEDED_HANDS = int(os.environ.get("COMPANION_SEEDED_HANDS", "2000"))
RECORDED_HANDS = 2000
"""Requests a profile whose results are recorded (whatever `SEEDED_HANDS` is)."""
RECORDED_PAIRS = 100
"""Pairs of winners on one discard a profile whose results are recorded."""
RECORDING = bool(os.environ.get("COMPANION_RECORD_SEEDED"))
PROFILES = tuple(SHARED)
"""The profiles of the shared request (riichi's engine has its own seeded test,
tests/test_riichi_differential.py)."""
SETS = {profile.id: profile.structure.sets for profile in SHARED.values()}
WINDS = ("E", "S", "W", "N")
CIRCUMSTANCES = tuple(circumstance.value for circumstance in Circumstance)
MELD_WORDS = ("chow", "pung", "kong", "akong", "ckong")


def _mpsz(tile: int) -> str:
    return Tile(tile).mpsz


def _family(rng: random.Random) -> list[int]:
    """The kinds a hand draws from: anything, one suit, one suit and honors, honors,
    terminals and honors, or the green tiles."""
    roll = rng.random()
    suit = rng.randrange(3) * 9
    if roll < 0.45:
        return list(range(KINDS))
    if roll < 0.6:
        return list(range(suit, suit + 9))
    if roll < 0.75:
        return [*range(suit, suit + 9), *range(27, 34)]
    if roll < 0.83:
        return list(range(27, 34))
    if roll < 0.93:
        return [int(tile) for tile in TERMINALS_AND_HONORS]
    return [19, 20, 21, 23, 25, 32]


def _standard(rng: random.Random, sets: int) -> tuple[list[int], list[str]] | None:
    """Concealed tiles and declared groups of sets and a pair, or None past four copies."""
    family = _family(rng)
    counts = [0] * KINDS
    concealed: list[int] = []
    melds: list[str] = []
    for _ in range(sets):
        chow_starts = [k for k in family if k < 27 and k % 9 <= 6 and k + 2 in family]
        if chow_starts and rng.random() < 0.5:
            first = rng.choice(chow_starts)
            tiles = [first, first + 1, first + 2]
            word = "chow"
        else:
            kind = rng.choice(family)
            word = rng.choice(("pung", "pung", "pung", "kong", "akong", "ckong"))
            tiles = [kind] * (4 if word != "pung" else 3)
        for tile in tiles:
            counts[tile] += 1
        if rng.random() < 0.3:
            melds.append(f"{word} {''.join(_mpsz(t) for t in tiles)}")
        else:
            concealed.extend(tiles[:3])  # a concealed kong is written as a meld
    pair = rng.choice(family)
    counts[pair] += 2
    concealed += [pair, pair]
    if max(counts) > 4:
        return None
    return concealed, melds


def _special(rng: random.Random, sets: int) -> list[int]:
    roll = rng.random()
    if roll < 0.3:
        orphans = [int(tile) for tile in TERMINALS_AND_HONORS]
        return [*orphans, rng.choice(orphans)]
    if roll < 0.5:
        suit = rng.randrange(3) * 9
        gates = [suit, suit, suit, *range(suit + 1, suit + 8), suit + 8, suit + 8, suit + 8]
        return [*gates, rng.randrange(suit, suit + 9)]
    kinds = rng.sample(range(KINDS), 8)
    tiles = [kind for kind in kinds[:7] for _ in range(2)]
    if sets == 5:
        tiles += [kinds[7]] * 3
    return tiles


def _tiles(rng: random.Random, sets: int) -> tuple[list[int], list[str]]:
    if rng.random() < 0.15:
        return _special(rng, sets), []
    while True:
        found = _standard(rng, sets)
        if found is not None:
            return found


def _options(rng: random.Random, profile: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if rng.random() < 0.5:
        return options
    if profile == "hk":
        if rng.random() < 0.6:
            options["min_faan"] = rng.choice((0, 0, 1, 3, 5))
        for name in ("flowers_count_to_minimum", "great_dragons_limit", "seven_pairs"):
            if rng.random() < 0.3:
                options[name] = rng.random() < 0.7
        if rng.random() < 0.3:
            options["max_faan"] = rng.choice((8, 10, 13))
        if rng.random() < 0.3:
            options["base"] = rng.choice((1, 2, "0.5", "1/3"))
        if rng.random() < 0.3:
            options["curve"] = rng.choice(("half_spicy", "spicy"))
        if rng.random() < 0.3:
            options["gun"] = rng.choice(("full", "half"))
    else:
        options["min_tai"] = rng.choice((0, 0, 1, 2))
    if profile in ("sg", "sg-table") and rng.random() < 0.3:
        options["share"] = rng.choice((1, 2, "0.5", "0.25", "1/3"))
    if profile == "sg-table":
        if rng.random() < 0.4:
            options["cap"] = rng.choice((3, 5, 8, 10))
        if rng.random() < 0.3:
            options["shooter_pays"] = rng.random() < 0.7
        if rng.random() < 0.25:
            options["chart"] = rng.choice(
                (
                    "3/6",
                    "1/2",
                    {"discarder": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "self_draw": [1] * 10},
                )
            )
    if profile == "tw":
        if rng.random() < 0.3:
            options["base"] = rng.choice((0, 1, "0.5"))
        if rng.random() < 0.3:
            options["per_tai"] = rng.choice((1, 2, "0.5"))
        if rng.random() < 0.3:
            options["wait_rule"] = rng.choice(("role", "single"))
        if rng.random() < 0.2:
            options["exposed_self_draw"] = rng.random() < 0.7
    if rng.random() < 0.15:
        ids = {
            "sg": ("dragon_set", "half_flush", "ping_hu", "seat_flower"),
            "sg-table": ("animal", "big_dragons", "flower_set", "little_ping_hu"),
            "tw": ("winning_hand", "pure_straight.concealed", "self_draw", "flowers"),
            "hk": ("dragon_set", "self_draw", "no_flowers", "chow_hand"),
        }[profile]
        options["tai_overrides"] = {rng.choice(ids): rng.randrange(0, 4)}
    if rng.random() < 0.01:
        options["no_such_option"] = 1  # refused by both alike
    return options


def random_request(rng: random.Random, profile: str) -> dict[str, Any]:
    """One seeded request: usually a win, sometimes a contradiction or a hand one tile short."""
    sets = SETS[profile]
    if rng.random() < 0.03:
        profile_choice = rng.choice(PROFILES)  # a hand of the other size now and then
        sets = SETS[profile_choice]
    concealed, melds = _tiles(rng, sets)
    rng.shuffle(concealed)
    win_tile = concealed[-1]
    seat = rng.choice(WINDS)
    request: dict[str, Any] = {"profile": profile, "seat": seat, "round": rng.choice(WINDS)}
    if rng.random() < 0.05:
        del concealed[rng.randrange(len(concealed))]  # one tile short: refused with waits
    elif rng.random() < 0.5:
        request["win_tile"] = _mpsz(win_tile)
    request["hand"] = "".join(_mpsz(tile) for tile in concealed)
    if melds:
        request["melds"] = melds
    if rng.random() < 0.5:
        request["win"] = "discard"
        others = [w for w in WINDS if w != seat]
        request["discarder"] = rng.choice(others if rng.random() < 0.97 else WINDS)
    if rng.random() < 0.5:
        request["dealer"] = rng.choice(WINDS)
    if rng.random() < 0.3:
        request["dealer_streak"] = rng.randrange(4)
    if rng.random() < 0.2:
        request["table_discards"] = rng.choice((0, 1, 2, 5, 8, 20))
    if rng.random() < 0.25:
        request["events"] = rng.sample(CIRCUMSTANCES, rng.choice((1, 1, 1, 2)))
    if rng.random() < 0.05:
        request["liable"] = rng.choice(WINDS)
    bonus = rng.sample(range(12), rng.choice((0, 0, 1, 2, 3, 4, 7, 8)))
    if bonus:
        request["bonus"] = "".join(
            f"{n + 1}f" if n < 8 else f"{n - 7}a" for n in bonus if rng.random() < 0.9 or n < 8
        )
    if rng.random() < 0.02:
        request["flower_win"] = rng.choice(("seven_capture", "eight"))
        if rng.random() < 0.7:
            request.pop("hand")
            request.pop("melds", None)
            request.pop("win_tile", None)
    request["options"] = _options(rng, profile)
    return request


def _without_wording(outcome: Any) -> Any:
    """The outcome as recorded: a refusal keeps that it was refused (`valid` false, or the
    error's type when it raised) and its other fields (the waits of a hand one tile short, each
    winner's result), not its message, so that rewording a refusal records nothing again."""
    if isinstance(outcome, list):
        return [_without_wording(item) for item in outcome]
    if not isinstance(outcome, dict):
        return outcome
    wording: tuple[str, ...] = ()
    if "raised" in outcome:
        wording = ("message",)
    elif outcome.get("valid") is False:
        # A refusal's key and parameters are its wording too, for another language.
        wording = ("error", "error_key", "error_params")
    return {key: _without_wording(value) for key, value in outcome.items() if key not in wording}


def _outcome(request: dict[str, Any]) -> Any:
    try:
        found: dict[str, Any] = scoring.score(request).to_json()
    except CompanionError as error:
        found = {"raised": type(error).__name__, "message": error.message}
    return _without_wording(found)


def _several_outcome(pair: list[dict[str, Any]]) -> Any:
    try:
        found: dict[str, Any] = scoring.score_several(pair).to_json()
    except CompanionError as error:
        found = {"raised": type(error).__name__, "message": error.message}
    return _without_wording(found)


def _requests(profile: str, count: int) -> Iterator[dict[str, Any]]:
    """The profile's first `count` seeded requests (the same ones whatever `count` is)."""
    rng = random.Random(f"differential-{profile}")
    for _ in range(count):
        yield random_request(rng, profile)


def _pairs(profile: str, count: int) -> Iterator[list[dict[str, Any]]]:
    """The profile's first `count` pairs of winners on one discard (refused where the profile
    has one winner a discard)."""
    rng = random.Random(f"several-{profile}")
    for _ in range(count):
        first = random_request(rng, profile)
        second = random_request(rng, profile)
        for request in (first, second):
            request.update(win="discard", discarder="N", events=[])
            request.pop("flower_win", None)
        first["seat"], second["seat"] = "E", "S"
        second["options"] = first["options"]
        for name in ("dealer", "dealer_streak", "round", "table_discards"):
            second.pop(name, None)
            if name in first:
                second[name] = first[name]
        yield [first, second]


def _entries(profile: str, requests: int, pairs: int) -> Iterator[Entry]:
    for index, request in enumerate(_requests(profile, requests)):
        yield {"profile": profile, "kind": "request", "index": index, "request": request}
    for index, pair in enumerate(_pairs(profile, pairs)):
        yield {"profile": profile, "kind": "pair", "index": index, "request": pair}


def _scored(entry: Entry) -> Entry:
    request = entry["request"]
    result = _several_outcome(request) if entry["kind"] == "pair" else _outcome(request)
    # As read back from the record: JSON's lists for tuples, its numbers and strings.
    read_back: Entry = json.loads(_canonical({**entry, "result": result}))
    return read_back


def _canonical(value: Any) -> str:
    """JSON text in which equal results are equal (`True` is not `1` here, as in JSON)."""
    return json.dumps(value, sort_keys=True)


def _shown(value: Any, limit: int = 300) -> str:
    text = _canonical(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def first_difference(expected: Any, actual: Any, path: str = "") -> str | None:
    """Where two results first differ, as `path: expected ..., actual ...` (`path` in
    `patterns[0].tai` form), or None when they are equal. Keys go in the order `actual` has
    them (the result's own order), then those only `expected` has."""
    if _canonical(expected) == _canonical(actual):
        return None
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in [*actual, *(key for key in expected if key not in actual)]:
            where = f"{path}.{key}" if path else key
            if key not in expected:
                return f"{where}: not recorded, now {_shown(actual[key])}"
            if key not in actual:
                return f"{where}: recorded {_shown(expected[key])}, now missing"
            found = first_difference(expected[key], actual[key], where)
            if found is not None:
                return found
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (wanted, got) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(wanted, got, f"{path}[{index}]")
            if found is not None:
                return found
        return f"{path}: expected {len(expected)} items, actual {len(actual)}: " + (
            f"{_shown(actual[len(expected) :])} added"
            if len(actual) > len(expected)
            else f"{_shown(expected[len(actual) :])} gone"
        )
    return f"{path or 'the result'}: expected {_shown(expected)}, actual {_shown(actual)}"


def changed_results(profile: str, requests: int, pairs: int) -> str | None:
    """What differs between the engine's results on the profile's first `requests` requests
    and `pairs` pairs and those recorded, naming the first differing request and field; None
    when they are the same."""
    recorded = {(entry["kind"], entry["index"]): entry for entry in read_record(profile)}
    differing: list[tuple[Entry, Entry]] = []
    valid = 0
    for entry in _entries(profile, requests, pairs):
        found = _scored(entry)
        valid += found["kind"] == "request" and found["result"].get("valid") is True
        wanted = recorded.get((entry["kind"], entry["index"]))
        if wanted is None or _canonical(wanted) != _canonical(found):
            differing.append((found, wanted or {}))
    # The generator must reach the scorer, not only its refusals.
    assert valid >= requests // 5, f"{profile}: only {valid} of {requests} requests were wins"
    if not differing:
        return None
    found, wanted = differing[0]
    name = f"{found['kind']} {found['index']}"
    others = [f"{entry['kind']} {entry['index']}" for entry, _ in differing[1:]]
    lines = [f"{profile}: {name} gives a result other than the one recorded"]
    if others:
        lines[0] += f" ({len(others)} more differ: {', '.join(others[:10])}"
        lines[0] += ", ...)" if len(others) > 10 else ")"
    if not wanted:
        lines.append(f"{name} is not recorded: record again (COMPANION_RECORD_SEEDED=1)")
    elif _canonical(wanted["request"]) != _canonical(found["request"]):
        lines += [
            "the seeded request is not the one recorded: the generator changed, record again",
            f"recorded request: {_shown(wanted['request'], 2000)}",
        ]
    else:
        lines.append(
            f"first differing field: {first_difference(wanted['result'], found['result'])}"
        )
    lines.append(f"request: {_shown(found['request'], 2000)}")
    if wanted:
        lines.append(f"recorded result: {_shown(wanted['result'], 2000)}")
    lines.append(f"result now: {_shown(found['result'], 2000)}")
    return "\n".join(lines)


def _compared(requests: int) -> tuple[int, int]:
    """How many requests and pairs a profile's results are compared on: `SEEDED_HANDS`
    requests up to those recorded, and pairs in proportion."""
    count = min(requests, RECORDED_HANDS)
    return count, RECORDED_PAIRS * count // RECORDED_HANDS


@pytest.mark.skipif(not RECORDING, reason="records with COMPANION_RECORD_SEEDED=1")
@pytest.mark.parametrize("profile", PROFILES)
def test_record_results(profile: str) -> None:
    write_record(profile, map(_scored, _entries(profile, RECORDED_HANDS, RECORDED_PAIRS)))


@pytest.mark.skipif(RECORDING, reason="recording (COMPANION_RECORD_SEEDED=1)")
@pytest.mark.parametrize("profile", PROFILES)
def test_results_are_those_recorded(profile: str) -> None:
    changed = changed_results(profile, *_compared(SEEDED_HANDS))
    if changed is not None:
        pytest.fail(changed, pytrace=False)


def _decided_problems(profile_id: str, count: int) -> tuple[int, list[str]]:
    """Hold every decided pattern's claim (`needs(..., decided=True)`: the feature bits alone
    say whether it scores) against its predicate, on every reading of the seeded hands."""
    rng = random.Random(f"differential-{profile_id}")
    problems: list[str] = []
    readings_checked = 0
    for _ in range(count):
        request = parse_request(random_request(rng, profile_id))
        if request.flower_win is not None:
            continue
        profile = get_profile(request.profile)
        try:
            options = profile.parse_options(request.options)
            hand = scoring.build_hand(profile, request, options)
        except CompanionError:
            continue
        context = request.context
        table = profile.table_for(options)
        structure = profile.structure_for(options)
        shared = HandFacts(hand, context)
        standard_bits = shared.features | wind_features(hand, block_keys(hand.concealed), context)
        found = candidates(hand, structure, discard=context.by_discard)
        for reading, candidate in zip(
            readings(hand, structure, discard=context.by_discard), found, strict=True
        ):
            facts = Facts(hand, reading, context, (), options, shared)
            readings_checked += 1
            wrong = table.check_decided(facts, facts.features)
            # The scorer keys its memos by the bits the table reads: the rest must not matter.
            overrides = options.tai_overrides
            whole = table.evaluate(facts, facts.features, overrides)
            read = table.evaluate(facts, facts.features & table.reads, overrides)
            if whole != read:
                wrong.append(f"unread bits change the outcome: {whole} against {read}")
            # The scorer reads a standard reading's bits off its blocks' summaries: they must
            # be the bits its groups give.
            shape, groups, index, role, counts = candidate
            assert Reading(shape, groups, index, role) == reading
            if counts >= 0:
                summed = standard_features(counts, role, standard_bits)
                if summed != facts.features:
                    wrong.append(f"summary bits {summed:#x}, groups {facts.features:#x}")
            if wrong and len(problems) < 5:
                problems.append(f"{request}: {wrong}")
    return readings_checked, problems


@pytest.mark.parametrize("profile", PROFILES)
def test_decided_patterns_match_their_predicates(profile: str) -> None:
    checked, problems = _decided_problems(profile, SEEDED_HANDS)
    assert not problems, "\n".join(problems)
    assert checked >= SEEDED_HANDS // 5


def test_a_changed_result_is_named_by_its_request_and_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One pattern of one result scored a tai more: the failure names that request, shows it,
    and names the field with the value recorded and the value now."""
    recorded = read_record("sg")
    changed = next(entry for entry in recorded if entry["result"].get("patterns"))
    index, tai = changed["index"], changed["result"]["patterns"][0]["tai"]
    real_score = scoring.score
    calls = iter(range(RECORDED_HANDS))

    class OneMoreTai:
        def __init__(self, result: scoring.ScoreResult) -> None:
            self.result = result

        def to_json(self) -> dict[str, Any]:
            found = self.result.to_json()
            found["patterns"][0]["tai"] += 1
            return found

    def score(request: dict[str, Any]) -> scoring.ScoreResult | OneMoreTai:
        result = real_score(request)
        return OneMoreTai(result) if next(calls) == index else result

    monkeypatch.setattr(scoring, "score", score)
    message = changed_results("sg", index + 20, 0)
    assert message is not None
    lines = message.splitlines()
    assert lines[:2] == [
        f"sg: request {index} gives a result other than the one recorded",
        f"first differing field: patterns[0].tai: expected {tai}, actual {tai + 1}",
    ]
    assert f"request: {_canonical(changed['request'])}" in lines


def test_the_first_difference_is_named_by_its_path() -> None:
    recorded = {"valid": True, "tai": 3, "patterns": [{"id": "a", "tai": 1}], "notes": []}
    assert first_difference(recorded, recorded) is None
    assert first_difference(recorded, {**recorded, "tai": 4}) == "tai: expected 3, actual 4"
    assert first_difference(recorded, {**recorded, "valid": 1}) == (
        "valid: expected true, actual 1"
    )
    assert first_difference(recorded, {**recorded, "notes": ["x"]}) == (
        'notes: expected 0 items, actual 1: ["x"] added'
    )
    assert first_difference(recorded, {**recorded, "waits": []}) == "waits: not recorded, now []"
    assert first_difference({**recorded, "dealer_tai": 1}, recorded) == (
        "dealer_tai: recorded 1, now missing"
    )


@pytest.mark.parametrize("profile", PROFILES)
def test_the_record_reads_back_as_written(profile: str) -> None:
    """Each line read and written again is the line recorded, and the file holds every
    request then every pair, in order."""
    recorded = read_record(profile)
    assert [(entry["kind"], entry["index"]) for entry in recorded] == [
        *(("request", index) for index in range(RECORDED_HANDS)),
        *(("pair", index) for index in range(RECORDED_PAIRS)),
    ]
    lines = record_path(profile).read_text(encoding="utf-8").split("\n")
    assert lines == [*map(write_line, recorded), ""]


def test_a_recorded_line_reads_as_its_json() -> None:
    value = {
        "words": ["1111m", "half_flush", "1/3", "E", "a.b-c"],
        "quoted": ["0.5", "-8", "1e3", "true", "null", "", "Half flush", 'say "x"', "\u2028é"],
        "numbers": [0, -8, 2.5, 1e-05, True, False, None],
        "empty": [{}, []],
    }
    entry = {"profile": "sg", "kind": "request", "index": 3, "request": {"x": 1}, "result": value}
    line = write_line(entry)
    assert line.startswith("request 3 {x:1} => {empty:[{} []] numbers:[0 -8 2.5 1e-05 true")
    assert "words:[1111m half_flush 1/3 E a.b-c]" in line
    assert 'quoted:["0.5" "-8" "1e3" "true" "null" "" "Half flush"' in line
    assert read_line("sg", line) == json.loads(json.dumps(entry))


def test_a_refusal_is_recorded_without_its_wording() -> None:
    short = {"valid": False, "profile": "tw", "error": "one tile short", "waits": ["1m"]}
    assert _without_wording(short) == {"valid": False, "profile": "tw", "waits": ["1m"]}
    raised = {"raised": "InvalidRequestError", "message": 'unknown option "x"'}
    assert _without_wording(raised) == {"raised": "InvalidRequestError"}
    several = {"valid": False, "error": "no", "winners": [short, {"valid": True, "tai": 2}]}
    assert _without_wording(several) == {
        "valid": False,
        "winners": [{"valid": False, "profile": "tw", "waits": ["1m"]}, {"valid": True, "tai": 2}],
    }
