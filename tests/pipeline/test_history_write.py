"""The recompute rewrites only the history rows whose fingerprint changed (issue 18)."""

from __future__ import annotations

import datetime as dt
import hashlib
import marshal
import os
import random
import subprocess
import sys

import pytest
from django.db import connection
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.models import ListTournament, RatingEntry, RatingHistory
from ratings.recompute import history_write
from ratings.recompute.bulk import RowUpdates, as_json
from ratings.recompute.history_write import COLUMNS, fingerprint, table_digest
from ratings.recompute.reads import fast_rows
from ratings.recompute.services import rating_list_recompute
from ratings.recompute.state import HistoryRow, resolved_breakdown
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import ClubFactory, RatingListFactory
from tests.pipeline.builders import members, staff_user, submitted
from tests.pipeline.builders import tournament_with_games as table
from tests.pipeline.test_cone_replay import every_column

ROW = HistoryRow(
    member_id=7, tournament_id=9, date=dt.date(2024, 5, 1), sequence=3, rating_in=1500.25,
    before=1500.25, after=1512.5, change=12.25, games_count=2, rated=True, provisional=False,
    anomalous=False, reset=False, grade=20, list_grade=20, klass="A", note="",
    tournaments_so_far=3, games_so_far=11, best_grade_so_far=21, history={"n": 4},
    breakdown=((1, "8", 1.0, 0.47, 8.5), (2, "11", 0.5, None, 3.75)),
    opponents={"7": (7, 1500.25), "8": (8, 1480.0), "11": (11, None), "12": (12, 1400.0)},
)  # fmt: skip


def _digest(row: HistoryRow) -> int:
    return fingerprint(row)


def test_the_fingerprint_is_the_same_in_another_process():
    code = (
        "import datetime, os, sys; sys.path.insert(0, '.'); import django;"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'clubsite.config.settings');"
        "django.setup();"
        "from ratings.recompute.history_write import fingerprint;"
        "from ratings.recompute.state import HistoryRow;"
        f"row = HistoryRow(**{ROW._asdict()!r});"
        "print(fingerprint(row))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert int(out.stdout) == _digest(ROW)


@pytest.mark.parametrize(
    "change",
    [
        {"date": dt.date(2024, 5, 2)}, {"rating_in": None}, {"before": 1500.0},
        {"after": 1512.0}, {"change": None}, {"games_count": 3}, {"rated": False},
        {"provisional": True}, {"anomalous": True}, {"reset": True}, {"grade": 21},
        {"list_grade": None}, {"klass": "B"}, {"note": "kept"}, {"tournaments_so_far": 4},
        {"games_so_far": 12}, {"best_grade_so_far": None}, {"history": {"n": 5}},
        {"breakdown": ((1, "8", 1.0, 0.47, 8.5),)},
        {"breakdown": ((1, "8", 0.0, 0.47, 8.5), (2, "11", 0.5, None, 3.75))},
        {"breakdown": ((1, "8", 1.0, 0.47, 8.5), (2, "12", 0.5, None, 3.75))},
        {"breakdown": ((2, "8", 1.0, 0.47, 8.5), (1, "11", 0.5, None, 3.75))},
        # An opponent's rating before the table is a column of the stored breakdown.
        {"opponents": {**ROW.opponents, "8": (8, 1481.0)}},
    ],
)  # fmt: skip
def test_the_fingerprint_changes_with_every_column_but_the_key(change):
    assert _digest(ROW._replace(**change)) != _digest(ROW)


def test_the_fingerprint_ignores_players_of_the_table_he_did_not_meet():
    others = {**ROW.opponents, "12": (12, 1300.0), "99": (99, 1000.0)}
    assert _digest(ROW._replace(opponents=others)) == _digest(ROW)


def test_the_fingerprint_is_the_digest_of_the_breakdown_as_stored():
    """Rows written when the replay kept the breakdown as stored (opponent's id and
    rating in each game) keep their fingerprints: the same values, the same bytes."""
    as_stored = ((1, 8, 1480.0, 1.0, 0.47, 8.5), (2, 11, None, 0.5, None, 3.75))
    columns = (*ROW[ROW._fields.index("rating_in") : ROW._fields.index("breakdown")], as_stored)
    raw = marshal.dumps((ROW.date.toordinal(), columns), 2)
    expected = int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big", signed=True)
    assert resolved_breakdown(ROW) == as_stored
    assert _digest(ROW) == expected


