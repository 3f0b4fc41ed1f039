"""The repository's text stands on its own: nothing a user reads (README, docs/, the code's
comments and strings, templates, scripts, the OpenAPI description) sends them to documents that
are not in the repository. The project's own rules and contract are in docs/."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.api import create_app

ROOT = Path(__file__).resolve().parent.parent

# The rule sources the developers work from are outside the repository: nothing a user reads may
# send them there. A random-number seed ("seed 2024", "-seed=1", "seeded") is not such a reference.
# The two documents are named in capitals; the project's own docs/contract.md and docs/rules.md
# are not them.
OUTSIDE_REFERENCE = re.compile(
    r"(?-i:\bRULES\b|\bCONTRACT\b)|\.\./shared|shared/|\bseeds\b|\bthe seed\b|\bseed'?s\b"
    r"|\bseed 0\d\d\b|\bseeds? (?:file|text)|\b00\d_[0-9a-f…]",
    re.IGNORECASE,
)
TEXT_SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".svg", ".mako", ".txt", ".json", ".toml"}


def user_facing_files() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*"))]
    found += sorted((ROOT / "src").rglob("*"))
    return [path for path in found if path.is_file() and path.suffix in TEXT_SUFFIXES]


def test_no_file_refers_to_documents_outside_the_repository() -> None:
    files = user_facing_files()
    assert ROOT / "src" / "companion" / "api" / "app.py" in files
    offending = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE_REFERENCE.search(line)
    ]
    assert offending == []


def test_the_pattern_catches_references_and_spares_random_seeds() -> None:
    for line in (
        "see ../shared/RULES.md",
        "a CONTRACT.md request",
        "The CONTRACT request of a full-hand entry",
        "RULES.md (`sg-table`) gives them",
        "as in the seed",
        "the seed's calculator",
        "seeds 001 and 002",
        "seed 004 (the mahjchina profile)",
        "`000_…txt`",
    ):
        assert OUTSIDE_REFERENCE.search(line), line
    for line in (
        "seeded random hands",
        "(seed 2024)",
        "-runs=1000 -seed=11",
        "CI uses seed 1",
        "as docs/contract.md describes",
        "[rules.md](rules.md)",
        "the contract's rules",
    ):
        assert not OUTSIDE_REFERENCE.search(line), line


def test_the_openapi_document_refers_to_nothing_outside_the_repository() -> None:
    document = json.dumps(create_app("sqlite:///:memory:").openapi(), ensure_ascii=False)
    assert OUTSIDE_REFERENCE.search(document) is None
    assert "docs/contract.md" in document
