"""Issue 55, finding 4: a club's note on an approved table reaches the referee: a mail
(in his language, unless he switched notes off) and a mark in /referee/ until he answers."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from clubsite.models import Profile
from tests.factories import TournamentFactory
from tests.trust.world import World
from tournaments.models import Tournament
from tournaments.review.conversation import table_note_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def approved(world: World) -> Tournament:
    for name, user in world.users.items():
        user.email = f"{name}@example.org"
        user.save()
    table = TournamentFactory(organiser=world.rivne, status="approved", name="Rivne Cup")
    table.list_links.create(rating_list=world.lists["egf-gor"], decision="approved")
    return table


def test_the_note_is_mailed_to_the_referees_in_their_language(
    world: World, approved: Tournament, django_capture_on_commit_callbacks
):
    Profile.objects.create(user=world.users["egf-gor-referee"], language="uk")
    with django_capture_on_commit_callbacks(execute=True):
        response = world.client("rivne-admin").post(
            reverse("table_note", args=[approved.pk]), {"text": "Board 3 was a jigo & 6.5?"}
        )
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["egf-gor-referee@example.org"]
    assert "Rivne Cup" in message.subject and message.subject.startswith("Нотатка")
    assert "Board 3 was a jigo & 6.5?" in message.body  # plain text, not HTML-escaped
    assert f"/referee/{approved.pk}/" in message.body


def test_a_referee_who_switched_notes_off_gets_none(
    world: World, approved: Tournament, django_capture_on_commit_callbacks
):
    Profile.objects.create(user=world.users["egf-gor-referee"], mail_note=False)
    with django_capture_on_commit_callbacks(execute=True):
        table_note_add(tournament=approved, by=world.users["rivne-admin"], text="Hello")
    assert mail.outbox == []


def test_a_referees_note_is_mailed_to_the_club(
    world: World, approved: Tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table_note_add(tournament=approved, by=world.users["egf-gor-referee"], text="Noted.")
    (message,) = mail.outbox
    assert message.to == ["rivne-admin@example.org"]
    assert f"/manage/{approved.pk}/players/" in message.body or "/manage/" in message.body


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "Notes from clubs, not answered yet"), ("uk", "Нотатки клубів без відповіді"),
     ("ru", "Заметки клубов без ответа")],
)  # fmt: skip
def test_the_queue_marks_the_note_until_a_referee_answers(
    world: World, approved: Tournament, language: str, heading: str
):
    table_note_add(tournament=approved, by=world.users["rivne-admin"], text="<b>Board 3</b>")
    referee = world.client("egf-gor-referee")
    html = referee.get("/referee/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'id="club-notes"' in html and heading in html
    assert "&lt;b&gt;Board 3&lt;/b&gt;" in html and "<b>Board 3</b>" not in html
    # another list's referee does not see it
    other = world.client("ufgo-referee").get("/referee/").content.decode()
    assert 'id="club-notes"' not in other
    table_note_add(tournament=approved, by=world.users["egf-gor-referee"], text="Answered.")
    assert 'id="club-notes"' not in referee.get("/referee/").content.decode()
