"""Each system's rules that live in the application around the engine (issue 6)."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from clubsite.models import FideRating
from ratings.models import ListTournament, PublishedEntry, RatingEntry, RatingHistory
from ratings.publication import rating_list_publish
from ratings.submissions.services import tournament_approve_and_rate as tournament_approve
from ratings.systems import rate_json
from ratings.systems.grades import Grade
from tests.factories import ClubFactory, MemberFactory, RatingListFactory, TournamentFactory
from tests.pipeline.builders import (
    SYSTEM_GAMES,
    members,
    staff_user,
    submitted,
    tournament_with_games,
)
from tournaments.models import Participant
from tournaments.services import Pairing, round_replace

pytestmark = pytest.mark.django_db


@pytest.fixture
def approve(django_capture_on_commit_callbacks):
    referee = staff_user()

    def run(tournament, *lists):
        submitted(tournament, *lists)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_approve(tournament=tournament, by=referee)

    return run


def _oracle(system: str, tournaments) -> dict[int, float | None]:
    """Chain rate_json by hand over the tournaments: the engine's contract, nothing else."""
    rating: dict[int, float | None] = {}
    history: dict[int, object] = {}
    best: dict[int, Grade] = {}
    go = SYSTEM_GAMES[system] == "go"
    for tournament in tournaments:
        games = list(tournament.games.filter(kind="played").order_by("round", "pk"))
        ids = sorted({g.white_id for g in games} | {g.black_id for g in games})
        participants = {p.member_id: p for p in tournament.participants.select_related("member")}
        players = []
        for member_id in ids:
            member = participants[member_id].member
            grade = participants[member_id].grade
            player = {
                "id": str(member_id),
                "rating": rating.get(member_id),
                "history": history.get(member_id),
            }
            if go:
                player["grade"] = str(grade)
            if system == "egf" and member_id in best:
                player["best_grade"] = str(best[member_id])
            if system == "orr" and member.birth_date:
                player["birth_date"] = member.birth_date.isoformat()
            players.append(player)
        event = {
            "system": system,
            "event": {
                "id": str(tournament.pk),
                "date": tournament.end_date.isoformat(),
                "class": tournament.tournament_class,
                "board": tournament.board_size,
                "official": tournament.official,
                "participants": max(len(participants), len(ids)),
            },
            "players": players,
            "games": [
                {
                    "round": g.round,
                    "white": str(g.white_id),
                    "black": str(g.black_id),
                    "result": g.result,
                    "handicap": g.handicap if go else 0,
                }
                for g in games
            ],
        }
        for result in rate_json(event)["players"]:
            member_id = int(result["id"])
            if result["rated"]:
                rating[member_id] = result["after"]
            history[member_id] = result["history"]
            grade = participants[member_id].grade
            if grade is not None and (member_id not in best or grade > best[member_id]):
                best[member_id] = grade
    return rating


@pytest.mark.parametrize("system", sorted(SYSTEM_GAMES))
def test_the_stored_list_equals_the_engine_chained_by_hand(system, approve):
    """Birth dates (orr), carried history (rivne, orr), best grades (egf), class and board."""
    rng = random.Random(21)
    club = ClubFactory()
    players = members(rng, club, 12)
    rating_list = RatingListFactory(system=system, game=SYSTEM_GAMES[system])
    tournaments = []
    for i in range(4):
        tournament = tournament_with_games(
            rng,
            club=club,
            players=players,
            system=system,
            day=dt.date(2022, 2, 1) + dt.timedelta(days=40 * i),
            draws=system != "egf",
        )
        tournament.tournament_class = "ABCA"[i]
        tournament.board_size = 19 if system != "rivne" else (19, 13, 19, 9)[i]
        tournament.official = i != 1
        tournament.save()
        tournaments.append(tournament)
    for tournament in reversed(tournaments):
        approve(tournament, rating_list)
    stored = dict(
        RatingEntry.objects.filter(rating_list=rating_list, rated=True).values_list(
            "member_id", "rating"
        )
    )
    expected = {m: r for m, r in _oracle(system, tournaments).items() if r is not None}
    assert stored == expected


def _pair(tournament, white, black, result="white", round_number=1, handicap=0):
    round_replace(
        tournament=tournament,
        round_number=round_number,
        pairings=[Pairing(white=white, black=black, result=result, handicap=handicap)],
        by=None,
    )


