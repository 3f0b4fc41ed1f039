"""A CSV export read by its columns' names: a test names the column it checks, never its
position, so that a column added to the export (`ledger/columns.py`) breaks no test."""

from __future__ import annotations

import csv
import io


def export_rows(text: str) -> list[dict[str, str]]:
    """Each row of a CSV export as its cells by column name (the header row's)."""
    return list(csv.DictReader(io.StringIO(text)))


def export_header(text: str) -> list[str]:
    """The column names of a CSV export, in its order."""
    return next(csv.reader(io.StringIO(text)))
