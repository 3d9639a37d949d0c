"""A list's `entries_version` moves when its live entries change, and only then: what the
pages keep of the entries is kept under it (issue 18)."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection

from ratings.models import RatingList
from ratings.recompute.services import rating_list_recompute
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import ClubFactory, RatingListFactory
from tests.pipeline.builders import approved_again, members, staff_user, submitted
from tests.pipeline.builders import tournament_with_games as table

pytestmark = pytest.mark.django_db


def _version(rating_list: RatingList) -> int:
    return RatingList.objects.values_list("entries_version", flat=True).get(pk=rating_list.pk)


def test_entries_version_moves_with_the_entries_only(django_capture_on_commit_callbacks):
    rng = random.Random(7)
    club = ClubFactory()
    rating_list = RatingListFactory(system="egf", game="go", slug="versioned")
    players = members(rng, club, 8)
    referee = staff_user()
    first, second = (
        table(rng, club=club, players=players, system="egf", day=day)
        for day in (dt.date(2023, 3, 1), dt.date(2023, 6, 1))
    )
    for tournament in (first, second):
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve_and_rate(tournament=tournament, by=referee)
    rated = _version(rating_list)
    assert rated >= 2  # each approval's recompute wrote entries

    # A full recompute of an unchanged list writes no entry on PostgreSQL (it compares
    # them first): the version stays. SQLite writes its entries anew, and says so.
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    if connection.vendor == "postgresql":
        assert _version(rating_list) == rated
    rated = _version(rating_list)

    # A result turned round changes the entries: the version moves.
    approved_again(
        first, referee, django_capture_on_commit_callbacks,
        games=first.games.filter(kind="played")[:1],
    )  # fmt: skip
    assert _version(rating_list) > rated
