"""The command line: `companion waits`, `companion score`, ...

Every refusal is a one-line message on standard error and exit status 2, never a traceback.
Each command lives in a module of its own that registers its subcommand (`score`, `waits`,
`payout`, `table`, `event`, `serve`); what they share is in `common`.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence
from typing import NoReturn, cast

from companion.cli import event, payout, score, serve, table, waits
from companion.cli.common import one_line
from companion.errors import CompanionError

__all__ = ["EXIT_BAD_INPUT", "build_parser", "main"]

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """Usage mistakes are one line on standard error, like every other refusal."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="companion",
        description="Mahjong scoring companion for Singapore, Taiwan and Hong Kong tables.",
    )
    # Subcommands are made by `_Parser` too; modules that add some see plain parsers.
    commands = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True, metavar="COMMAND"),
    )
    waits.register(commands)
    score.register(commands)
    payout.register(commands)
    table.register(commands)
    event.register(commands)
    serve.register(commands)
    return parser


_FAILING_ERRORS = ("strict", "surrogateescape")


def _escape_unprintable_output() -> None:
    """Characters standard output cannot encode (a lone surrogate that a request spelled as a
    JSON escape, a name outside a legacy locale's character set) are written as backslash
    escapes instead of ending in a traceback. Inside JSON output such a character is always in a
    string, where the escape is valid JSON for the same value. (The C locale's
    "surrogateescape" fails too, on surrogates that are not escaped bytes.)"""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) in _FAILING_ERRORS:
            reconfigure(errors="backslashreplace")


@functools.cache
def _shared_parser() -> argparse.ArgumentParser:
    # Parsing never changes a parser, and building one costs about 13 ms (argparse's gettext):
    # a process that runs many commands (the tests, a script calling `main`) builds it once.
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    _escape_unprintable_output()
    parser = _shared_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()
    except CompanionError as error:
        print(f"companion: {one_line(error.message)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader went away (`companion ... | head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code
