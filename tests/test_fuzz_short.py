"""A short atheris run over the request parser and scorer (docs/reliability.md has the long one)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FUZZER = Path(__file__).resolve().parent.parent / "fuzz" / "fuzz_score.py"


def test_short_fuzz_run_finds_no_crash(tmp_path: Path) -> None:
    pytest.importorskip("atheris")
    done = subprocess.run(
        [sys.executable, str(FUZZER), "-runs=30000", "-seed=1", f"-artifact_prefix={tmp_path}/"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Done 30000 runs" in done.stderr
