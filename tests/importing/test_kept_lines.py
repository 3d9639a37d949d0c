"""Issue 53: the imported file's lines come back in place from the export of the same
format; a line the tournament's later edits change is written anew, the rest as they were."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from clubsite.models import Member
from tests.factories import RatingListFactory
from tournaments.formats import parse
from tournaments.formats.kept_lines import layout_apply, layout_of
from tournaments.importing import tournament_export_text
from tournaments.models import Game, KeptFile, Tournament
from tournaments.services import Pairing, round_replace

from .helpers import FORMATS_DATA, TABLES

TRF = FORMATS_DATA / "double_forfeit.trf26"


def _import(path, slug: str, fmt: str) -> Tournament:
    out = io.StringIO()
    call_command("import_tournament", str(path), "--list", slug, "--format", fmt, "--draft",
                 stdout=out)  # fmt: skip
    return Tournament.objects.get(pk=int(out.getvalue().splitlines()[-1].split()[1]))


@pytest.mark.django_db
def test_an_edited_round_rewrites_only_its_players_lines() -> None:
    RatingListFactory(slug="chess", system="orr", game="chess")
    tournament = _import(TRF, "chess", "trf26")
    original = TRF.read_text().splitlines()
    hnatiuk = Member.objects.get(family_name="Hnatiuk")
    koval = Member.objects.get(family_name="Koval")
    savchuk = Member.objects.get(family_name="Savchuk")
    round_replace(
        tournament=tournament,
        round_number=1,
        pairings=[
            Pairing(hnatiuk, koval, "draw"),
            Pairing(savchuk, None, "", Game.Kind.BYE_ZERO),
        ],
        by=None,
    )
    tournament.name = "Spring Blitz, corrected"
    tournament.save()
    lines = tournament_export_text(tournament=tournament, fmt="trf26").splitlines()
    # Unchanged: the comment, the city and dates, the unknown records, in their places.
    for kept in (0, 2, 3, 4, 5, 6, 7, 11):
        assert lines[kept] == original[kept]
    assert lines[1] == "012 Spring Blitz, corrected"  # in place of the old name
    hnatiuk_line = next(line for line in lines if "Hnatiuk" in line)
    assert hnatiuk_line[91:101] == "   2 w =  "  # the edit
    # Savchuk's double forfeit with Hnatiuk (two byes in the database) is rewritten with
    # Hnatiuk's line, so the file still agrees with itself.
    assert original[10] not in lines
    again = parse("\n".join(lines).encode(), "trf26")
    assert [g.result for g in again.games if g.round == 1] == ["draw"]


@pytest.mark.django_db
def test_lines_of_players_the_edit_does_not_touch_stay_as_the_file_had_them() -> None:
    RatingListFactory(slug="go", system="egf", game="go")
    path = TABLES / "mpj2002.txt"
    tournament = _import(path, "go", "egd")
    first = list(tournament.games.filter(round=1).select_related("white", "black"))
    flipped = first[0]
    round_replace(
        tournament=tournament,
        round_number=1,
        pairings=[
            Pairing(g.white, g.black, {"white": "black", "black": "white"}.get(g.result, g.result),
                    g.kind, g.handicap, colours_known=g.colours_known)
            if g is flipped
            else Pairing(g.white, g.black, g.result, g.kind, g.handicap,
                         colours_known=g.colours_known)
            for g in first
        ],
        by=None,
    )  # fmt: skip
    original = path.read_text().splitlines()
    lines = tournament_export_text(tournament=tournament, fmt="egd").splitlines()
    changed = [line for line in lines if line not in original]
    names = {flipped.white.family_name, flipped.black.family_name}
    assert len(changed) == 2
    assert all(any(name in line for name in names) for line in changed)
    assert len(lines) == len(original)
    assert parse("\n".join(lines).encode(), "egd").details.rounds == 5  # agrees with itself


@pytest.mark.django_db
def test_another_format_or_a_tournament_without_a_file_is_written_as_before() -> None:
    RatingListFactory(slug="chess", system="orr", game="chess")
    tournament = _import(TRF, "chess", "trf26")
    assert KeptFile.objects.get(tournament=tournament).layout["format"] == "trf26"
    assert "XXC white1" not in tournament_export_text(tournament=tournament, fmt="trf16")
    KeptFile.objects.filter(tournament=tournament).delete()
    assert "XXC white1" not in tournament_export_text(tournament=tournament, fmt="trf26")


def test_a_player_the_writer_adds_goes_after_the_players_and_a_new_record_before() -> None:
    text = "; EV[Cup]\n; made by hand\n1 A B 1d UA x 2+\n2 C D 1d UA x 1-\n; the end\n"
    results = parse(text.encode(), "egd")
    layout = layout_of(results, "; EV[Cup]\n;\n1 A B 1d UA x 1 2+/w0\n2 C D 1d UA x 0 1-/b0\n")
    now = (
        "; EV[Cup]\n; KM[6.5]\n;\n1 A B 1d UA x 1 2+/w0\n2 C D 1d UA x 0 1-/b0\n"
        "3 E F 2k UA x 0 0-\n"
    )
    assert layout_apply(layout, now) == (
        "; EV[Cup]\n; KM[6.5]\n; made by hand\n1 A B 1d UA x 2+\n2 C D 1d UA x 1-\n"
        "3 E F 2k UA x 0 0-\n; the end\n"
    )