def _entrants(tournament, *players, grades=None):
    for index, member in enumerate(players):
        grade = grades[index] if grades else member.grade
        Participant.objects.create(tournament=tournament, member=member, grade=grade)


def test_egf_reset_from_the_best_grade_professed_before(approve):
    rating_list = RatingListFactory(system="egf")
    a, b = MemberFactory(grade="5k"), MemberFactory(grade="5k")
    first = TournamentFactory(end_date=dt.date(2023, 1, 1), start_date=dt.date(2023, 1, 1))
    _entrants(first, a, b)
    _pair(first, a, b, result="black")
    approve(first, rating_list)
    second = TournamentFactory(end_date=dt.date(2023, 3, 1), start_date=dt.date(2023, 3, 1))
    _entrants(second, a, b, grades=["2k", "5k"])  # a now professes three grades stronger
    _pair(second, a, b)
    approve(second, rating_list)
    row = RatingHistory.objects.get(rating_list=rating_list, member=a, tournament=second)
    assert row.rating_in < 1600
    assert row.before == 1900.0  # the value of 2k
    assert row.reset


def test_egf_inactivity_window_depends_on_the_grade(approve):
    rating_list = RatingListFactory(system="egf")
    day = dt.date(2024, 1, 15)
    dan, kyu, weak = (
        MemberFactory(grade="2d"),
        MemberFactory(grade="5k"),
        MemberFactory(grade="15k"),
    )
    tournament = TournamentFactory(start_date=day, end_date=day)
    _entrants(tournament, dan, kyu, weak)
    round_replace(
        tournament=tournament,
        round_number=1,
        by=None,
        pairings=[
            Pairing(white=dan, black=kyu, result="white"),
            Pairing(white=weak, black=None, kind="bye_full"),
        ],
    )
    round_replace(
        tournament=tournament,
        round_number=2,
        by=None,
        pairings=[
            Pairing(white=weak, black=kyu, result="black"),
        ],
    )
    approve(tournament, rating_list)
    until = dict(
        RatingEntry.objects.filter(rating_list=rating_list).values_list("member_id", "active_until")
    )
    # Issue 20 / egf.md §8: whole months, the month (year) of the last event not counted.
    assert until[dan.pk] == dt.date(2026, 12, 31)
    assert until[kyu.pk] == dt.date(2025, 1, 31)
    assert until[weak.pk] == dt.date(2024, 7, 31)


def test_ufgo_does_not_rate_an_event_under_45_minutes(approve):
    rating_list = RatingListFactory(system="ufgo")
    a, b = MemberFactory(grade="3k"), MemberFactory(grade="3k")
    tournament = TournamentFactory(basic_time_minutes=30)
    _entrants(tournament, a, b)
    _pair(tournament, a, b)
    approve(tournament, rating_list)
    link = ListTournament.objects.get(rating_list=rating_list, tournament=tournament)
    assert "45 minutes" in link.not_rated_reason
    assert link.rated_at is None
    assert not RatingHistory.objects.filter(rating_list=rating_list).exists()


def test_ufgo_45_to_59_minutes_keeps_the_ik_of_players_above_2100(approve):
    rating_list = RatingListFactory(system="ufgo")
    strong, weak = MemberFactory(grade="3d"), MemberFactory(grade="5k")
    first = TournamentFactory(basic_time_minutes=90)
    _entrants(first, strong, weak)
    _pair(first, strong, weak)  # the expected result: both get an IK in the list
    approve(first, rating_list)
    second = TournamentFactory(
        basic_time_minutes=50, start_date=dt.date(2024, 6, 1), end_date=dt.date(2024, 6, 1)
    )
    _entrants(second, strong, weak)
    _pair(second, strong, weak, result="black")  # the weaker player wins
    approve(second, rating_list)
    kept = RatingHistory.objects.get(rating_list=rating_list, member=strong, tournament=second)
    gained = RatingHistory.objects.get(rating_list=rating_list, member=weak, tournament=second)
    assert kept.rating_in > 2100
    assert kept.after == kept.rating_in and kept.change == 0
    assert gained.rating_in < 2100
    assert gained.change > 0  # the game still counts for his opponent


