"""A member merge while a recompute of his list runs, on two connections (PostgreSQL):
the merge waits for the recompute, then moves the rows it wrote; neither fails."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.db import connection, transaction
from django.urls import reverse

from clubsite.models import Member
from ratings.merging import members_merge
from ratings.models import RatingEntry, RatingHistory, RecomputeRun
from ratings.recompute import services
from ratings.recompute.services import rating_list_recompute
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import (
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    TournamentFactory,
    UserFactory,
)
from tests.trust.world import World

pytestmark = pytest.mark.django_db(transaction=True)


def _table(world: World, players: list[Member], day: dt.date) -> None:
    table = TournamentFactory(organiser=world.rivne, status="submitted", start_date=day,
                              end_date=day, rounds=1)  # fmt: skip
    for player in players:
        ParticipantFactory(tournament=table, member=player)
    GameFactory(tournament=table, round=1, white=players[0], black=players[1])
    GameFactory(tournament=table, round=1, white=players[2], black=players[3])
    table.list_links.create(rating_list=world.lists["egf-gor"])
    tournament_approve_and_rate(tournament=table, by=world.users["egf-gor-referee"])


def _someone_waits(seconds: float = 10) -> bool:
    """Whether another connection comes to wait on a lock within `seconds`."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.05)
    return False


def _registrar(world: World):
    from clubsite.models import Registrar

    world.users["registrar"] = UserFactory(username="registrar")
    Registrar.objects.create(user=world.users["registrar"])
    return world.users["registrar"]


def test_a_merge_waits_for_the_recompute_of_his_list_and_moves_its_new_rows(
    world: World, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip("row and advisory locks on two connections are PostgreSQL's")
    # Recomputes run only when this test says (the approvals' tasks are not queued).
    monkeypatch.setattr(services, "recompute_enqueue", lambda **_kwargs: True)
    rating_list = world.lists["egf-gor"]
    _registrar(world)  # issue 54: a merge is a registrar's act
    others = [MemberFactory(club=world.rivne, grade=g) for g in ("3k", "4k", "5k")]
    keep = MemberFactory(club=world.rivne, grade="2k", family_name="Tkachenko")
    drop = MemberFactory(club=world.rivne, grade="2k", family_name="Ткаченко")
    _table(world, [drop, *others], dt.date(2024, 3, 1))
    _table(world, [keep, *others], dt.date(2024, 9, 1))
    _table(world, [drop, *others], dt.date(2024, 10, 1))
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="start")
    # A table put in before his October one: its recompute inserts his June row and
    # rewrites his October row (his totals moved).
    _table(world, [drop, *others], dt.date(2024, 6, 1))

    written, waited, errors = threading.Event(), [], []
    store = services.outcome_store

    def store_then_hold(*args, **kwargs):
        result = store(*args, **kwargs)
        written.set()
        waited.append(_someone_waits())  # the merge, until this run commits
        return result

    def recompute() -> None:
        try:
            rating_list_recompute(rating_list_id=rating_list.pk, trigger="June table")
        except Exception as error:  # noqa: BLE001 - the test reports it
            errors.append(error)
            written.set()
        finally:
            connection.close()

    monkeypatch.setattr(services, "outcome_store", store_then_hold)
    running = threading.Thread(target=recompute)
    running.start()
    assert written.wait(30), "the recompute did not reach its store"
    try:
        members_merge(keep=keep, drop=drop, by=world.users["registrar"])
    finally:
        running.join(30)
    assert not errors, errors
    assert waited == [True], "the merge did not wait for the recompute"
    assert RecomputeRun.objects.get(trigger="June table").outcome == RecomputeRun.Outcome.SUCCESS
    assert not Member.objects.filter(pk=drop.pk).exists()
    kept = RatingHistory.objects.filter(rating_list=rating_list, member=keep)
    assert sorted(kept.values_list("date", flat=True)) == [
        dt.date(2024, 3, 1), dt.date(2024, 6, 1), dt.date(2024, 9, 1), dt.date(2024, 10, 1),
    ]  # fmt: skip

    monkeypatch.setattr(services, "outcome_store", store)
    rating_list_recompute(rating_list_id=rating_list.pk, trigger="merge")
    assert RatingEntry.objects.get(rating_list=rating_list, member=keep).tournaments == 4


def test_a_merge_that_waits_too_long_is_refused_with_nothing_changed(world: World, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("advisory locks on two connections are PostgreSQL's")
    rating_list = world.lists["egf-gor"]
    others = [MemberFactory(club=world.rivne, grade=g) for g in ("3k", "4k", "5k")]
    keep = MemberFactory(club=world.rivne, grade="2k")
    drop = MemberFactory(club=world.rivne, grade="2k")
    _table(world, [drop, *others], dt.date(2024, 3, 1))
    rows = list(RatingHistory.objects.filter(member=drop).values_list("pk", flat=True))
    assert rows
    monkeypatch.setattr("ratings.merging.MERGE_WAIT_SECONDS", 0.3)
    holding, done = threading.Event(), threading.Event()

    def long_recompute() -> None:  # holds the list's lock as a running recompute does
        try:
            with transaction.atomic():
                services.list_lock(rating_list.pk)
                holding.set()
                done.wait(30)
        finally:
            connection.close()

    running = threading.Thread(target=long_recompute)
    running.start()
    assert holding.wait(30)
    try:
        _registrar(world)  # issue 54: a merge is a registrar's act
        response = world.client("registrar").post(
            reverse("member_merge", args=[keep.pk]),
            {"other": drop.pk, "keep": keep.pk, "confirm": "1"},
            follow=True,
        )
    finally:
        done.set()
        running.join(30)
    assert response.status_code == 200
    assert "being recomputed; merge them again in a minute" in response.content.decode()
    assert Member.objects.filter(pk=drop.pk).exists()
    assert list(RatingHistory.objects.filter(member=drop).values_list("pk", flat=True)) == rows
