"""Issue 54, item 8: the smaller findings, each reproduced."""

from __future__ import annotations

import json
import os
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubsite.models import Member
from ratings.views import baseline as baseline_views
from tests.factories import UserFactory
from tests.trust.world import World
from tournaments.formats import FormatError, parse
from tournaments.formats.rating_lists import parse_rating_list
from tournaments.views.forms import MemberCreateForm, TournamentForm

pytestmark = pytest.mark.django_db
RLO = "\u202e"


# --- password reset -------------------------------------------------------------------


def test_password_reset_sends_a_bounded_number_of_mails(client, mailoutbox, world) -> None:
    UserFactory(email="victim@example.org")
    pages = [
        client.post(reverse("password_reset"), {"email": "victim@example.org"}) for _ in range(6)
    ]
    assert {page.status_code for page in pages} == {302}  # the same answer every time
    assert len(mailoutbox) == 3


def test_password_reset_bounds_one_client_across_addresses(client, mailoutbox, world) -> None:
    for n in range(12):
        UserFactory(email=f"user{n}@example.org")
        client.post(reverse("password_reset"), {"email": f"user{n}@example.org"})
    assert len(mailoutbox) == 10


# --- abandoned baseline uploads -------------------------------------------------------

CSV = b"key,family_name,given_name,rating\nr1,Petrenko,Ivan,1500\n"


def _upload(world: World, client=None):
    client = client or world.client("ufgo-referee")
    page = client.post(
        reverse("list_baseline", args=["ufgo"]),
        {"file": SimpleUploadedFile("l.csv", CSV), "fmt": "csv", "date": "2024-01-01"},
    )
    assert page.status_code == 200 and page.context["token"]
    return client.session[baseline_views.SESSION_KEY]["path"], client


def test_a_new_upload_discards_the_sessions_previous_file(world: World) -> None:
    first, client = _upload(world)
    assert os.path.dirname(first) == baseline_views.upload_folder() and os.path.exists(first)
    second, _client = _upload(world, client)
    assert second != first and os.path.exists(second)
    assert not os.path.exists(first)
    os.unlink(second)


def test_an_upload_left_for_a_day_is_swept(world: World) -> None:
    old, _client = _upload(world)
    day_ago = time.time() - baseline_views.ABANDONED_AFTER_SECONDS - 60
    os.utime(old, (day_ago, day_ago))
    stranger = os.path.join(baseline_views.upload_folder(), "not-ours.txt")
    open(stranger, "w").close()
    os.utime(stranger, (day_ago, day_ago))
    fresh, _client = _upload(world)
    assert not os.path.exists(old)
    assert os.path.exists(fresh) and os.path.exists(stranger)
    for path in (fresh, stranger):
        os.unlink(path)


# --- country codes ---------------------------------------------------------------------


@pytest.mark.parametrize("code", ["1<", "ZZ", "zz", "Ü1", "XX"])
def test_forms_refuse_a_country_that_is_no_code(world: World, code: str) -> None:
    member = MemberCreateForm(data={"family_name": "Melnyk", "country": code})
    assert "country" in member.errors
    table = TournamentForm(
        clubs=world.kyiv.__class__.objects.all(),
        data={"name": "Cup", "organiser": world.kyiv.pk, "country": code},
    )
    assert "country" in table.errors


@pytest.mark.parametrize("code", ["ua", "GB", "UK", "YU", ""])
def test_forms_take_iso_codes_and_the_egds_own(world: World, code: str) -> None:
    member = MemberCreateForm(data={"family_name": "Melnyk", "country": code})
    assert "country" not in member.errors
    assert member.cleaned_data["country"] == code.upper()


def test_every_country_of_the_real_egd_lists_and_tables_is_accepted() -> None:
    from pathlib import Path

    from clubsite.input_checks import is_country

    data = Path(__file__).resolve().parent.parent / "data" / "egd"
    full = data / "ratinglists" / "FULL_egf_db_2018-12-27.txt.gz"
    import gzip

    listfile = parse_rating_list(gzip.decompress(full.read_bytes()), "egd")
    countries = {row.country for row in listfile.rows if row.country}
    assert {"UK", "YU", "DE"} <= countries and all(is_country(c) for c in countries)
    assert (
        len([row for row in listfile.rows if row.country is None]) == 49
    )  # their XX (one more has no name and is left out)
    for table in (data / "tables").iterdir():
        try:
            results = parse(table.read_bytes(), "egd", table.name)
        except FormatError:
            continue
        for player in results.players:
            assert not player.country or is_country(player.country.upper()), table.name


