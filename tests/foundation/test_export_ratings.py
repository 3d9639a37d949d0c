"""manage.py export_ratings: the live list as the public page shows it, or everyone with --all."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from ratings.models import RatingEntry
from tests.factories import MemberFactory, RatingListFactory

pytestmark = pytest.mark.django_db


def _export(*args: str) -> str:
    out = io.StringIO()
    call_command("export_ratings", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def entries():
    rating_list = RatingListFactory(slug="live", system="egf", game="go")
    today = timezone.localdate()

    def entry(name: str, rating: float | None, active_until: dt.date | None) -> None:
        member = MemberFactory(family_name=name, import_key=name)
        RatingEntry.objects.create(
            rating_list=rating_list,
            member=member,
            rating=rating,
            tournaments=1,
            last_played=today - dt.timedelta(days=400),
            active_until=active_until,
        )

    entry("Unrated", None, None)  # e.g. an ORR newcomer who has not scored
    entry("Strong", 2100.0, today)  # last day in the live list
    entry("Gone", 2400.0, today - dt.timedelta(days=1))  # out for inactivity (EGF)
    entry("Always", 1500.0, None)  # a list with no inactivity rule
    return rating_list


def test_default_leaves_out_the_inactive_players(entries):
    players = json.loads(_export("live"))["players"]
    assert [p["player"] for p in players] == ["Strong", "Always", "Unrated"]


def test_all_includes_them_and_unrated_players_come_last(entries):
    players = json.loads(_export("live", "--all"))["players"]
    assert [p["player"] for p in players] == ["Gone", "Strong", "Always", "Unrated"]
    assert players[-1]["rating"] is None
    rows = list(csv.DictReader(io.StringIO(_export("live", "--all", "--format", "csv"))))
    assert [r["player"] for r in rows] == ["Gone", "Strong", "Always", "Unrated"]
    assert rows[-1]["rating"] == ""
