"""Generate a synthetic EGD-scale history in the configured database, fast and in bulk.

Used by `manage.py bench_recompute` (and the worker tests, at a smaller size).
On PostgreSQL rows go in with COPY; elsewhere with bulk_create.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Max

from clubsite.models import Club, Member
from ratings.models import ListTournament, RatingList
from ratings.recompute.bulk import insert_rows
from ratings.systems.grades import Grade
from tournaments.models import Game, Participant, RoundSeat, Tournament

ROUNDS = 5
REGULAR_TOURNAMENTS = 200  # one player plays this many (the profile page's worst case)


@dataclass(frozen=True)
class BenchData:
    rating_list: RatingList
    club: Club
    member_ids: list[int]
    tournament_ids: list[int]
    games: int
    first_day: dt.date
    last_day: dt.date


def _next_id(model) -> int:
    return (model.objects.aggregate(m=Max("id"))["m"] or 0) + 1


def _copy(model, columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert rows of `columns`; every other column gets its field's default, so a new
    field on the model does not break the generator."""
    given = set(columns)
    rest = [
        field
        for field in model._meta.concrete_fields
        if field.column not in given and field.attname not in given and not field.primary_key
    ]
    defaults = tuple(field.get_default() for field in rest)
    insert_rows(
        model,
        [*columns, *(field.column for field in rest)],
        (tuple(row) + defaults for row in rows),
    )


def _reset_sequences(*models) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models:
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"COALESCE((SELECT MAX(id) FROM {table}), 1))"
            )


def bench_generate(**options) -> BenchData:
    """`bench_load` (see there), then the loaded tables settled: on PostgreSQL, after the
    commit, each is vacuumed and frozen. A bulk-loaded table's rows carry no hint bits
    (the first reader of each row looks its transaction up and dirties its page to note
    the answer) and its pages are not marked all-visible (no scan is answered from an
    index alone): without this the first full recompute after the load would pay both
    (issue 57), as a list moved here and vacuumed would not. The load takes the
    statistics; VACUUM cannot run in a transaction (the tests'): there it is left out."""
    with transaction.atomic():
        data = bench_load(**options)
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            for model in LOADED:
                cursor.execute(f"VACUUM (FREEZE) {model._meta.db_table}")
    return data


def bench_load(
    *,
    slug: str,
    system: str = "egf",
    players: int = 45000,
    tournaments: int = 9000,
    games: int = 1_000_000,
    end: dt.date | None = None,
    years: int = 10,
    seed: int = 1,
) -> BenchData:
    """A list with `tournaments` approved tournaments over `years` years ending at `end`,
    `games` played games in all, drawn from `players` members; the first member plays
    in about `REGULAR_TOURNAMENTS` of them. Ratings are not computed."""
    rng = random.Random(seed)
    end = end or dt.date.today() - dt.timedelta(days=1)
    first = end - dt.timedelta(days=365 * years)
    club, _ = Club.objects.get_or_create(
        slug=f"{slug}-club", defaults={"name": f"{slug} club", "plays_go": True}
    )
    rating_list, _ = RatingList.objects.get_or_create(
        slug=slug, defaults={"name": f"Benchmark {slug}", "system": system}
    )

    member_start = _next_id(Member)
    grades = [rng.randint(-29, 7) for _ in range(players)]
    _copy(
        Member,
        [
            "id",
            "family_name",
            "given_name",
            "native_name",
            "country",
            "club_id",
            "egd_pin",
            "fide_id",
            "national_id",
            "import_key",
            "grade",
            "sex",
            "email",
            "phone",
        ],
        (
            (
                member_start + i,
                f"Player{i:05d}",
                "Bench",
                "",
                "UA",
                club.pk,
                "",
                "",
                "",
                f"{slug}-{i}",
                grades[i],
                "",
                "",
                "",
            )
            for i in range(players)
        ),
    )
    member_ids = list(range(member_start, member_start + players))

    per_tournament = max(1, games // tournaments)
    size = max(2, min(players, 2 * -(-per_tournament // ROUNDS)))  # players needed for the games
    span = (end - first).days
    days = sorted(first + dt.timedelta(days=rng.randint(0, span)) for _ in range(tournaments))
    tournament_start = _next_id(Tournament)
    _copy(
        Tournament,
        [
            "id",
            "name",
            "slug",
            "city",
            "country",
            "start_date",
            "end_date",
            "game",
            "board_size",
            "tournament_class",
            "basic_time_minutes",
            "overtime_kind",
            "overtime_seconds",
            "overtime_moves",
            "official",
            "handicap_rule",
            "rounds",
            "organiser_id",
            "status",
            "decision_comment",
            "created_at",
        ],
        (
            (
                tournament_start + i,
                f"Bench {i}",
                f"{slug}-t{i}",
                "",
                "UA",
                day,
                day,
                "go",
                19,
                "A",
                60,
                "byoyomi",
                30,
                1,
                True,
                "",
                ROUNDS,
                club.pk,
                "approved",
                "",
                dt.datetime.now(dt.UTC),
            )
            for i, day in enumerate(days)
        ),
    )
    tournament_ids = list(range(tournament_start, tournament_start + tournaments))
    _copy(
        ListTournament,
        ["rating_list_id", "tournament_id", "not_rated_reason"],
        ((rating_list.pk, t, "") for t in tournament_ids),
    )

    game_id = _next_id(Game)
    participant_rows, game_rows, seat_rows = [], [], []
    total = 0
    regular_every = max(1, tournaments // REGULAR_TOURNAMENTS)
    for index, t_id in enumerate(tournament_ids):
        want = games - total if index == tournaments - 1 else per_tournament
        entrants = rng.sample(member_ids, k=size)
        if index % regular_every == 0 and member_ids[0] not in entrants:
            entrants[0] = member_ids[0]  # the regular: the profile page's worst case
        for m_id in entrants:
            participant_rows.append((t_id, m_id, grades[m_id - member_start], "", None, None))
        made = 0
        for round_number in range(1, ROUNDS + 1):
            rng.shuffle(entrants)
            for white, black in zip(entrants[::2], entrants[1::2], strict=False):
                if made >= want:
                    break
                strength = grades[white - member_start] - grades[black - member_start]
                p_white = 1 / (1 + 10 ** (-strength / 4))
                result = "white" if rng.random() < p_white else "black"
                game_rows.append((game_id, t_id, round_number, white, black, result, "played", 0))
                seat_rows.append((game_id, t_id, round_number, white))
                seat_rows.append((game_id, t_id, round_number, black))
                game_id += 1
                made += 1
        total += made
    _copy(
        Participant,
        ["tournament_id", "member_id", "grade", "team", "place", "rating_declared"],
        participant_rows,
    )
    _copy(
        Game,
        ["id", "tournament_id", "round", "white_id", "black_id", "result", "kind", "handicap"],
        game_rows,
    )
    _copy(RoundSeat, ["game_id", "tournament_id", "round", "member_id"], seat_rows)
    _reset_sequences(Member, Tournament, Game)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # bulk-loaded tables have no statistics yet
            cursor.execute("ANALYZE")
    return BenchData(rating_list, club, member_ids, tournament_ids, total, days[0], days[-1])


# The tables the load fills.
LOADED = (Member, Tournament, ListTournament, Participant, Game, RoundSeat)


def grade_for(rank: int) -> Grade:
    return Grade.from_rank(rank)
