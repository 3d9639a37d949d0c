"""A list's published snapshot: the date it may carry, the entries it freezes, and the
grades it hands on to the replay of the tournaments after it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.members import effective_birth_date
from clubsite.models import Member
from ratings.models import PublishedEntry, PublishedList, RatingEntry, RatingHistory, RatingList
from ratings.recompute import rules
from ratings.recompute.reads import states_before
from ratings.recompute.replay import hand_on_publications, replay
from ratings.recompute.services import list_lock
from ratings.recompute.store import outcome_store
from ratings.systems.grades import Grade


class PublicationRefused(ValueError):
    """A publication date the list's rules do not allow (the message says why)."""


def publication_date_check(*, rating_list: RatingList, date: dt.date) -> None:
    """Refuse a date no publication may have: in the future (a snapshot of a list that
    later approvals would still change), already used, not after the list's last
    publication (each one starts from what the previous one left, ufgo.md B9), or, for
    UFGO, not a quarter day (1.5: 1 January, 1 April, 1 July, 1 October)."""
    today = timezone.localdate()
    if date > today:
        raise PublicationRefused(
            _("A list cannot be published on a future date (%(date)s; today is %(today)s).")
            % {"date": date.isoformat(), "today": today.isoformat()}
        )
    if rules.has_floating_grades(rating_list.system) and not rules.is_quarter_day(date):
        raise PublicationRefused(
            _(
                "%(list)s is published on 1 January, 1 April, 1 July or 1 October only, not on %(date)s."
            )
            % {"list": rating_list.name, "date": date.isoformat()}
        )
    published = PublishedList.objects.filter(rating_list=rating_list)
    if published.filter(date=date).exists():
        raise PublicationRefused(f"{rating_list} is already published on {date}.")
    last = published.order_by("-date").values_list("date", flat=True).first()
    if last is not None and date < last:
        raise PublicationRefused(
            _("%(list)s was last published on %(last)s; a new publication must come after it.")
            % {"list": rating_list.name, "last": last.isoformat()}
        )


@transaction.atomic
def rating_list_publish(*, rating_list: RatingList, date: dt.date, by: Any = None) -> PublishedList:
    """Freeze the list as it stood at the end of `date`; UFGO assigns 4-7 dan here (B9).

    The grades the previous publications gave are handed on first (2.6 lowers one step
    per publication from there), and the tournaments after a past date are replayed at
    once, so the live list equals a from-scratch replay as soon as this commits."""
    list_lock(rating_list.pk)
    publication_date_check(rating_list=rating_list, date=date)
    states = states_before(rating_list, date + dt.timedelta(days=1))
    hand_on_publications(rating_list, states, before=date)
    snapshot = PublishedList.objects.create(rating_list=rating_list, date=date, created_by=by)
    births = {
        member_id: effective_birth_date(birth_date, birth_year)
        for member_id, birth_date, birth_year in Member.objects.filter(
            pk__in=list(states)
        ).values_list("id", "birth_date", "birth_year")
    }
    ranked = sorted(
        (
            (m, s)
            for m, s in states.items()
            if s.rating is not None
            and (
                rating_list.system != "egf"
                or s.last_played is None
                or rules.egf_active_until(s.last_played, _grade_or_none(s.grade)) >= date
            )
        ),
        key=lambda item: (-(item[1].rating or 0.0), item[0]),
    )
    entries = []
    for rank, (member_id, state) in enumerate(ranked, start=1):
        grade = rules.grade_at_publication(
            rating_list.system,
            held=_grade_or_none(state.grade),
            rating=state.rating or 0.0,
            birth_date=births.get(member_id),
            publication_date=date,
        )
        entries.append(
            PublishedEntry(
                snapshot=snapshot,
                member_id=member_id,
                rank=rank,
                rating=state.rating,
                provisional=state.provisional,
                grade=grade,
                tournaments=state.tournaments,
                last_played=state.last_played,
            )
        )
    PublishedEntry.objects.bulk_create(entries, batch_size=5000)
    if rating_list.system == "ufgo":
        _carry_published_grades(rating_list, entries, date)
        _replay_after_publication(rating_list, date)
    return snapshot


def _replay_after_publication(rating_list: RatingList, date: dt.date) -> None:
    """Tournaments after a past publication date were rated without its grades: replay
    them now, in this transaction, so no page shows the list without them."""
    after = date + dt.timedelta(days=1)
    if not RatingHistory.objects.filter(rating_list=rating_list, date__gte=after).exists():
        return
    outcome_store(rating_list, replay(rating_list, after, to_store=True), read_at=timezone.now())


def _carry_published_grades(
    rating_list: RatingList, entries: list[PublishedEntry], date: dt.date
) -> None:
    """UFGO grades given at publication hold from then on: the live entries of players
    with no tournament after the date take them now; replays hand them on (replay.py)."""
    for entry in entries:
        RatingEntry.objects.filter(
            rating_list=rating_list, member_id=entry.member_id, last_played__lte=date
        ).update(grade=entry.grade)


def _grade_or_none(rank: int | None) -> Grade | None:
    return None if rank is None else Grade.from_rank(rank)
