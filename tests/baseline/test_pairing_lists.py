"""Lists for pairing programs (issue 56): `export_ratings --format egd|fide` writes the
EGF rating list OpenGotha and Pairgoth read, column for column as the EGD writes it
(tests/data/egd/ratinglists/, copied from OpenGotha's repository: see its README), and
FIDE's TXT list; `import_ratings` reads both back unchanged."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from clubsite.models import Member
from ratings.models import BaselineRow, PublishedEntry, PublishedList, RatingEntry
from tests.factories import MemberFactory, RatingListFactory
from tournaments.formats.rating_lists import parse_rating_list

pytestmark = pytest.mark.django_db(transaction=True)  # the import recomputes at commit
DATA = Path(__file__).resolve().parent.parent / "data"
SNAPSHOTS = sorted((DATA / "egd" / "ratinglists").glob("egf_db_*.txt"))
FIDE_LIST = DATA / "fide" / "standard_rating_list_sample.txt"
# Where the EGD's file puts each column (0-based, end excluded): OpenGotha reads them so.
COLUMNS = {
    "PIN": slice(1, 9), "name": slice(11, 48), "country": slice(49, 51),
    "club": slice(53, 57), "grade": slice(60, 63), "GoR": slice(71, 75), "NT": slice(78, 81),
}  # fmt: skip


def _call(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _import(path: Path | str, slug: str, fmt: str, date: str) -> None:
    printed = _call(
        "import_ratings", str(path), "--list", slug, "--format", fmt, "--date", date,
        "--new-for-ambiguous",
    )  # fmt: skip
    assert printed.splitlines()[-1].startswith("baseline ")


def _pin_lines(text: str) -> dict[str, str]:
    return {line[1:9].strip(): line for line in text.splitlines() if line[1:9].strip().isdigit()}


def _standing(slug: str) -> list[tuple[int, float, object, int]]:
    rows = BaselineRow.objects.filter(baseline__rating_list__slug=slug)
    return sorted(rows.values_list("member_id", "rating", "grade", "tournaments"))


@pytest.mark.parametrize("snapshot", [SNAPSHOTS[0], SNAPSHOTS[9], SNAPSHOTS[-1]], ids=str)
def test_egd_export_of_a_real_snapshot_gives_back_its_columns(snapshot: Path) -> None:
    RatingListFactory(slug="egd", system="egf", game="go")
    _import(snapshot, "egd", "egd", snapshot.name[7:17])
    exported = _call("export_ratings", "egd", "--format", "egd")

    original = parse_rating_list(snapshot.read_bytes(), "egd")
    ours = parse_rating_list(exported.encode("iso-8859-1"), "egd")
    assert not ours.warnings and ours.date is not None

    def fields(row):
        # The EGD spells a few clubs in two cases (LEUV, Leuv); a club here is one club.
        club = (row.club or "").casefold()
        return (row.family_name, row.given_name, row.country, club, row.grade, row.rating,
                row.tournaments)  # fmt: skip

    assert {r.egd_pin: fields(r) for r in ours.rows} == {
        r.egd_pin: fields(r) for r in original.rows
    }
    original_lines, our_lines = _pin_lines(snapshot.read_text("latin-1")), _pin_lines(exported)
    compared = 0
    for row in original.rows:
        theirs, mine = original_lines[row.egd_pin], our_lines[row.egd_pin]
        for column, where in COLUMNS.items():
            if column == "club" and row.club is None:  # xxx / xxxx / XXXX: no club
                assert mine[where] == "xxx "
                continue
            if column == "club":
                assert mine[where].casefold() == theirs[where].casefold(), (theirs, mine)
            else:
                assert mine[where] == theirs[where], (column, theirs, mine)
            compared += 1
    assert compared >= 7 * 1000


def _file(tmp_path: Path, text: str) -> Path:
    """The export as a file, in the encoding the pairing programs read."""
    path = tmp_path / "exported.txt"
    path.write_bytes(text.encode("iso-8859-1"))
    return path


def test_egd_round_trip_through_import_ratings_with_players_without_a_pin(tmp_path) -> None:
    first = RatingListFactory(slug="ufgo-a", system="ufgo", game="go")
    snapshot = SNAPSHOTS[-1]
    _import(snapshot, "ufgo-a", "egd", "2018-12-27")
    # A member of ours without a PIN, written in Cyrillic: a blank PIN, a Latin name.
    hnatyuk = MemberFactory(family_name="Гнатюк", given_name="Олег", country="UA", egd_pin="")
    RatingEntry.objects.create(
        rating_list=first, member=hnatyuk, rating=1234.4, tournaments=3, grade=None
    )
    exported = _call("export_ratings", "ufgo-a", "--format", "egd")
    line = next(line for line in exported.splitlines() if "Hnatiuk" in line)
    assert line[1:9] == " " * 8 and line[11:48].rstrip() == "Hnatiuk Oleh"
    assert line[60:63] == " 9k"  # no grade of his own: UFGO Table 1, 1200-1299 is 9k
    assert line[71:75] == "1234"

    RatingListFactory(slug="ufgo-b", system="ufgo", game="go")
    members_before = Member.objects.count()
    _import(_file(tmp_path, exported), "ufgo-b", "egd", "2018-12-27")
    assert Member.objects.count() == members_before  # every row found its member again
    assert BaselineRow.objects.get(baseline__rating_list__slug="ufgo-b", member=hnatyuk).rating == (
        1234.0
    )
    assert _call("export_ratings", "ufgo-b", "--format", "egd") == exported


def test_fide_round_trip_through_import_ratings(tmp_path) -> None:
    RatingListFactory(slug="chess-a", system="orr", game="chess")
    _import(FIDE_LIST, "chess-a", "fide", "2024-09-01")
    exported = _call("export_ratings", "chess-a", "--format", "fide")
    original = parse_rating_list(FIDE_LIST.read_bytes(), "fide")
    ours = parse_rating_list(exported.encode("iso-8859-1"), "fide")

    def fields(row):
        return (row.family_name, row.given_name, row.federation, row.sex, row.title, row.rating,
                row.birth_year)  # fmt: skip

    assert {r.fide_id: fields(r) for r in ours.rows} == {
        r.fide_id: fields(r) for r in original.rows
    }
    header = exported.splitlines()[0]
    assert (
        header.startswith("ID Number")
        and header[113:118] == dt.date.today().strftime("%b%y").upper()
    )
    muzychuk = next(line for line in exported.splitlines() if line.startswith("14109603"))
    assert muzychuk[84:89].strip() == "GM"  # her open title; the list keeps one title
    assert muzychuk[132:].strip() == "w"

    RatingListFactory(slug="chess-b", system="orr", game="chess")
    _import(_file(tmp_path, exported), "chess-b", "fide", "2024-09-01")
    assert [row[:2] for row in _standing("chess-b")] == [row[:2] for row in _standing("chess-a")]


def test_a_published_list_and_the_refusals() -> None:
    go = RatingListFactory(slug="go", system="egf", game="go")
    member = MemberFactory(family_name="Ševčuk", given_name="Jan", egd_pin="10998394")
    snapshot = PublishedList.objects.create(rating_list=go, date=dt.date(2025, 1, 1))
    PublishedEntry.objects.create(
        snapshot=snapshot, member=member, rank=1, rating=1954.0, tournaments=19, grade="2d"
    )
    text = _call("export_ratings", "go", "--format", "egd", "--date", "2025-01-01")
    assert text.splitlines()[0] == "(01 Jan 2025)"
    row = _pin_lines(text)["10998394"]
    assert (row[11:48].rstrip(), row[60:63], row[71:75], row[78:81]) == (
        "Sevcuk Jan",
        " 2d",
        "1954",
        " 19",
    )  # Š and č are not in ISO-8859-1: their accents go
    with pytest.raises(CommandError, match="no list published"):
        _call("export_ratings", "go", "--format", "egd", "--date", "2025-02-01")
    RatingListFactory(slug="chess", system="orr", game="chess")
    with pytest.raises(CommandError, match="not a Go list"):
        _call("export_ratings", "chess", "--format", "egd")


def test_both_files_download_from_the_list_and_publication_pages(client) -> None:
    go = RatingListFactory(slug="go", system="rivne", game="go")
    member = MemberFactory(family_name="Müller", given_name="Jörg", egd_pin="10949763")
    RatingEntry.objects.create(rating_list=go, member=member, rating=2140.0, tournaments=5)
    page = client.get("/ratings/go/").content.decode()
    assert 'href="/ratings/go/file/egd/"' in page and 'href="/ratings/go/file/fide/"' in page

    response = client.get("/ratings/go/file/egd/")
    assert response["Content-Type"] == "text/plain; charset=iso-8859-1"
    assert (
        "attachment" in response["Content-Disposition"]
        and "egf_db" in response["Content-Disposition"]
    )
    row = _pin_lines(response.content.decode("iso-8859-1"))["10949763"]
    # Rivne has no grade of its own here: its start index gives 2140 as 1 dan (rivne.md B3)
    assert (row[11:48].rstrip(), row[60:63], row[71:75]) == ("Müller Jörg", " 1d", "2140")
    fide = client.get("/ratings/go/file/fide/").content.decode("iso-8859-1")
    assert fide.splitlines()[1][15:76].rstrip() == "Müller, Jörg"

    snapshot = PublishedList.objects.create(rating_list=go, date=dt.date(2025, 4, 1))
    PublishedEntry.objects.create(snapshot=snapshot, member=member, rank=1, rating=2001.0)
    assert (
        'href="/ratings/go/2025-04-01/file/egd/"'
        in client.get("/ratings/go/2025-04-01/").content.decode()
    )
    published = client.get("/ratings/go/2025-04-01/file/egd/").content.decode("iso-8859-1")
    assert _pin_lines(published)["10949763"][71:75] == "2001"

    RatingListFactory(slug="chess", system="orr", game="chess")
    assert client.get("/ratings/chess/file/egd/").status_code == 404
    assert client.get("/ratings/chess/file/fide/").status_code == 200
    assert client.get("/ratings/go/2025-13-01/file/egd/").status_code == 404
    assert client.get("/ratings/go/2025-05-01/file/egd/").status_code == 404
    assert client.get("/ratings/nope/file/egd/").status_code == 404