def test_ufgo_floating_grade_after_each_event_and_dan_at_publication(approve):
    rating_list = RatingListFactory(system="ufgo")
    strong, other = MemberFactory(grade="5d"), MemberFactory(grade="5d")
    tournament = TournamentFactory(end_date=dt.date(2024, 3, 20), start_date=dt.date(2024, 3, 20))
    _entrants(tournament, strong, other)
    _pair(tournament, strong, other)
    approve(tournament, rating_list)
    entry = RatingEntry.objects.get(rating_list=rating_list, member=strong)
    assert entry.rating >= 2500
    assert entry.grade == Grade("d", 3)  # floating grades stop at 3 dan (2.4)
    snapshot = rating_list_publish(rating_list=rating_list, date=dt.date(2024, 4, 1))
    published = PublishedEntry.objects.get(snapshot=snapshot, member=strong)
    assert published.grade == Grade("d", 5)  # earned at the quarterly publication (2.5)
    entry.refresh_from_db()
    assert entry.grade == Grade("d", 5)


def test_orr_newcomer_with_a_fide_rating_enters_with_it(approve):
    rating_list = RatingListFactory(system="orr", game="chess")
    rated = MemberFactory(grade=None, fide_rating=1800, birth_date=dt.date(2012, 1, 1))
    # Issue 20: a FIDE rating seeds a newcomer only with the date it became valid.
    FideRating.objects.create(member=rated, rating=1800, valid_from=dt.date(2000, 1, 1))
    others = [MemberFactory(grade=None, birth_date=dt.date(2013, 1, 1)) for _ in range(3)]
    tournament = TournamentFactory(game="chess")
    _entrants(tournament, rated, *others)
    round_replace(
        tournament=tournament,
        round_number=1,
        by=None,
        pairings=[
            Pairing(white=rated, black=others[0], result="white"),
            Pairing(white=others[1], black=others[2], result="draw"),
        ],
    )
    approve(tournament, rating_list)
    row = RatingHistory.objects.get(rating_list=rating_list, member=rated)
    assert row.rating_in is None
    assert row.before == 1800


def test_orr_zero_scorer_stays_unrated_but_known(approve):
    rating_list = RatingListFactory(system="orr", game="chess")
    players = [MemberFactory(grade=None, birth_date=dt.date(2014, 5, 5)) for _ in range(4)]
    tournament = TournamentFactory(game="chess")
    _entrants(tournament, *players)
    round_replace(
        tournament=tournament,
        round_number=1,
        by=None,
        pairings=[
            Pairing(white=players[0], black=players[1], result="white"),
            Pairing(white=players[2], black=players[3], result="draw"),
        ],
    )
    approve(tournament, rating_list)
    # Issue 20 / orr.md D15: a zero-score debut is neither stored nor counted.
    assert not RatingEntry.objects.filter(rating_list=rating_list, member=players[1]).exists()
    assert not RatingHistory.objects.filter(rating_list=rating_list, member=players[1]).exists()
    winner = RatingHistory.objects.get(rating_list=rating_list, member=players[0])
    assert winner.rated and winner.after is not None  # his game counted for the winner


def test_uscf_rates_games_in_round_order(approve):
    rating_list = RatingListFactory(system="uscf", game="reversi")
    a, b, c = (MemberFactory(grade=None) for _ in range(3))
    tournament = TournamentFactory(game="reversi")
    _entrants(tournament, a, b, c)
    _pair(tournament, a, b, result="white", round_number=2)
    _pair(tournament, a, c, result="black", round_number=1)
    approve(tournament, rating_list)
    row = RatingHistory.objects.get(rating_list=rating_list, member=a)
    assert [g["round"] for g in row.breakdown] == [1, 2]
    assert row.breakdown[0]["opponent"] == c.pk
    assert row.after == row.before + sum(g["change"] for g in row.breakdown)


def test_rivne_carries_its_history_between_events(approve):
    rating_list = RatingListFactory(system="rivne")
    low, high = MemberFactory(grade="25k"), MemberFactory(grade="20k")
    days = [dt.date(2024, 1, 1), dt.date(2024, 2, 1)]
    for day in days:
        tournament = TournamentFactory(start_date=day, end_date=day)
        _entrants(tournament, low, high)
        _pair(tournament, low, high)
        approve(tournament, rating_list)
    rows = list(RatingHistory.objects.filter(rating_list=rating_list, member=low).order_by("date"))
    assert rows[0].history is not None
    entry = RatingEntry.objects.get(rating_list=rating_list, member=low)
    assert entry.history == rows[-1].history


