"""Issue 55, finding 11 (the desk's part): a half-approved table's page says which lists
rate it, not "not rated yet"; a list card counts the players its page shows by default."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.urls import reverse

from ratings.models import RatingEntry
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tests.trust.world import World

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Approved for some of its lists"), ("uk", "Затверджено для частини списків"),
     ("ru", "Утверждено для части списков")],
)  # fmt: skip
def test_a_half_approved_table_says_which_lists_rate_it(
    world: World, django_capture_on_commit_callbacks, client, language, words
):
    players = [MemberFactory(club=world.rivne, grade=g) for g in ("2k", "3k")]
    table = TournamentFactory(organiser=world.rivne, status="submitted", rounds=1)
    for member in players:
        ParticipantFactory(tournament=table, member=member)
    GameFactory(tournament=table, round=1, white=players[0], black=players[1])
    table.list_links.create(rating_list=world.lists["egf-gor"])
    table.list_links.create(rating_list=world.lists["ufgo"])
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve_and_rate(tournament=table, by=world.users["egf-gor-referee"])
    table.refresh_from_db()
    assert table.status == "submitted"  # UFGO has not decided
    html = client.get(
        reverse("tournament_detail", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert words in html
    assert "The results are not rated yet." not in html
    status = html.split('data-testid="rating-status"')[1].split("</div>")[0]
    assert "EGF GoR" in status and "UFGO" in status


def test_a_list_card_counts_what_its_page_shows(world: World, client):
    cache.clear()
    egf = world.lists["egf-gor"]
    long_ago = dt.date(2015, 1, 1)
    gone = [MemberFactory(family_name=f"Gone{n}") for n in range(3)]
    for n, member in enumerate(gone):
        RatingEntry.objects.create(rating_list=egf, member=member, rating=1500 + n,
                                   active_until=long_ago)  # fmt: skip
    RatingEntry.objects.create(rating_list=egf, member=MemberFactory(family_name="Here"),
                               rating=1800)  # fmt: skip
    html = client.get("/").content.decode()
    card = html.split(f'href="/ratings/{egf.slug}/"')[1].split("</a>")[0]
    assert '<div class="stat">1</div>' in card
    assert "4 with those out for inactivity" in card
    page = client.get(reverse("rating_list", args=[egf.slug])).content.decode()
    assert "Here" in page and "Gone0" not in page  # the default view: the one counted
    api = client.get("/api/lists/").json()["lists"]
    assert {row["slug"]: row["players"] for row in api}[egf.slug] == 1


# A bad grade (line 4) beside three other errors: an opponent who is not in the table
# (line 4 too), a result that is not one (line 5), a line without grade and country.
BROKEN_EGD = (
    "; CL[A]\n; EV[Cup]\n; DT[2024-05-01,2024-05-01]\n"
    "1 Alpha Al 99k UA Rivn 1 2+/w 9+/b\n2 Beta Bo 20k UA Rivn 0 1-/b 1+/q\n"
    "3 Gamma Ga 3x UA Rivn 0 0-\n"
)


def test_a_bad_grade_does_not_hide_the_other_errors():
    from tournaments.formats import FormatError, parse

    with pytest.raises(FormatError) as caught:
        parse(BROKEN_EGD.encode(), "egd", "cup.h9")
    found = sorted((p.line, p.message) for p in caught.value.problems)
    assert len(found) == 4, found
    assert [line for line, _ in found] == [4, 4, 5, 6]
    assert any("no player with place number 9" in str(m) for _, m in found)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "there is no player with place number 9"),
        ("uk", "немає гравця з місцем 9"),
        ("ru", "нет игрока с местом 9"),
    ],  # fmt: skip
)
def test_the_upload_page_lists_every_error_at_once(world: World, language, words):
    from django.core.files.uploadedfile import SimpleUploadedFile

    form = {"file": SimpleUploadedFile("cup.h9", BROKEN_EGD.encode()),
            "organiser": world.rivne.pk, "rating_list": "", "fmt": "egd"}  # fmt: skip
    response = world.client("rivne-admin").post(
        reverse("manage_import"), form, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    problems = response.context["problems"]
    assert len(problems) == 4
    assert words in response.content.decode()
