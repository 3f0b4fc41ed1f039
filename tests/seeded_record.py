"""The seeded results as recorded: `tests/seeded/<profile>.txt`, one line a request.

A line is `request 17 REQUEST => RESULT` (or `pair 3 [FIRST SECOND] => RESULT`): the request's
kind and index, the request, and its result as `tests/test_seeded_hands.py` records it. The
requests come in the order they are drawn (by index), the pairs after them. The values are
JSON with less punctuation, so that a reviewer reads a line as easily as JSON and the files are
a quarter smaller than JSON lines (3.5 MB in all rather than 4.8 MB):

- an object is `{key:value key:value}`, its keys sorted; a list is `[a b c]`;
- a string that is one plain word (letters, digits, `_ . / -`) is written bare, `1111m` or
  `half_flush`, unless it would read as a number, `true`, `false` or `null`; any other string
  (`"0.5"`, `"Half flush"`, `""`) is a JSON string;
- numbers, `true`, `false` and `null` are written as in JSON.

Items are separated by a space, so `git diff --word-diff` shows a moved result field by field
(`tai:[-2-]{+3+}`). Reading a line gives the values `json.loads` gives for the same JSON, and
writing them again gives the same line: recording the same results writes the same bytes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

RECORD_DIR = Path(__file__).with_name("seeded")
KINDS = ("request", "pair")
"""The kinds of recorded request, in the order a file holds them."""

_WORD = re.compile(r"[A-Za-z0-9_./-]+")
_LITERAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")
_ARROW = " => "
_STRINGS = json.JSONDecoder()

Entry = dict[str, Any]
"""One recorded request: `profile`, `kind` (`request` or `pair`), `index`, `request` (a pair is
a list of two) and `result`."""


def record_path(profile: str) -> Path:
    return RECORD_DIR / f"{profile}.txt"


def write_value(value: Any) -> str:
    if isinstance(value, dict):
        items = (f"{write_value(key)}:{write_value(value[key])}" for key in sorted(value))
        return "{" + " ".join(items) + "}"
    if isinstance(value, list):
        return "[" + " ".join(write_value(item) for item in value) + "]"
    if isinstance(value, str):
        plain = _WORD.fullmatch(value) and not _LITERAL.fullmatch(value)
        return value if plain else json.dumps(value, ensure_ascii=False)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value} has no JSON form")
    return json.dumps(value)


def write_line(entry: Entry) -> str:
    request, result = write_value(entry["request"]), write_value(entry["result"])
    return f"{entry['kind']} {entry['index']} {request}{_ARROW}{result}"


def write_record(profile: str, entries: Iterable[Entry]) -> None:
    """The profile's file: its entries in order (requests by index, then pairs)."""
    ordered = sorted(entries, key=lambda entry: (KINDS.index(entry["kind"]), entry["index"]))
    lines = "".join(write_line(entry) + "\n" for entry in ordered)
    record_path(profile).write_text(lines, encoding="utf-8", newline="\n")


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"{what} at column {self.at + 1}")

    def value(self) -> Any:
        text, start = self.text, self.at
        opening = text[start : start + 1]
        if opening in ("{", "["):
            closing = "}" if opening == "{" else "]"
            self.at += 1
            items: list[Any] = []
            while text[self.at : self.at + 1] != closing:
                if items and not self.skip(" "):
                    raise self.fail(f"expected a space or {closing}")
                item = self.value()
                if opening == "{":
                    if not isinstance(item, str) or not self.skip(":"):
                        raise self.fail("expected key:value")
                    item = (item, self.value())
                items.append(item)
            self.at += 1
            return dict(items) if opening == "{" else items
        if opening == '"':
            string, self.at = _STRINGS.raw_decode(text, start)
            return string
        word = _WORD.match(text, start)
        if word is None:
            raise self.fail("expected a value")
        self.at = word.end()
        return json.loads(word[0]) if _LITERAL.fullmatch(word[0]) else word[0]

    def skip(self, expected: str) -> bool:
        found = self.text.startswith(expected, self.at)
        self.at += len(expected) if found else 0
        return found


def read_line(profile: str, line: str) -> Entry:
    kind, index, _ = line.split(" ", 2)
    if kind not in KINDS or not index.isdigit():
        raise ValueError("expected `request N` or `pair N`")
    reader = _Reader(line)
    reader.at = len(kind) + len(index) + 2
    request = reader.value()
    if not reader.skip(_ARROW):
        raise reader.fail(f"expected {_ARROW.strip()}")
    result = reader.value()
    if reader.at != len(line):
        raise reader.fail("expected the end of the line")
    entry = {"profile": profile, "kind": kind, "index": int(index), "request": request}
    return {**entry, "result": result}


def read_record(profile: str) -> list[Entry]:
    path = record_path(profile)
    entries = []
    # Split at line feeds alone: a string may hold other line breaks (U+2028) unescaped.
    lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
    for number, line in enumerate(lines, 1):
        try:
            entries.append(read_line(profile, line))
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
    return entries
