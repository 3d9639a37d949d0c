"""The club admin's pages at work: create, players, rounds, import, submit, reopen."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubsite.models import Member
from ratings.models import ListTournament
from tests.factories import MemberFactory
from tests.web.manage_data import login, setup  # noqa: F401 - fixture
from tournaments.models import Game, Participant, Tournament, TournamentLog

pytestmark = pytest.mark.django_db


def _tournament_data(setup, **changes):  # noqa: F811, ANN001, ANN202
    data = {
        "name": "Spring Open", "organiser": setup.club.pk, "city": "Rivne", "country": "ua",
        "start_date": "2024-04-06", "end_date": "2024-04-07", "game": "go",
        "board_size": "19", "rounds": "4", "basic_time_minutes": "60",
        "overtime_kind": "byoyomi", "overtime_seconds": "30", "overtime_moves": "1",
        "tournament_class": "A", "official": "on", "handicap_rule": "", "komi": "6.5",
        "rating_lists": [setup.rating_list.pk],
    }  # fmt: skip
    data.update(changes)
    return data


def test_create_tournament_links_lists_and_logs(client, setup):  # noqa: F811
    login(client, setup, "admin")
    response = client.post(reverse("manage_tournament_create"), _tournament_data(setup))
    tournament = Tournament.objects.get(name="Spring Open")
    assert response.status_code == 302
    assert response["Location"] == reverse("manage_participants", args=[tournament.pk])
    assert tournament.status == "draft" and tournament.country == "UA"
    assert tournament.slug == "spring-open-2024"
    assert list(tournament.rating_lists.all()) == [setup.rating_list]
    assert tournament.log.filter(action=TournamentLog.Action.CREATED).exists()


def test_form_suggests_class_and_explains(client, setup):  # noqa: F811
    login(client, setup, "admin")
    url = reverse("manage_time_control")
    html = client.get(url, {"basic_time_minutes": 60, "overtime_kind": "byoyomi",
                            "overtime_seconds": 30}).content.decode()  # fmt: skip
    assert 'data-egf-class="A"' in html and "Adjusted time 82.5 min" in html
    assert "60 minutes of basic time: UFGO rates every player." in html
    html = client.get(url, {"basic_time_minutes": 50, "overtime_kind": "fischer",
                            "overtime_seconds": 10}).content.decode()  # fmt: skip
    assert "UFGO rates it, but players above 2100 keep their rating" in html
    html = client.get(url, {"basic_time_minutes": 30, "overtime_kind": "sudden_death",
                            "tournament_class": "A"}).content.decode()  # fmt: skip
    assert 'data-egf-class="C"' in html
    assert "Class A is stronger than this time control allows (C)" in html
    assert "under 45 minutes, UFGO does not rate it" in html
    # garbage is clipped, not an error
    assert client.get(url, {"basic_time_minutes": "lots", "overtime_kind": "x"}).status_code == 200


def test_form_refuses_a_club_he_does_not_run_and_a_list_of_another_game(client, setup):  # noqa: F811
    login(client, setup, "admin")
    setup.rating_list.game = "chess"
    setup.rating_list.save()
    response = client.post(
        reverse("manage_tournament_create"), _tournament_data(setup, organiser=setup.other_club.pk)
    )
    errors = response.context["form"].errors
    assert "organiser" in errors and "rating_lists" in errors
    assert not Tournament.objects.filter(name="Spring Open").exists()


def test_edit_changes_lists_and_refuses_when_locked(client, setup):  # noqa: F811
    login(client, setup, "admin")
    url = reverse("manage_tournament_edit", args=[setup.draft.pk])
    response = client.post(url, _tournament_data(setup, rating_lists=[], rounds="2"))
    assert response.status_code == 302
    setup.draft.refresh_from_db()
    assert setup.draft.name == "Spring Open" and not setup.draft.rating_lists.exists()
    # fewer rounds than games entered is refused
    response = client.post(url, _tournament_data(setup, rounds="1"))
    Game.objects.create(tournament=setup.draft, round=2, white=setup.players[0],
                        black=setup.players[1], result="white")  # fmt: skip
    response = client.post(url, _tournament_data(setup, rounds="1"))
    assert "rounds" in response.context["form"].errors
    # submitted tables are locked
    response = client.get(reverse("manage_tournament_edit", args=[setup.submitted.pk]))
    assert response.status_code == 302


def test_search_add_create_and_remove_players(client, setup):  # noqa: F811
    login(client, setup, "admin")
    tournament = setup.draft
    url = reverse("manage_participants", args=[tournament.pk])
    stranger = MemberFactory(family_name="Zaporozhets", given_name="Oksana", club=setup.other_club)
    response = client.get(url, {"q": "zaporo"})
    assert [m.pk for m in response.context["found"]] == [stranger.pk]
    assert client.get(url, {"q": setup.players[0].family_name}).context["found"] == []  # plays
    client.post(url, {"action": "add", "member": stranger.pk})
    assert Participant.objects.filter(tournament=tournament, member=stranger).exists()
    response = client.post(url, {"action": "create", "family_name": "Melnyk",
                                 "given_name": "Petro", "birth_date": "2011-02-03",
                                 "grade": "12k", "club": setup.club.pk})  # fmt: skip
    assert response.status_code == 302
    melnyk = Member.objects.get(family_name="Melnyk")
    assert str(melnyk.grade) == "12k" and melnyk.club == setup.club
    assert Participant.objects.get(tournament=tournament, member=melnyk).grade == melnyk.grade
    # an invalid new member shows the errors next to the fields
    response = client.post(url, {"action": "create", "family_name": "", "grade": "99x"})
    assert response.status_code == 200
    assert {"family_name", "grade"} <= set(response.context["create"].errors)
    # a player with games cannot be removed; one without can
    with_games = Participant.objects.get(tournament=tournament, member=setup.players[0])
    client.post(url, {"action": "remove", "participant": with_games.pk})
    assert Participant.objects.filter(pk=with_games.pk).exists()
    melnyk_p = Participant.objects.get(tournament=tournament, member=melnyk)
    client.post(url, {"action": "remove", "participant": melnyk_p.pk})
    assert not Participant.objects.filter(pk=melnyk_p.pk).exists()


def test_inline_member_gets_the_clubs_country(client, setup):  # noqa: F811
    from clubsite.models import Club

    Club.objects.filter(pk=setup.club.pk).update(country="UA")
    Club.objects.filter(pk=setup.other_club.pk).update(country="PL")
    login(client, setup, "admin")
    url = reverse("manage_participants", args=[setup.draft.pk])
    assert client.get(url).context["create"].initial["country"] == "UA"
    # Issue 14: only the other club's admins (or staff) add to its roster.
    login(client, setup, "staff")
    client.post(url, {"action": "create", "family_name": "Melnyk", "given_name": "Petro",
                      "grade": "12k", "club": setup.other_club.pk})  # fmt: skip
    assert Member.objects.get(family_name="Melnyk").country == "PL"  # his club's, left empty
    client.post(url, {"action": "create", "family_name": "Kowalska", "given_name": "Anna",
                      "grade": "3k", "club": setup.club.pk, "country": "pl"})  # fmt: skip
    assert Member.objects.get(family_name="Kowalska").country == "PL"  # as typed


def _boards(*boards: dict) -> dict:
    data = {"board-TOTAL_FORMS": str(len(boards)), "board-INITIAL_FORMS": "0"}
    for i, board in enumerate(boards):
        full = {"white": "", "black": "", "kind": "played", "result": "", "handicap": "0"}
        full.update(board)
        data.update({f"board-{i}-{k}": v for k, v in full.items()})
    return data


def test_round_entry_validates_next_to_the_field(client, setup):  # noqa: F811
    login(client, setup, "admin")
    a, b, c, d = (p.pk for p in setup.players)
    url = reverse("manage_round", args=[setup.draft.pk, 2])
    response = client.post(url, _boards(
        {"white": a, "black": a, "result": "white"},
        {"white": b, "black": c},
        {"white": c, "kind": "bye_full"},
        {"white": d, "black": b, "kind": "forfeit", "result": "draw"},
    ))  # fmt: skip
    assert response.status_code == 200
    forms = response.context["formset"].forms
    assert "cannot play against themselves" in str(forms[0].errors["black"])
    assert "Choose a result" in str(forms[1].errors["result"])
    assert "already plays on board 2" in str(forms[2].errors["white"])
    assert "already plays on board 2" in str(forms[3].errors["black"])
    assert "A forfeit has a winner" in str(forms[3].errors["result"])
    html = response.content.decode()
    assert "is-invalid" in html and "invalid-feedback" in html
    assert not setup.draft.games.filter(round=2).exists()


def test_round_entry_shows_every_problem_in_one_pass(client, setup):  # noqa: F811
    """A field error on one board (handicap 12) does not hide the round's checks."""
    login(client, setup, "admin")
    a, b, c, d = (p.pk for p in setup.players)
    url = reverse("manage_round", args=[setup.draft.pk, 2])
    response = client.post(url, _boards(
        {"white": a, "black": b, "result": "white", "handicap": "12"},
        {"white": c, "black": c, "result": "white"},
        {"white": b, "black": d, "result": "black"},
        {"white": d, "result": "white"},
    ))  # fmt: skip
    assert response.status_code == 200
    forms = response.context["formset"].forms
    assert "less than or equal to 9" in str(forms[0].errors["handicap"])
    assert "cannot play" in str(forms[1].errors["black"])
    assert "already plays on board 1" in str(forms[2].errors["white"])
    assert "Choose the opponent" in str(forms[3].errors["black"])
    assert not setup.draft.games.filter(round=2).exists()


