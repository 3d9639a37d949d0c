"""Build random but valid tournaments for the pipeline tests."""

from __future__ import annotations

import datetime as dt
import itertools
import random

from faker import Faker

from clubsite.models import Club, Member
from ratings.models import ListTournament, RatingList
from ratings.submissions.services import tournament_approve_and_rate, tournament_reopen_and_unrate
from tests.factories import MemberFactory, TournamentFactory, UserFactory
from tournaments.models import Game, Participant, Tournament
from tournaments.services import Pairing, round_replace, tournament_submit

SYSTEM_GAMES = {"egf": "go", "ufgo": "go", "rivne": "go", "orr": "chess", "uscf": "reversi"}
GRADES = ["15k", "10k", "5k", "2k", "1k", "1d", "2d", "3d", "5d"]


# Faker repeats names now and then; a list or a file that names two members alike cannot
# tell them apart (an import rightly refuses it), so each built member's name is his own.
_FAKE, _NUMBERS = Faker(), itertools.count(1)


def members(rng: random.Random, club: Club, count: int) -> list[Member]:
    return [
        MemberFactory(
            club=club,
            family_name=f"{_FAKE.last_name()}-{next(_NUMBERS)}",
            grade=rng.choice(GRADES),
            birth_date=dt.date(rng.randint(1950, 2015), rng.randint(1, 12), 1),
        )
        for _ in range(count)
    ]


def tournament_with_games(
    rng: random.Random,
    *,
    club: Club,
    players: list[Member],
    day: dt.date,
    rounds: int = 3,
    system: str = "egf",
    draws: bool = False,
) -> Tournament:
    tournament = TournamentFactory(
        organiser=club,
        start_date=day,
        end_date=day,
        rounds=rounds,
        game=SYSTEM_GAMES[system],
        basic_time_minutes=90,
    )
    entrants = rng.sample(players, k=min(len(players), rng.randint(4, 8)))
    for member in entrants:
        Participant.objects.create(tournament=tournament, member=member, grade=member.grade)
    for round_number in range(1, rounds + 1):
        order = entrants[:]
        rng.shuffle(order)
        pairings = []
        for white, black in zip(order[::2], order[1::2], strict=False):
            results = ["white", "black"] + (["draw"] if draws else [])
            handicap = rng.choice([0, 0, 0, 2, 3]) if SYSTEM_GAMES[system] == "go" else 0
            pairings.append(
                Pairing(white=white, black=black, result=rng.choice(results), handicap=handicap)
            )
        if len(order) % 2:
            pairings.append(Pairing(white=order[-1], black=None, kind=Game.Kind.BYE_FULL))
        round_replace(tournament=tournament, round_number=round_number, pairings=pairings, by=None)
    return tournament


def submitted(tournament: Tournament, *lists: RatingList) -> Tournament:
    for rating_list in lists:
        ListTournament.objects.get_or_create(rating_list=rating_list, tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.SUBMITTED)
    tournament.refresh_from_db()
    return tournament


def staff_user():
    return UserFactory(username="system-referee", is_staff=True)


def approved_again(tournament: Tournament, referee, capture, *, games=()) -> None:
    """Reopened, its `games` turned round, and approved again, with no recompute in
    between (the two requests coalesce into the approval's run). `capture`: pytest-django's
    `django_capture_on_commit_callbacks`."""

    tournament_reopen_and_unrate(tournament=tournament, by=referee)
    for game in games:
        game.result = "black" if game.result == "white" else "white"
        game.save(update_fields=["result"])
    tournament_submit(tournament=tournament, by=referee)
    with capture(execute=True):
        tournament_approve_and_rate(tournament=tournament, by=referee)
