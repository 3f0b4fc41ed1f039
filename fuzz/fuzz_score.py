"""Coverage-guided fuzzing of the request parser and the scorer with atheris.

Every input must end in a result or a `CompanionError` (which the CLI and HTTP API turn into a
clean refusal); any other exception is a crash that atheris reports with the input.

    python fuzz/fuzz_score.py -runs=1000000          # the documented long run
    python fuzz/fuzz_score.py -runs=20000 -seed=1    # the short run CI makes (via pytest)
"""

from __future__ import annotations

import json
import sys

import atheris

with atheris.instrument_imports():
    # The profiles are imported on first use: import them here so they are instrumented too.
    import companion.payouts
    import companion.rules.hk.profile
    import companion.rules.riichi.profile
    import companion.rules.singapore.profile
    import companion.rules.tw.profile  # noqa: F401
    from companion.errors import CompanionError
    from companion.hand import parse_hand
    from companion.scoring import score
    from companion.shapes import FIVE_SETS, FOUR_SETS, waits

FIELDS = (
    "profile",
    "hand",
    "win_tile",
    "melds",
    "bonus",
    "win",
    "seat",
    "round",
    "discarder",
    "dealer",
    "dealer_streak",
    "table_discards",
    "events",
    "flower_win",
    "liable",
    "options",
    "dora",
    "ura_dora",
    "honba",
    "riichi_sticks",
)
WORDS = (
    "sg",
    "sg-table",
    "tw",
    "hk",
    "discard",
    "self_draw",
    "E",
    "S",
    "W",
    "N",
    "chow",
    "pung",
    "kong",
    "akong",
    "ckong",
    "robbing_kong",
    "heavenly",
    "earthly",
    "replacement",
    "last_tile",
    "seven_capture",
    "eight",
    "min_tai",
    "share",
    "min_faan",
    "max_faan",
    "half_spicy",
    "spicy",
    "full",
    "half",
    "East",
    "red dragon",
    "1f",
    "2a",
    "riichi",
    "double_riichi",
    "ippatsu",
    "renhou",
    "last_discard",
    "preset",
    "tenhou",
    "mleague",
    "ema2016",
    "wrc",
    "0p",
    "234m067p22345678s",
    "red five of circles",
)


def _value(data: atheris.FuzzedDataProvider, depth: int = 0) -> object:
    """Any JSON value, leaning towards the ones a request holds."""
    choice = data.ConsumeIntInRange(0, 9)
    if choice == 0:
        return None
    if choice == 1:
        return data.ConsumeBool()
    if choice == 2:
        return data.ConsumeIntInRange(-(2**40), 2**40)
    if choice == 3:
        return data.ConsumeRegularFloat()
    if choice == 4:
        return data.PickValueInList(list(WORDS))
    if choice == 5 and depth < 3:
        return [_value(data, depth + 1) for _ in range(data.ConsumeIntInRange(0, 4))]
    if choice == 6 and depth < 3:
        return {
            data.PickValueInList(
                [
                    *("min_tai", "share", "cap", "chart", "base", "per_tai", "x"),
                    *("min_faan", "max_faan", "curve", "gun", "seven_pairs"),
                    *("flowers_count_to_minimum", "great_dragons_limit"),
                    *("preset", "red_fives", "kiriage", "kazoe", "renhou", "honba_value"),
                ]
            ): _value(data, depth + 1)
            for _ in range(data.ConsumeIntInRange(0, 3))
        }
    if choice == 7:
        return "".join(
            data.PickValueInList(list("0123456789mpszfa ,"))
            for _ in range(data.ConsumeIntInRange(0, 20))
        )
    return data.ConsumeUnicodeNoSurrogates(data.ConsumeIntInRange(0, 40))


def test_one_input(raw: bytes) -> None:
    data = atheris.FuzzedDataProvider(raw)
    mode = data.ConsumeIntInRange(0, 3)
    try:
        if mode == 0:
            request = json.loads(data.ConsumeUnicodeNoSurrogates(200))
        elif mode == 3:
            text = data.ConsumeUnicodeNoSurrogates(40)
            five = data.ConsumeBool()
            hand = parse_hand(text, sets=5 if five else 4, complete=False)
            waits(hand, FIVE_SETS if five else FOUR_SETS)
            return
        else:
            request = {
                data.PickValueInList(list(FIELDS)): _value(data)
                for _ in range(data.ConsumeIntInRange(0, 8))
            }
            if mode == 2:
                request.setdefault("hand", _value(data))
        result = score(request)
        json.dumps(result.to_json())  # what the CLI and the HTTP API send must serialise
        if result.valid:
            assert sum(result.payments.values()) == 0
    except (CompanionError, json.JSONDecodeError, RecursionError):
        pass


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
