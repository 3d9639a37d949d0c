"""Every database constraint of the domain models, each tried and refused by the database.

Each attempt runs inside its own `transaction.atomic()` so the test goes on after the
refusal (PostgreSQL aborts the whole transaction otherwise). Check constraints are
named in the error on both backends; SQLite names unique constraints by their columns.
"""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager

import pytest
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, connection, transaction

from clubsite.models import FideRating, Member, MemberClaim, MergeRequest, Registrar
from ratings.models import (
    ListTournament,
    PublishedEntry,
    PublishedList,
    RatingEntry,
    RatingHistory,
)
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RatingListFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Game, RoundSeat, Tournament

pytestmark = pytest.mark.django_db


@contextmanager
def refused(name: str, *columns: str):
    """The block must fail with an IntegrityError naming the constraint (or its columns)."""
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        yield
    message = str(caught.value)
    assert name in message or (columns and all(c in message for c in columns)), message


# --- clubsite -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "name"),
    [
        ("egd_pin", "member_unique_egd_pin"),
        ("fide_id", "member_unique_fide_id"),
        ("import_key", "member_unique_import_key"),
    ],
)
def test_member_identifiers_unique_but_blank_allowed_many_times(field: str, name: str) -> None:
    MemberFactory(**{field: "12345678"})
    with refused(name, field):
        MemberFactory(**{field: "12345678"})
    MemberFactory(**{field: "87654321"})
    for _ in range(3):
        MemberFactory(**{field: ""})
    assert Member.objects.filter(**{field: ""}).count() == 3


@pytest.mark.parametrize("rank", [-30, 19, 100, -32000])
def test_member_grade_out_of_scale_refused(rank: int) -> None:
    member = MemberFactory(grade="1k")
    table = Member._meta.db_table
    with refused("member_grade_in_scale"), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET grade = %s WHERE id = %s", [rank, member.pk])
    member.refresh_from_db()
    assert str(member.grade) == "1k"


@pytest.mark.parametrize("rank", [-29, 0, 1, 9, 10, 18])
def test_member_grade_scale_ends_accepted(rank: int) -> None:
    member = MemberFactory(grade=None)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Member._meta.db_table} SET grade = %s WHERE id = %s", [rank, member.pk]
        )
    member.refresh_from_db()
    assert member.grade.rank == rank


def test_club_slug_unique() -> None:
    ClubFactory(slug="rivne-go")
    with refused("slug", "slug"):
        ClubFactory(slug="rivne-go")


# --- tournaments ----------------------------------------------------------------------------


def test_tournament_end_before_start_refused() -> None:
    with refused("tournament_dates_in_order"):
        TournamentFactory(start_date=dt.date(2024, 5, 2), end_date=dt.date(2024, 5, 1))
    TournamentFactory(start_date=dt.date(2024, 5, 1), end_date=dt.date(2024, 5, 1))


@pytest.mark.parametrize("size", [15, 0, 21])
def test_tournament_board_size_unknown_refused(size: int) -> None:
    with refused("tournament_board_size_known"):
        TournamentFactory(board_size=size)


@pytest.mark.parametrize("size", [9, 13, 19])
def test_tournament_board_sizes_known(size: int) -> None:
    assert TournamentFactory(board_size=size).pk


@pytest.mark.parametrize("klass", ["D", "a", ""])
def test_tournament_class_unknown_refused(klass: str) -> None:
    with refused("tournament_class_known"):
        TournamentFactory(tournament_class=klass)


def test_tournament_without_rounds_refused() -> None:
    with refused("tournament_has_rounds"):
        TournamentFactory(rounds=0)


def test_tournament_slug_unique() -> None:
    TournamentFactory(slug="cup")
    with refused("slug", "slug"):
        TournamentFactory(slug="cup")


def test_participant_twice_refused() -> None:
    participant = ParticipantFactory()
    with refused("participant_once", "tournament_id", "member_id"):
        ParticipantFactory(tournament=participant.tournament, member=participant.member)


def test_game_self_play_refused() -> None:
    member = MemberFactory()
    with refused("game_no_self_play"):
        GameFactory(white=member, black=member)


