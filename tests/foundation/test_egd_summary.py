"""The EGF real-data figures (issue 3) show in a normal run's summary, without -s."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE = "tests/systems/test_egf_realdata.py"


def _pytest(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_summary_shows_when_the_comparison_ran() -> None:
    out = _pytest(f"{MODULE}::test_egf_matches_published_egd_ratings")
    assert "EGF against the EGD" in out
    assert "EGD real data: " in out and "within 2 points" in out
    assert "  wagc2017 (" in out


def test_no_summary_when_it_did_not_run() -> None:
    out = _pytest(MODULE, "-k", "reader")
    assert "EGD real data" not in out
