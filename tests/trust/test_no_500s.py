"""Issue 54, item 7: each 500 found with debug off, reproduced; each is now a clear
validation message (or the page as if the junk was not sent)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubsite.models import Member
from ratings.models import Baseline, ListTournament
from tests.factories import MemberFactory, TournamentFactory
from tests.trust.world import World
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
HUGE = "99999999999999999999999"


def test_time_control_advice_with_1e308_minutes(world: World) -> None:
    client = world.client("kyiv-admin")
    for junk in ("1e308", "-1e308", "1e-308", "Infinity", "NaN", "9" * 400, "²"):
        response = client.get(reverse("manage_time_control"), {"basic_time_minutes": junk})
        assert response.status_code == 200, junk


def _json_event(minutes: object) -> bytes:
    return json.dumps({
        "system": "egf",
        "event": {"name": "Kyiv Cup", "start_date": "2024-05-01", "date": "2024-05-02",
                  "class": "B", "time_control": {"basic_minutes": minutes}},
        "players": [{"id": "a", "name": "Petrenko Ivan", "grade": "3k"},
                    {"id": "b", "name": "Bondar Oleh", "grade": "4k"}],
        "games": [{"round": 1, "white": "a", "black": "b", "result": "white"}],
    }).encode()  # fmt: skip


@pytest.mark.parametrize("minutes", [1e308, 1e30, 100000, -5])
def test_json_import_with_huge_basic_minutes_is_refused_at_the_preview(world, minutes) -> None:
    client = world.client("kyiv-admin")
    form = {"file": SimpleUploadedFile("cup.json", _json_event(minutes)), "fmt": "json",
            "organiser": world.kyiv.pk, "rating_list": world.lists["egf-gor"].pk}  # fmt: skip
    preview = client.post(reverse("manage_import"), form)
    assert preview.status_code == 200
    text = preview.content.decode()
    assert "time_control.basic_minutes" in text
    assert "confirm" not in preview.context or preview.context["confirm"] is None
    assert not Tournament.objects.exists()


def _submitted_table(world: World) -> Tournament:
    table = TournamentFactory(organiser=world.rivne, status="submitted", rounds=1)
    ListTournament.objects.create(rating_list=world.lists["rivne"], tournament=table)
    return table


@pytest.mark.parametrize("junk", ["²", HUGE, "-1", "\x00", "١٢"])
def test_referee_decide_with_junk_lists(world: World, junk: str) -> None:
    table = _submitted_table(world)
    response = world.client("rivne-referee").post(
        reverse("referee_decide", args=[table.pk]), {"decision": "approve", "lists": junk}
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == "submitted"  # no list of his was chosen: nothing decided


@pytest.mark.parametrize("junk", ["²", HUGE, "-1", "\x00", "١٢"])
def test_merge_page_with_junk_other(world: World, junk: str) -> None:
    member = MemberFactory(club=world.kyiv)
    client = world.client("staff")
    response = client.get(reverse("member_merge", args=[member.pk]), {"other": junk})
    assert response.status_code == 200
    assert response.context["other"] is None
    posted = client.post(reverse("member_merge", args=[member.pk]), {"other": junk})
    assert posted.status_code == 200
    assert Member.objects.filter(pk=member.pk).exists()


def _baseline_page(world: World, text: str):
    client = world.client("ufgo-referee")
    url = reverse("list_baseline", args=["ufgo"])
    upload = SimpleUploadedFile("list.csv", text.encode())
    return client, url, client.post(url, {"file": upload, "fmt": "csv", "date": "2024-01-01"})


def test_baseline_csv_with_unicode_digit_games(world: World) -> None:
    _client, _url, page = _baseline_page(
        world, "key,family_name,given_name,rating,games\nr1,Petrenko,Ivan,1500,²\n"
    )
    assert page.status_code == 200
    assert "games must be a whole number" in page.content.decode()
    assert not page.context["token"]


@pytest.mark.parametrize("junk", ["²", HUGE, "-3", "\x00"])
def test_baseline_confirm_with_junk_choice(world: World, junk: str) -> None:
    MemberFactory(family_name="Petrenko", given_name="Ivan")
    MemberFactory(family_name="Petrenko", given_name="Ivan")
    client, url, page = _baseline_page(
        world, "key,family_name,given_name,rating\nr1,Petrenko,Ivan,1500\n"
    )
    assert page.context["preview"].ambiguous
    refused = client.post(url, {"token": page.context["token"], "choice-r1": junk})
    assert refused.status_code == 200
    assert "Row r1" in refused.content.decode()
    assert not Baseline.objects.exists()


def test_baseline_confirm_new_for_a_key_another_member_holds(world: World) -> None:
    holder = MemberFactory(family_name="Shevchenko", given_name="Taras", import_key="r1")
    client, url, page = _baseline_page(
        world, "key,family_name,given_name,rating\nr1,Petrenko,Ivan,1500\n"
    )
    refused = client.post(url, {"token": page.context["token"], "choice-r1": "new"})
    assert refused.status_code == 200
    assert f"#{holder.pk}" in refused.content.decode()
    assert not Baseline.objects.exists()


@pytest.mark.parametrize("number", ["egd_pin", "fide_id"])
def test_baseline_confirm_new_for_a_number_another_member_holds(world, number) -> None:
    holder = MemberFactory(family_name="Shevchenko", given_name="Taras", **{number: "1234567"})
    client, url, page = _baseline_page(
        world, f"key,family_name,given_name,rating,{number}\nr1,Petrenko,Ivan,1500,1234567\n"
    )
    refused = client.post(url, {"token": page.context["token"], "choice-r1": "new"})
    assert refused.status_code == 200
    assert f"#{holder.pk}" in refused.content.decode()
    assert not Baseline.objects.exists()


@pytest.mark.parametrize("token", ["²", "токен", "\x00"])
def test_confirm_pages_with_a_non_ascii_token(world: World, token: str) -> None:
    """Found by tests/trust/test_fuzz_posts.py: compare_digest refuses non-ASCII text."""
    client = world.client("kyiv-admin")
    response = client.post(reverse("manage_import_confirm"), {"token": token})
    assert response.status_code == 302
    _client, url, _page = _baseline_page(world, "key,family_name,rating\nr1,Petrenko,1500\n")
    response = _client.post(url, {"token": token})
    assert response.status_code == 302


def test_member_identity_post_without_the_name_fields_is_no_500(world: World) -> None:
    # Found by test_fuzz_posts after the merge with main: a club admin's post that leaves
    # the name fields out drops them from the form, and the page rendered them anyway.
    member = MemberFactory(club=world.kyiv, family_name="Petrenko")
    table = TournamentFactory(organiser=world.kyiv, status="draft")
    table.participants.create(member=member)
    url = reverse("manage_member_identity", args=[table.pk, member.pk])
    response = world.client("kyiv-admin").post(url, {"birth_year": "²"})  # invalid: shown again
    assert response.status_code == 200
    assert "birth_year" in response.context["form"].errors
    member.refresh_from_db()
    assert member.family_name == "Petrenko"


@pytest.mark.parametrize(("url_name", "field"), [("table_note", "text"),
                                                  ("referee_reopen", "reason")])  # fmt: skip
def test_a_note_or_a_reason_with_a_nul_character_is_refused(world: World, url_name, field):
    """PostgreSQL stores no NUL in text: the fuzz test's 500 there (issue 54, item 7)."""
    from tournaments.models import TournamentLog

    table = _submitted_table(world)
    before = TournamentLog.objects.filter(tournament=table).count()
    response = world.client("rivne-referee").post(
        reverse(url_name, args=[table.pk]), {field: "a\x00b"}, follow=True
    )
    assert response.status_code == 200
    assert "NUL character" in response.content.decode()
    assert TournamentLog.objects.filter(tournament=table).count() == before
