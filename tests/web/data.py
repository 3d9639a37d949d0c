"""Builders of rated data for the page tests: lists, entries, history with breakdowns.

They write the rating tables directly (what a recompute leaves), so the page tests do not
depend on the recompute pipeline.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from clubsite.models import Club, Member
from ratings.models import ListTournament, RatingEntry, RatingHistory, RatingList
from tests.factories import (
    ClubFactory,
    MemberFactory,
    ParticipantFactory,
    RatingListFactory,
    TournamentFactory,
)
from tournaments.models import Game, Tournament


@dataclass
class World:
    rating_list: RatingList
    clubs: list[Club]
    players: list[Member]
    tournaments: list[Tournament] = field(default_factory=list)


def rated_tournament(
    rating_list: RatingList,
    players: list[Member],
    *,
    day: dt.date,
    name: str = "",
    sequence: int = 0,
    ratings: dict[int, float] | None = None,
) -> Tournament:
    """A round robin among `players`, approved and rated: games, history rows, entries."""
    tournament = TournamentFactory(
        start_date=day, end_date=day, status=Tournament.Status.APPROVED,
        organiser=players[0].club, rounds=max(len(players) - 1, 1),
        **({"name": name} if name else {}),
    )  # fmt: skip
    ListTournament.objects.create(
        rating_list=rating_list,
        tournament=tournament,
        rated_at=dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC),
    )
    ratings = ratings if ratings is not None else {}
    breakdown: dict[int, list[dict]] = {p.pk: [] for p in players}
    for place, p in enumerate(players, start=1):
        ParticipantFactory(tournament=tournament, member=p, place=place, grade=p.grade)
    round_number = 0
    for i, white in enumerate(players):
        for black in players[i + 1 :]:
            round_number += 1
            result = Game.Result.WHITE  # the stronger (earlier) player wins
            Game.objects.create(
                tournament=tournament, round=round_number, white=white, black=black,
                result=result, handicap=0,
            )  # fmt: skip
            for me, other, score in ((white, black, 1.0), (black, white, 0.0)):
                breakdown[me.pk].append(
                    {"round": round_number, "opponent": other.pk,
                     "opponent_rating": ratings.get(other.pk, 1500.0), "score": score,
                     "expected": 0.5, "change": 10.0 if score else -10.0}
                )  # fmt: skip
    for p in players:
        before = ratings.get(p.pk, 1500.0)
        change = sum(g["change"] for g in breakdown[p.pk])
        after = before + change
        RatingHistory.objects.create(
            rating_list=rating_list, member=p, tournament=tournament, date=day,
            sequence=sequence, rating_in=before, before=before, after=after, change=change,
            games_count=len(breakdown[p.pk]), grade=p.grade, breakdown=breakdown[p.pk],
        )  # fmt: skip
        ratings[p.pk] = after
        entry, _ = RatingEntry.objects.get_or_create(rating_list=rating_list, member=p)
        entry.rating = after
        entry.grade = p.grade
        entry.tournaments += 1
        entry.games += len(breakdown[p.pk])
        entry.last_played = day
        entry.save()
    return tournament


def small_world(players_count: int = 6) -> World:
    """Two clubs in two countries, one EGF list, two rated tournaments."""
    rating_list = RatingListFactory(name="Ukraine Go", slug="ukraine-go", system="egf")
    clubs = [
        ClubFactory(name="Rivne Go Club", slug="rivne", country="UA"),
        ClubFactory(name="Warsaw Go", slug="warsaw", country="PL"),
    ]
    grades = ["3d", "1d", "2k", "5k", "10k", "15k", "20k", "1k"]
    players = [
        MemberFactory(
            family_name=f"Family{i:02d}",
            given_name=f"Given{i:02d}",
            club=clubs[i % 2],
            country=clubs[i % 2].country,
            grade=grades[i % len(grades)],
        )  # fmt: skip
        for i in range(players_count)
    ]
    world = World(rating_list, clubs, players)
    ratings: dict[int, float] = {}
    world.tournaments.append(
        rated_tournament(
            rating_list,
            players,
            day=dt.date(2024, 3, 1),
            name="Spring Cup",
            sequence=1,
            ratings=ratings,
        )  # fmt: skip
    )
    world.tournaments.append(
        rated_tournament(
            rating_list,
            players[:4],
            day=dt.date(2024, 9, 1),
            name="Autumn Cup",
            sequence=2,
            ratings=ratings,
        )  # fmt: skip
    )
    return world
