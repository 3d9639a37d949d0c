"""All 84 real EGD tables import into one database, and export back to the same table.

One module-wide database: the tables are imported in order into the same rating
list, as a federation would, so later tables find earlier tables' players by PIN.
"""

from __future__ import annotations

import io
import time

import pytest
from django.core.management import call_command
from django.db.models import Count, Min

from clubsite.models import Club, Member
from ratings.models import RatingList
from ratings.services import rating_list_create
from tournaments.formats import parse, write
from tournaments.importing import tournament_to_results
from tournaments.models import Game, Participant, RoundSeat, Tournament

from .helpers import stored_byes, stored_games, table_paths

TABLES = table_paths()


@pytest.fixture(scope="module")
def imported(django_db_setup, django_db_blocker):
    """file name → (tournament id, or the error) after importing every table once."""
    with django_db_blocker.unblock():
        marks = {
            model: model.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            for model in (Tournament, Member, Club, RatingList)
        }
        rating_list = rating_list_create(slug="egd-import-test", system="egf", name="EGD test")
        outcome: dict[str, int | Exception] = {}
        started = time.perf_counter()
        for path in TABLES:
            out = io.StringIO()
            try:
                call_command(
                    "import_tournament", str(path), "--list", rating_list.slug,
                    "--format", "egd", stdout=out,
                )  # fmt: skip
                outcome[path.name] = int(out.getvalue().strip().splitlines()[-1].split()[1])
            except Exception as error:  # noqa: BLE001 - reported by the file's own test
                outcome[path.name] = error
        print(f"\nimported {len(TABLES)} EGD tables in {time.perf_counter() - started:.1f} s")
        yield outcome
        for model in (Tournament, Member, Club, RatingList):
            model.objects.filter(pk__gt=marks[model]).delete()


def test_there_are_84_tables():
    assert len(TABLES) == 84


@pytest.mark.django_db
@pytest.mark.parametrize("path", TABLES, ids=[p.name for p in TABLES])
def test_table_imports_and_exports_unchanged(path, imported):
    tournament_id = imported[path.name]
    assert not isinstance(tournament_id, Exception), str(tournament_id)
    tournament = Tournament.objects.get(pk=tournament_id)
    original = parse(path.read_bytes(), "egd", path.name)

    # What was saved: every player, every game and bye with its round seats.
    assert tournament.status == Tournament.Status.SUBMITTED
    assert tournament.participants.count() == len(original.players)
    seats = 2 * len(original.games) + len(original.byes)
    assert RoundSeat.objects.filter(tournament=tournament).count() == seats
    rated = sum(1 for g in original.games if g.is_rated)
    assert tournament.games.filter(kind=Game.Kind.PLAYED).count() == rated
    linked = original.details.tournament_class in (None, "A", "B", "C")
    assert tournament.rating_lists.exists() == linked

    # Export and read back: PINs, grades, clubs, places, colours, handicaps, results survive.
    text = write(tournament_to_results(tournament=tournament), "egd")
    again = parse(text.encode(), "egd", path.name)
    assert stored_games(again) == stored_games(original)
    assert stored_byes(again) == stored_byes(original)
    created_here = _members_created_by(tournament)
    members_by_place = dict(tournament.participants.values_list("place", "member_id"))
    for before, after in zip(original.players, again.players, strict=True):
        assert after.key == before.key
        assert after.place == before.place
        assert after.grade == before.grade
        assert after.egd_pin == before.egd_pin
        assert after.club == before.club
        if (
            members_by_place[before.place] in created_here
        ):  # a member found by PIN keeps his own spelling
            assert (after.family_name, after.given_name) == (before.family_name, before.given_name)
            assert after.country == before.country
    _assert_same_details(original.details, again.details)


def _members_created_by(tournament: Tournament) -> set[int]:
    """Members whose first participation is this tournament: the import created them."""
    ids = tournament.participants.values_list("member_id", flat=True)
    firsts = (
        Participant.objects.filter(member_id__in=ids)
        .values("member_id")
        .annotate(first=Min("pk"))
        .values_list("first", flat=True)
    )
    return set(
        Participant.objects.filter(pk__in=firsts, tournament=tournament).values_list(
            "member_id", flat=True
        )
    )


def _assert_same_details(before, after) -> None:
    assert after.name == before.name
    assert (after.country, after.city) == (before.country, before.city)
    assert sorted([after.start_date, after.end_date]) == sorted(
        [before.start_date, before.end_date]
    )
    if before.tournament_class in ("A", "B", "C"):
        assert after.tournament_class == before.tournament_class
    assert after.handicap_rule == (before.handicap_rule if before.handicap_rule is not None else 9)
    assert after.komi == before.komi
    if before.time_control and before.time_control.adjusted_minutes is not None:
        # TM[62.5] is stored as written, not rounded to whole minutes.
        assert after.time_control.adjusted_minutes == before.time_control.adjusted_minutes
    assert after.code == before.code  # TC[…]
    assert after.comment == before.comment  # CM[…], one line each
    assert after.rounds == before.rounds


@pytest.mark.django_db
def test_later_tables_find_earlier_players_by_pin(imported):
    """Players of several tables are one member each: no PIN is stored twice."""
    pins = list(Member.objects.exclude(egd_pin="").values_list("egd_pin", flat=True))
    assert len(pins) == len(set(pins))
    regulars = Participant.objects.values("member_id").annotate(n=Count("id")).filter(n__gt=1)
    assert regulars.count() > 100
