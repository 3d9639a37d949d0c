"""Imports that used to end in a database error (issue 16, item 2): an id already taken,
tens of thousands of keys on SQLite."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubsite.batches import BATCH, in_batches
from clubsite.models import Member
from ratings.submissions.importing import results_import, results_preview
from tests.factories import ClubFactory, MemberFactory
from tournaments.formats.model import FileGame, FilePlayer, ResultsFile, TournamentDetails

pytestmark = pytest.mark.django_db


def _file(*players: FilePlayer) -> ResultsFile:
    keys = [p.key for p in players]
    games = tuple(FileGame(1, keys[i], keys[i + 1], "white") for i in range(0, len(keys) - 1, 2))
    return ResultsFile(
        TournamentDetails(name="Cup", end_date=dt.date(2024, 5, 1), rounds=1), players, games
    )


def test_a_new_member_with_a_taken_fide_id_is_an_error_not_an_integrity_error():
    holder = MemberFactory(family_name="Holder", fide_id="4100018")
    club = ClubFactory()
    results = _file(
        FilePlayer("1", "Other", "Person", fide_id="4100018"),
        FilePlayer("2", "Brand", "New"),
    )
    with pytest.raises(ValidationError) as caught:
        results_import(results=results, rating_list=None, organiser=club, by=None,
                       choices={"1": "new", "2": "new"})  # fmt: skip
    assert any(f"#{holder.pk}" in m and "4100018" in m for m in caught.value.messages)
    assert Member.objects.filter(fide_id="4100018").count() == 1


def test_two_new_players_with_the_same_pin():
    results = _file(
        FilePlayer("1", "A", "A", egd_pin="12345678"), FilePlayer("2", "B", "B", egd_pin="12345678")
    )
    with pytest.raises(ValidationError) as caught:
        results_import(results=results, rating_list=None, organiser=ClubFactory(), by=None,
                       choices={"1": "new", "2": "new"})  # fmt: skip
    assert any("same EGD PIN" in m for m in caught.value.messages)


def test_lookups_by_40000_values_run_on_sqlite():
    member = MemberFactory(egd_pin="00000007")
    found = list(in_batches(Member.objects.all(), "egd_pin", [f"{i:08d}" for i in range(40_000)]))
    assert found == [member]


def test_the_preview_queries_in_batches():
    """SQLite's limit is 32,766 (250,000 in some builds) parameters a statement; the issue's
    44,000-player CSV passed it. No statement of the preview carries more than a batch."""
    players = [FilePlayer(str(i), f"F{i}", f"G{i}", egd_pin=f"{i:08d}") for i in range(1, 1801)]
    with CaptureQueriesContext(connection) as queries:
        preview = results_preview(results=_file(*players), rating_list=None,
                                  organiser=ClubFactory(), fmt="csv")  # fmt: skip
    assert len(preview.players) == 1800
    assert max(q["sql"].count("%s") + q["sql"].count("?") + q["sql"].count("'") // 2
               for q in queries.captured_queries) < 2 * BATCH  # fmt: skip