def test_egf_does_not_rate_events_before_1996_or_games_under_30_minutes(approve):
    rating_list = RatingListFactory(system="egf")
    a, b = MemberFactory(grade="3k"), MemberFactory(grade="3k")
    old = TournamentFactory(start_date=dt.date(1995, 6, 1), end_date=dt.date(1995, 6, 2))
    blitz = TournamentFactory(basic_time_minutes=10, overtime_kind="sudden_death")
    for tournament in (old, blitz):
        _entrants(tournament, a, b)
        _pair(tournament, a, b)
        approve(tournament, rating_list)
    reasons = dict(
        ListTournament.objects.filter(rating_list=rating_list).values_list(
            "tournament_id", "not_rated_reason"
        )
    )
    assert "1996" in reasons[old.pk]
    assert "below class C" in reasons[blitz.pk]
    assert not RatingHistory.objects.filter(rating_list=rating_list).exists()


def test_egf_rates_no_stronger_class_than_the_time_control_allows(approve):
    rating_list = RatingListFactory(system="egf")
    a, b = MemberFactory(grade="3k"), MemberFactory(grade="3k")
    # 30 min + 30 s byoyomi: adjusted 52.5 min, basic 30 → class C at best, entered as A.
    tournament = TournamentFactory(basic_time_minutes=30, tournament_class="A")
    _entrants(tournament, a, b)
    _pair(tournament, a, b)
    approve(tournament, rating_list)
    row = RatingHistory.objects.get(rating_list=rating_list, member=a)
    full_weight = rate_json(
        {
            "system": "egf",
            "event": {"id": "x", "date": "2024-05-01", "class": "A"},
            "players": [
                {"id": "a", "rating": None, "grade": "3k"},
                {"id": "b", "rating": None, "grade": "3k"},
            ],
            "games": [{"round": 1, "white": "a", "black": "b", "result": "white"}],
        }
    )["players"][0]["change"]
    assert row.change == pytest.approx(full_weight * 0.5)  # class C weight


def test_ufgo_k3_only_for_official_tournaments(approve):
    changes = {}
    for official in (True, False):
        rating_list = RatingListFactory(system="ufgo")
        a, b = MemberFactory(grade="10k"), MemberFactory(grade="10k")
        tournament = TournamentFactory(official=official)
        _entrants(tournament, a, b)
        _pair(tournament, a, b)
        approve(tournament, rating_list)
        changes[official] = RatingHistory.objects.get(rating_list=rating_list, member=a).change
    assert changes[True] > changes[False] > 0


def test_forfeits_and_byes_are_not_sent_to_the_engine(approve):
    rating_list = RatingListFactory(system="egf")
    a, b, c = MemberFactory(grade="3k"), MemberFactory(grade="3k"), MemberFactory(grade="3k")
    tournament = TournamentFactory()
    _entrants(tournament, a, b, c)
    round_replace(
        tournament=tournament,
        round_number=1,
        by=None,
        pairings=[
            Pairing(white=a, black=b, result="white"),
            Pairing(white=c, black=None, kind="bye_full"),
        ],
    )
    round_replace(
        tournament=tournament,
        round_number=2,
        by=None,
        pairings=[
            Pairing(white=c, black=a, result="white", kind="forfeit"),
        ],
    )
    approve(tournament, rating_list)
    row = RatingHistory.objects.get(rating_list=rating_list, member=a)
    assert [(g["round"], g["opponent"]) for g in row.breakdown] == [(1, b.pk)]
    assert not RatingHistory.objects.filter(rating_list=rating_list, member=c).exists()


def test_tournaments_on_one_date_are_rated_in_id_order(approve):
    rating_list = RatingListFactory(system="egf")
    a, b = MemberFactory(grade="3k"), MemberFactory(grade="3k")
    day = dt.date(2024, 4, 4)
    first, second = (TournamentFactory(start_date=day, end_date=day) for _ in range(2))
    for tournament, result in ((first, "white"), (second, "black")):
        _entrants(tournament, a, b)
        _pair(tournament, a, b, result=result)
    for tournament in (second, first):  # approved newest id first
        approve(tournament, rating_list)
    rows = list(
        RatingHistory.objects.filter(rating_list=rating_list, member=a)
        .order_by("sequence")
        .values_list("tournament_id", "rating_in")
    )
    assert [t for t, _ in rows] == [first.pk, second.pk]
    assert rows[0][1] is None and rows[1][1] is not None


