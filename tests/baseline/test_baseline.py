"""A list started from a published rating list: formats, matching, the command, the replay."""

from __future__ import annotations

import datetime as dt
import gzip
import io
import random
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from clubsite.models import Club, Member
from ratings.baselines import matching
from ratings.baselines.matching import name_key
from ratings.models import Baseline, RatingEntry, RatingHistory
from ratings.recompute import baseline_starts
from tests.factories import ClubFactory, MemberFactory, RatingListFactory
from tests.pipeline.builders import members, submitted, tournament_with_games
from tournaments.formats import FormatError
from tournaments.formats.rating_lists import parse_rating_list

DATA = Path(__file__).resolve().parent.parent / "data"
EGD_LIST = DATA / "egd" / "ratinglists" / "egf_db_2018-11-30_6098ccb2253f.txt"
FULL_LIST = DATA / "egd" / "ratinglists" / "FULL_egf_db_2018-12-27.txt.gz"
FIDE_LIST = DATA / "fide" / "standard_rating_list_sample.txt"


def _call(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


# --- formats ----------------------------------------------------------------------------


def test_egd_list_reads_the_snapshot_and_the_full_world_list() -> None:
    snapshot = parse_rating_list(EGD_LIST.read_bytes(), "egd")
    first = snapshot.rows[0]
    assert (first.egd_pin, first.family_name, first.given_name) == (
        "13286603",
        "Aakerblom",
        "Charlie",
    )
    assert (first.country, first.club, first.grade, first.rating, first.tournaments) == (
        "SE", "Norr", "5d", 2442.0, 71,
    )  # fmt: skip
    assert first.last_played == dt.date(2016, 9, 20)  # from its code T160920A
    assert snapshot.date == dt.date(2018, 11, 29)  # "(29 Nov 2018)" in its HTML
    full = parse_rating_list(gzip.decompress(FULL_LIST.read_bytes()), "egd")
    assert len(full.rows) == 45171  # 45,172 players, one of them without a name
    assert any("no name" in p.message and p.line == 45198 for p in full.warnings)
    assert any("latin-1" in p.message for p in full.warnings)


def test_fide_list_reads_the_documented_columns() -> None:
    listfile = parse_rating_list(FIDE_LIST.read_bytes(), "fide")
    carlsen = listfile.rows[0]
    assert (carlsen.fide_id, carlsen.family_name, carlsen.given_name) == (
        "1503014",
        "Carlsen",
        "Magnus",
    )
    assert (carlsen.federation, carlsen.sex, carlsen.title, carlsen.rating) == (
        "NOR",
        "m",
        "GM",
        2831.0,
    )
    assert (carlsen.games, carlsen.k_factor, carlsen.birth_year, carlsen.inactive) == (
        9,
        10,
        1990,
        False,
    )
    ivanchuk = listfile.rows[2]
    assert ivanchuk.inactive and ivanchuk.games == 0
    assert listfile.rows[6].birth_year is None  # 0000: not given


@pytest.mark.parametrize(
    ("fmt", "text", "line", "words"),
    [
        (
            "egd",
            " 13286603  Aakerblom Charlie   SE  Norr    5d   --   24x42    71  T1\n",
            1,
            "starts with a PIN",
        ),
        (
            "egd",
            "x\n 13286603  A B  SE  Norr  5d -- 2442 71 T1\n 13286603  A B  SE  Norr  5d -- 2442 71 T1\n",
            3,
            "twice",
        ),
        ("fide", FIDE_LIST.read_text().replace("2626", "26x6"), 4, "not a rating"),
        ("csv", "key,name,rating\nA,Anna Ivanova,1500\nB,Boris,abc\n", 3, "not a rating"),
        ("csv", "key,name,rating,grade\nA,Anna Ivanova,1500,12x\n", 2, "Go grade"),
        ("csv", "key,name\nA,Anna\n", 1, "'rating' column"),
    ],
)
def test_errors_name_their_line(fmt: str, text: str, line: int, words: str) -> None:
    """A file with no row to read is refused; a bad row beside good ones is left out
    (issue 53). Either way the problem names its line."""
    try:
        problems = parse_rating_list(text.encode(), fmt).left_out
    except FormatError as error:
        problems = error.errors
    assert any(p.line == line and words in p.message for p in problems), problems


def test_one_bad_row_is_left_out_and_the_rest_stands() -> None:
    """Issue 53: a country `0+` refused a 45,524-player EGD list."""
    good = " 13286603  Aakerblom Charlie      SE  Norr    5d   --   2442    71  T160920A\n"
    bad = " 13286604  Broken Row             0+  Norr    5d   --   2442    71  T160920A\n"
    listfile = parse_rating_list(
        (good + bad + good.replace("13286603", "13286605")).encode(), "egd"
    )
    assert [row.key for row in listfile.rows] == ["13286603", "13286605"]
    assert [(p.line, p.severity) for p in listfile.left_out] == [(2, "error")]
    assert "starts with a PIN" in listfile.left_out[0].message


def test_csv_carries_each_systems_fields() -> None:
    text = "key,family_name,given_name,rating,grade,provisional,tournaments,games,above_100\nu1,Ivanova,Anna,95,5k,yes,3,14,yes\n"
    (row,) = parse_rating_list(text.encode(), "csv").rows
    assert (row.key, row.rating, row.grade, row.provisional, row.tournaments, row.games, row.above_100) == (
        "u1", 95.0, "5k", True, 3, 14, True,
    )  # fmt: skip


def test_names_match_across_scripts_and_transliterations() -> None:
    assert name_key("Шмельов", "Олег") == name_key("Shmelyov", "Oleh") == name_key("Oleg Shmelev")
    assert name_key("Ющенко Віктор") == name_key("Yushchenko", "Viktor")
    assert name_key("Müller", "Jörg") == name_key("Muller Jorg")
    assert name_key("Ivanov", "Petro") != name_key("Ivanova", "Petra")


# --- matching and the command -----------------------------------------------------------

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["few", "many"])
def query_sizes(request, monkeypatch) -> None:
    """'many': the reads a full list takes (one pass over all members or numbers, the whole
    baseline) rather than `IN` lists, here for a handful of rows, so both ways are tested."""
    if request.param == "many":
        monkeypatch.setattr(matching, "SMALL", 1)
        monkeypatch.setattr(baseline_starts, "SMALL", 1)


