"""A realistic demo a newcomer can click through (`manage.py load_demo`).

Four clubs, about 150 members, a dozen tournaments over two years across the five
systems (most approved and rated through the real recompute, one waiting for a
referee, one draft), and a user for each role. Running it twice changes nothing.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from clubsite.duplicates import skeleton
from clubsite.fields import parse_grade
from clubsite.models import Club, Member
from ratings.models import ListTournament, PublishedList, RatingList
from ratings.publication import rating_list_publish
from ratings.submissions.services import tournament_approve_and_rate
from sampledata.demo_people import (
    GO_GRADES,
    RU_FAMILY,
    RU_GIVEN_F,
    RU_GIVEN_M,
    UA_FAMILY,
    UA_GIVEN_F,
    UA_GIVEN_M,
    WORLD,
)
from tournaments.models import Game, Participant, Tournament
from tournaments.services import Pairing, round_replace, tournament_submit

SEED = 20261121
PASSWORDS = {
    "admin": "clubsite-admin",
    "rivne-admin": "clubsite-rivne",
    "kyiv-admin": "clubsite-kyiv",
    "chess-admin": "clubsite-chess",
    "referee": "clubsite-referee",
    "player": "clubsite-player",
}


@dataclass(frozen=True)
class DemoTournament:
    slug: str
    name: str
    club: str
    city: str
    days_ago: int
    lists: tuple[str, ...]
    rounds: int = 5
    size: int = 16
    board: int = 19
    basic_minutes: int = 60
    klass: str = "A"
    handicaps: bool = False
    status: str = "approved"


TOURNAMENTS = [
    DemoTournament(
        "rivne-cup-y1", "Rivne Cup", "rivne-go", "Rivne", 700, ("egf-gor", "ufgo", "rivne")
    ),
    DemoTournament(
        "kyiv-open-y1", "Kyiv Open", "kyiv-go", "Kyiv", 610, ("egf-gor", "ufgo"), size=24
    ),
    DemoTournament(
        "rivne-13x13",
        "Rivne 13×13 Evening",
        "rivne-go",
        "Rivne",
        540,
        ("rivne",),
        board=13,
        basic_minutes=20,
        klass="C",
        size=10,
    ),
    DemoTournament(
        "ukraine-champ",
        "Ukrainian Championship",
        "kyiv-go",
        "Kyiv",
        420,
        ("egf-gor", "ufgo"),
        rounds=6,
        size=20,
        basic_minutes=90,
    ),
    DemoTournament(
        "rivne-handicap",
        "Rivne Handicap League",
        "rivne-go",
        "Rivne",
        300,
        ("rivne", "egf-gor"),
        handicaps=True,
        klass="B",
        basic_minutes=45,
    ),
    DemoTournament(
        "kyiv-blitz",
        "Kyiv Rapid Cup",
        "kyiv-go",
        "Kyiv",
        200,
        ("ufgo", "egf-gor"),
        basic_minutes=30,
        klass="C",
    ),
    DemoTournament(
        "rivne-cup-y2", "Rivne Cup", "rivne-go", "Rivne", 60, ("egf-gor", "ufgo", "rivne")
    ),
    DemoTournament(
        "kyiv-open-y2",
        "Kyiv Open",
        "kyiv-go",
        "Kyiv",
        20,
        ("egf-gor", "ufgo"),
        size=24,
        status="submitted",
    ),
    DemoTournament(
        "rivne-spring",
        "Rivne Spring Club Day",
        "rivne-go",
        "Rivne",
        3,
        ("rivne",),
        size=8,
        rounds=3,
        status="draft",
    ),
    DemoTournament(
        "moscow-kids-autumn",
        "Moscow Children's Autumn Cup",
        "moscow-chess",
        "Moscow",
        500,
        ("orr-moscow",),
        rounds=7,
        size=24,
    ),
    DemoTournament(
        "moscow-kids-winter",
        "Moscow Children's Winter Cup",
        "moscow-chess",
        "Moscow",
        330,
        ("orr-moscow",),
        rounds=7,
        size=26,
    ),
    DemoTournament(
        "moscow-kids-spring",
        "Moscow Children's Spring Cup",
        "moscow-chess",
        "Moscow",
        90,
        ("orr-moscow",),
        rounds=7,
        size=26,
    ),
    DemoTournament(
        "reversi-league-1",
        "Reversi Zone League I",
        "reversi-zone",
        "Online",
        450,
        ("reversi-zone",),
        rounds=6,
        size=14,
    ),
    DemoTournament(
        "reversi-league-2",
        "Reversi Zone League II",
        "reversi-zone",
        "Online",
        150,
        ("reversi-zone",),
        rounds=6,
        size=14,
    ),
]

LISTS = [
    ("egf-gor", "EGF GoR", "egf", "go", "", "European Go Federation"),
    ("ufgo", "UFGO rating", "ufgo", "go", "", "Ukrainian Go Federation"),
    ("rivne", "Rivne club rating", "rivne", "go", "rivne-go", ""),
    ("orr-moscow", "Open Russian Rating — Moscow juniors", "orr", "chess", "moscow-chess", ""),
    ("reversi-zone", "Reversi Zone (USCF-style)", "uscf", "reversi", "reversi-zone", ""),
]


def _user(username: str, *, staff: bool = False, superuser: bool = False):
    user, created = get_user_model().objects.get_or_create(
        username=username,
        defaults={
            "is_staff": staff,
            "is_superuser": superuser,
            "email": f"{username}@clubsite.example",
        },
    )
    if created:
        user.set_password(PASSWORDS[username])
        user.save()
    return user


def _clubs() -> dict[str, Club]:
    specs = [
        ("rivne-go", "Rivne Go Club", "Rivne", "UA", {"plays_go": True}),
        ("kyiv-go", "Kyiv Go Club “Tengen”", "Kyiv", "UA", {"plays_go": True}),
        ("moscow-chess", "Moscow Children's Chess Club", "Moscow", "RU", {"plays_chess": True}),
        ("reversi-zone", "Reversi Zone Club", "Online", "", {"plays_reversi": True}),
    ]
    clubs = {}
    for slug, name, city, country, games in specs:
        clubs[slug], _ = Club.objects.get_or_create(
            slug=slug, defaults={"name": name, "city": city, "country": country, **games}
        )
    return clubs


def _person(
    rng: random.Random, slug: str, today: dt.date
) -> tuple[str, str, str, str | None, dt.date, bool]:
    """A random member of the club: family and given name, country, grade, birth, sex."""
    female = rng.random() < 0.3
    if slug in ("rivne-go", "kyiv-go"):
        family = rng.choice(UA_FAMILY)
        given = rng.choice(UA_GIVEN_F if female else UA_GIVEN_M)
        if female and family.endswith("ov"):
            family += "a"
        country, grade = "UA", rng.choice(GO_GRADES)
        birth = dt.date(rng.randint(1955, 2012), rng.randint(1, 12), rng.randint(1, 28))
    elif slug == "moscow-chess":
        family = rng.choice(RU_FAMILY) + ("a" if female else "")
        given = rng.choice(RU_GIVEN_F if female else RU_GIVEN_M)
        country, grade = "RU", None
        birth = dt.date(today.year - rng.randint(6, 13), rng.randint(1, 12), rng.randint(1, 28))
    else:
        family, _given, country = rng.choice(WORLD)
        given = rng.choice(WORLD)[1]
        grade = None
        birth = dt.date(rng.randint(1960, 2008), rng.randint(1, 12), rng.randint(1, 28))
    return family, given, country, grade, birth, female


def _members(rng: random.Random, clubs: dict[str, Club]) -> dict[str, list[Member]]:
    today = dt.date.today()
    groups: dict[str, list[Member]] = {slug: [] for slug in clubs}
    plan = [("rivne-go", 40), ("kyiv-go", 45), ("moscow-chess", 40), ("reversi-zone", 25)]
    number = 0
    used: set[tuple[str, str]] = set()  # one person, one member: no two share a name
    for slug, count in plan:
        for _ in range(count):
            number += 1
            family, given, country, grade, birth, female = _person(rng, slug, today)
            while (skeleton(family), skeleton(given)) in used:
                family, given, country, grade, birth, female = _person(rng, slug, today)
            used.add((skeleton(family), skeleton(given)))
            member, _ = Member.objects.get_or_create(
                import_key=f"demo-{number:03d}",
                defaults={
                    "family_name": family,
                    "given_name": given,
                    "country": country,
                    "club": clubs[slug],
                    "grade": grade,
                    "birth_date": birth,
                    "sex": "f" if female else "m",
                },
            )
            groups[slug].append(member)
    return groups


def _lists(clubs: dict[str, Club], referee) -> dict[str, RatingList]:
    lists = {}
    for slug, name, system, game, owner, federation in LISTS:
        rating_list, _ = RatingList.objects.get_or_create(
            slug=slug,
            defaults={
                "name": name,
                "system": system,
                "game": game,
                "owner_club": clubs.get(owner),
                "federation": federation,
            },
        )
        rating_list.referees.add(referee)
        lists[slug] = rating_list
    return lists


def _strength(member: Member, rng: random.Random) -> float:
    grade = parse_grade(member.grade)  # a str on members created in this run
    if grade is not None:
        return grade.rank * 100 + rng.gauss(0, 60)
    return rng.gauss(1500, 250)


def _results(rng, spec: DemoTournament, entrants: list[Member], strength: dict[int, float]):
    scores = {m.pk: 0.0 for m in entrants}
    played: set[frozenset[int]] = set()
    rounds = []
    for _round in range(spec.rounds):
        order = sorted(entrants, key=lambda m: (-scores[m.pk], -strength[m.pk], rng.random()))
        pairings = []
        while len(order) > 1:
            white = order.pop(0)
            partner = next(
                (m for m in order if frozenset((white.pk, m.pk)) not in played), order[0]
            )
            order.remove(partner)
            played.add(frozenset((white.pk, partner.pk)))
            if rng.random() < 0.5:
                white, partner = partner, white
            handicap = 0
            if spec.handicaps:
                handicap = min(9, int(abs(strength[white.pk] - strength[partner.pk]) // 100))
                if strength[white.pk] < strength[partner.pk]:
                    white, partner = partner, white  # the weaker player takes Black
            edge = strength[white.pk] - strength[partner.pk] - 100 * handicap
            p_white = 1 / (1 + 10 ** (-edge / 400))
            draw = spec.lists[0] in ("orr-moscow",) and rng.random() < 0.15
            result = "draw" if draw else ("white" if rng.random() < p_white else "black")
            scores[white.pk] += 1.0 if result == "white" else 0.5 if result == "draw" else 0.0
            scores[partner.pk] += 1.0 if result == "black" else 0.5 if result == "draw" else 0.0
            pairings.append(Pairing(white=white, black=partner, result=result, handicap=handicap))
        if order:
            pairings.append(Pairing(white=order[0], black=None, kind=Game.Kind.BYE_FULL))
            scores[order[0].pk] += 1.0
        rounds.append(pairings)
    return rounds, scores


def _tournament(rng, spec, clubs, groups, lists, admins, referee) -> Tournament | None:
    if Tournament.objects.filter(slug=spec.slug).exists():
        return None
    today = dt.date.today()
    end = today - dt.timedelta(days=spec.days_ago)
    club = clubs[spec.club]
    pool = groups[spec.club] + (
        groups["kyiv-go" if spec.club == "rivne-go" else "rivne-go"]
        if spec.club in ("rivne-go", "kyiv-go")
        else []
    )
    entrants = rng.sample(pool, k=min(spec.size, len(pool)))
    strength = {m.pk: _strength(m, rng) for m in entrants}
    game = {"moscow-chess": "chess", "reversi-zone": "reversi"}.get(spec.club, "go")
    tournament = Tournament.objects.create(
        name=f"{spec.name} {end.year}",
        slug=spec.slug,
        city=spec.city,
        country=club.country,
        start_date=end - dt.timedelta(days=1),
        end_date=end,
        game=game,
        board_size=spec.board,
        tournament_class=spec.klass,
        basic_time_minutes=spec.basic_minutes,
        overtime_kind=Tournament.Overtime.FISCHER
        if game == "chess"
        else Tournament.Overtime.BYOYOMI,
        overtime_seconds=30,
        handicap_rule="h9" if spec.handicaps else "",
        komi=None if game != "go" else (0.5 if spec.handicaps else 6.5),
        rounds=spec.rounds,
        organiser=club,
    )
    rounds, scores = _results(rng, spec, entrants, strength)
    ranked = sorted(entrants, key=lambda m: (-scores[m.pk], -strength[m.pk]))
    Participant.objects.bulk_create(
        Participant(tournament=tournament, member=m, grade=m.grade, place=place)
        for place, m in enumerate(ranked, start=1)
    )
    for number, pairings in enumerate(rounds, start=1):
        round_replace(tournament=tournament, round_number=number, pairings=pairings, by=None)
    for slug in spec.lists:
        ListTournament.objects.create(rating_list=lists[slug], tournament=tournament)
    admin = admins[spec.club]
    if spec.status in ("submitted", "approved"):
        tournament_submit(tournament=tournament, by=admin)
    if spec.status == "approved":
        tournament_approve_and_rate(
            tournament=tournament, by=referee, comment="Checked against the paper table."
        )
    tournament.refresh_from_db()
    return tournament


def demo_load() -> list[str]:
    """Create the demo (once). Returns lines to print: what was made and the logins."""
    rng = random.Random(SEED)
    created = []
    with transaction.atomic():
        _user("admin", staff=True, superuser=True)
        referee = _user("referee")
        clubs = _clubs()
        admins = {
            "rivne-go": _user("rivne-admin"),
            "kyiv-go": _user("kyiv-admin"),
            "moscow-chess": _user("chess-admin"),
        }
        admins["reversi-zone"] = admins["moscow-chess"]
        for slug, user in admins.items():
            clubs[slug].admins.add(user)
        groups = _members(rng, clubs)
        player = _user("player")
        if not hasattr(player, "member"):
            groups["rivne-go"][0].user = player
            groups["rivne-go"][0].save(update_fields=["user"])
        lists = _lists(clubs, referee)
    # One transaction per tournament, in date order: each approval's recompute runs after
    # its own commit, as it would in production.
    for spec in sorted(TOURNAMENTS, key=lambda s: -s.days_ago):
        with transaction.atomic():
            tournament = _tournament(rng, spec, clubs, groups, lists, admins, referee)
        if tournament is not None:
            created.append(f"tournament {tournament.name} ({tournament.get_status_display()})")
    created += _publish_quarters(lists)
    return created


def _quarter_starts(today: dt.date, count: int) -> list[dt.date]:
    """The last `count` quarter starts (1 January, April, July, October), oldest first."""
    month = 3 * ((today.month - 1) // 3) + 1
    day = dt.date(today.year, month, 1)
    starts = []
    for _ in range(count):
        starts.append(day)
        month, year = day.month - 3, day.year
        if month < 1:
            month, year = month + 12, year - 1
        day = dt.date(year, month, 1)
    return starts[::-1]


def _publish_quarters(lists: dict[str, RatingList]) -> list[str]:
    """UFGO publishes quarterly; the demo shows the last two quarters of UFGO and EGF."""
    made = []
    for slug in ("ufgo", "egf-gor"):
        for day in _quarter_starts(dt.date.today(), 2):
            if not PublishedList.objects.filter(rating_list=lists[slug], date=day).exists():
                rating_list_publish(rating_list=lists[slug], date=day)
                made.append(f"snapshot of {lists[slug].name} on {day}")
    return made