def test_round_entry_saves_and_the_crosstable_follows(client, setup):  # noqa: F811
    login(client, setup, "admin")
    a, b, c, d = (p.pk for p in setup.players)
    url = reverse("manage_round", args=[setup.draft.pk, 2])
    response = client.post(url, {**_boards(
        {"white": a, "black": c, "result": "black", "handicap": "2"},
        {"white": b, "kind": "bye_half"},
        {"white": d, "kind": "bye_zero", "result": "white"},
        {},  # an empty board is dropped
    ), "next": "1"})  # fmt: skip
    assert response.status_code == 302
    games = list(setup.draft.games.filter(round=2).order_by("id"))
    assert [(g.white_id, g.black_id, g.kind, g.result, g.handicap) for g in games] == [
        (a, c, "played", "black", 2), (b, None, "bye_half", ""  , 0), (d, None, "bye_zero", "", 0),
    ]  # fmt: skip
    # the page shows the saved boards and the crosstable with round 2
    response = client.get(url)
    assert len(response.context["formset"].initial) == 3
    rows = {r.participant.member_id: r for r in response.context["crosstable"].rows}
    assert rows[c].cells[1].text == "1+/b2" or rows[c].cells[1].result == "+"
    assert rows[b].cells[1].text == "0="
    # re-saving replaces the round
    client.post(url, _boards({"white": a, "black": b, "result": "draw"}))
    assert setup.draft.games.filter(round=2).count() == 1


