"""Two members who are one person become one (issue 14): staff and referees merge them.

Everything of the one dropped moves to the one kept: participations, games and round
seats, rating history, published entries, proposals, his record's history, his user
account and the identity data the kept one lacks. Two members who played in one
tournament are two people (or a table to correct first): refused. Each list where the
dropped one was rated recomputes from the earliest date either of them was rated there.

It lives in the ratings app because it moves the lists' rows and asks for the recompute;
the club domain only says who is who (`clubsite.duplicates`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Min, Q
from django.utils.translation import gettext as _

from clubsite.models import Member
from ratings.models import ListTournament, PublishedEntry, RatingEntry, RatingHistory, RatingList
from ratings.recompute.services import lists_lock, rating_list_request_recompute
from ratings.recompute.store import entries_changed
from tournaments.models import Game, MemberProposal, Participant, RoundSeat, Tournament

# What the kept member takes from the dropped one when he has none of it.
FILLED = (
    "given_name", "native_name", "birth_date", "birth_year", "sex", "country", "club",
    "egd_pin", "fide_id", "fide_rating", "fide_title", "federation", "national_id",
    "import_key", "grade", "email", "phone",
)  # fmt: skip
UNIQUE = ("egd_pin", "fide_id", "import_key")
# How long a merge waits for a running recompute of the members' lists before it asks
# to be tried again (the request's own time runs meanwhile).
MERGE_WAIT_SECONDS = 10


def may_merge(user: AbstractBaseUser) -> bool:
    """Staff, and the referees of any list, keep the record of who is who."""
    if not user.is_authenticated:
        return False
    return bool(user.is_staff) or RatingList.objects.filter(referees=user).exists()


def shared_tournaments(keep: Member, drop: Member) -> list[Tournament]:
    """Tournaments both played in (as participants or in games)."""

    def played(member: Member) -> set[int]:
        ids = set(Participant.objects.filter(member=member).values_list("tournament_id", flat=True))
        ids |= set(
            Game.objects.filter(Q(white=member) | Q(black=member)).values_list(
                "tournament_id", flat=True
            )
        )
        return ids

    both = played(keep) & played(drop)
    return list(Tournament.objects.filter(pk__in=both).order_by("end_date", "pk"))


@dataclass
class MergeOutcome:
    kept: Member
    moved: dict[str, int] = field(default_factory=dict)
    recomputed: dict[str, dt.date] = field(default_factory=dict)  # list name -> from date


def _check(keep: Member, drop: Member, by: AbstractBaseUser) -> None:
    if not may_merge(by):
        raise PermissionDenied(_("Only staff and referees merge members."))
    if keep.pk == drop.pk:
        raise ValidationError(_("Choose two different members."))
    shared = shared_tournaments(keep, drop)
    if shared:
        names = ", ".join(f"{t.name} ({t.end_date:%Y-%m-%d}, #{t.pk})" for t in shared[:5])
        raise ValidationError(
            _(
                "%(a)s and %(b)s both played in %(tournaments)s: they are two people, or "
                "that table names one person twice. Correct the table first."
            )
            % {"a": keep.full_name, "b": drop.full_name, "tournaments": names}
        )
    if keep.user_id and drop.user_id:
        raise ValidationError(
            _("Both members have a user account; unlink one before merging them.")
        )


def _affected_lists(keep: Member, drop: Member) -> dict[int, dt.date]:
    """Per list where the dropped one was rated: the earliest date either was rated."""
    firsts: dict[int, dt.date] = {}
    dropped = RatingHistory.objects.filter(member=drop).values("rating_list_id")
    for row in dropped.annotate(first=Min("date")):
        firsts[row["rating_list_id"]] = row["first"]
    kept = RatingHistory.objects.filter(member=keep, rating_list_id__in=list(firsts))
    for row in kept.values("rating_list_id").annotate(first=Min("date")):
        firsts[row["rating_list_id"]] = min(firsts[row["rating_list_id"]], row["first"])
    return firsts


def _lists_of(*members: Member) -> list[int]:
    """The lists that rate one of `members` or a table one of them played: those whose
    recompute may be writing their rows."""
    rated = RatingHistory.objects.filter(member__in=members).order_by()
    played = ListTournament.objects.filter(tournament__participants__member__in=members).order_by()
    rated, played = rated.values_list("rating_list_id"), played.values_list("rating_list_id")
    return sorted({list_id for (list_id,) in rated.union(played)})


@transaction.atomic
def members_merge(*, keep: Member, drop: Member, by: AbstractBaseUser) -> MergeOutcome:
    """Make `drop` part of `keep` (see the module's docstring); `drop` is deleted."""
    if not may_merge(by):  # before anything waits
        raise PermissionDenied(_("Only staff and referees merge members."))
    # A running recompute of their lists first finishes: it holds the history rows it
    # rewrites and, at its COMMIT, checks its new rows' members (a share of their rows),
    # while the merge would hold the members' rows and wait for those history rows; each
    # would wait for the other, and PostgreSQL would abort one of them.
    if not lists_lock(_lists_of(keep, drop), wait_seconds=MERGE_WAIT_SECONDS):
        raise ValidationError(
            _("A rating list of these members is being recomputed; merge them again in a minute.")
        )
    locked = Member.objects.select_for_update().in_bulk([keep.pk, drop.pk])
    if len(locked) != 2:
        raise ValidationError(_("Choose two different members."))
    keep, drop = locked[keep.pk], locked[drop.pk]
    _check(keep, drop, by)
    outcome = MergeOutcome(kept=keep)
    affected = _affected_lists(keep, drop)

    taken = {name: getattr(drop, name) for name in FILLED}
    taken["user_id"] = drop.user_id
    # The dropped one gives up his unique values and his account before the kept one takes them.
    for name in UNIQUE:
        setattr(drop, name, "")
    drop.user = None
    drop.save(update_fields=[*UNIQUE, "user"])

    moves = {
        "participations": Participant.objects.filter(member=drop).update(member=keep),
        "games": Game.objects.filter(white=drop).update(white=keep)
        + Game.objects.filter(black=drop).update(black=keep),
        "seats": RoundSeat.objects.filter(member=drop).update(member=keep),
        "history": RatingHistory.objects.filter(member=drop).update(member=keep),
        "proposals": MemberProposal.objects.filter(member=drop).update(member=keep),
    }
    mine = PublishedEntry.objects.filter(member=keep).values("snapshot_id")
    # A snapshot that lists both keeps the kept one's line: published lists do not change.
    PublishedEntry.objects.filter(member=drop, snapshot_id__in=mine).delete()
    moves["published"] = PublishedEntry.objects.filter(member=drop).update(member=keep)
    entries = RatingEntry.objects.filter(member=drop)
    entries_changed(list(entries.values_list("rating_list_id", flat=True)))
    entries.delete()  # the recompute rebuilds the kept one's
    moves["record history"] = Member.history.filter(id=drop.pk).update(id=keep.pk)
    outcome.moved = moves

    for name, value in taken.items():
        current = getattr(keep, name)
        if value not in (None, "") and current in (None, ""):
            setattr(keep, name, value)
    keep._history_user = by  # type: ignore[attr-defined]
    keep._change_reason = _("Merged with %(name)s (#%(id)d) by %(who)s") % {  # type: ignore[attr-defined]
        "name": drop.full_name,
        "id": drop.pk,
        "who": by.get_username(),
    }
    keep.save()
    drop._history_user = by  # type: ignore[attr-defined]
    drop._change_reason = keep._change_reason  # type: ignore[attr-defined]
    drop_id = drop.pk
    drop.delete()

    lists = RatingList.objects.in_bulk(list(affected))
    for list_id, day in sorted(affected.items()):
        rating_list = lists[list_id]
        # The recompute's cone (ratings/recompute/cone.py) starts from tables not rated as they stand:
        # every table of the list from that date now has a different player in it.
        # Their stored rows changed too: compared row by row (recompute.history_write).
        ListTournament.objects.filter(
            rating_list=rating_list, tournament__end_date__gte=day
        ).update(rated_at=None, history_digest=None)
        rating_list_request_recompute(
            rating_list=rating_list, from_date=day, trigger=f"merge of member {drop_id}"
        )
        outcome.recomputed[rating_list.name] = day
    return outcome
