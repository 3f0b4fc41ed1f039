"""What every command shares: reading input, options written NAME=VALUE, printing JSON, and
refusals on one line."""

from __future__ import annotations

import argparse
import json
import sys

from companion.errors import InvalidRequestError
from companion.rules.options import MAX_WHOLE, parse_whole, plain_number

PUBLIC_URL_ENV = "COMPANION_PUBLIC_URL"
"""`--public-url`'s default (`serve`, `table new`): the address the table links carry, for a
server behind a name."""
DEFAULT_PORT = 8000
"""The port `companion serve` (and `make run`, `make table-night`) listens on by default."""

_LINE_BREAKS = {
    ord(c): c.encode("unicode_escape").decode() for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
}


def whole_number(text: str) -> int:
    """An argparse type: a whole number read as the server reads one (ASCII digits, bounded),
    where `int` would take `٣` as 3 and thousands of digits in quadratic time."""
    number = parse_whole(text)
    if number is None:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise argparse.ArgumentTypeError(
            f"{shown!r} is not a whole number in digits 0-9 up to {MAX_WHOLE:,}"
        )
    return number


MAX_SECONDS = 86_400


def seconds(text: str) -> float:
    """An argparse type: a positive number of seconds, at most a day, read by the one bounded
    reader (`plain_number`): `float` would take `1e10000000` (infinity), `٣` and `1_000`."""
    number = plain_number(text, digits=5)
    if number is None or not 0 < number <= MAX_SECONDS:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise argparse.ArgumentTypeError(
            f"{shown!r} is not a number of seconds in digits 0-9 (a point allowed), more than "
            f"0 and at most {MAX_SECONDS:,}"
        )
    return float(number)


def one_line(message: str) -> str:
    """A refusal on one line: line breaks that a message quotes from the input are escaped."""
    return message.translate(_LINE_BREAKS)


def read_input(source: str) -> str:
    """The text of a file, or of standard input for "-", which must be UTF-8 (whatever the
    locale): anything else is a one-line refusal, not a traceback."""
    try:
        if source != "-":
            with open(source, encoding="utf-8") as handle:
                return handle.read()
        raw = getattr(sys.stdin, "buffer", None)
        return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
    except OSError as error:
        raise InvalidRequestError(f"cannot read {source}: {error.strerror}") from None
    except UnicodeDecodeError:
        shown = "standard input" if source == "-" else source
        raise InvalidRequestError(f"cannot read {shown}: it is not UTF-8 text") from None


def read_json(source: str) -> object:
    """The JSON value in a file, or in standard input for "-"."""
    text = read_input(source)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRequestError(
            f"the request is not valid JSON: {error.msg} at line "
            f"{error.lineno} column {error.colno}"
        ) from None


def parse_option(text: str) -> tuple[str, object]:
    """NAME=VALUE as a profile option: the value is JSON when it reads as JSON, else text."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise InvalidRequestError(f'option "{text}" must be written NAME=VALUE, e.g. min_tai=2')
    try:
        return name.strip(), json.loads(value)
    except json.JSONDecodeError:
        return name.strip(), value


def print_json(data: object) -> int:
    """Print one JSON value on a line (names stay as written) and succeed."""
    print(json.dumps(data, ensure_ascii=False))
    return 0


def write_output(text: str, output: str | None) -> int:
    """An export to the file `output`, or to standard output without one; succeed."""
    if output:
        try:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            raise InvalidRequestError(f"cannot write {output}: {error.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


def database_parent() -> argparse.ArgumentParser:
    """`--db URL`, for the commands that store things (a parent parser)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database: a SQLite path, sqlite:///PATH or postgresql+psycopg://... "
        "(default: $COMPANION_DATABASE_URL, then a file in your data directory)",
    )
    return parser


def json_parent() -> argparse.ArgumentParser:
    """`--json` (a parent parser)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--json", action="store_true", help="print JSON")
    return parser
