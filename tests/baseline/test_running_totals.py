"""Each history row carries its member's running totals (issue 18): his state before any
date is his last row before it. They must equal what summing his rows (and his baseline
row) gives, after a replay and after the migration that filled them in."""

from __future__ import annotations

import datetime as dt
import importlib
import io
import random
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from ratings.models import RatingEntry, RatingHistory
from ratings.recompute.reads import states_before
from ratings.systems.grades import Grade
from tests.factories import ClubFactory, RatingListFactory
from tests.pipeline.builders import members, submitted, tournament_with_games

pytestmark = pytest.mark.django_db(transaction=True)

BASELINE_TOURNAMENTS, BASELINE_GAMES = 7, 30


def _call(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _list_with_a_baseline(tmp_path: Path):
    """Five tables of eight players (two before the baseline), three of them named in it."""
    rng = random.Random(11)
    club = ClubFactory()
    players = members(rng, club, 8)
    rating_list = RatingListFactory(system="egf", slug="totals")
    days = [dt.date(2024, m, 1) for m in (1, 2, 4, 6, 9)]
    for day in days:
        entrants = rng.sample(players, 6)
        tournament = submitted(
            tournament_with_games(rng, club=club, players=entrants, day=day), rating_list
        )
        _call("approve_tournament", str(tournament.pk), "--wait")
    named = players[:3]
    path = tmp_path / "baseline.csv"
    path.write_text(
        "key,family_name,given_name,rating,grade,provisional,tournaments,games\n"
        + "".join(
            f"k{m.pk},{m.family_name},{m.given_name},{2000 + 10 * i},3d,,"
            f"{BASELINE_TOURNAMENTS},{BASELINE_GAMES}\n"
            for i, m in enumerate(named)
        )
    )
    _call(
        "import_ratings", str(path), "--list", "totals", "--format", "csv", "--date", "2024-03-01"
    )
    return rating_list, {m.pk for m in named}


def _summed(rating_list, named: set[int]) -> dict[int, tuple[int, int, int | None]]:
    """Each row's totals by summing the member's rows in replay order, from scratch."""
    totals: dict[int, tuple[int, int, int | None]] = {}
    running: dict[int, tuple[int, int, int | None]] = {}
    rows = RatingHistory.objects.filter(rating_list=rating_list).order_by(
        "member_id", "date", "sequence"
    )
    for row in rows:
        start = (BASELINE_TOURNAMENTS, BASELINE_GAMES, Grade.parse("3d").rank)
        n, g, best = running.get(row.member_id, start if row.member_id in named else (0, 0, None))
        grade = row.grade.rank if row.grade is not None else None
        if grade is not None and (best is None or grade > best):
            best = grade
        running[row.member_id] = totals[row.pk] = (n + 1, g + row.games_count, best)
    return totals


def _stored(rating_list) -> dict[int, tuple[int, int, int | None]]:
    return {
        pk: (n, g, best.rank if best is not None else None)
        for pk, n, g, best in RatingHistory.objects.filter(rating_list=rating_list).values_list(
            "pk", "tournaments_so_far", "games_so_far", "best_grade_so_far"
        )
    }


def test_rows_carry_the_sums_of_their_members_rows_and_baseline(tmp_path):
    rating_list, named = _list_with_a_baseline(tmp_path)
    expected = _summed(rating_list, named)
    assert len(expected) > 20
    assert _stored(rating_list) == expected
    # The state before a date is the last row's: the entry after the last one agrees.
    states = states_before(rating_list, dt.date.max)
    for entry in RatingEntry.objects.filter(rating_list=rating_list):
        state = states[entry.member_id]
        assert (state.tournaments, state.games) == (entry.tournaments, entry.games)
        assert state.rating == entry.rating
    assert all(states[m].tournaments > BASELINE_TOURNAMENTS for m in named if m in states)


def test_the_migration_fills_them_in_as_the_replay_does(tmp_path):
    rating_list, named = _list_with_a_baseline(tmp_path)
    expected = _stored(rating_list)
    RatingHistory.objects.update(tournaments_so_far=0, games_so_far=0, best_grade_so_far=None)
    migration = importlib.import_module("ratings.migrations.0011_history_running_totals")
    with connection.cursor() as cursor:
        cursor.execute(migration.BACKFILL)
    assert _stored(rating_list) == expected == _summed(rating_list, named)