def test_game_round_zero_refused() -> None:
    with refused("game_round_positive"):
        GameFactory(round=0)


@pytest.mark.parametrize("handicap", [10, 20])
def test_game_handicap_over_nine_refused(handicap: int) -> None:
    with refused("game_handicap_0_9"):
        GameFactory(handicap=handicap)


def test_game_handicap_nine_accepted() -> None:
    assert GameFactory(handicap=9).pk


@pytest.mark.parametrize("kind", [Game.Kind.BYE_FULL, Game.Kind.BYE_HALF, Game.Kind.BYE_ZERO])
def test_bye_with_opponent_refused(kind: str) -> None:
    with refused("game_bye_has_no_opponent"):
        GameFactory(kind=kind, result="")


@pytest.mark.parametrize("kind", [Game.Kind.PLAYED, Game.Kind.FORFEIT])
def test_game_without_opponent_refused(kind: str) -> None:
    with refused("game_bye_has_no_opponent"):
        GameFactory(kind=kind, black=None)


@pytest.mark.parametrize("kind", [Game.Kind.PLAYED, Game.Kind.FORFEIT])
def test_game_without_result_refused(kind: str) -> None:
    with refused("game_bye_has_no_opponent"):
        GameFactory(kind=kind, result="")


def test_bye_without_opponent_accepted() -> None:
    assert GameFactory(kind=Game.Kind.BYE_HALF, black=None, result="").pk


def test_forfeit_draw_refused() -> None:
    with refused("game_forfeit_has_winner"):
        GameFactory(kind=Game.Kind.FORFEIT, result=Game.Result.DRAW)
    assert GameFactory(kind=Game.Kind.FORFEIT, result=Game.Result.BLACK).pk
    assert GameFactory(kind=Game.Kind.PLAYED, result=Game.Result.DRAW).pk


def test_player_twice_in_a_round_refused_by_seats() -> None:
    tournament = TournamentFactory()
    a, b, c = MemberFactory.create_batch(3)
    first = GameFactory(tournament=tournament, white=a, black=b)
    second = GameFactory(tournament=tournament, white=a, black=c)
    RoundSeat.objects.create(game=first, tournament=tournament, round=1, member=a)
    with refused("seat_once_per_round", "tournament_id", "round", "member_id"):
        RoundSeat.objects.create(game=second, tournament=tournament, round=1, member=a)
    # Another round, or another tournament, is fine.
    RoundSeat.objects.create(game=second, tournament=tournament, round=2, member=a)
    other = GameFactory(white=a)
    RoundSeat.objects.create(game=other, tournament=other.tournament, round=1, member=a)


# --- ratings -------------------------------------------------------------------------------


def test_rating_list_slug_unique() -> None:
    RatingListFactory(slug="egf")
    with refused("slug", "slug"):
        RatingListFactory(slug="egf")


def test_list_tournament_once() -> None:
    rating_list, tournament = RatingListFactory(), TournamentFactory()
    ListTournament.objects.create(rating_list=rating_list, tournament=tournament)
    with refused("list_tournament_once", "rating_list_id", "tournament_id"):
        ListTournament.objects.create(rating_list=rating_list, tournament=tournament)


def test_fide_rating_once_a_day() -> None:
    member = MemberFactory()
    FideRating.objects.create(member=member, rating=2000, valid_from=dt.date(2025, 1, 1))
    with refused("fide_rating_once_a_day", "member_id", "valid_from"):
        FideRating.objects.create(member=member, rating=2010, valid_from=dt.date(2025, 1, 1))


def test_registrar_scope_once() -> None:
    user = UserFactory()
    Registrar.objects.create(user=user, country="UA")
    with refused("registrar_scope_once", "user_id", "country", "federation"):
        Registrar.objects.create(user=user, country="UA")
    Registrar.objects.create(user=user, country="PL")  # another scope of his


def test_merge_request_once() -> None:
    keep, drop = MemberFactory(), MemberFactory()
    MergeRequest.objects.create(keep=keep, drop=drop)
    with refused("merge_request_once", "keep_id", "drop_id"):
        MergeRequest.objects.create(keep=keep, drop=drop)