def test_a_rating_lists_unknown_country_is_left_out_with_a_warning() -> None:
    text = b"key,family_name,rating,country\nr1,Petrenko,1500,ZZ\nr2,Bondar,1400,UA\n"
    listfile = parse_rating_list(text, "csv")
    assert [row.country for row in listfile.rows] == [None, "UA"]
    assert any("ZZ is not a country code" in str(p) for p in listfile.warnings)


def test_a_results_files_unknown_country_is_not_saved(world: World) -> None:
    from tests.trust.world import upload

    document = {
        "system": "egf",
        "event": {"name": "Kyiv Cup", "start_date": "2024-05-01", "date": "2024-05-02",
                  "class": "B", "country": "ZZ"},
        "players": [{"id": "a", "name": "Petrenko Ivan", "grade": "3k", "country": "ZZ"},
                    {"id": "b", "name": "Bondar Oleh", "grade": "4k", "country": "UA"}],
        "games": [{"round": 1, "white": "a", "black": "b", "result": "white"}],
    }  # fmt: skip
    client = world.client("kyiv-admin")
    table = upload(client, json.dumps(document).encode(), "cup.json", world.kyiv,
                   world.lists["egf-gor"], choices={"choice-a": "new", "choice-b": "new"})  # fmt: skip
    assert table is not None and table.country == ""
    assert Member.objects.get(family_name="Petrenko").country == ""
    assert Member.objects.get(family_name="Bondar").country == "UA"


# --- names --------------------------------------------------------------------------


@pytest.mark.parametrize("junk", [f"Ivan{RLO}volO", "Iv\u2066an", "Ivan\x00", "Ivan\nPetrenko"])
def test_member_names_refuse_direction_marks_and_controls(junk: str) -> None:
    form = MemberCreateForm(data={"family_name": junk, "given_name": junk})
    assert "family_name" in form.errors and "given_name" in form.errors


def test_member_names_in_other_scripts_are_taken() -> None:
    for name in ("Іваненко", "ایران\u200cزاده", "王", "Ölçer"):  # ZWNJ is part of Persian
        form = MemberCreateForm(data={"family_name": name})
        assert "family_name" not in form.errors, name


@pytest.mark.parametrize("junk", ["Kyiv\r\nOpen", "Kyiv\nOpen", f"Kyiv {RLO}nepO"])
def test_tournament_names_refuse_line_breaks_and_direction_marks(world, junk) -> None:
    form = TournamentForm(
        clubs=world.kyiv.__class__.objects.all(),
        data={"name": junk, "city": junk, "organiser": world.kyiv.pk},
    )
    assert "name" in form.errors and "city" in form.errors


def test_a_results_file_with_an_overridden_name_is_refused() -> None:
    document = {
        "system": "egf",
        "event": {"name": "Kyiv\nCup", "start_date": "2024-05-01", "date": "2024-05-02"},
        "players": [{"id": "a", "name": f"Petrenko {RLO}navI", "grade": "3k"},
                    {"id": "b", "name": "Bondar Oleh", "grade": "4k"}],
        "games": [{"round": 1, "white": "a", "black": "b", "result": "white"}],
    }  # fmt: skip
    with pytest.raises(FormatError) as caught:
        parse(json.dumps(document).encode(), "json", "cup.json")
    text = " ".join(str(p) for p in caught.value.problems)
    assert "U+202E" in text and "U+000A" in text


def test_a_rating_list_with_an_overridden_name_is_refused() -> None:
    text = f"key,family_name,rating\nr1,Petrenko{RLO},1500\n".encode()
    with pytest.raises(FormatError, match="U\\+202E"):
        parse_rating_list(text, "csv")


def test_a_rating_lists_row_with_an_overridden_name_is_left_out_with_its_line() -> None:
    text = f"key,family_name,rating\nr1,Petrenko{RLO},1500\nr2,Bondar,1400\n".encode()
    listfile = parse_rating_list(text, "csv")
    assert [row.key for row in listfile.rows] == ["r2"]
    (problem,) = listfile.left_out
    assert problem.line == 2 and "U+202E" in str(problem)


# --- the last list to decide refuses -----------------------------------------------------


