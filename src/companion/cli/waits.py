"""`companion waits`: the tiles that complete a hand one tile short."""

from __future__ import annotations

import argparse
import json

from companion.cli.common import parse_option
from companion.hand import parse_hand
from companion.rules import get_profile, profiles
from companion.shapes import waits
from companion.tiles import parse_tile


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `waits` subcommand to the command line's subcommands."""
    parser = commands.add_parser("waits", help="the tiles that complete a hand one tile short")
    parser.add_argument(
        "hand",
        nargs="+",
        help="concealed tiles: MPSZ or names, in one word or several "
        '(123m456p11z, East East East, "1 of characters")',
    )
    parser.add_argument(
        "--melds",
        nargs="+",
        action="extend",
        metavar="GROUP",
        help='declared groups, e.g. "pung 777z" "chow 123m" "ckong 1111p"',
    )
    parser.add_argument("--bonus", help="flowers, seasons and animals, e.g. 1f5f")
    parser.add_argument("--profile", default="sg", choices=sorted(profiles()))
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a profile option (hk: seven_pairs=true); repeatable",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.set_defaults(handler=_waits_command)


def _waits_command(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    options = dict(parse_option(text) for text in args.option or ())
    if profile.reads_own_requests:
        # Its own reading of the tiles (riichi's red fives), and of the rest of the request.
        request: dict[str, object] = {"profile": profile.id, "hand": " ".join(args.hand)}
        request.update({"melds": args.melds or [], "options": options})
        if args.bonus:
            request["bonus"] = args.bonus
        answer = profile.waits_request(request)
        found = tuple(parse_tile(tile) for tile in answer["waits"])
    else:
        structure = profile.structure_for(profile.parse_options(options))
        hand = parse_hand(
            " ".join(args.hand),
            args.melds or (),
            args.bonus or "",
            sets=structure.sets,
            complete=False,
        )
        found = waits(hand, structure)
    if args.json:
        print(json.dumps({"waits": [tile.mpsz for tile in found]}))
    elif found:
        print("Waits: " + ", ".join(f"{tile.mpsz} ({tile.english})" for tile in found))
    else:
        print("No tile completes this hand.")
    return 0
