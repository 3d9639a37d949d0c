"""The Django admin cannot change a submitted or approved table behind the workflow's back.

Games (and their round seats) are written only by the results services, so the admin shows
them read-only; a locked tournament and its participants are view-only too.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import GameFactory, ParticipantFactory, TournamentFactory, UserFactory
from tournaments.models import Game, Participant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def approved_game() -> Game:
    tournament = TournamentFactory(status=Tournament.Status.APPROVED)
    white = ParticipantFactory(tournament=tournament).member
    black = ParticipantFactory(tournament=tournament).member
    return GameFactory(tournament=tournament, white=white, black=black, result="white")


def _game_form(game: Game, **changes) -> dict:
    data = {
        "tournament": game.tournament_id,
        "round": game.round,
        "white": game.white_id,
        "black": game.black_id,
        "result": game.result,
        "kind": game.kind,
        "handicap": game.handicap,
        "komi": "",
    }
    return {**data, **changes}


def test_game_change_post_is_refused_and_nothing_changes(admin_client, approved_game):
    url = reverse("admin:tournaments_game_change", args=[approved_game.pk])
    response = admin_client.post(url, _game_form(approved_game, result="black"))
    assert response.status_code == 403
    approved_game.refresh_from_db()
    assert approved_game.result == "white"


def test_game_can_be_viewed_but_not_added_or_deleted(admin_client, approved_game):
    change = reverse("admin:tournaments_game_change", args=[approved_game.pk])
    assert admin_client.get(change).status_code == 200  # view only
    add = reverse("admin:tournaments_game_add")
    response = admin_client.post(add, _game_form(approved_game, round=2))
    assert response.status_code == 403
    delete = reverse("admin:tournaments_game_delete", args=[approved_game.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Game.objects.count() == 1


@pytest.mark.parametrize("status", [Tournament.Status.SUBMITTED, Tournament.Status.APPROVED])
def test_locked_tournament_change_and_delete_are_refused(admin_client, status):
    tournament = TournamentFactory(status=status, name="Locked Cup")
    ParticipantFactory(tournament=tournament)
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    page = admin_client.get(url)
    assert page.status_code == 200  # still visible
    assert b'name="_save"' not in page.content
    response = admin_client.post(url, {"name": "Renamed", "slug": tournament.slug})
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "Locked Cup"
    delete = reverse("admin:tournaments_tournament_delete", args=[tournament.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_locked_tournament_participants_are_view_only(admin_client, approved_game):
    participant = Participant.objects.filter(tournament=approved_game.tournament).first()
    url = reverse("admin:tournaments_participant_change", args=[participant.pk])
    response = admin_client.post(url, {"tournament": participant.tournament_id, "place": 99})
    assert response.status_code == 403
    participant.refresh_from_db()
    assert participant.place != 99
    tournament_page = admin_client.get(
        reverse("admin:tournaments_tournament_change", args=[approved_game.tournament_id])
    )
    inline = tournament_page.context["inline_admin_formsets"][0]
    assert inline.opts.model is Participant
    assert not inline.has_add_permission and not inline.has_change_permission
    assert not inline.has_delete_permission


def test_a_draft_stays_editable_and_can_be_deleted_with_its_games(admin_client):
    tournament = TournamentFactory(status=Tournament.Status.DRAFT)
    white = ParticipantFactory(tournament=tournament).member
    black = ParticipantFactory(tournament=tournament).member
    GameFactory(tournament=tournament, white=white, black=black)
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    page = admin_client.get(url)
    assert b'name="_save"' in page.content
    delete = reverse("admin:tournaments_tournament_delete", args=[tournament.pk])
    response = admin_client.post(delete, {"post": "yes"})
    assert response.status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert Game.objects.count() == 0
