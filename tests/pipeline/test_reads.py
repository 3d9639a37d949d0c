"""The recompute's reads filter by long lists of ids as one array, and can be read while
Python goes on (issue 18)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from clubsite.models import Club
from ratings.recompute.pipeline import binary_cursor, stream_chunks
from ratings.recompute.reads import any_of, fast_rows, id_array, read_meanwhile
from tests.factories import ClubFactory


@pytest.mark.django_db
@pytest.mark.parametrize("pick", [[], [0], [0, 2], [0, 1, 2, 3, 4]])
def test_any_of_filters_and_excludes_as_in_does(pick):
    clubs = ClubFactory.create_batch(5)
    ids = [clubs[i].pk for i in pick] + [10**12]  # an id nobody has
    for queryset in (Club.objects.all(), Club.objects.filter(pk__gte=clubs[1].pk)):
        assert set(queryset.filter(any_of("pk", ids))) == set(queryset.filter(pk__in=ids))
        assert set(queryset.exclude(any_of("pk", ids))) == set(queryset.exclude(pk__in=ids))
    assert not Club.objects.filter(any_of("pk", [])).exists()
    assert Club.objects.exclude(any_of("pk", [])).count() == 5


@pytest.mark.django_db
def test_any_of_sends_thousands_of_ids_as_one_parameter():
    if connection.vendor != "postgresql":
        pytest.skip("one array parameter is PostgreSQL's; elsewhere `__in` is used")
    club = ClubFactory()
    ids = [*range(10**9, 10**9 + 5000), club.pk]
    with CaptureQueriesContext(connection) as queries:
        assert list(Club.objects.filter(any_of("pk", ids))) == [club]
    sql = queries[0]["sql"]
    assert "= ANY('{" + ",".join(map(str, ids)) + "}'::bigint[])" in sql


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1)), max_size=20))
def test_id_array_is_the_text_postgresql_reads_as_the_same_ids(ids):
    text = id_array(ids)
    assert text.startswith("{") and text.endswith("}")
    inside = text[1:-1]
    parsed = [] if not inside else [None if v == "NULL" else int(v) for v in inside.split(",")]
    assert parsed == ids


def test_id_array_refuses_what_is_not_an_id():
    with pytest.raises((TypeError, ValueError)):
        id_array(["1}; DROP TABLE x; --"])


@pytest.mark.django_db
def test_a_query_read_meanwhile_gives_its_rows_after_the_block_even_after_a_streamed_read():
    """The block goes on while the server reads; after it, the rows are the query's. Right
    after a read in chunks (`fast_rows` streams on PostgreSQL), libpq would hand the
    pipeline's first query its rows in chunks too, which psycopg refuses."""
    clubs = ClubFactory.create_batch(7)
    query = Club.objects.order_by("pk").values_list("pk", "name")
    expected = [(club.pk, club.name) for club in sorted(clubs, key=lambda c: c.pk)]
    assert list(fast_rows(query)) == expected  # streamed, to its end
    with read_meanwhile(query) as rows:
        inside = list(rows)
        if connection.vendor == "postgresql":  # sent, and the connection in pipeline mode
            assert connection.connection.pgconn.pipeline_status
    assert not inside
    assert rows == expected
    with read_meanwhile(query.filter(pk__in=[])) as nothing:  # a query that cannot match
        pass
    assert nothing == []


def _streamed(sql, params, *, size):
    with connection.cursor() as cursor:
        return [
            row for chunk in stream_chunks(cursor.cursor, sql, params, size=size) for row in chunk
        ]


@pytest.mark.django_db
@pytest.mark.parametrize("size", [1, 7, 2000])
def test_a_stream_in_chunks_gives_the_rows_a_plain_fetch_gives(size):
    if connection.vendor != "postgresql":
        pytest.skip("chunked streams are PostgreSQL's (libpq 17)")
    sql = "SELECT n, n::text, n * 0.5 FROM generate_series(1, %s) AS g(n) ORDER BY 1"
    with connection.cursor() as cursor:
        cursor.execute(sql, [5000])
        fetched = cursor.fetchall()
    assert _streamed(sql, [5000], size=size) == [tuple(row) for row in fetched]


@pytest.mark.django_db
def test_a_binary_stream_gives_the_values_a_django_cursor_gives():
    """What the recompute reads in the binary format (`binary_cursor`): ids, 64-bit
    fingerprints, ratings, flags, dates, text, JSON (as its text) and nulls come as
    Django's own cursor gives them, with their parameters bound by the server."""
    if connection.vendor != "postgresql":
        pytest.skip("the binary format is PostgreSQL's")
    sql = (
        "SELECT n, n * 1000000000000 - 9223372036854775807, n / 3.0::float8, n %% 2 = 0, "
        "%s::date + n::int, n::text, jsonb_build_object('n', n, 'r', n * 0.1), "
        "NULLIF(n %% 3, 0)::smallint, NULL::jsonb "
        "FROM unnest(%s::bigint[]) AS g(n) ORDER BY 1"
    )
    params = [dt.date(2020, 2, 28), id_array(range(1, 3001))]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        expected = [tuple(row) for row in cursor.fetchall()]
    with binary_cursor() as cursor:
        streamed = [
            row
            for chunk in stream_chunks(cursor, sql, params, size=700, binary=True)
            for row in chunk
        ]
    assert streamed == expected
    assert isinstance(streamed[0][6], str) and json.loads(streamed[0][6]) == {"n": 1, "r": 0.1}


@pytest.mark.django_db
def test_a_stream_left_before_its_end_is_cancelled_and_the_connection_goes_on():
    """An error in the caller mid-stream: the query is cancelled (which aborts the
    transaction, as psycopg's own `stream` does), and once rolled back the connection
    runs the next query."""
    if connection.vendor != "postgresql":
        pytest.skip("chunked streams are PostgreSQL's (libpq 17)")
    club = ClubFactory()
    taken = 0
    with pytest.raises(LookupError), transaction.atomic(), connection.cursor() as cursor:
        sql = "SELECT n FROM generate_series(1, 10000000) AS g(n)"
        for chunk in stream_chunks(cursor.cursor, sql, [], size=100):
            taken += len(chunk)
            if taken >= 250:
                raise LookupError("the caller fails mid-stream")
    assert taken == 300
    assert list(fast_rows(Club.objects.filter(pk=club.pk).values_list("pk"))) == [(club.pk,)]
