"""Issue 53, the facts half, through the database: real files from other programs
(tests/data/thirdparty/, sources in sources.tsv there) are imported with
`import_tournament`, approved and exported with `export_tournament`, and what the file
said comes back: dates (never the clock's), the time control's own text (nothing
invented where it said none), class D/X, the federation, the names' letters.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from clubsite.models import Member
from ratings.models import ListTournament
from ratings.recompute.reads import replayed_tournaments
from ratings.recompute.rules import event_verdict
from ratings.submissions.selectors import review_warnings
from tests.factories import RatingListFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
THIRDPARTY = Path(__file__).resolve().parents[1] / "data" / "thirdparty"


def _run(command: str, *args: str) -> list[str]:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue().splitlines()


def _import(name: str, slug: str, *extra: str) -> tuple[Tournament, list[str]]:
    fmt = "egd" if name.startswith("egd/") else "trf"
    lines = _run(
        "import_tournament", str(THIRDPARTY / name), "--list", slug, "--format", fmt, *extra
    )
    return Tournament.objects.get(pk=int(lines[-1].split()[1])), lines


def _export(tournament: Tournament, fmt: str) -> list[str]:
    return _run("export_tournament", str(tournament.pk), "--format", fmt)


@pytest.fixture
def chess_list():
    return RatingListFactory(slug="orr", system="orr", game="chess")


@pytest.fixture
def go_list():
    return RatingListFactory(slug="egf", system="egf", game="go")


# --- dates ------------------------------------------------------------------------------


def test_a_file_without_dates_is_refused_until_they_are_given(chess_list):
    name = "trf/bbpsharly__indiv_299_bonus.trf"
    with pytest.raises(CommandError, match="give the tournament's start and end dates"):
        _import(name, "orr")
    assert not Tournament.objects.exists()
    with pytest.raises(CommandError, match="--date takes START"):
        _import(name, "orr", "--date", "28.07.2005")
    tournament, _lines = _import(name, "orr", "--date", "2005-07-28,2005-07-30")
    assert (tournament.start_date, tournament.end_date) == (
        dt.date(2005, 7, 28),
        dt.date(2005, 7, 30),
    )


def test_a_dry_run_without_dates_says_so(chess_list):
    with pytest.raises(CommandError, match="give the tournament's start and end dates"):
        _import("trf/bbpsharly__team_round2.trf", "orr", "--dry-run")


def test_month_names_give_the_file_date_not_today(chess_list):
    tournament, _lines = _import("trf/sharly__2021_03.trf", "orr")
    assert (tournament.start_date, tournament.end_date) == (
        dt.date(2020, 6, 26),
        dt.date(2020, 6, 26),
    )
    # Written back as the file wrote it (issue 53: the file's own lines where nothing changed).
    assert "042 Jun 26, 2020" in _export(tournament, "trf")


# --- time controls ----------------------------------------------------------------------


def test_trf_time_control_text_is_kept_read_and_written_back(chess_list):
    tournament, _lines = _import("trf/chesspairing__basic.trf", "orr")
    assert tournament.time_control_text == "90min/40moves+30min+30sec"
    assert tournament.time_control_known
    assert (
        tournament.basic_time_minutes,
        tournament.overtime_kind,
        tournament.overtime_seconds,
    ) == (
        120,
        Tournament.Overtime.FISCHER,
        30,
    )
    _run("approve_tournament", str(tournament.pk))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.APPROVED
    assert "122 90min/40moves+30min+30sec" in _export(tournament, "trf")


def test_no_time_control_exports_none(chess_list, go_list):
    chess, lines = _import("trf/sharly__2020_06.trf", "orr")
    assert not chess.time_control_known and chess.time_control_text == ""
    assert any("time control is not known" in line for line in lines)
    # The file's own empty 122 comes back as it was; no time control is written into it.
    assert [line for line in _export(chess, "trf") if line.startswith("122")] == ["122"]
    go, _lines = _import("egd/honte__wagc1985.txt", "egf")
    assert not go.time_control_known
    assert not any("TM[" in line for line in _export(go, "egd"))


def test_egd_tm_text_comes_back_as_written(go_list):
    tournament, _lines = _import("egd/honte__kpmc2003.txt", "egf")
    assert (tournament.time_control_text, tournament.adjusted_minutes) == ("3h", 180)
    assert tournament.basic_time_minutes == 180 and tournament.time_control_known
    assert "; TM[3h]" in _export(tournament, "egd")


def test_an_unknown_time_control_blocks_no_rule_and_warns_the_referee(go_list):
    tournament, _lines = _import("egd/honte__wagc1990.txt", "egf")
    tournament.basic_time_minutes = 10  # the model's columns mean nothing while unknown
    tournament.end_date = tournament.start_date = dt.date(2010, 5, 1)
    tournament.save()
    replayed = replayed_tournaments([tournament.pk])[0]
    assert event_verdict("egf", replayed).rated and event_verdict("egf", replayed).klass == "A"
    assert event_verdict("ufgo", replayed).rated
    texts = [w.text for w in review_warnings(tournament)]
    assert any("time control is not known" in t for t in texts)
    tournament.time_control_known = True
    tournament.save()
    assert not event_verdict("egf", replayed_tournaments([tournament.pk])[0]).rated


# --- class, federation, a table without rated games, encoding ------------------------------


@pytest.mark.parametrize(
    ("name", "klass"),
    [("egd/opengotha__ioct_20_02.h9", "D"), ("egd/og-export__pairgoth__notsimplemm.h9", "X")],
)
def test_class_d_and_x_are_kept_not_rated_and_written_back(go_list, name, klass):
    tournament, _lines = _import(name, "egf")
    assert tournament.file_class == klass
    assert not ListTournament.objects.filter(tournament=tournament).exists()
    exported = _export(tournament, "egd")
    assert f"; CL[{klass}]" in exported and "; CL[A]" not in exported


def test_a_federation_is_not_cut(chess_list):
    tournament, _lines = _import("trf/sharly__2020_06.trf", "orr")
    assert tournament.federation == "Lichess"
    assert "032 Lichess" in _export(tournament, "trf")


def test_a_table_without_rated_games_says_so(chess_list):
    tournament, lines = _import(
        "trf/bbpsharly__team_240_bye.trf", "orr", "--date", "2024-03-01,2024-03-03"
    )
    assert any("no rated game" in line for line in lines)
    assert any("no rated game" in w.text for w in review_warnings(tournament))


def test_opengotha_names_keep_their_letters(go_list):
    tournament, lines = _import("egd/og-export__pairgoth__Toulouse2024.h9", "egf")
    assert "read as ISO-8859-15 (Western European)" in lines
    assert Member.objects.filter(given_name="Andéol").exists()
    assert not Member.objects.filter(given_name__contains="й").exists()
    again, _ = _import("egd/og-export__pairgoth__Toulouse2024.h9", "egf")
    assert again.participants.count() == tournament.participants.count()
    assert Member.objects.count() == tournament.participants.count()  # no new members


def test_the_command_reads_the_encoding_it_is_told(go_list):
    path = str(THIRDPARTY / "egd/og-export__pairgoth__Toulouse2024.h9")
    with pytest.raises(CommandError, match="--encoding: one of"):
        _run("import_tournament", path, "--list", "egf", "--encoding", "nonsense")
    lines = _run("import_tournament", path, "--list", "egf", "--encoding", "cp1251", "--dry-run")
    assert "read as Windows-1251 (Cyrillic)" in lines
    assert any("Andйol" in line for line in lines)


def test_the_admin_giving_the_time_control_makes_it_known(chess_list):
    from tests.factories import UserFactory
    from tournaments.manage_services import tournament_update

    tournament, _lines = _import("trf/sharly__2020_06.trf", "orr", "--draft")
    admin = UserFactory(is_staff=True)
    unchanged = {"basic_time_minutes": tournament.basic_time_minutes, "name": "Renamed"}
    tournament = tournament_update(tournament=tournament, changes=unchanged, by=admin)
    assert not tournament.time_control_known  # the form's untouched defaults say nothing
    tournament = tournament_update(
        tournament=tournament, changes={"basic_time_minutes": 3}, by=admin
    )
    assert tournament.time_control_known and tournament.time_control_text == ""


def test_the_api_gives_an_unknown_time_control_as_null(chess_list, client):
    from django.urls import reverse

    tournament, _lines = _import("trf/sharly__2020_06.trf", "orr")
    data = client.get(reverse("api_tournament", args=[tournament.pk])).json()
    assert (data["basic_time_minutes"], data["overtime"], data["time_control_text"]) == (
        None,
        None,
        "",
    )
    known, _lines = _import("trf/chesspairing__basic.trf", "orr")
    data = client.get(reverse("api_tournament", args=[known.pk])).json()
    assert data["basic_time_minutes"] == 120
    assert data["time_control_text"] == "90min/40moves+30min+30sec"