def test_a_failed_recompute_names_the_tournament_and_the_member(approve):
    rating_list = RatingListFactory(system="egf")
    a = MemberFactory(grade=None, family_name="Gradeless", given_name="Oksana")
    b = MemberFactory(grade="3k")
    tournament = TournamentFactory(name="Kyiv Spring")
    _entrants(tournament, a, b, grades=[None, "3k"])
    _pair(tournament, a, b)
    approve(tournament, rating_list)
    rating_list.refresh_from_db()
    assert rating_list.state == "failed"
    assert "Kyiv Spring" in rating_list.last_error
    assert "Oksana Gradeless" in rating_list.last_error
    assert "grade" in rating_list.last_error


def test_published_ufgo_grades_survive_a_later_recompute(approve):
    from ratings.recompute.services import rating_list_recompute

    rating_list = RatingListFactory(system="ufgo")
    strong, other = MemberFactory(grade="5d"), MemberFactory(grade="5d")
    tournament = TournamentFactory(end_date=dt.date(2024, 3, 20), start_date=dt.date(2024, 3, 20))
    _entrants(tournament, strong, other)
    _pair(tournament, strong, other)
    approve(tournament, rating_list)
    rating_list_publish(rating_list=rating_list, date=dt.date(2024, 4, 1))
    # A later event, then a full recompute: the 5 dan given at publication is handed on.
    later = TournamentFactory(end_date=dt.date(2024, 5, 5), start_date=dt.date(2024, 5, 5))
    _entrants(later, strong, other)
    _pair(later, strong, other)
    approve(later, rating_list)
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(2000, 1, 1))
    assert RatingEntry.objects.get(rating_list=rating_list, member=strong).grade == Grade("d", 5)
    row = RatingHistory.objects.get(rating_list=rating_list, member=strong, tournament=later)
    assert row.list_grade == Grade("d", 5)
    # And a recompute that starts after the publication reads it from the stored history.
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="t", from_date=dt.date(2024, 5, 1))
    assert RatingEntry.objects.get(rating_list=rating_list, member=strong).grade == Grade("d", 5)


def test_ufgo_publication_lowers_a_dan_but_never_past_sixty(approve):
    """2.6 and 2.7 at publication, from the member's birth date (ufgo.md B9)."""
    rating_list = RatingListFactory(system="ufgo")
    senior = MemberFactory(grade="4d", birth_date=dt.date(1950, 1, 1))
    junior = MemberFactory(grade="4d", birth_date=dt.date(1990, 1, 1))
    tournament = TournamentFactory(end_date=dt.date(2024, 3, 20), start_date=dt.date(2024, 3, 20))
    _entrants(tournament, senior, junior)
    _pair(tournament, senior, junior)
    approve(tournament, rating_list)
    # Both hold a permanent 4 dan with an IK far below its norm (2400 - 151).
    RatingHistory.objects.filter(rating_list=rating_list).update(after=2100.0, list_grade=4)
    snapshot = rating_list_publish(rating_list=rating_list, date=dt.date(2024, 4, 1))
    grades = dict(snapshot.entries.values_list("member_id", "grade"))
    assert grades[senior.pk] == Grade("d", 4)  # older than 60: never lowered
    assert grades[junior.pk] == Grade("d", 2)  # 4 dan falls back to a floating 2 dan


def test_orr_ages_count_a_birth_year_alone_from_1_july(approve):
    """orr.md D8: a file that gives only the year (TRF) → born 1 July of that year."""
    rating_list = RatingListFactory(system="orr", game="chess")
    rated = MemberFactory(grade=None, birth_date=dt.date(2011, 3, 3), fide_rating=1500)
    FideRating.objects.create(member=rated, rating=1500, valid_from=dt.date(2024, 1, 1))
    newcomer = MemberFactory(grade=None, birth_date=None, birth_year=2015)
    tournament = TournamentFactory(
        game="chess", end_date=dt.date(2024, 6, 30), start_date=dt.date(2024, 6, 30)
    )
    _entrants(tournament, rated, newcomer)
    _pair(tournament, rated, newcomer, result="draw")
    approve(tournament, rating_list)
    stored = RatingHistory.objects.get(rating_list=rating_list, member=newcomer).after
    expected = rate_json(
        {
            "system": "orr",
            "event": {"id": "x", "date": "2024-06-30"},
            "players": [
                {"id": "r", "rating": 1500, "birth_date": "2011-03-03"},
                {"id": "n", "rating": None, "birth_date": "2015-07-01"},
            ],
            "games": [{"round": 1, "white": "r", "black": "n", "result": "draw"}],
        }
    )["players"][1]["after"]
    assert stored == expected