def test_claim_one_pending_per_user() -> None:
    user, member = UserFactory(), MemberFactory()
    MemberClaim.objects.create(user=user, member=member)
    with refused("claim_one_pending_per_user", "user_id"):
        MemberClaim.objects.create(user=user, member=MemberFactory())
    # Once decided, he may ask again.
    MemberClaim.objects.filter(user=user).update(state=MemberClaim.State.REFUSED)
    MemberClaim.objects.create(user=user, member=member)


def test_entry_once_per_list() -> None:
    rating_list, member = RatingListFactory(), MemberFactory()
    RatingEntry.objects.create(rating_list=rating_list, member=member, rating=1500)
    with refused("entry_once_per_list", "rating_list_id", "member_id"):
        RatingEntry.objects.create(rating_list=rating_list, member=member, rating=1600)
    RatingEntry.objects.create(rating_list=RatingListFactory(), member=member, rating=1600)


def _history(**kwargs) -> RatingHistory:
    values = {"date": dt.date(2024, 5, 1), "sequence": 1, "after": 1510.0, "rated": True}
    values.update(kwargs)
    return RatingHistory.objects.create(**values)


def test_history_once_per_list_member_tournament() -> None:
    rating_list, member, tournament = RatingListFactory(), MemberFactory(), TournamentFactory()
    _history(rating_list=rating_list, member=member, tournament=tournament)
    with refused("history_once", "rating_list_id", "member_id", "tournament_id"):
        _history(rating_list=rating_list, member=member, tournament=tournament, sequence=2)


def test_history_rated_without_after_refused() -> None:
    rating_list, member = RatingListFactory(), MemberFactory()
    with refused("history_rated_has_after"):
        _history(rating_list=rating_list, member=member, tournament=TournamentFactory(), after=None)
    # Not rated (e.g. under UFGO's time limit): no rating after is fine.
    _history(
        rating_list=rating_list,
        member=member,
        tournament=TournamentFactory(),
        after=None,
        rated=False,
    )


def test_snapshot_once_per_date_and_member_once_per_snapshot() -> None:
    rating_list, member = RatingListFactory(), MemberFactory()
    snapshot = PublishedList.objects.create(rating_list=rating_list, date=dt.date(2024, 7, 1))
    with refused("snapshot_once_per_date", "rating_list_id", "date"):
        PublishedList.objects.create(rating_list=rating_list, date=dt.date(2024, 7, 1))
    PublishedEntry.objects.create(snapshot=snapshot, member=member, rank=1, rating=2000)
    with refused("snapshot_member_once", "snapshot_id", "member_id"):
        PublishedEntry.objects.create(snapshot=snapshot, member=member, rank=2, rating=1900)


def test_a_table_proposes_a_field_of_a_member_once() -> None:
    from tournaments.models import MemberProposal

    member, tournament = MemberFactory(), TournamentFactory()
    MemberProposal.objects.create(tournament=tournament, member=member, field="fide_id", value="1")
    with refused("proposal_once_per_field", "tournament_id", "member_id", "field"):
        MemberProposal.objects.create(
            tournament=tournament, member=member, field="fide_id", value="2"
        )


def test_baseline_names_a_member_once() -> None:
    from ratings.models import Baseline, BaselineRow

    rating_list, member = RatingListFactory(), MemberFactory()
    baseline = Baseline.objects.create(
        rating_list=rating_list, date=dt.date(2024, 7, 1), source="csv"
    )
    BaselineRow.objects.create(baseline=baseline, member=member, rating=2000)
    with refused("baseline_member_once", "baseline_id", "member_id"):
        BaselineRow.objects.create(baseline=baseline, member=member, rating=1900)


