"""The command line: `companion waits`, `companion score`, ...

Every refusal is a one-line message on standard error and exit status 2, never a traceback.
Each command lives in a module of its own, `companion.cli.<command>`, that registers its
subcommand (`score`, `waits`, `payout`, `table`, `event`, `serve`); what they share is in
`common`. A process imports the module of the command it runs and no other, so that
`companion score` starts without the ledger, its database or the web server
(tests/test_cli_imports.py); only `companion --help` and a mistyped command import them all.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn, cast

from companion.cli.common import one_line
from companion.errors import CompanionError

__all__ = ["EXIT_BAD_INPUT", "build_parser", "main"]

EXIT_BAD_INPUT = 2

COMMANDS = ("waits", "score", "payout", "table", "event", "club", "serve")
"""The subcommands in the order `companion --help` lists them; each is registered by the
`register` function of the module `companion.cli.<command>`."""

if TYPE_CHECKING:
    _Commands = argparse._SubParsersAction[argparse.ArgumentParser]


class _Parser(argparse.ArgumentParser):
    """Usage mistakes are one line on standard error, like every other refusal."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: with `command`, one that knows that subcommand alone, which
    parses its command lines exactly as the whole parser does."""
    parser = _Parser(
        prog="companion",
        description="Mahjong scoring companion for Singapore, Taiwan and Hong Kong tables.",
    )
    # Subcommands are made by `_Parser` too; modules that add some see plain parsers.
    commands = cast(
        "_Commands", parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    )
    for name in COMMANDS if command is None else (command,):
        register: Callable[[_Commands], None] = importlib.import_module(
            f"{__name__}.{name}"
        ).register
        register(commands)
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
def _shared_parser(command: str | None) -> argparse.ArgumentParser:
    # Parsing never changes a parser, and building one costs about 13 ms (argparse's gettext):
    # a process that runs many commands (the tests, a script calling `main`) builds each once.
    return build_parser(command)


def main(argv: Sequence[str] | None = None) -> int:
    _escape_unprintable_output()
    words = sys.argv[1:] if argv is None else list(argv)
    # The command is the first word (`companion` has no option but --help before it).
    command = words[0] if words and words[0] in COMMANDS else None
    args = _shared_parser(command).parse_args(words)
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
