"""The command line: `companion waits`, `companion score`, ...

Every refusal is a one-line message on standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from companion.errors import CompanionError
from companion.hand import parse_hand
from companion.rules import PROFILE_STRUCTURES, structure_of
from companion.shapes import waits

EXIT_BAD_INPUT = 2


def _waits_command(args: argparse.Namespace) -> int:
    structure = structure_of(args.profile)
    hand = parse_hand(
        args.hand, args.melds or (), args.bonus or "", sets=structure.sets, complete=False
    )
    found = waits(hand, structure)
    if args.json:
        print(json.dumps({"waits": [tile.mpsz for tile in found]}))
    elif found:
        print("Waits: " + ", ".join(f"{tile.mpsz} ({tile.english})" for tile in found))
    else:
        print("No tile completes this hand.")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Mahjong scoring companion for Singapore and Taiwan tables."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    waits_parser = commands.add_parser(
        "waits", help="the tiles that complete a hand one tile short"
    )
    waits_parser.add_argument("hand", help="concealed tiles in MPSZ, e.g. 123m456p11z")
    waits_parser.add_argument(
        "--melds",
        nargs="+",
        action="extend",
        metavar="GROUP",
        help='declared groups, e.g. "pung 777z" "chow 123m" "ckong 1111p"',
    )
    waits_parser.add_argument("--bonus", help="flowers, seasons and animals, e.g. 1f5f")
    waits_parser.add_argument("--profile", default="sg", choices=sorted(PROFILE_STRUCTURES))
    waits_parser.add_argument("--json", action="store_true", help="print a JSON object")
    waits_parser.set_defaults(handler=_waits_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except CompanionError as error:
        print(f"companion: {error.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":
    sys.exit(main())