def test_every_declared_constraint_is_tried_here() -> None:
    """A new constraint needs a test here: this list is the inventory."""
    from django.apps import apps

    tried = {
        "member_unique_egd_pin",
        "member_unique_fide_id",
        "member_unique_import_key",
        "member_grade_in_scale",
        "tournament_dates_in_order",
        "tournament_board_size_known",
        "tournament_class_known",
        "tournament_has_rounds",
        "participant_once",
        "game_no_self_play",
        "game_round_positive",
        "game_handicap_0_9",
        "game_bye_has_no_opponent",
        "game_forfeit_has_winner",
        "seat_once_per_round",
        "list_tournament_once",
        "fide_rating_once_a_day",
        "entry_once_per_list",
        "history_once",
        "history_rated_has_after",
        "snapshot_once_per_date",
        "snapshot_member_once",
        "proposal_once_per_field",
        "baseline_member_once",
        "registrar_scope_once",
        "merge_request_once",
        "claim_one_pending_per_user",
    }
    declared = {
        constraint.name
        for app in ("clubsite", "tournaments", "ratings")
        for model in apps.get_app_config(app).get_models()
        for constraint in model._meta.constraints
    }
    assert declared == tried


# --- full_clean: the messages a form shows -----------------------------------------------


def test_tournament_clean_end_before_start() -> None:
    tournament = TournamentFactory.build(
        organiser=ClubFactory(), start_date=dt.date(2024, 5, 2), end_date=dt.date(2024, 5, 1)
    )
    with pytest.raises(ValidationError) as caught:
        tournament.full_clean()
    assert caught.value.message_dict["end_date"] == ["The tournament cannot end before it starts."]


def test_tournament_clean_accepts_one_day_event() -> None:
    TournamentFactory.build(organiser=ClubFactory()).full_clean()


def test_game_clean_self_play() -> None:
    member = MemberFactory()
    game = Game(tournament=TournamentFactory(), round=1, white=member, black=member, result="white")
    with pytest.raises(ValidationError) as caught:
        game.full_clean()
    assert "A player cannot play against themselves." in caught.value.message_dict[NON_FIELD_ERRORS]


def test_game_clean_handicap_over_nine() -> None:
    game = GameFactory.build(
        tournament=TournamentFactory(), white=MemberFactory(), black=MemberFactory(), handicap=10
    )
    with pytest.raises(ValidationError) as caught:
        game.full_clean()
    assert "handicap" in caught.value.message_dict


def test_rating_list_clean_unknown_system() -> None:
    rating_list = RatingListFactory.build(system="elo")
    with pytest.raises(ValidationError) as caught:
        rating_list.full_clean()
    assert "Unknown rating system." in caught.value.message_dict["system"]


def test_rating_list_clean_unknown_params() -> None:
    rating_list = RatingListFactory.build(system="egf", params={"epsilon": 0.02, "zeta": 1, "k": 2})
    with pytest.raises(ValidationError) as caught:
        rating_list.full_clean()
    assert caught.value.message_dict["params"] == ["Unknown parameters: k, zeta"]


def test_rating_list_clean_params_not_an_object() -> None:
    rating_list = RatingListFactory.build(system="egf", params=[1, 2])
    with pytest.raises(ValidationError) as caught:
        rating_list.full_clean()
    assert "Parameters must be a JSON object." in caught.value.message_dict["params"]


@pytest.mark.parametrize("system", ["egf", "ufgo", "rivne", "orr", "uscf"])
def test_rating_list_clean_accepts_each_system_with_its_params(system: str) -> None:
    from ratings.models import SYSTEM_GAMES
    from ratings.systems.registry import SYSTEMS

    params = dict(SYSTEMS[system].params)
    game = SYSTEM_GAMES[system][0]
    RatingListFactory.build(system=system, game=game, params=params).full_clean()
    RatingListFactory.build(system=system, game=game, params={}).full_clean()


def test_member_full_clean_with_grade() -> None:
    """A member with a grade passes model validation (the grade is a Grade, not an int)."""
    member = MemberFactory.build(club=ClubFactory(), grade="3d")
    member.full_clean()
    member = MemberFactory.build(club=ClubFactory(), grade="0d")
    with pytest.raises(ValidationError) as caught:
        member.full_clean()
    assert "grade" in caught.value.message_dict


def test_tournament_status_default_is_draft() -> None:
    assert TournamentFactory().status == Tournament.Status.DRAFT
