"""Issue 55, finding 6: the approval preview explains its ripple: the players who are
not in the table but move because the later tables are replayed, and a table far older
than the list's newest."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clubsite.models import Member
from ratings.services import rating_impact_preview
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tests.trust.world import World
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _table(world: World, day: dt.date, pairs: list[tuple[Member, Member]], **kw) -> Tournament:
    table = TournamentFactory(organiser=world.rivne, status="submitted", start_date=day,
                              end_date=day, rounds=1, **kw)  # fmt: skip
    for member in {m for pair in pairs for m in pair}:
        ParticipantFactory(tournament=table, member=member)
    for white, black in pairs:
        GameFactory(tournament=table, round=1, white=white, black=black, result="white")
    table.list_links.create(rating_list=world.lists["egf-gor"])
    return table


@pytest.fixture
def rated_spring(world: World, django_capture_on_commit_callbacks) -> list[Member]:
    """A, B, C, D rated in a table of 1 March 2026 (A beat B, C beat D)."""
    a, b, c, d = (MemberFactory(club=world.rivne, grade=g) for g in ("2k", "3k", "4k", "5k"))
    with django_capture_on_commit_callbacks(execute=True):
        spring = _table(world, dt.date(2026, 3, 1), [(a, b), (c, d)], name="Spring")
        tournament_approve_and_rate(tournament=spring, by=world.users["egf-gor-referee"])
    return [a, b, c, d]


def test_a_table_before_a_rated_one_moves_players_outside_it(world: World, rated_spring):
    a, b, c, d = rated_spring
    e = MemberFactory(club=world.rivne, grade="1k")
    winter = _table(world, dt.date(2026, 1, 10), [(e, a)], name="Winter")
    (preview,) = rating_impact_preview(tournament=winter)
    assert preview.later_tables == 1 and not preview.old
    outside = {i.member for i in preview.impacts if not i.in_table}
    assert b in outside  # A's opponent in Spring, who did not play in Winter
    assert {i.member for i in preview.impacts if i.in_table} <= {a, e}
    assert preview.outside == len(outside)
    html = world.client("egf-gor-referee").get(reverse("referee_review", args=[winter.pk]))
    text = html.content.decode()
    assert "This table comes before 1 table already rated in this list" in text
    assert "not in this table" in text


def test_a_table_after_the_newest_explains_nothing(world: World, rated_spring):
    a, b, c, d = rated_spring
    summer = _table(world, dt.date(2026, 6, 1), [(a, c)], name="Summer")
    (preview,) = rating_impact_preview(tournament=summer)
    assert preview.later_tables == 0 and not preview.old
    assert all(i.in_table for i in preview.impacts)


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "long before the list's newest table"), ("uk", "задовго до найновішої таблиці"),
     ("ru", "задолго до самой новой таблицы")],
)  # fmt: skip
def test_a_2018_table_in_a_2026_list_is_remarked(world: World, rated_spring, language, words):
    a, b, c, d = rated_spring
    old = _table(world, dt.date(2018, 5, 1), [(c, d)], name="Old")
    (preview,) = rating_impact_preview(tournament=old)
    assert preview.old and preview.newest == dt.date(2026, 3, 1)
    page = world.client("egf-gor-referee").get(
        reverse("referee_review", args=[old.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert words in page.content.decode()
