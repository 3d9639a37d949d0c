"""The benchmark command runs for every registered system (tiny sizes here)."""

from __future__ import annotations

import contextlib
import io

from ratings.systems.__main__ import main
from ratings.systems.registry import SYSTEMS


def test_bench_runs_for_every_system() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["bench", "--tournaments", "5", "--games", "100", "--players", "60"])
    lines = out.getvalue().splitlines()
    assert status == 0, out.getvalue()
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert list(rows) == list(SYSTEMS)
    for code, row in rows.items():
        assert row[1] == "100", code
        assert float(row[2].replace(",", "")) > 0 and float(row[3].replace(",", "")) > 0


def test_bench_one_system() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["bench", "--system", "egf", "--tournaments", "2", "--games", "20", "--players", "10"])
    assert [line.split()[0] for line in out.getvalue().splitlines()[2:]] == ["egf"]
