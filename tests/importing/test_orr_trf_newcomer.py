"""ORR D22 through the commands: a TRF newcomer's FIDE rating becomes his starting rating.

import_tournament keeps the rating the TRF gives as Participant.rating_declared;
approve_tournament --wait rates the table; his history row starts from that rating.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from clubsite.models import Member
from ratings.models import RatingEntry, RatingHistory
from tests.factories import RatingListFactory
from tournaments.formats import parse
from tournaments.models import Participant, Tournament

from .helpers import FORMATS_DATA

# approve_tournament queues the recompute on commit: the test needs real commits.
pytestmark = pytest.mark.django_db(transaction=True)
TRF = FORMATS_DATA / "all_codes.trf16"


def _call(*args: str) -> list[str]:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip().splitlines()


def test_a_newcomer_starts_from_the_fide_rating_the_trf_gives():
    rating_list = RatingListFactory(slug="orr", system="orr", game="chess")
    last = _call("import_tournament", str(TRF), "--list", "orr", "--format", "trf16")[-1]
    tournament = Tournament.objects.get(pk=int(last.split()[1]))
    assert (
        _call("approve_tournament", str(tournament.pk), "--wait", "--timeout", "60")[-1]
        == "ratings recomputed"
    )

    file_ratings = {p.fide_id: p.fide_rating for p in parse(TRF.read_bytes(), "trf16").players}
    kovalenko = Member.objects.get(fide_id="14100000")
    assert file_ratings["14100000"] == 2510
    declared = Participant.objects.get(tournament=tournament, member=kovalenko).rating_declared
    assert declared == 2510
    assert not RatingHistory.objects.filter(member=kovalenko).exclude(tournament=tournament)
    row = RatingHistory.objects.get(rating_list=rating_list, member=kovalenko)
    assert row.tournament == tournament and row.rated
    assert row.rating_in is None  # new to the list
    assert row.before == pytest.approx(2510)
    entry = RatingEntry.objects.get(rating_list=rating_list, member=kovalenko)
    assert entry.rating == pytest.approx(row.after)
    # Every rated newcomer who brought a FIDE rating starts from it.
    checked = 0
    for fide_id, rating in file_ratings.items():
        if not fide_id or rating is None:
            continue
        history = RatingHistory.objects.filter(
            rating_list=rating_list, member__fide_id=fide_id
        ).first()
        if history is not None and history.rated:
            assert history.before == pytest.approx(rating), fide_id
            checked += 1
    assert checked >= 2
