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


def test_realistic_shape_is_swiss_like() -> None:
    import random

    from ratings.systems.bench import _players, realistic_year

    rng = random.Random(3)
    pool = _players(1000, rng)
    year = realistic_year(3000, pool, rng)
    assert sum(len(pairs) for rounds in year for pairs in rounds) >= 3000
    for rounds in year:
        entrants = {p for game in rounds[0] for p in game[:2]}
        assert 40 <= len(entrants) <= 200 and 5 <= len(rounds) <= 7
        met = set()
        for pairs in rounds:  # everyone plays once in every round, never the same opponent twice
            assert sorted(p for game in pairs for p in game[:2]) == sorted(entrants)
            for white, black, _, handicap in pairs:
                assert frozenset((white, black)) not in met and handicap == 0
                met.add(frozenset((white, black)))
    # Rating-ordered pairings: opponents are close in strength, far closer than at random.
    gaps = [
        abs(pool[white].strength - pool[black].strength)
        for rounds in year
        for pairs in rounds
        for white, black, _, _ in pairs
    ]
    assert sorted(gaps)[len(gaps) // 2] < 100


def test_bench_against_a_baseline_package() -> None:
    """`--baseline` times another engine copy (here: this one) in the same runs."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(
            ["bench", "--system", "uscf", "--shape", "realistic", "--games", "100"]
            + [
                "--tournaments",
                "5",
                "--players",
                "60",
                "--repeat",
                "1",
                "--baseline",
                "ratings.systems",
            ]
        )
    assert status == 0, out.getvalue()
    rows = [line.split() for line in out.getvalue().splitlines()[2:]]
    assert [row[0] for row in rows] == ["uscf", "old", "ratio"]
    assert rows[0][1:4] == ["-", "-", "-"] and rows[1][4] == rows[0][4]  # same games, both
    assert float(rows[1][5].replace(",", "")) > 0
    assert rows[2][-2].endswith("x") and rows[2][-1].endswith("x")
