"""Where the source raises a refusal without a key: the tests of the engine's and the events'
refusal keys each list the sites they leave in English, and compare them with these."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "companion"

Site = tuple[str, str, str]
"""A file under src/companion, the error raised, and the first literal text of its message."""


def sites(name: str, error: str, *openings: str) -> list[Site]:
    return [(name, error, opening) for opening in openings]


def _opening(node: ast.AST) -> str:
    """The first piece of literal text in a message."""
    for part in ast.walk(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            return part.value
    return ""


def without_key(files: Iterable[str], errors: Collection[str]) -> list[Site]:
    """Every `raise` of one of `errors` in `files` whose call passes no `key=`."""
    found = []
    for name in files:
        tree = ast.parse((SOURCE / name).read_text())
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            error = getattr(node.exc.func, "id", None)
            if error in errors and not any(word.arg == "key" for word in node.exc.keywords):
                found.append((name, error, _opening(node.exc.args[0]) if node.exc.args else ""))
    return found
