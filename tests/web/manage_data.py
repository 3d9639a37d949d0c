"""People and tables for the club-admin and referee page tests: one of each role."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser

from clubsite.models import Club, Member
from ratings.models import ListTournament, RatingList
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RatingListFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Tournament

ROLES = ("anonymous", "player", "other_admin", "admin", "referee", "staff")


@dataclass
class Setup:
    club: Club
    other_club: Club
    rating_list: RatingList
    users: dict
    players: list[Member]
    draft: Tournament
    submitted: Tournament

    def user(self, role: str):  # noqa: ANN201
        return self.users[role]


def _table(club: Club, rating_list: RatingList, players: list[Member], status: str) -> Tournament:
    tournament = TournamentFactory(organiser=club, status=status, rounds=2)
    ListTournament.objects.create(rating_list=rating_list, tournament=tournament)
    for p in players:
        ParticipantFactory(tournament=tournament, member=p)
    GameFactory(tournament=tournament, round=1, white=players[0], black=players[1])
    GameFactory(tournament=tournament, round=1, white=players[2], black=players[3])
    return tournament


def build() -> Setup:
    club = ClubFactory(name="Rivne Go Club")
    other_club = ClubFactory(name="Lviv Go Club")
    rating_list = RatingListFactory(name="Ukraine EGF", slug="ua-egf", system="egf")
    users = {
        "anonymous": AnonymousUser(),
        "player": UserFactory(username="player"),
        "other_admin": UserFactory(username="other_admin"),
        "admin": UserFactory(username="admin"),
        "referee": UserFactory(username="referee"),
        "staff": UserFactory(username="staff", is_staff=True),
    }
    club.admins.add(users["admin"])
    other_club.admins.add(users["other_admin"])
    rating_list.referees.add(users["referee"])
    players = [MemberFactory(club=club, grade=g) for g in ("5k", "6k", "7k", "8k")]
    players[0].user = users["player"]
    players[0].save()
    return Setup(
        club=club,
        other_club=other_club,
        rating_list=rating_list,
        users=users,
        players=players,
        draft=_table(club, rating_list, players, Tournament.Status.DRAFT),
        submitted=_table(club, rating_list, players, Tournament.Status.SUBMITTED),
    )


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def setup(db, settings) -> Setup:  # noqa: ANN001
    settings.PASSWORD_HASHERS = FAST_HASHERS  # six users: the default hasher takes seconds
    return build()


def login(client, setup: Setup, role: str):  # noqa: ANN001, ANN201
    if role != "anonymous":
        client.force_login(setup.user(role))
    return client
