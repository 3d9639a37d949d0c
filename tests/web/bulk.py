"""Large data for the speed checks: 45,000 rated players, one of them with 200 tournaments.

    DATABASE_URL=... python -m tests.web.bulk   (on a scratch database: it adds rows)

Written with bulk_create straight into the rating tables, as a recompute would leave them.
"""

from __future__ import annotations

import datetime as dt
import random

PLAYERS = 45_000
TOURNAMENTS = 200


def make_bulk(players: int = PLAYERS, tournaments: int = TOURNAMENTS, seed: int = 7) -> int:
    from clubsite.models import Club, Member
    from ratings.models import ListTournament, RatingEntry, RatingHistory, RatingList
    from tournaments.models import Game, Participant, Tournament

    rng = random.Random(seed)
    countries = ["UA"] * 5 + ["PL", "DE", "RU", "CZ", "HU", "FR", "RO", "NL", "AT"]
    clubs = Club.objects.bulk_create(
        [Club(name=f"Bulk club {i}", slug=f"bulk-club-{i}", country=rng.choice(countries))
         for i in range(300)]
    )  # fmt: skip
    rating_list = RatingList.objects.create(name="Bulk EGF", slug="bulk-egf", system="egf")
    members = Member.objects.bulk_create(
        [
            Member(family_name=f"Family{i:05d}", given_name=f"Given{i % 997}",
                   country=(club := rng.choice(clubs)).country, club=club,
                   grade=rng.randint(-29, 7))
            for i in range(players)
        ],
        batch_size=2000,
    )  # fmt: skip
    today = dt.date.today()
    RatingEntry.objects.bulk_create(
        [
            RatingEntry(rating_list=rating_list, member=m, rating=rng.uniform(100, 2800),
                        provisional=rng.random() < 0.05, grade=m.grade,
                        tournaments=rng.randint(1, 40), games=rng.randint(3, 200),
                        last_played=today - dt.timedelta(days=rng.randint(0, 2000)),
                        active_until=today + dt.timedelta(days=rng.randint(-800, 800)))
            for m in members
        ],
        batch_size=2000,
    )  # fmt: skip
    hero, rivals = members[0], members[1:400]
    rating = 1500.0
    for t in range(tournaments):
        day = today - dt.timedelta(days=(tournaments - t) * 30)
        tournament = Tournament.objects.create(
            name=f"Bulk tournament {t}", slug=f"bulk-t-{t}", start_date=day, end_date=day,
            organiser=hero.club, status=Tournament.Status.APPROVED, rounds=5,
        )  # fmt: skip
        ListTournament.objects.create(rating_list=rating_list, tournament=tournament)
        opponents = rng.sample(rivals, 5)
        Participant.objects.bulk_create(
            [Participant(tournament=tournament, member=m) for m in [hero, *opponents]]
        )
        breakdown, change = [], 0.0
        games = []
        for r, opponent in enumerate(opponents, start=1):
            won = rng.random() < 0.5
            games.append(Game(tournament=tournament, round=r, white=hero, black=opponent,
                              result="white" if won else "black"))  # fmt: skip
            delta = rng.uniform(2, 15) * (1 if won else -1)
            change += delta
            breakdown.append({"round": r, "opponent": opponent.pk,
                              "opponent_rating": rng.uniform(1200, 1900),
                              "score": 1.0 if won else 0.0, "expected": rng.random(),
                              "change": delta})  # fmt: skip
        Game.objects.bulk_create(games)
        RatingHistory.objects.create(
            rating_list=rating_list, member=hero, tournament=tournament, date=day,
            sequence=t, rating_in=rating, before=rating, after=rating + change, change=change,
            games_count=5, breakdown=breakdown,
        )  # fmt: skip
        rating += change
    RatingEntry.objects.filter(rating_list=rating_list, member=hero).update(
        rating=rating, tournaments=tournaments, active_until=None
    )
    return hero.pk


if __name__ == "__main__":
    import django

    django.setup()
    print("player with", TOURNAMENTS, "tournaments:", make_bulk())
