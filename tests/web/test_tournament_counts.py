"""The players count the tournament list shows is kept by triggers (issue 18)."""

from __future__ import annotations

import pytest
from django.db.models import Count

from tests.factories import MemberFactory, ParticipantFactory, TournamentFactory
from tournaments.models import Participant, Tournament, TournamentCounts
from tournaments.selectors import tournament_public_list

pytestmark = pytest.mark.django_db


def _kept() -> dict[int, int]:
    return dict(TournamentCounts.objects.exclude(players=0).values_list("tournament", "players"))


def _counted() -> dict[int, int]:
    return dict(
        Participant.objects.values("tournament")
        .annotate(n=Count("*"))
        .values_list("tournament", "n")
    )


def test_the_kept_count_follows_every_change_of_the_entrants():
    first, second = TournamentFactory(), TournamentFactory()
    members = MemberFactory.create_batch(6)
    Participant.objects.bulk_create(Participant(tournament=first, member=m) for m in members[:4])
    ParticipantFactory(tournament=second, member=members[4])
    assert _kept() == _counted() == {first.pk: 4, second.pk: 1}
    Participant.objects.filter(tournament=first, member=members[0]).delete()
    Participant.objects.filter(tournament=first, member=members[1]).update(tournament=second)
    Participant.objects.filter(tournament=first).update(place=1)  # not a move: no change
    assert _kept() == _counted() == {first.pk: 2, second.pk: 2}
    second.delete()
    assert not TournamentCounts.objects.filter(tournament_id=second.pk).exists()
    assert _kept() == _counted() == {first.pk: 2}


def test_the_public_list_shows_and_sorts_by_the_kept_count():
    small, big, empty = (TournamentFactory(status=Tournament.Status.APPROVED) for _ in range(3))
    for tournament, n in ((small, 1), (big, 3)):
        for member in MemberFactory.create_batch(n):
            ParticipantFactory(tournament=tournament, member=member)
    rows = {t.pk: t.players for t in tournament_public_list()}
    assert rows == {small.pk: 1, big.pk: 3, empty.pk: 0}
    ordered = [t.pk for t in tournament_public_list().order_by("-players", "id")]
    assert ordered == [big.pk, small.pk, empty.pk]
