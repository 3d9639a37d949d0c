"""The results table's workflow (`tournaments/services.py`): who may do which step when.

draft → submitted → approved | rejected → (reopen) draft. Refusals are PermissionDenied
(wrong actor) or WorkflowError (wrong state); a refused step changes nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError

from clubsite.models import Club, Member
from ratings.models import ListTournament, RatingEntry, RatingHistory, RatingList, RecomputeRun
from ratings.submissions.services import tournament_approve_and_rate as tournament_approve
from ratings.submissions.services import tournament_reopen_and_unrate as tournament_reopen
from tests.factories import (
    ClubFactory,
    MemberFactory,
    ParticipantFactory,
    RatingListFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Game, RoundSeat, Tournament, TournamentLog
from tournaments.services import (
    Pairing,
    WorkflowError,
    round_replace,
    round_validate,
    tournament_reject,
    tournament_submit,
)

pytestmark = pytest.mark.django_db
Status = Tournament.Status
Action = TournamentLog.Action


@dataclass
class Scene:
    club: Club
    tournament: Tournament
    rating_list: RatingList
    players: list[Member]
    users: dict[str, Any]


ACTORS = [
    "anonymous",
    "unrelated",
    "club_admin",
    "other_admin",
    "referee",
    "other_referee",
    "staff",
]


@pytest.fixture
def scene() -> Scene:
    club = ClubFactory()
    tournament = TournamentFactory(organiser=club, start_date=dt.date(2024, 5, 1))
    rating_list = RatingListFactory(system="egf")
    other_list = RatingListFactory(system="egf")
    ListTournament.objects.create(rating_list=rating_list, tournament=tournament)
    players = [MemberFactory(club=club, grade=grade) for grade in ("5k", "3k", "1k", "2d")]
    for player in players:
        ParticipantFactory(tournament=tournament, member=player, grade=player.grade)
    users = {
        "anonymous": AnonymousUser(),
        "unrelated": UserFactory(username="unrelated"),
        "club_admin": UserFactory(username="club_admin"),
        "other_admin": UserFactory(username="other_admin"),
        "referee": UserFactory(username="referee"),
        "other_referee": UserFactory(username="other_referee"),
        "staff": UserFactory(username="staff", is_staff=True),
    }
    club.admins.add(users["club_admin"])
    ClubFactory().admins.add(users["other_admin"])
    rating_list.referees.add(users["referee"])
    other_list.referees.add(users["other_referee"])
    a, b, c, d = players
    round_replace(
        tournament=tournament,
        round_number=1,
        pairings=[Pairing(a, b, "white"), Pairing(c, d, "black")],
        by=users["club_admin"],
    )
    return Scene(club, tournament, rating_list, players, users)


def _set_status(tournament: Tournament, status: str) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(status=status)
    tournament.refresh_from_db()
    return tournament


def _unchanged(tournament: Tournament, status: str, logs: int) -> None:
    tournament.refresh_from_db()
    assert tournament.status == status
    assert TournamentLog.objects.filter(tournament=tournament).count() == logs


# --- submit ---------------------------------------------------------------------------


@pytest.mark.parametrize("actor", ACTORS)
def test_submit_per_actor(scene: Scene, actor: str) -> None:
    by = scene.users[actor]
    if actor in ("club_admin", "staff"):
        tournament = tournament_submit(tournament=scene.tournament, by=by)
        assert tournament.status == Status.SUBMITTED
        assert tournament.submitted_by == by
        assert tournament.submitted_at is not None
        log = TournamentLog.objects.get(tournament=tournament)
        assert (log.action, log.by) == (Action.SUBMITTED, by)
    else:
        with pytest.raises(PermissionDenied):
            tournament_submit(tournament=scene.tournament, by=by)
        _unchanged(scene.tournament, Status.DRAFT, 0)


@pytest.mark.parametrize("status", [Status.SUBMITTED, Status.APPROVED, Status.REJECTED])
def test_submit_only_from_draft(scene: Scene, status: str) -> None:
    tournament = _set_status(scene.tournament, status)
    with pytest.raises(WorkflowError):
        tournament_submit(tournament=tournament, by=scene.users["club_admin"])
    _unchanged(tournament, status, 0)


def test_submit_needs_games(scene: Scene) -> None:
    scene.tournament.games.all().delete()
    with pytest.raises(WorkflowError, match="at least one game"):
        tournament_submit(tournament=scene.tournament, by=scene.users["club_admin"])
    _unchanged(scene.tournament, Status.DRAFT, 0)


def test_submit_needs_a_rating_list(scene: Scene) -> None:
    ListTournament.objects.filter(tournament=scene.tournament).delete()
    with pytest.raises(WorkflowError, match="rating list"):
        tournament_submit(tournament=scene.tournament, by=scene.users["club_admin"])
    _unchanged(scene.tournament, Status.DRAFT, 0)


def test_submit_clears_the_previous_decision(scene: Scene) -> None:
    tournament = tournament_submit(tournament=scene.tournament, by=scene.users["club_admin"])
    tournament = tournament_reject(tournament=tournament, by=scene.users["referee"], comment="R2?")
    tournament = tournament_reopen(tournament=tournament, by=scene.users["club_admin"])
    tournament = tournament_submit(tournament=tournament, by=scene.users["club_admin"])
    assert tournament.decided_by is None
    assert tournament.decided_at is None
    assert tournament.decision_comment == ""


# --- approve / reject -------------------------------------------------------------------

DECIDERS = ("referee", "staff")


@pytest.mark.parametrize("actor", ACTORS)
def test_approve_per_actor(
    scene: Scene, actor: str, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = _set_status(scene.tournament, Status.SUBMITTED)
    by = scene.users[actor]
    if actor in DECIDERS:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            tournament = tournament_approve(tournament=tournament, by=by, comment="fine")
        assert len(callbacks) == 2  # the recompute, then the mail (issue 17)
        assert tournament.status == Status.APPROVED
        assert (tournament.decided_by, tournament.decision_comment) == (by, "fine")
        assert tournament.decided_at is not None
        log = TournamentLog.objects.get(tournament=tournament)
        assert (log.action, log.by, log.comment) == (Action.APPROVED, by, "fine")
    else:
        with (
            django_capture_on_commit_callbacks(execute=True) as callbacks,
            pytest.raises(PermissionDenied),
        ):
            tournament_approve(tournament=tournament, by=by)
        assert callbacks == []
        _unchanged(tournament, Status.SUBMITTED, 0)
        assert not RecomputeRun.objects.exists()


@pytest.mark.parametrize("status", [Status.DRAFT, Status.APPROVED, Status.REJECTED])
def test_approve_only_when_submitted(scene: Scene, status: str) -> None:
    tournament = _set_status(scene.tournament, status)
    with pytest.raises(WorkflowError):
        tournament_approve(tournament=tournament, by=scene.users["referee"])
    _unchanged(tournament, status, 0)


def test_approval_rates_the_table_after_commit(
    scene: Scene, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = tournament_submit(tournament=scene.tournament, by=scene.users["club_admin"])
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve(tournament=tournament, by=scene.users["referee"])
    scene.rating_list.refresh_from_db()
    assert scene.rating_list.state == RatingList.State.RATED
    assert scene.rating_list.pending_from is None
    run = RecomputeRun.objects.get(rating_list=scene.rating_list)
    assert run.outcome == RecomputeRun.Outcome.SUCCESS
    entries = RatingEntry.objects.filter(rating_list=scene.rating_list)
    assert {e.member_id for e in entries} == {p.pk for p in scene.players}
    history = RatingHistory.objects.filter(rating_list=scene.rating_list, tournament=tournament)
    assert history.count() == 4
    a, b = scene.players[:2]
    assert history.get(member=a).change > 0 > history.get(member=b).change


def test_approval_without_commit_only_marks_the_list_pending(scene: Scene) -> None:
    tournament = tournament_submit(tournament=scene.tournament, by=scene.users["club_admin"])
    tournament_approve(tournament=tournament, by=scene.users["referee"])
    scene.rating_list.refresh_from_db()
    assert scene.rating_list.state == RatingList.State.WAITING
    assert scene.rating_list.pending_from == tournament.end_date
    assert not RatingEntry.objects.exists()


@pytest.mark.parametrize("actor", ACTORS)
def test_reject_per_actor(scene: Scene, actor: str) -> None:
    tournament = _set_status(scene.tournament, Status.SUBMITTED)
    by = scene.users[actor]
    if actor in DECIDERS:
        tournament = tournament_reject(tournament=tournament, by=by, comment="  Round 2 missing ")
        assert tournament.status == Status.REJECTED
        assert tournament.decision_comment == "Round 2 missing"
        log = TournamentLog.objects.get(tournament=tournament)
        assert (log.action, log.by, log.comment) == (Action.REJECTED, by, "Round 2 missing")
    else:
        with pytest.raises(PermissionDenied):
            tournament_reject(tournament=tournament, by=by, comment="no")
        _unchanged(tournament, Status.SUBMITTED, 0)


@pytest.mark.parametrize("comment", ["", "   ", "\n\t"])
def test_reject_needs_a_comment(scene: Scene, comment: str) -> None:
    tournament = _set_status(scene.tournament, Status.SUBMITTED)
    with pytest.raises(WorkflowError, match="Say why"):
        tournament_reject(tournament=tournament, by=scene.users["referee"], comment=comment)
    _unchanged(tournament, Status.SUBMITTED, 0)


@pytest.mark.parametrize("status", [Status.DRAFT, Status.APPROVED, Status.REJECTED])
def test_reject_only_when_submitted(scene: Scene, status: str) -> None:
    tournament = _set_status(scene.tournament, status)
    with pytest.raises(WorkflowError):
        tournament_reject(tournament=tournament, by=scene.users["referee"], comment="no")
    _unchanged(tournament, status, 0)


# --- reopen -----------------------------------------------------------------------------

REOPENERS = {
    Status.SUBMITTED: ("club_admin", "referee", "staff"),
    Status.REJECTED: ("club_admin", "referee", "staff"),
    Status.APPROVED: ("referee", "staff"),  # takes its ratings out: not the club's call
}


@pytest.mark.parametrize("status", list(REOPENERS))
@pytest.mark.parametrize("actor", ACTORS)
def test_reopen_per_state_and_actor(
    scene: Scene, status: str, actor: str, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = _set_status(scene.tournament, status)
    by = scene.users[actor]
    if actor in REOPENERS[status]:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            tournament = tournament_reopen(tournament=tournament, by=by, comment="fix R1")
        assert tournament.status == Status.DRAFT
        log = TournamentLog.objects.get(tournament=tournament)
        assert (log.action, log.by, log.comment) == (Action.REOPENED, by, "fix R1")
        # Only reopening an approved table asks the lists to recompute; each sends a mail.
        assert len(callbacks) == (1 if status == Status.APPROVED else 0) + 1
    else:
        with pytest.raises(PermissionDenied):
            tournament_reopen(tournament=tournament, by=by)
        _unchanged(tournament, status, 0)


def test_reopen_a_draft_refused(scene: Scene) -> None:
    with pytest.raises(WorkflowError):
        tournament_reopen(tournament=scene.tournament, by=scene.users["staff"])
    _unchanged(scene.tournament, Status.DRAFT, 0)


def test_reopening_an_approved_table_takes_its_ratings_out(
    scene: Scene, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = tournament_submit(tournament=scene.tournament, by=scene.users["club_admin"])
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_approve(tournament=tournament, by=scene.users["referee"])
    assert RatingHistory.objects.filter(tournament=tournament).count() == 4
    with django_capture_on_commit_callbacks(execute=True):
        tournament_reopen(tournament=tournament, by=scene.users["referee"], comment="wrong R1")
    assert not RatingHistory.objects.filter(tournament=tournament).exists()
    assert RecomputeRun.objects.filter(outcome=RecomputeRun.Outcome.SUCCESS).count() == 2


def test_full_round_trip_is_logged_with_who(
    scene: Scene, django_capture_on_commit_callbacks: Any
) -> None:
    admin, referee = scene.users["club_admin"], scene.users["referee"]
    t = tournament_submit(tournament=scene.tournament, by=admin)
    t = tournament_reject(tournament=t, by=referee, comment="R1 board 2 result?")
    t = tournament_reopen(tournament=t, by=admin, comment="corrected")
    t = tournament_submit(tournament=t, by=admin)
    with django_capture_on_commit_callbacks(execute=True):
        t = tournament_approve(tournament=t, by=referee, comment="ok")
    rows = list(TournamentLog.objects.filter(tournament=t).values_list("action", "by", "comment"))
    assert rows == [
        (Action.SUBMITTED, admin.pk, ""),
        (Action.REJECTED, referee.pk, "R1 board 2 result?"),
        (Action.REOPENED, admin.pk, "corrected"),
        (Action.SUBMITTED, admin.pk, ""),
        (Action.APPROVED, referee.pk, "ok"),
    ]
    assert t.status == Status.APPROVED


# --- results entry: round_replace / round_validate -------------------------------------


def _round_games(tournament: Tournament, number: int) -> list[tuple[int, int | None, str]]:
    return list(
        Game.objects.filter(tournament=tournament, round=number)
        .order_by("id")
        .values_list("white_id", "black_id", "result")
    )


def test_round_replace_replaces_the_round(scene: Scene) -> None:
    a, b, c, d = scene.players
    admin = scene.users["club_admin"]
    round_replace(
        tournament=scene.tournament,
        round_number=1,
        pairings=[
            Pairing(a, c, "draw"),
            Pairing(b, None, "white", kind=Game.Kind.BYE_HALF),
            Pairing(d, None, kind=Game.Kind.BYE_ZERO),
        ],
        by=admin,
    )
    assert _round_games(scene.tournament, 1) == [
        (a.pk, c.pk, "draw"),
        (b.pk, None, ""),  # a bye stores no result
        (d.pk, None, ""),
    ]
    seats = RoundSeat.objects.filter(tournament=scene.tournament, round=1)
    assert sorted(seats.values_list("member_id", flat=True)) == sorted(p.pk for p in scene.players)


@pytest.mark.parametrize("status", [Status.SUBMITTED, Status.APPROVED])
def test_round_replace_refuses_a_locked_table(scene: Scene, status: str) -> None:
    tournament = _set_status(scene.tournament, status)
    a, b, c, d = scene.players
    before = _round_games(tournament, 1)
    with pytest.raises(WorkflowError, match="locked"):
        round_replace(
            tournament=tournament,
            round_number=1,
            pairings=[Pairing(a, d, "black")],
            by=scene.users["club_admin"],
        )
    assert _round_games(tournament, 1) == before


def test_round_replace_allowed_on_a_rejected_table(scene: Scene) -> None:
    tournament = _set_status(scene.tournament, Status.REJECTED)
    a, b, c, d = scene.players
    round_replace(
        tournament=tournament,
        round_number=2,
        pairings=[Pairing(a, d, "black")],
        by=scene.users["club_admin"],
    )
    assert _round_games(tournament, 2) == [(a.pk, d.pk, "black")]


@pytest.mark.parametrize("actor", ["anonymous", "unrelated", "other_admin", "referee"])
def test_round_replace_refuses_other_actors(scene: Scene, actor: str) -> None:
    a, b, c, d = scene.players
    before = _round_games(scene.tournament, 1)
    with pytest.raises(PermissionDenied):
        round_replace(
            tournament=scene.tournament,
            round_number=1,
            pairings=[Pairing(a, d, "black")],
            by=scene.users[actor],
        )
    assert _round_games(scene.tournament, 1) == before


def test_round_replace_refuses_round_zero(scene: Scene) -> None:
    a, b, *_ = scene.players
    with pytest.raises(WorkflowError, match="from 1"):
        round_replace(
            tournament=scene.tournament,
            round_number=0,
            pairings=[Pairing(a, b, "white")],
            by=scene.users["club_admin"],
        )


def _messages(pairings: list[Pairing]) -> list[str]:
    return round_validate(pairings)


def test_round_validate_messages(scene: Scene) -> None:
    a, b, c, d = scene.players
    assert _messages([Pairing(a, b, "white"), Pairing(c, d, "draw")]) == []
    # Self-play is said once: "cannot play against themselves", not also "already plays".
    assert _messages([Pairing(a, a, "white")]) == [f"Board 1: {a} cannot play against themselves."]
    assert _messages([Pairing(a, b, "white"), Pairing(c, a, "black")]) == [
        f"Board 2: {a} already plays in this round."
    ]
    assert _messages([Pairing(a, b, "white", handicap=10)]) == [
        "Board 1: handicap must be 0 to 9 stones."
    ]
    assert _messages([Pairing(a, b, "white", kind=Game.Kind.BYE_FULL)]) == [
        "Board 1: a bye has no opponent, and a game needs one."
    ]
    assert _messages([Pairing(a, None, "white")]) == [
        "Board 1: a bye has no opponent, and a game needs one."
    ]
    assert _messages([Pairing(a, b, "")]) == ["Board 1: choose a result."]
    assert _messages([Pairing(a, b, "draw", kind=Game.Kind.FORFEIT)]) == [
        "Board 1: a forfeit has a winner."
    ]
    assert _messages([Pairing(a, None, kind=Game.Kind.BYE_FULL)]) == []


def test_round_replace_invalid_pairings_change_nothing(scene: Scene) -> None:
    a, b, c, d = scene.players
    before = _round_games(scene.tournament, 1)
    with pytest.raises(ValidationError) as caught:
        round_replace(
            tournament=scene.tournament,
            round_number=1,
            pairings=[Pairing(a, c, "white"), Pairing(b, b, "black"), Pairing(d, a, "")],
            by=scene.users["club_admin"],
        )
    assert caught.value.messages == [
        f"Board 2: {b} cannot play against themselves.",  # said once, not also "already plays"
        f"Board 3: {a} already plays in this round.",
        "Board 3: choose a result.",
    ]
    assert _round_games(scene.tournament, 1) == before


def test_round_replace_is_all_or_nothing_when_the_database_refuses(scene: Scene) -> None:
    """A failure after the old games were deleted rolls the deletion back too."""
    a, b, c, d = scene.players
    before = _round_games(scene.tournament, 1)
    seats_before = RoundSeat.objects.filter(tournament=scene.tournament).count()
    unsaved = Member(family_name="Nobody")
    with pytest.raises(ValueError):
        round_replace(
            tournament=scene.tournament,
            round_number=1,
            pairings=[Pairing(a, b, "black"), Pairing(unsaved, c, "white")],
            by=scene.users["club_admin"],
        )
    assert _round_games(scene.tournament, 1) == before
    assert RoundSeat.objects.filter(tournament=scene.tournament).count() == seats_before


def test_round_replace_by_the_system(scene: Scene) -> None:
    """Imports and the demo enter results with by=None (no actor check)."""
    a, b, c, d = scene.players
    round_replace(
        tournament=scene.tournament, round_number=3, pairings=[Pairing(b, c, "white")], by=None
    )
    assert _round_games(scene.tournament, 3) == [(b.pk, c.pk, "white")]
