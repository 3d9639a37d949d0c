"""After a recompute that wrote many live entries, they are vacuumed (PostgreSQL): the
list's pages find deep rows in their covering rating index only on all-visible pages."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection

from ratings.recompute import services
from ratings.recompute.services import rating_list_recompute
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import ClubFactory, RatingListFactory
from tests.pipeline.builders import members, staff_user, submitted
from tests.pipeline.builders import tournament_with_games as table

pytestmark = pytest.mark.django_db(transaction=True)


def _entries_vacuumed() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'ratings_ratingentry'"
        )
        return cursor.fetchone()[0]


def test_a_run_that_wrote_many_entries_vacuums_them(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: SQLite has no VACUUM statistics")
    rng = random.Random(5)
    club = ClubFactory()
    rating_list = RatingListFactory(system="egf", game="go", slug="tidy")
    players = members(rng, club, 8)
    tournament = table(rng, club=club, players=players, system="egf", day=dt.date(2023, 3, 1))
    submitted(tournament, rating_list)
    tournament_approve_and_rate(tournament=tournament, by=staff_user())
    everything = {
        "rating_list_id": rating_list.pk,
        "trigger": "t",
        "from_date": dt.date(2023, 1, 1),
    }
    rating_list_recompute(**everything)  # whether or not the approval's own run came first

    entrants = tournament.participants.count()
    monkeypatch.setattr(services, "VACUUM_ENTRIES_AFTER", entrants)  # their entries
    before = _entries_vacuumed()
    tournament.games.filter(kind="played").update(result="draw")
    assert rating_list_recompute(**everything).outcome == "success"
    assert _entries_vacuumed() == before  # all written, but not more than the threshold
    monkeypatch.setattr(services, "VACUUM_ENTRIES_AFTER", entrants - 1)
    tournament.games.filter(kind="played").update(result="white")
    rating_list_recompute(**everything)
    assert _entries_vacuumed() == before + 1
