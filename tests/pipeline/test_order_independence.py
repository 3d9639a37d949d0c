"""Approving in any order gives the list a chronological replay gives (issue 6)."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from ratings.models import Baseline, BaselineRow, RatingEntry, RatingHistory
from ratings.submissions.services import tournament_approve_and_rate as tournament_approve
from ratings.submissions.services import tournament_reopen_and_unrate as tournament_reopen
from ratings.systems import rate_json
from tests.factories import ClubFactory, RatingListFactory
from tests.pipeline.builders import (
    SYSTEM_GAMES,
    members,
    staff_user,
    submitted,
    tournament_with_games,
)
from tournaments.services import tournament_submit

pytestmark = pytest.mark.django_db


def history_snapshot(rating_list):
    return sorted(
        RatingHistory.objects.filter(rating_list=rating_list).values_list(
            "member_id", "tournament_id", "rating_in", "before", "after", "provisional", "anomalous"
        )
    )


def entries_snapshot(rating_list):
    return sorted(
        RatingEntry.objects.filter(rating_list=rating_list).values_list(
            "member_id", "rating", "provisional", "tournaments", "games", "last_played"
        )
    )


@pytest.mark.parametrize("system", sorted(SYSTEM_GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_shuffled_approvals_equal_chronological_replay(
    system, seed, django_capture_on_commit_callbacks
):
    rng = random.Random(seed)
    club = ClubFactory()
    players = members(rng, club, 14)
    shuffled = RatingListFactory(
        system=system, game=SYSTEM_GAMES[system], slug=f"shuffled-{system}"
    )
    ordered = RatingListFactory(system=system, game=SYSTEM_GAMES[system], slug=f"ordered-{system}")
    start = dt.date(2023, 1, 7)
    tournaments = [
        tournament_with_games(
            rng,
            club=club,
            players=players,
            system=system,
            day=start + dt.timedelta(days=30 * i),
            draws=system != "egf",
        )
        for i in range(6)
    ]
    referee = staff_user()
    for tournament in tournaments:
        submitted(tournament, shuffled, ordered)
    approval_order = tournaments[:]
    rng.shuffle(approval_order)
    # The "ordered" list sees each tournament only once all earlier ones are in.
    for tournament in approval_order:
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    shuffled_history = history_snapshot(shuffled)
    # Rebuild the second list strictly in date order: take everything out, put back in order.
    ordered.tournaments.clear()
    from ratings.models import ListTournament

    for tournament in tournaments:
        ListTournament.objects.create(rating_list=ordered, tournament=tournament)
        from ratings.recompute.services import rating_list_recompute

        rating_list_recompute(
            rating_list_id=ordered.pk, trigger="test", from_date=tournament.end_date
        )
    assert len(shuffled_history) > 0
    by_list = {
        "shuffled": [row[:1] + row[2:] for row in shuffled_history],
        "ordered": [row[:1] + row[2:] for row in history_snapshot(ordered)],
    }
    assert by_list["shuffled"] == by_list["ordered"]
    assert [e[1:] for e in entries_snapshot(shuffled)] == [e[1:] for e in entries_snapshot(ordered)]


def _approve_shuffled_and_replay_in_order(rng, system, tournaments, shuffled, ordered):
    """Approve into `shuffled` in a random order, rebuild `ordered` strictly by date."""
    from ratings.models import ListTournament
    from ratings.recompute.services import rating_list_recompute

    referee = staff_user()
    for tournament in tournaments:
        submitted(tournament, shuffled, ordered)
    approval_order = tournaments[:]
    rng.shuffle(approval_order)
    for tournament in approval_order:
        tournament_approve(tournament=tournament, by=referee)
    ordered.tournaments.clear()
    for tournament in tournaments:
        ListTournament.objects.create(rating_list=ordered, tournament=tournament)
        rating_list_recompute(
            rating_list_id=ordered.pk, trigger="test", from_date=tournament.end_date
        )


@pytest.mark.parametrize("system", ["ufgo", "uscf"])
@pytest.mark.parametrize("seed", [1, 2])
def test_shuffled_approvals_equal_chronological_replay_below_100(
    system, seed, django_capture_on_commit_callbacks
):
    """Issue 19's rules in the pipeline: players who start below 100. ufgo: a results
    file's declared rating starts a newcomer (D2), and RA applies to him too (D14); uscf:
    a declared rating no longer starts a newcomer (issue 20, finding 8), so both lists
    start from a baseline at 85-99, and the floor never lifts a rating (U8). The checks at
    the end make sure the new rules really fired."""
    rng = random.Random(seed)
    club = ClubFactory()
    players = members(rng, club, 14)
    shuffled = RatingListFactory(
        system=system, game=SYSTEM_GAMES[system], slug=f"shuffled-{system}"
    )
    ordered = RatingListFactory(system=system, game=SYSTEM_GAMES[system], slug=f"ordered-{system}")
    start = dt.date(2023, 1, 7)
    if system == "uscf":
        starts = {member.pk: rng.randint(85, 99) for member in players}
        for rating_list in (shuffled, ordered):
            baseline = Baseline.objects.create(
                rating_list=rating_list, date=start - dt.timedelta(days=1), source="csv"
            )
            for member in players:
                BaselineRow.objects.create(
                    baseline=baseline, member=member, rating=starts[member.pk]
                )
    tournaments = []
    for i in range(6):
        tournament = tournament_with_games(
            rng,
            club=club,
            players=players,
            system=system,
            day=start + dt.timedelta(days=30 * i),
            rounds=1 if i == 0 else 3,
            draws=True,
        )
        for participant in tournament.participants.all():
            participant.rating_declared = 99 if i == 0 else rng.randint(85, 99)
            participant.save(update_fields=["rating_declared"])
        tournaments.append(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        _approve_shuffled_and_replay_in_order(rng, system, tournaments, shuffled, ordered)
    shuffled_history = history_snapshot(shuffled)
    assert [r[:1] + r[2:] for r in shuffled_history] == [
        r[:1] + r[2:] for r in history_snapshot(ordered)
    ]
    assert [e[1:] for e in entries_snapshot(shuffled)] == [e[1:] for e in entries_snapshot(ordered)]
    first = RatingHistory.objects.filter(rating_list=shuffled, tournament=tournaments[0])
    assert first.count() > 0
    if system == "ufgo":
        # The first event (one round) has only newcomers, starting from their declared 99.
        assert all(row.rating_in is None for row in first)
        # Everybody starts the one round below 100, so no Table 5 points and 5.4 cannot
        # fire: an anomaly there is RA's (D14; a 99 who wins goes to 140, 41 > RA 27).
        assert any(row.anomalous for row in first)
    else:
        assert all(row.before < 100 for row in first)
        # Before the revision every rated rating below 100 was lifted to 100 (U8).
        assert any(row.after < 100 for row in first)


def test_egf_chain_matches_the_engine_called_directly(django_capture_on_commit_callbacks):
    """An independent oracle: chain rate_json over the tournaments by hand."""
    rng = random.Random(5)
    club = ClubFactory()
    players = members(rng, club, 10)
    rating_list = RatingListFactory(system="egf")
    tournaments = [
        tournament_with_games(rng, club=club, players=players, day=dt.date(2022, 3, 1 + 3 * i))
        for i in range(4)
    ]
    referee = staff_user()
    for tournament in reversed(tournaments):
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)

    ratings: dict[int, float] = {}
    best: dict[int, str] = {}
    for tournament in tournaments:
        games = tournament.games.filter(kind="played").order_by("round", "pk")
        ids = sorted({g.white_id for g in games} | {g.black_id for g in games})
        grades = {p.member_id: str(p.grade) for p in tournament.participants.all()}
        event = {
            "system": "egf",
            "event": {"id": str(tournament.pk), "date": tournament.end_date.isoformat()},
            "players": [
                {
                    "id": str(m),
                    "rating": ratings.get(m),
                    "grade": grades[m],
                    "best_grade": best.get(m),
                }
                for m in ids
            ],
            "games": [
                {
                    "round": g.round,
                    "white": str(g.white_id),
                    "black": str(g.black_id),
                    "result": g.result,
                    "handicap": g.handicap,
                }
                for g in games
            ],
        }
        for player in rate_json(event)["players"]:
            ratings[int(player["id"])] = player["after"]
        for m in ids:
            best[m] = max([best.get(m), grades[m]], key=lambda g: (g is not None, _rank(g)))
    stored = dict(
        RatingEntry.objects.filter(rating_list=rating_list).values_list("member_id", "rating")
    )
    assert stored == ratings


def _rank(grade):
    from ratings.systems.grades import Grade

    return Grade.parse(grade).rank if grade else -99


def test_reopen_edit_reapprove_equals_fresh_list(django_capture_on_commit_callbacks):
    rng = random.Random(9)
    club = ClubFactory()
    players = members(rng, club, 10)
    rating_list = RatingListFactory(system="egf")
    tournaments = [
        tournament_with_games(rng, club=club, players=players, day=dt.date(2021, 1, 10 + 5 * i))
        for i in range(3)
    ]
    referee = staff_user()
    for tournament in tournaments:
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    first = tournaments[0]
    with django_capture_on_commit_callbacks(execute=True):
        tournament_reopen(tournament=first, by=referee)
    assert not RatingHistory.objects.filter(rating_list=rating_list, tournament=first).exists()
    game = first.games.filter(kind="played").first()
    game.result = "black" if game.result == "white" else "white"
    game.save()
    club.admins.add(referee)
    tournament_submit(tournament=first, by=referee)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve(tournament=first, by=referee)
    corrected = history_snapshot(rating_list)

    fresh = RatingListFactory(system="egf", slug="fresh")
    for tournament in tournaments:
        from ratings.models import ListTournament

        ListTournament.objects.create(rating_list=fresh, tournament=tournament)
    from ratings.recompute.services import rating_list_recompute

    rating_list_recompute(rating_list_id=fresh.pk, trigger="test", from_date=dt.date(2000, 1, 1))
    assert [r[:1] + r[2:] for r in corrected] == [r[:1] + r[2:] for r in history_snapshot(fresh)]
    assert RatingHistory.objects.filter(rating_list=rating_list, tournament=first).exists()


def test_recompute_twice_changes_nothing(django_capture_on_commit_callbacks):
    rng = random.Random(3)
    club = ClubFactory()
    players = members(rng, club, 8)
    rating_list = RatingListFactory(system="rivne")
    tournament = tournament_with_games(rng, club=club, players=players, day=dt.date(2020, 5, 5))
    submitted(tournament, rating_list)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve(tournament=tournament, by=staff_user())
    before = history_snapshot(rating_list), entries_snapshot(rating_list)
    from ratings.recompute.services import rating_list_recompute

    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(2020, 1, 1))
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(2020, 1, 1))
    assert (history_snapshot(rating_list), entries_snapshot(rating_list)) == before


def test_reopening_the_only_tournament_of_some_players_restores_their_earlier_standing(
    django_capture_on_commit_callbacks,
):
    rng = random.Random(11)
    club = ClubFactory()
    players = members(rng, club, 12)
    rating_list = RatingListFactory(system="egf")
    early = tournament_with_games(rng, club=club, players=players[:6], day=dt.date(2021, 1, 1))
    late = tournament_with_games(rng, club=club, players=players, day=dt.date(2021, 6, 1))
    referee = staff_user()
    for tournament in (early, late):
        submitted(tournament, rating_list)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)
    early_only = dict(
        RatingHistory.objects.filter(rating_list=rating_list, tournament=early).values_list(
            "member_id", "after"
        )
    )
    with django_capture_on_commit_callbacks(execute=True):
        tournament_reopen(tournament=late, by=referee)
    entries = dict(
        RatingEntry.objects.filter(rating_list=rating_list).values_list("member_id", "rating")
    )
    assert entries == early_only


def test_fast_breakdown_json_equals_json_dumps():
    import json

    from hypothesis import given
    from hypothesis import strategies as st

    from ratings.recompute.bulk import breakdown_json
    from ratings.recompute.state import BREAKDOWN_FIELDS

    number = st.one_of(
        st.none(), st.integers(-5000, 5000), st.floats(allow_nan=False, allow_infinity=False)
    )
    game = st.fixed_dictionaries(
        {
            "round": st.integers(1, 99),
            "opponent": st.integers(1, 10**9),
            "opponent_rating": number,
            "score": st.sampled_from([0, 0.5, 1, 1.0, 0.0]),
            "expected": number,
            "change": number,
        }
    )

    @given(st.lists(game, max_size=12))
    def check(games):
        rows = [tuple(g[name] for name in BREAKDOWN_FIELDS) for g in games]
        assert json.loads(breakdown_json(rows)) == games

    check()
