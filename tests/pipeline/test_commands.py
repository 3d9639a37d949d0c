"""The rating-list management commands (issue 6)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import random

import pytest
from django.core.management import CommandError, call_command

from ratings.models import PublishedList, RatingEntry, RatingHistory, RatingList
from ratings.recompute.services import rating_list_recompute
from tests.factories import ClubFactory, RatingListFactory
from tests.pipeline.builders import members, submitted, tournament_with_games
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _call(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def rated_list():
    rng = random.Random(2)
    club = ClubFactory()
    players = members(rng, club, 10)
    rating_list = RatingListFactory(system="egf", slug="cmd")
    tournaments = [
        tournament_with_games(rng, club=club, players=players, day=dt.date(2024, m, 10))
        for m in (2, 5)
    ]
    for tournament in tournaments:
        submitted(tournament, rating_list)
        assert "ratings recomputed" in _call("approve_tournament", str(tournament.pk), "--wait")
    return rating_list


def test_create_rating_list_refuses_an_unknown_system_and_params():
    with pytest.raises(CommandError):
        _call("create_rating_list", "x", "--system", "nope")
    with pytest.raises(CommandError, match="Unknown parameters"):
        _call("create_rating_list", "x", "--system", "egf", "--params", '{"speed": 1}')
    assert "created" in _call("create_rating_list", "x", "--system", "orr")
    assert RatingList.objects.get(slug="x").game == "chess"


def test_approve_refuses_a_table_that_is_not_submitted(rated_list):
    tournament = rated_list.tournaments.first()
    with pytest.raises(CommandError, match="not possible"):
        _call("approve_tournament", str(tournament.pk))
    with pytest.raises(CommandError, match="no tournament"):
        _call("approve_tournament", "999999")


def test_recompute_is_idempotent_and_reports(rated_list):
    before = sorted(
        RatingEntry.objects.filter(rating_list=rated_list).values_list("member_id", "rating")
    )
    printed = _call("recompute", "cmd")
    assert "2 tournaments" in printed
    printed = _call("recompute", "cmd", "--from", "2024-04-01")
    assert "1 tournaments" in printed
    after = sorted(
        RatingEntry.objects.filter(rating_list=rated_list).values_list("member_id", "rating")
    )
    assert after == before


def test_export_ratings_json_and_csv_agree(rated_list):
    document = json.loads(_call("export_ratings", "cmd", "--format", "json", "--all"))
    assert document["list"] == "cmd" and document["system"] == "egf"
    assert len(document["players"]) == RatingEntry.objects.filter(rating_list=rated_list).count()
    rows = list(
        csv.DictReader(io.StringIO(_call("export_ratings", "cmd", "--format", "csv", "--all")))
    )
    assert [r["player"] for r in rows] == [p["player"] for p in document["players"]]
    ratings = [p["rating"] for p in document["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert all(p["tournaments"] >= 1 and p["last_played"] for p in document["players"])


def test_publish_freezes_the_list_on_a_date(rated_list):
    printed = _call("publish_rating_list", "cmd", "--date", "2024-03-01")
    snapshot = PublishedList.objects.get(rating_list=rated_list, date=dt.date(2024, 3, 1))
    first_only = RatingEntry.objects.filter(rating_list=rated_list).count()
    assert f"{snapshot.entries.count()} players" in printed
    assert 0 < snapshot.entries.count() <= first_only
    ranks = list(snapshot.entries.values_list("rank", "rating"))
    assert [r for r, _ in ranks] == list(range(1, len(ranks) + 1))
    assert [x for _, x in ranks] == sorted((x for _, x in ranks), reverse=True)
    with pytest.raises(CommandError, match="already published"):
        _call("publish_rating_list", "cmd", "--date", "2024-03-01")


def test_bench_recompute_times_a_full_recompute_that_rewrites_every_row():
    out = _call(
        "bench_recompute", "--players", "200", "--tournaments", "20", "--games", "1500",
        "--repeat", "1", "--slug", "bench-tiny", "--rewrite-all",
    )  # fmt: skip
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[1:]] == [
        "peak resident memory of this process during the full recomputes",
        "full recompute",
        "ratio",
        "full recompute, every row rewritten",
        "ratio",
        "today's tournament",
        "retroactive insert one year back",
        "ratios",
        "took out the 2 tables it put in",
    ]
    # Issue 57: the first run after the load and the change of rules as ratios to the
    # engine, each on its own line, and the peak memory in megabytes.
    assert lines[3].startswith("ratio: first full recompute after the data was generated / ")
    assert lines[5].startswith("ratio: change of rules (every row rewritten) / engine alone ")
    for ratio in (lines[3], lines[5]):
        assert ratio.rsplit(" ", 1)[1] == "-" or float(ratio.rsplit(" ", 1)[1]) > 0
    assert int(lines[1].split(": ")[1].split(" MB")[0]) > 0
    rewritten = int(lines[4].split(": ")[1].split(" rows")[0])
    history = RatingHistory.objects.filter(rating_list__slug="bench-tiny")
    assert rewritten > 0
    # Every row written again by the recompute: none is left without its fingerprint.
    assert not history.filter(fingerprint__isnull=True).exists()


def test_bench_recompute_prints_each_runs_ratio_and_the_retroactive_share():
    from ratings.management.commands.bench_recompute import _ratios

    line = _ratios([6.0, 9.0, 7.5], [2.0, 3.6, 0.0], [0.75, 0.5, 0.8])
    assert line == (
        "ratios: full recompute / engine alone per run 3.00, 2.50, -; "
        "retroactive insert = 1/10.0 of a full recompute"
    )


def _standing(slug: str) -> tuple[dict, dict]:
    """The list's live entries and history rows, by member (and table)."""
    entries = RatingEntry.objects.filter(rating_list__slug=slug)
    history = RatingHistory.objects.filter(rating_list__slug=slug)
    return (
        {e.member_id: (e.rating, e.tournaments, e.games, e.last_played) for e in entries},
        {(h.member_id, h.tournament_id): (h.after, h.tournaments_so_far) for h in history},
    )


def test_bench_recompute_leaves_the_list_as_it_found_it():
    args = ("--players", "200", "--tournaments", "20", "--games", "1500", "--slug", "bench-tidy")
    _call("bench_recompute", *args, "--repeat", "1")
    rating_list = RatingList.objects.get(slug="bench-tidy")
    tables = set(rating_list.tournaments.values_list("pk", flat=True))
    found = _standing("bench-tidy")

    printed = _call("bench_recompute", *args, "--repeat", "2")

    assert "took out the 4 tables it put in" in printed
    assert set(rating_list.tournaments.values_list("pk", flat=True)) == tables
    put_in = Tournament.objects.filter(name__regex=r"^Bench (today's|retroactive)")
    assert not put_in.exists()
    # Entries and rows as the run found them, and as a replay of the list from scratch
    # gives them (a player whose last table was one the bench put in a year back too).
    assert _standing("bench-tidy") == found
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    assert _standing("bench-tidy") == found
