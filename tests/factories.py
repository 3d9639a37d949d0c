"""factory-boy factories for the domain models. Shared by every test module."""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from clubsite.models import Club, Member
from ratings.models import RatingList
from tournaments.models import Game, Participant, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("correct-horse-battery")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Go Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Rivne"
    country = "UA"
    plays_go = True


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Member

    family_name = factory.Faker("last_name")
    given_name = factory.Faker("first_name")
    country = "UA"
    club = factory.SubFactory(ClubFactory)
    grade = "10k"
    birth_date = dt.date(2000, 5, 17)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Cup {n}")
    slug = factory.Sequence(lambda n: f"cup-{n}")
    city = "Kyiv"
    country = "UA"
    start_date = dt.date(2024, 5, 1)
    end_date = factory.LazyAttribute(lambda t: t.start_date)
    organiser = factory.SubFactory(ClubFactory)
    rounds = 3


class ParticipantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Participant

    tournament = factory.SubFactory(TournamentFactory)
    member = factory.SubFactory(MemberFactory)
    grade = factory.LazyAttribute(lambda p: p.member.grade)


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    tournament = factory.SubFactory(TournamentFactory)
    round = 1
    white = factory.SubFactory(MemberFactory)
    black = factory.SubFactory(MemberFactory)
    result = Game.Result.WHITE
    kind = Game.Kind.PLAYED


class RatingListFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RatingList

    name = factory.Sequence(lambda n: f"List {n}")
    slug = factory.Sequence(lambda n: f"list-{n}")
    system = "egf"
    game = "go"
