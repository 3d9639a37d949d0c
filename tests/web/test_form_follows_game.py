"""The tournament form follows the game, the file chooser takes every EGD rule, and a
handicap against the tournament's rule is pointed out (issue 17, items 4, 5, 6)."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubsite.models import Club
from ratings.submissions.selectors import review_warnings
from tests.factories import RatingListFactory
from tests.web.manage_data import login, setup  # noqa: F401 - fixture
from tests.web.test_manage_views import _boards, _tournament_data
from tournaments.models import Participant, Tournament
from tournaments.views.forms import ResultsUploadForm

pytestmark = pytest.mark.django_db


def test_the_file_chooser_accepts_every_egd_rule():
    form = ResultsUploadForm(clubs=Club.objects.none())
    accepted = form.fields["file"].widget.attrs["accept"].split(",")
    assert {f".h{n}" for n in range(1, 10)} <= set(accepted)


def test_a_chess_tournament_drops_gos_fields_and_refuses_byoyomi(client, setup):  # noqa: F811
    chess_list = RatingListFactory(name="Chess list", slug="chess", system="orr", game="chess")
    login(client, setup, "admin")
    url = reverse("manage_tournament_create")
    data = _tournament_data(setup, game="chess", rating_lists=[chess_list.pk])
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Byo-yomi is a Go time control" in str(response.context["form"].errors["overtime_kind"])
    response = client.post(
        url, {**data, "overtime_kind": "fischer", "overtime_seconds": "30", "board_size": "9",
              "handicap_rule": "h2"},
    )  # fmt: skip
    assert response.status_code == 302
    saved = Tournament.objects.get(name="Spring Open")
    assert (saved.game, saved.komi, saved.handicap_rule, saved.board_size) == (
        "chess",
        None,
        "",
        19,
    )


def test_the_form_marks_gos_fields_and_each_lists_game(client, setup):  # noqa: F811
    RatingListFactory(name="Chess list", slug="chess", system="orr", game="chess")
    login(client, setup, "admin")
    html = client.get(reverse("manage_tournament_create")).content.decode()
    assert html.count("data-go-only") == 4
    assert 'data-game="chess"' in html and 'data-game="go"' in html
    assert "js/game_form.js" in html


def test_the_country_box_starts_with_a_real_value(client, setup):  # noqa: F811
    login(client, setup, "admin")
    response = client.get(reverse("manage_tournament_create"))
    assert response.context["form"]["country"].value() == "UA"
    assert 'placeholder="UA"' not in response.content.decode()


def _handicap_table(setup):  # noqa: F811, ANN001, ANN202
    tournament = setup.draft
    tournament.handicap_rule = "h2"
    tournament.save()
    grades = {setup.players[0].pk: "12k", setup.players[1].pk: "15k"}
    for member_id, grade in grades.items():
        Participant.objects.filter(tournament=tournament, member_id=member_id).update(grade=grade)
    return tournament


def test_the_round_form_warns_of_a_handicap_against_the_rule(client, setup):  # noqa: F811
    tournament = _handicap_table(setup)
    a, b = setup.players[0].pk, setup.players[1].pk
    login(client, setup, "admin")
    url = reverse("manage_round", args=[tournament.pk, 2])
    response = client.post(url, _boards({"white": a, "black": b, "result": "white"}))
    assert response.status_code == 302
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    (warning,) = [t for t in texts if "handicap" in t]
    assert "has 0 handicap stones; the rule h2 gives 1." in warning
    assert "(12k)" in warning and "(15k)" in warning
    client.get(url)  # the page shows (and spends) the messages
    response = client.post(
        url, _boards({"white": a, "black": b, "result": "white", "handicap": "1"})
    )
    assert not [str(m) for m in get_messages(response.wsgi_request) if "handicap" in str(m)]


def test_the_review_warns_of_a_handicap_against_the_rule(setup):  # noqa: F811
    tournament = _handicap_table(setup)
    texts = [w.text for w in review_warnings(tournament)]
    # round 1 of the table: players 0 – 1 even, under h2 with 12k–15k
    assert any("the rule h2 gives 1" in t for t in texts)
    tournament.handicap_rule = "h9"  # even games: 0 stones is right
    tournament.save()
    assert not any("the rule h9" in w.text for w in review_warnings(tournament))
