"""Import errors and the tournament's history are worded in the reader's language
(issue 17, item 7): what happened is stored as a template and parameters."""

from __future__ import annotations

from html import escape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.web.manage_data import login, setup  # noqa: F401 - fixture
from tests.web.test_manage_views import EGD
from tournaments.formats import FormatError
from tournaments.formats import parse as parse_results
from tournaments.messages import problem_message
from tournaments.models import Tournament, TournamentLog

pytestmark = pytest.mark.django_db

BAD = EGD.format(a="Kovalenko Ivan        ").replace("2+/w  3+/b", "2+/w  7+/b")


def _upload(client, setup, text: str, language: str):  # noqa: F811, ANN001, ANN202
    client.cookies["django_language"] = language
    return client.post(reverse("manage_import"), {
        "file": SimpleUploadedFile("cup.h9", text.encode()), "organiser": setup.club.pk,
        "rating_list": setup.rating_list.pk,
    })  # fmt: skip


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Round 2, '7+/b': there is no player with place number 7."),
        ("uk", "Тур 2, '7+/b': немає гравця з місцем 7."),
        ("ru", "Тур 2, '7+/b': нет игрока с местом 7."),
    ],
)
def test_the_file_problems_table_is_in_the_readers_language(client, setup, language, words):  # noqa: F811
    login(client, setup, "admin")
    response = _upload(client, setup, BAD, language)
    assert response.status_code == 200
    rows = response.context["problems"]
    assert [r.message for r in rows if r.line == 6] == [words]
    assert escape(words) in response.content.decode()


def test_a_problem_keeps_its_english_and_renders_again_later():
    with pytest.raises(FormatError) as info:
        parse_results(BAD.encode(), "egd", "cup.h9")
    (problem,) = [p for p in info.value.problems if p.line == 6]
    assert problem.message == "Round 2, '7+/b': there is no player with place number 7."
    assert problem.params == {"round": 2, "entry": "7+/b", "opponent": 7}
    with translation.override("uk"):
        assert problem_message(problem) == "Тур 2, '7+/b': немає гравця з місцем 7."


def test_a_json_problem_keeps_its_place_in_the_file():
    with pytest.raises(FormatError) as info:
        parse_results(b'{"event": {"name": "x"}, "players": 3, "games": []}', "json", "x.json")
    texts = [p.message for p in info.value.problems]
    assert "players: must be a non-empty list of players." in texts
    (problem,) = [p for p in info.value.problems if p.where == "players"]
    with translation.override("ru"):
        assert problem_message(problem) == "players: должно быть непустым списком игроков."


def test_the_history_of_an_import_is_worded_for_each_reader(client, setup):  # noqa: F811
    login(client, setup, "admin")
    good = EGD.format(a="Kovalenko Ivan        ")
    response = _upload(client, setup, good, "en")
    token = response.context["confirm"].initial["token"]
    client.post(reverse("manage_import_confirm"), {
        "token": token, "status": "draft", "choice-0": "new", "choice-1": "new", "choice-2": "new",
    })  # fmt: skip
    tournament = Tournament.objects.get(name="Club Cup")
    log = TournamentLog.objects.get(tournament=tournament, action="imported")
    assert log.comment.startswith("Imported cup.h9: 3 players (3 new), 2 games.")
    page = reverse("manage_tournament", args=[tournament.pk])
    client.cookies["django_language"] = "uk"
    html = client.get(page).content.decode()
    assert "Імпортовано cup.h9: 3 гравців (3 нових), 2 партій." in html
    assert "2 вільних турів (не обраховуються)." in html
    assert "Imported cup.h9" not in html and "byes (never rated)" not in html
    client.cookies["django_language"] = "ru"
    html = client.get(page).content.decode()
    assert "Импортирован cup.h9: 3 игроков (3 новых), 2 партий." in html
    assert "Imported cup.h9" not in html and "byes (never rated)" not in html


def test_a_persons_comment_is_shown_as_written(client, setup):  # noqa: F811
    TournamentLog.objects.create(
        tournament=setup.draft, action="reopened", by=setup.user("admin"), comment="Fix R2"
    )
    login(client, setup, "admin")
    client.cookies["django_language"] = "uk"
    html = client.get(reverse("manage_tournament", args=[setup.draft.pk])).content.decode()
    assert "Fix R2" in html


def test_the_preview_shows_the_crosstable_it_will_save(client, setup):  # noqa: F811
    login(client, setup, "admin")
    response = _upload(client, setup, EGD.format(a="Kovalenko Ivan        "), "en")
    table = response.context["crosstable"]
    assert table.rounds == [1, 2]
    assert [(r.number, r.grade, r.cells, r.points) for r in table.rows] == [
        (1, "3d", ["2+/w", "3+/b"], 2.0),
        (2, "1k", ["1-/b", "0+"], 1.0),
        (3, "10k", ["0-", "1-/w"], 0.0),
    ]
    html = response.content.decode()
    assert 'id="preview-crosstable"' in html and "2+/w" in html