@pytest.mark.usefixtures("query_sizes")
def test_command_matches_by_pin_and_name_and_refuses_ambiguity() -> None:
    rating_list = RatingListFactory(system="uscf", game="chess", slug="chess")
    by_id = MemberFactory(family_name="Carlsen", given_name="Magnus", fide_id="1503014")
    by_name = MemberFactory(family_name="Ковал\u0435нко", given_name="Ігор", country="UA")
    twins = [MemberFactory(family_name="Tkachenko", given_name="Oleksandr") for _ in range(2)]
    args = (
        "import_ratings",
        str(FIDE_LIST),
        "--list",
        "chess",
        "--format",
        "fide",
        "--date",
        "2024-09-01",
    )
    with pytest.raises(CommandError) as refused:
        _call(*args)
    assert "14178540" in str(refused.value) and f"#{twins[0].pk}" in str(refused.value)
    assert not Baseline.objects.exists() and not Member.objects.filter(fide_id="14109603").exists()
    printed = _call(*args, "--dry-run", "--match", f"14178540={twins[1].pk}")
    assert "players: 2 matched, 5 new, 1 ambiguous" in printed
    assert f"#{by_id.pk} Magnus Carlsen (by FIDE ID)" in printed
    assert f"#{by_name.pk}" in printed and "(by name)" in printed
    assert printed.splitlines()[-1] == "dry run: nothing saved" and not Baseline.objects.exists()
    printed = _call(*args, "--match", f"14178540={twins[1].pk}")
    assert printed.splitlines()[-1] == "baseline 8 players"
    muzychuk = Member.objects.get(fide_id="14109603")
    assert (muzychuk.family_name, muzychuk.country, muzychuk.sex, muzychuk.birth_year) == (
        "Muzychuk",
        "UA",
        "f",
        1990,
    )
    assert Member.objects.get(pk=by_name.pk).fide_id == "14102544"  # filled in from the list
    entries = dict(
        RatingEntry.objects.filter(rating_list=rating_list).values_list("member_id", "rating")
    )
    assert entries[by_id.pk] == 2831.0 and entries[twins[1].pk] == 2205.0 and len(entries) == 8