@pytest.mark.parametrize(
    "change",
    [
        {"after": 1512.0},
        {"breakdown": ((1, "8", 1.0, 0.47, 8.5), (2, "11", 0.5, None, 3.5))},
        {"breakdown": ((1, "8", 1.0, 0.47, 8.5), (2, "12", 0.5, None, 3.75))},
        {"opponents": {**ROW.opponents, "11": (11, 1200.0)}},
        # A player of the table he did not meet: the table's other rows show his start.
        {"opponents": {**ROW.opponents, "12": (12, 1401.0)}},
    ],
)  # fmt: skip
def test_the_table_digest_changes_with_any_row_or_any_start(change):
    other = ROW._replace(member_id=8, breakdown=((1, "7", 0.0, 0.53, -8.5),))
    assert table_digest([ROW._replace(**change), other]) != table_digest([ROW, other])


@pytest.mark.parametrize("column", range(5))
def test_the_table_digest_changes_with_any_value_of_any_game(column):
    """The games go in column by column: each value still counts where it stands."""
    other = ROW._replace(member_id=8, breakdown=((1, "7", 0.0, 0.53, -8.5),))
    game = list(other.breakdown[0])
    game[column] = {0: 2, 1: "12", 2: 0.5, 3: None, 4: -8.0}[column]
    changed = other._replace(breakdown=(tuple(game),))
    assert table_digest([ROW, changed]) != table_digest([ROW, other])


def test_the_table_digest_tells_which_row_a_game_belongs_to():
    """The same games, the same columns: only the rows' `games_count` tells them apart."""
    first, second = ROW.breakdown
    other = ROW._replace(member_id=8, games_count=1, breakdown=((3, "12", 1.0, 0.5, 1.0),))
    moved = [
        ROW._replace(games_count=1, breakdown=(first,)),
        other._replace(games_count=2, breakdown=(second, *other.breakdown)),
    ]
    assert table_digest(moved) != table_digest([ROW, other])


def test_the_fingerprint_ignores_the_key_and_the_replay_position():
    same = ROW._replace(member_id=70, tournament_id=90, sequence=30)
    assert _digest(same) == _digest(ROW)


def _egf_list(seed: int, slug: str, days: list[dt.date]):
    """An EGF list with a table of some of eight players approved on each of `days`, then
    recomputed whole (the approvals' own recomputes wait for a commit a test never makes)."""
    rng = random.Random(seed)
    club = ClubFactory()
    rating_list = RatingListFactory(system="egf", game="go", slug=slug)
    pool = members(rng, club, 8)
    referee = staff_user()
    tournaments = []
    for day in days:
        tournaments.append(table(rng, club=club, players=pool, system="egf", day=day))
        submitted(tournaments[-1], rating_list)
        tournament_approve_and_rate(tournament=tournaments[-1], by=referee)
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    return rating_list, tournaments


@pytest.mark.django_db
def test_a_row_changed_elsewhere_is_rewritten_and_unchanged_rows_are_kept():
    rating_list, _tables = _egf_list(4, "fp", [dt.date(2023, 3, 5), dt.date(2023, 6, 4)])
    stored = every_column(rating_list)
    assert stored[0], "the history is empty"
    rows = RatingHistory.objects.filter(rating_list=rating_list)
    assert not rows.filter(fingerprint__isnull=True).exists()
    links = ListTournament.objects.filter(rating_list=rating_list)
    digests = dict(links.values_list("tournament_id", "history_digest"))
    if connection.vendor == "postgresql":
        assert None not in digests.values(), "a table's digest was not stored"
    # A row edited by hand (its fingerprint cleared, as anything but the recompute leaves
    # it, and its table's digest, as ratings/merging.py does) comes back as the replay
    # computes it.
    edited = rows.order_by("pk").first()
    RatingHistory.objects.filter(pk=edited.pk).update(after=1.0, breakdown=[], fingerprint=None)
    links.filter(tournament_id=edited.tournament_id).update(history_digest=None)
    versions = _row_versions(rating_list)
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    assert every_column(rating_list) == stored
    if connection.vendor == "postgresql":
        # Only the edited row was written: every other row is the same row version.
        after = _row_versions(rating_list)
        assert {pk for pk in versions if after.get(pk) != versions[pk]} == {edited.pk}
        assert dict(links.values_list("tournament_id", "history_digest")) == digests


