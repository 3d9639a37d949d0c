"""Issue 53 in the upload's preview: it asks for the dates a file does not give for
certain (never today's), says which encoding it read and reads the file again in
another one the admin picks."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubsite.models import Member
from tests.web.manage_data import login, setup  # noqa: F401 - fixture
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

TABLE = (
    "; EV[Undated Cup]\n; PC[UA, Rivne]\n; CL[A]\n{dt}"
    "1 Kowalenko Iwan       3d UA Rivn  2  2+/w  3+/b\n"
    "2 Nemo André           1k FR Pari  1  1-/b  0+\n"
    "3 Bondar Taras        10k UA Rivn  0  0-    1-/w\n"
)


def _upload(client, setup, data: bytes):  # noqa: F811, ANN001, ANN202
    return client.post(reverse("manage_import"), {
        "file": SimpleUploadedFile("cup.h9", data), "organiser": setup.club.pk,
        "rating_list": setup.rating_list.pk,
    })  # fmt: skip


def _confirm(client, token: str, **extra: str):  # noqa: ANN202
    data = {"token": token, "status": "draft", "choice-0": "new", "choice-1": "new"}
    data["choice-2"] = "new"
    return client.post(reverse("manage_import_confirm"), {**data, **extra})


def test_a_table_without_dates_asks_for_them(client, setup):  # noqa: F811
    login(client, setup, "admin")
    response = _upload(client, setup, TABLE.format(dt="").encode())
    html = response.content.decode()
    assert "give the tournament&#x27;s start and end dates" in html
    assert 'name="start_date"' in html and 'name="end_date"' in html
    token = response.context["confirm"].initial["token"]
    refused = _confirm(client, token)
    assert refused.status_code == 200
    assert not Tournament.objects.filter(name="Undated Cup").exists()
    wrong = _confirm(client, token, start_date="2005-07-30", end_date="2005-07-28")
    assert "cannot end before it starts" in wrong.content.decode()
    assert not Tournament.objects.filter(name="Undated Cup").exists()
    saved = _confirm(client, token, start_date="2005-07-28", end_date="2005-07-30")
    assert saved.status_code == 302
    tournament = Tournament.objects.get(name="Undated Cup")
    assert (tournament.start_date, tournament.end_date) == (
        dt.date(2005, 7, 28),
        dt.date(2005, 7, 30),
    )


def test_dates_that_could_be_swapped_are_asked_for(client, setup):  # noqa: F811
    login(client, setup, "admin")
    response = _upload(client, setup, TABLE.format(dt="; DT[05/06/2010]\n").encode())
    html = response.content.decode()
    assert "may be read two ways" in html and "start and end dates" in html
    day_first = _upload(client, setup, TABLE.format(dt="; DT[28. 07. 2005]\n").encode())
    assert "start and end dates" not in day_first.content.decode()
    assert day_first.context["confirm"].initial["start_date"] == dt.date(2005, 7, 28)


def test_the_preview_names_the_encoding_and_reads_again_in_another(client, setup):  # noqa: F811
    login(client, setup, "admin")
    data = TABLE.format(dt="; DT[2020-08-30]\n").encode("iso8859_15")
    response = _upload(client, setup, data)
    html = response.content.decode()
    assert "The file was read as ISO-8859-15 (Western European)" in html
    assert "Nemo André" in html
    token = response.context["confirm"].initial["token"]
    again = _confirm(client, token, encoding="cp1251", reread="1")
    assert "The file was read as Windows-1251 (Cyrillic)" in again.content.decode()
    assert "Nemo Andrй" in again.content.decode()
    assert not Tournament.objects.filter(name="Undated Cup").exists()  # a reading saves nothing
    back = _confirm(client, token, encoding="iso8859_15", reread="1")
    assert "Nemo André" in back.content.decode()
    assert _confirm(client, token).status_code == 302
    assert Member.objects.filter(family_name="Nemo", given_name="André").exists()


def test_an_encoding_that_cannot_read_the_file_keeps_the_last_reading(client, setup):  # noqa: F811
    login(client, setup, "admin")
    data = TABLE.format(dt="; DT[2020-08-30]\n").encode("iso8859_15")
    token = _upload(client, setup, data).context["confirm"].initial["token"]
    response = _confirm(client, token, encoding="utf-8", reread="1")
    html = response.content.decode()
    assert "cannot be read as UTF-8" in html and "Nemo André" in html


def test_the_referee_review_says_no_rated_game_and_unknown_time(client, setup):  # noqa: F811
    t = setup.submitted
    t.games.update(kind="forfeit")  # both boards won by default: nothing to rate
    t.time_control_known, t.time_control_text = False, "MOVES/TIME INCREMENT"
    t.save()
    login(client, setup, "referee")
    html = client.get(reverse("referee_review", args=[t.pk])).content.decode()
    assert "The table has no rated game" in html
    assert "The time control is not known (the file wrote “MOVES/TIME INCREMENT”)" in html
    # Neither page shows the model's defaults as if they were the tournament's.
    public = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    for page in (html, public):
        assert "time control not known (“MOVES/TIME INCREMENT”)" in page
        assert "60 min" not in page
