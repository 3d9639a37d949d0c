"""`manage.py load_demo`: what it makes, that it rates what it approves, and that a second
run changes nothing.

Transactional: the demo commits one tournament at a time and each approval's recompute
runs after its own commit, as in production.
"""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubsite.models import Club, Member
from ratings.models import RatingEntry, RatingHistory, RatingList, RecomputeRun
from sampledata.demo import PASSWORDS
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _counts() -> dict[str, int]:
    return {
        model._meta.label: model._default_manager.count()
        for model in apps.get_models(include_auto_created=True)
    }


def _ratings() -> set[tuple[str, str, float | None, int]]:
    return set(
        RatingEntry.objects.values_list(
            "rating_list__slug", "member__import_key", "rating", "games"
        )
    )


def _load() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_load_demo_twice_changes_nothing() -> None:
    first_output = _load()
    counts, ratings = _counts(), _ratings()
    assert "created tournament" in first_output

    second_output = _load()
    assert _counts() == counts
    assert _ratings() == ratings
    assert "created" not in second_output  # nothing new the second time
    assert "Demo ready" in second_output

    _check_content()
    _check_logins(second_output)


def _check_content() -> None:
    assert Club.objects.count() == 4
    assert 140 <= Member.objects.count() <= 160
    assert Member.objects.filter(grade__isnull=False).exists()

    tournaments = Tournament.objects.all()
    assert tournaments.count() >= 12
    assert tournaments.filter(status=Tournament.Status.SUBMITTED).count() == 1
    assert tournaments.filter(status=Tournament.Status.DRAFT).count() == 1
    assert tournaments.filter(status=Tournament.Status.APPROVED).count() >= 10
    assert set(tournaments.values_list("game", flat=True)) == {"go", "chess", "reversi"}
    for tournament in tournaments:
        assert tournament.games.exists(), tournament
        assert tournament.participants.exists(), tournament
    assert Game.objects.filter(handicap__gt=0).exists()

    lists = RatingList.objects.all()
    assert set(lists.values_list("system", flat=True)) == {"egf", "ufgo", "rivne", "orr", "uscf"}
    for rating_list in lists:
        assert rating_list.state == RatingList.State.RATED, (rating_list, rating_list.last_error)
        assert rating_list.pending_from is None
        assert RatingEntry.objects.filter(rating_list=rating_list).exists(), rating_list
        assert RatingHistory.objects.filter(rating_list=rating_list).exists(), rating_list
        assert not RecomputeRun.objects.filter(
            rating_list=rating_list, outcome=RecomputeRun.Outcome.FAILED
        ).exists()
    # Only approved tables are rated.
    rated = set(RatingHistory.objects.values_list("tournament__status", flat=True))
    assert rated == {Tournament.Status.APPROVED}


def _check_logins(output: str) -> None:
    User = get_user_model()
    printed = dict(re.findall(r"^\s{2}(\S+)\s+(clubsite-\S+)\s", output, flags=re.MULTILINE))
    assert printed == PASSWORDS
    for username, password in printed.items():
        user = User.objects.get(username=username)
        assert user.check_password(password), username
        assert not user.check_password(password + "x")

    admin = User.objects.get(username="admin")
    assert admin.is_staff and admin.is_superuser
    assert Club.objects.get(slug="rivne-go").admins.filter(username="rivne-admin").exists()
    assert Club.objects.get(slug="kyiv-go").admins.filter(username="kyiv-admin").exists()
    assert Club.objects.get(slug="moscow-chess").admins.filter(username="chess-admin").exists()
    referee = User.objects.get(username="referee")
    assert not referee.is_staff
    assert RatingList.objects.exclude(referees=referee).count() == 0
    player = User.objects.get(username="player")
    assert not player.is_staff
    assert Member.objects.filter(user=player).count() == 1