def test_when_the_last_list_refuses_the_approval_is_logged_and_mailed_as_an_approval(
    world: World, client, django_capture_on_commit_callbacks
) -> None:
    from django.core import mail

    from tests.trust.test_list_authority import _decide, _table
    from tournaments.models import TournamentLog

    world.users["rivne-admin"].email = "admin@rivne.example"
    world.users["rivne-admin"].save()
    table = _table(world, lists=("rivne", "ufgo"))
    with django_capture_on_commit_callbacks(execute=True):
        _decide(world, "rivne-referee", table, "approve", "Fine by Rivne")
        _decide(world, "ufgo-referee", table, "reject", "Not our time control")
    table.refresh_from_db()
    assert table.status == "approved"
    log = table.log.filter(action=TournamentLog.Action.APPROVED).latest("id")
    assert "Not our time control" not in (log.comment or "")
    assert log.by == world.users["rivne-referee"]
    (message,) = [m for m in mail.outbox if "admin@rivne.example" in m.to and "approved" in m.body]
    assert "Not our time control" not in message.body and "UFGO" not in message.body
    page = client.get(reverse("tournament_detail", args=[table.pk])).content.decode()
    assert "waiting to be rated" not in page
    assert "refused by the list" in page


# --- crediting a table to another club ------------------------------------------------


def _cup() -> bytes:
    return json.dumps({
        "system": "egf",
        "event": {"name": "Kyiv Cup", "start_date": "2024-05-01", "date": "2024-05-02", "class": "B"},
        "players": [{"id": "a", "name": "Petrenko Ivan", "grade": "3k"},
                    {"id": "b", "name": "Bondar Oleh", "grade": "4k"}],
        "games": [{"round": 1, "white": "a", "black": "b", "result": "white"}],
    }).encode()  # fmt: skip


def test_an_import_cannot_name_another_club_as_organiser(world: World) -> None:
    client = world.client("kyiv-admin")
    form = {"file": SimpleUploadedFile("cup.json", _cup()), "organiser": world.kyiv.pk,
            "rating_list": world.lists["egf-gor"].pk, "held_by": str(world.rivne.pk)}  # fmt: skip
    page = client.post(reverse("manage_import"), form)
    assert page.status_code == 200 and "held_by" in page.context["form"].errors
    assert "Rivne Go Club" not in str(page.context["form"]["held_by"])  # not offered either


def test_the_import_service_refuses_a_host_the_user_does_not_administer(world: World) -> None:
    from django.core.exceptions import ValidationError

    from tournaments.importing import results_import

    results = parse(_cup(), "json", "cup.json")
    with pytest.raises(ValidationError, match="not a club you administer"):
        results_import(results=results, organiser=world.kyiv, by=world.users["kyiv-admin"],
                       host=world.rivne, choices={"a": "new", "b": "new"})  # fmt: skip


def test_a_club_admin_of_both_clubs_and_staff_may_credit_the_other(world: World) -> None:
    from tests.trust.world import upload

    world.rivne.admins.add(world.users["kyiv-admin"])
    for who in ("kyiv-admin", "staff"):
        table = upload(world.client(who), _cup(), "cup.json", world.kyiv, world.lists["egf-gor"],
                       choices={"choice-a": "new", "choice-b": "new"},
                       held_by=str(world.rivne.pk))  # fmt: skip
        assert table is not None and table.host == world.rivne


# --- members a draft created ----------------------------------------------------------


def test_members_a_draft_import_created_are_not_public_until_it_is_submitted(world) -> None:
    from django.test import Client

    from tests.trust.world import upload

    cup = json.dumps({
        "system": "egf",
        "event": {"name": "Kyiv Cup", "start_date": "2024-05-01", "date": "2024-05-02", "class": "B"},
        "players": [{"id": "12345678", "name": "Claimed Pin", "grade": "3k"},
                    {"id": "p2", "name": "Bondar Oleh", "grade": "4k"}],
        "games": [{"round": 1, "white": "12345678", "black": "p2", "result": "white"}],
    }).encode()  # fmt: skip
    draft = upload(world.client("kyiv-admin"), cup, "cup.json", world.kyiv, world.lists["egf-gor"],
                   choices={"choice-12345678": "new", "choice-p2": "new"})  # fmt: skip
    assert draft is not None and draft.status == "draft"
    member = Member.objects.get(family_name="Claimed")
    member.club = world.kyiv
    member.save()
    profile, api = (
        reverse("player_detail", args=[member.pk]),
        reverse("api_player", args=[member.pk]),
    )
    for who in (None, "rivne-admin", "egf-gor-referee", "player"):
        client = Client() if who is None else world.client(who)
        assert client.get(profile).status_code == 404, who
        assert client.get(api).status_code == 404, who
    club_page = Client().get(reverse("club_detail", args=[world.kyiv.slug])).content.decode()
    assert "Claimed" not in club_page
    # His club's admins and staff, who made him, see him.
    for who in ("kyiv-admin", "staff"):
        assert world.client(who).get(profile).status_code == 200
    draft.status = "submitted"
    draft.save()
    assert Client().get(profile).status_code == 200
    assert (
        "Claimed" in Client().get(reverse("club_detail", args=[world.kyiv.slug])).content.decode()
    )