def test_round_out_of_range_and_locked(client, setup):  # noqa: F811
    login(client, setup, "admin")
    assert client.get(reverse("manage_round", args=[setup.draft.pk, 3])).status_code == 404
    url = reverse("manage_round", args=[setup.submitted.pk, 2])
    client.post(url, _boards({"white": setup.players[0].pk, "kind": "bye_full"}))
    assert not setup.submitted.games.filter(round=2).exists()


def test_submit_then_rejected_shows_comment_then_reopen(client, setup):  # noqa: F811
    from tournaments.services import tournament_reject

    login(client, setup, "admin")
    tournament = setup.draft
    client.post(reverse("manage_submit", args=[tournament.pk]))
    tournament.refresh_from_db()
    assert tournament.status == "submitted"
    tournament_reject(tournament=tournament, by=setup.user("referee"), comment="Round 1 is odd")
    html = client.get(reverse("manage_tournament", args=[tournament.pk])).content.decode()
    assert "Round 1 is odd" in html and "reopen-table" in html
    client.post(reverse("manage_reopen", args=[tournament.pk]))
    tournament.refresh_from_db()
    assert tournament.status == "draft"


def test_submit_without_lists_explains(client, setup):  # noqa: F811
    login(client, setup, "admin")
    ListTournament.objects.filter(tournament=setup.draft).delete()
    response = client.post(reverse("manage_submit", args=[setup.draft.pk]), follow=True)
    assert "Choose at least one rating list" in response.content.decode()
    setup.draft.refresh_from_db()
    assert setup.draft.status == "draft"


EGD = (
    "; EV[Club Cup]\n; PC[UA, Rivne]\n; DT[2024-05-01,2024-05-02]\n; CL[A]\n; KM[6.5]\n"
    "1 {a} 3d UA Rivn  2  2+/w  3+/b\n"
    "2 Shevchenko Olena      1k UA Kyiv  1  1-/b  0+\n"
    "3 Bondar Taras         10k UA Rivn  0  0-    1-/w\n"
)