@pytest.mark.django_db
def test_a_table_whose_rows_change_gets_a_new_digest_and_a_table_taken_out_loses_it():
    days = [dt.date(2023, 3, 5), dt.date(2023, 6, 4), dt.date(2023, 9, 3)]
    rating_list, tournaments = _egf_list(6, "fp-tables", days)
    links = ListTournament.objects.filter(rating_list=rating_list)
    before = dict(links.values_list("tournament_id", "history_digest"))
    if connection.vendor == "postgresql":
        assert None not in before.values(), "a table's digest was not stored"
    # The first table taken out of the list: the later tables' rows all change.
    first = tournaments[0]
    links.filter(tournament=first).update(decision=ListTournament.Decision.REJECTED)
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=days[0])
    after = dict(links.values_list("tournament_id", "history_digest"))
    assert not RatingHistory.objects.filter(rating_list=rating_list, tournament=first).exists()
    if connection.vendor == "postgresql":
        assert after[first.pk] is None
        assert all(after[t.pk] not in (None, before[t.pk]) for t in tournaments[1:])
    stored = every_column(rating_list)
    # A forced full replay of the same data finds every table as its digest says.
    versions = _row_versions(rating_list)
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=days[0])
    assert every_column(rating_list) == stored and _row_versions(rating_list) == versions


@pytest.mark.django_db
def test_a_live_entry_changed_elsewhere_is_rewritten_and_unchanged_entries_are_kept():
    rng = random.Random(5)
    club = ClubFactory()
    rating_list = RatingListFactory(system="egf", game="go", slug="fp-entries")
    pool = members(rng, club, 8)
    referee = staff_user()
    tournament = table(rng, club=club, players=pool, system="egf", day=dt.date(2023, 3, 5))
    submitted(tournament, rating_list)
    tournament_approve_and_rate(tournament=tournament, by=referee)
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    stored = every_column(rating_list)
    entries = RatingEntry.objects.filter(rating_list=rating_list)
    assert entries.count() >= 2, "too few entries to tell the edited one from the others"
    edited = entries.order_by("pk").first()
    RatingEntry.objects.filter(pk=edited.pk).update(rating=1.0, games=0)
    versions = _versions("ratings_ratingentry", rating_list)
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    assert every_column(rating_list) == stored
    if connection.vendor == "postgresql":
        # Only the edited entry was written: every other one is the same row version.
        after = _versions("ratings_ratingentry", rating_list)
        assert {pk for pk in versions if after.get(pk) != versions[pk]} == {edited.pk}


def _row_versions(rating_list) -> dict[int, object]:
    """PostgreSQL: each history row's id and the transaction that wrote its version."""
    return _versions("ratings_ratinghistory", rating_list)


def _versions(table: str, rating_list) -> dict[int, object]:
    """PostgreSQL: each of the list's rows of `table`, its id and the transaction that
    wrote its version."""
    if connection.vendor != "postgresql":
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, xmin::text FROM {table} WHERE rating_list_id = %s", [rating_list.pk]
        )
        return dict(cursor.fetchall())


@pytest.mark.django_db
def test_links_already_marked_rated_keep_their_time_and_a_table_decided_again_gets_a_new_one():
    days = [dt.date(2023, 3, 5), dt.date(2023, 6, 4)]
    rating_list, tournaments = _egf_list(7, "fp-links", days)
    links = ListTournament.objects.filter(rating_list=rating_list)
    marked = dict(links.values_list("tournament_id", "rated_at"))
    assert None not in marked.values()
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    assert dict(links.values_list("tournament_id", "rated_at")) == marked
    # Decided again after its rating: the next run marks it anew.
    first = tournaments[0]
    links.filter(tournament=first).update(decided_at=marked[first.pk] + dt.timedelta(seconds=1))
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    again = dict(links.values_list("tournament_id", "rated_at"))
    assert (
        again[first.pk] > marked[first.pk] and again[tournaments[1].pk] == marked[tournaments[1].pk]
    )


@pytest.mark.django_db
def test_rows_edited_or_deleted_in_the_admin_come_back_at_the_next_full_recompute():
    """The admin clears the fingerprint of a row it saves and the digest of its table
    (and of a row it deletes): the full recompute compares those tables row by row."""
    from django.contrib import admin

    from ratings.admin import RatingHistoryAdmin

    rating_list, _tables = _egf_list(6, "adm", [dt.date(2023, 3, 5), dt.date(2023, 6, 4)])
    stored = every_column(rating_list)
    rows = RatingHistory.objects.filter(rating_list=rating_list).order_by("pk")
    model_admin = RatingHistoryAdmin(RatingHistory, admin.site)
    edited, deleted = rows.first(), rows.last()
    assert edited.tournament_id != deleted.tournament_id
    edited.after = 1.0
    model_admin.save_model(None, edited, None, True)
    model_admin.delete_model(None, deleted)
    assert every_column(rating_list) != stored
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    assert every_column(rating_list) == stored