@pytest.mark.usefixtures("query_sizes")
def test_new_members_get_the_club_the_list_names() -> None:
    RatingListFactory(system="egf", slug="egd")
    existing = ClubFactory(name="Norr", slug="se-norr", country="SE")
    _call(
        "import_ratings", str(EGD_LIST), "--list", "egd", "--format", "egd", "--date", "2018-11-29"
    )
    assert Member.objects.get(egd_pin="13286603").club == existing
    assert Member.objects.get(egd_pin="15250015").club == Club.objects.get(slug="tr-ank")
    assert Member.objects.get(egd_pin="16913589").club is None  # XXXX: no club


# --- the replay -------------------------------------------------------------------------


@pytest.mark.usefixtures("query_sizes")
def test_named_members_start_from_their_rows_and_skip_tournaments_before_it() -> None:
    rng = random.Random(5)
    club = ClubFactory()
    players = members(rng, club, 6)
    rating_list = RatingListFactory(system="egf", slug="b")
    early = submitted(
        tournament_with_games(rng, club=club, players=players, day=dt.date(2024, 2, 1)), rating_list
    )
    late = submitted(
        tournament_with_games(rng, club=club, players=players, day=dt.date(2024, 6, 1)), rating_list
    )
    for tournament in (early, late):
        _call("approve_tournament", str(tournament.pk), "--wait")
    named, unnamed = players[:3], players[3:]
    rows = "".join(
        f"k{m.pk},{m.family_name},{m.given_name},{2000 + 10 * i},3d,,7\n"
        for i, m in enumerate(named)
    )
    path = Path(f"/tmp/baseline-{rating_list.pk}.csv")
    path.write_text("key,family_name,given_name,rating,grade,provisional,tournaments\n" + rows)
    printed = _call(
        "import_ratings", str(path), "--list", "b", "--format", "csv", "--date", "2024-03-01"
    )
    assert printed.splitlines()[-1] == "baseline 3 players"
    history = RatingHistory.objects.filter(rating_list=rating_list)
    # Before the baseline: rated for those it does not name only (kept on record for all).
    played_early = set(history.filter(tournament=early).values_list("member_id", flat=True))
    assert played_early and played_early <= {m.pk for m in unnamed}
    first = history.get(tournament=late, member=named[0])
    assert first.rating_in == 2000.0  # his row, not the replay of February
    entry = RatingEntry.objects.get(rating_list=rating_list, member=named[0])
    assert entry.tournaments == 8  # the row's 7 and June
    # Removing it replays everyone from nothing again.
    from ratings.baselines.services import baseline_remove

    assert baseline_remove(rating_list=rating_list)
    assert history.filter(tournament=early).count() > len(played_early)
    assert history.get(tournament=late, member=named[0]).rating_in != 2000.0


def test_tournament_page_says_it_is_before_the_baseline(client) -> None:
    rng = random.Random(9)
    club = ClubFactory()
    players = members(rng, club, 4)
    rating_list = RatingListFactory(system="egf", slug="page", name="Page list")
    early = submitted(
        tournament_with_games(rng, club=club, players=players, day=dt.date(2024, 2, 1)), rating_list
    )
    _call("approve_tournament", str(early.pk), "--wait")
    path = Path(f"/tmp/baseline-page-{rating_list.pk}.csv")
    path.write_text(
        f"key,name,rating,grade\nk1,{players[0].family_name} {players[0].given_name},2100,2d\n"
    )
    _call("import_ratings", str(path), "--list", "page", "--format", "csv", "--date", "2024-03-01")
    text = client.get(early.get_absolute_url()).content.decode()
    assert "before this list&#x27;s baseline" in text or "before this list's baseline" in text