def _upload(client, setup, text: str, name: str = "cup.h9"):  # noqa: F811, ANN001, ANN202
    return client.post(reverse("manage_import"), {
        "file": SimpleUploadedFile(name, text.encode()), "organiser": setup.club.pk,
        "rating_list": setup.rating_list.pk,
    })  # fmt: skip


def test_import_preview_saves_nothing_until_confirmed(client, setup):  # noqa: F811
    login(client, setup, "admin")
    # Another club's member: the file's `Rivn` is this club (issue 55), so only the name matches.
    known = MemberFactory(family_name="Kovalenko", given_name="Ivan", club=setup.other_club)
    before = (Tournament.objects.count(), Member.objects.count())
    response = _upload(client, setup, EGD.format(a="Kovalenko Ivan        "))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Not saved yet" in html and "Shevchenko Olena" in html
    rows = response.context["rows"]
    # a match by name alone is the admin's to confirm
    assert [r["match"].status for r in rows] == ["ambiguous", "new", "new"]
    assert (
        rows[0]["chosen"] == ""
        and (str(known.pk), f"{known.full_name} (#{known.pk}, {setup.other_club.name})")
        in rows[0]["options"]
    )
    # without a choice, nothing is saved and the player is named
    token = response.context["confirm"].initial["token"]
    response = client.post(reverse("manage_import_confirm"), {"token": token, "status": "draft"})
    assert (
        response.status_code == 200 and "Choose one, or a new member" in response.content.decode()
    )
    assert (Tournament.objects.count(), Member.objects.count()) == before
    response = client.post(reverse("manage_import_confirm"), {
        "token": token, "status": "draft", "choice-0": str(known.pk), "choice-1": "new",
        "choice-2": "new",
    })  # fmt: skip
    tournament = Tournament.objects.get(name="Club Cup")
    assert response["Location"] == reverse("manage_tournament", args=[tournament.pk])
    assert tournament.status == "draft" and tournament.organiser == setup.club
    assert Member.objects.count() == before[1] + 2
    assert tournament.participants.filter(member=known).exists()
    # the token is spent
    response = client.post(reverse("manage_import_confirm"), {"token": token, "status": "draft"})
    assert response.status_code == 302 and Tournament.objects.filter(name="Club Cup").count() == 1


def test_import_problems_by_line_number(client, setup):  # noqa: F811
    login(client, setup, "admin")
    bad = EGD.format(a="Kovalenko Ivan        ").replace("2+/w  3+/b", "2+/w  7+/b")
    response = _upload(client, setup, bad)
    problems = response.context["problems"]
    assert problems and any(p.line == 6 for p in problems)
    assert "Line" in response.content.decode()
    assert Tournament.objects.count() == 2


def test_import_choice_must_be_offered(client, setup):  # noqa: F811
    login(client, setup, "admin")
    response = _upload(client, setup, EGD.format(a="Kovalenko Ivan        "))
    token = response.context["confirm"].initial["token"]
    response = client.post(reverse("manage_import_confirm"), {
        "token": token, "status": "draft", "choice-0": str(setup.players[2].pk),
    })  # fmt: skip
    assert response.status_code == 200 and "choose from the list" in response.content.decode()
    assert not Tournament.objects.filter(name="Club Cup").exists()


def test_import_confirm_needs_the_uploaders_session(client, setup):  # noqa: F811
    login(client, setup, "admin")
    response = client.post(reverse("manage_import_confirm"), {"token": "guess", "status": "draft"})
    assert response.status_code == 302 and response["Location"] == reverse("manage_import")


def test_submit_warns_about_an_empty_round_but_submits(client, setup):  # noqa: F811
    login(client, setup, "admin")
    tournament = setup.draft  # two rounds, games in round 1 only
    html = client.get(reverse("manage_tournament", args=[tournament.pk])).content.decode()
    assert 'id="empty-rounds"' in html and "Round 2 has no games" in html
    response = client.post(reverse("manage_submit", args=[tournament.pk]), follow=True)
    assert "Round 2 has no games" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == "submitted"


def test_a_round_of_byes_only_is_not_empty(client, setup):  # noqa: F811
    login(client, setup, "admin")
    tournament = setup.draft
    Game.objects.create(tournament=tournament, round=2, white=setup.players[0], kind="bye_full")
    html = client.get(reverse("manage_tournament", args=[tournament.pk])).content.decode()
    assert 'id="empty-rounds"' not in html
    response = client.post(reverse("manage_submit", args=[tournament.pk]), follow=True)
    assert "has no games" not in response.content.decode()