@pytest.mark.django_db
def test_a_row_written_anew_keeps_its_id():
    """Pages link to a history row by its id (its breakdown's page): a row the recompute
    writes again, its values changed, is the same row under the same id."""
    days = [dt.date(2023, 3, 5), dt.date(2023, 6, 4), dt.date(2023, 9, 3)]
    rating_list, tournaments = _egf_list(8, "fp-ids", days)
    later = RatingHistory.objects.filter(rating_list=rating_list, tournament__in=tournaments[1:])
    ids = {(m, t): pk for m, t, pk in later.values_list("member_id", "tournament_id", "id")}
    assert ids, "no rows after the first table"
    stored = dict(later.values_list("id", "after"))
    versions = _row_versions(rating_list)
    # The first table taken out of the list: the later rows of its players, and of those
    # they met, change (others may come out as they were).
    ListTournament.objects.filter(rating_list=rating_list, tournament=tournaments[0]).update(
        decision=ListTournament.Decision.REJECTED
    )
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=days[0])
    now = {(m, t): pk for m, t, pk in later.values_list("member_id", "tournament_id", "id")}
    assert now == ids
    moved = {pk for pk, after in later.values_list("id", "after") if after != stored[pk]}
    assert moved, "no row was written anew"
    if connection.vendor == "postgresql":
        written = _row_versions(rating_list)
        assert moved <= {pk for pk in ids.values() if written[pk] != versions[pk]}


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))


@pytest.mark.django_db
def test_rows_sent_as_arrays_come_back_as_sent():
    """`RowUpdates` writes each value as it is, whatever its text holds: quotes,
    backslashes, braces, commas, the word NULL, any letter (PostgreSQL only: elsewhere
    the recompute deletes and inserts)."""
    if connection.vendor != "postgresql":
        pytest.skip("RowUpdates is PostgreSQL's")
    rating_list, _tables = _egf_list(3, "arrays", [dt.date(2023, 3, 5)])
    rows = RatingHistory.objects.filter(rating_list=rating_list).order_by("pk")
    target, other = rows[0].pk, rows[1].pk

    def raw(pk):  # as the database holds it: grades as ranks, JSON as text
        return next(iter(fast_rows(rows.filter(pk=pk).values_list(*COLUMNS))))

    untouched = raw(other)
    first = dict(zip(COLUMNS, raw(target), strict=True))

    @settings(max_examples=60, deadline=None)
    @given(
        note=_TEXT.map(lambda text: text[:200]),
        history=st.dictionaries(_TEXT.map(lambda text: text[:20]), _TEXT | st.floats(-1e6, 1e6)),
        after=st.floats(-1e6, 1e6) | st.none(),
    )
    def sent_and_read(note, history, after):
        changed = {
            **first, "note": note, "after": after, "rated": after is not None,
            "history": as_json(history), "breakdown": as_json([{"opponent": 1, "note": note}]),
            "fingerprint": -1,
        }  # fmt: skip
        with RowUpdates(RatingHistory, COLUMNS, history_write._KEY) as updates:
            updates.add([changed[c] for c in COLUMNS])
        assert updates.count == 1
        stored = RatingHistory.objects.get(pk=target)
        assert (stored.note, stored.after, stored.history) == (note, after, history)
        assert stored.breakdown == [{"opponent": 1, "note": note}]
        assert raw(other) == untouched

    sent_and_read()


@pytest.mark.django_db
def test_rows_flushed_are_sent_at_once_and_written_on_leaving():
    """`RowUpdates.flush` sends the rows added so far without waiting for a full batch
    (the recompute frees its replay meanwhile); what was flushed is sent once, and it is
    written by the time the block is left."""
    if connection.vendor != "postgresql":
        pytest.skip("RowUpdates is PostgreSQL's")
    rating_list, _tables = _egf_list(3, "flushed", [dt.date(2023, 3, 5)])
    rows = RatingHistory.objects.filter(rating_list=rating_list).order_by("pk")
    targets = list(rows[:2])
    values = list(fast_rows(rows.filter(pk__in=[t.pk for t in targets]).values_list(*COLUMNS)))
    notes = ["flushed first", "flushed second"]
    with RowUpdates(RatingHistory, COLUMNS, history_write._KEY) as updates:
        for row, note in zip(values, notes, strict=True):
            updates.add([note if c == "note" else v for c, v in zip(COLUMNS, row, strict=True)])
        assert updates.count == 0  # under a batch: not sent yet
        updates.flush()
        assert updates.count == 2
        updates.flush()  # nothing more to send
        assert updates.count == 2
    assert [RatingHistory.objects.get(pk=t.pk).note for t in targets] == notes
