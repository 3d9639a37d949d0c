"""Two members who are one person become one (issues 14, 54): a registrar's act (or
staff's; others request it, `merge_request_make`), and a registrar undoes it.

Everything of the one dropped moves to the one kept: participations, games and round
seats, rating history, published entries, proposals, baseline rows, dated FIDE ratings,
his record's history, his user account and the identity data the kept one lacks. A row
the kept one already has (his baseline row in the same list, his FIDE rating of the same
day) stays his, and the dropped one's is kept in the merge's record (`MemberMerge`) with
the ids of everything moved, so `members_merge_undo` puts both back. Two members who
played in one tournament are two people (or a table to correct first): refused. Each
list where the dropped one was rated recomputes from the earliest date either of them
was rated there.

It lives in the ratings app because it moves the lists' rows and asks for the recompute;
the club domain only says who is who (`clubsite.duplicates`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Min, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite import authority
from clubsite.models import FideRating, Member, MemberMerge, MergeRequest
from ratings.models import (
    BaselineRow,
    ListTournament,
    PublishedEntry,
    RatingEntry,
    RatingHistory,
    RatingList,
)
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


def may_merge(user: AbstractBaseUser, *members: Member) -> bool:
    """A registrar of both members (or staff) keeps the record of who is who."""
    return all(authority.allowed(user, "member.merge", member) for member in members)


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
    if not may_merge(by, keep, drop):
        raise PermissionDenied(_("Only a registrar of both members merges them."))
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
    if not may_merge(by, keep, drop):  # before anything waits
        raise PermissionDenied(_("Only a registrar of both members merges them."))
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

    dropped = _row(drop)  # before he gives anything up
    record = _moved_to(keep, drop)
    record["dropped"] = dropped
    record["lists"] = {str(list_id): day.isoformat() for list_id, day in affected.items()}
    outcome.moved = {name: len(ids) for name, ids in record["ids"].items()}
    record["filled"] = {}
    for name in FILLED:
        name = Member._meta.get_field(name).attname  # club: its id
        value, current = getattr(drop, name), getattr(keep, name)
        if value not in (None, "") and current in (None, ""):
            setattr(keep, name, value)
            record["filled"][name] = _json(Member._meta.get_field(name), value)
    if drop.user_id and not keep.user_id:
        keep.user_id = drop.user_id
        record["filled"]["user"] = drop.user_id
    _newest_fide_rating(keep)  # of his dated ratings, now with the dropped one's
    # The dropped one gives up his unique values and his account before the kept one takes them.
    for name in UNIQUE:
        setattr(drop, name, "")
    drop.user = None
    drop.save(update_fields=[*UNIQUE, "user"])
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
    MemberMerge.objects.create(kept_id=keep.pk, dropped_id=drop_id, by=by, record=record)
    MergeRequest.objects.filter(Q(keep_id=drop_id) | Q(drop_id=drop_id)).delete()
    _recompute(affected, f"merge of member {drop_id}", outcome)
    return outcome


def _recompute(affected: dict[int, dt.date], trigger: str, outcome: MergeOutcome) -> None:
    lists = RatingList.objects.in_bulk(list(affected))
    for list_id, day in sorted(affected.items()):
        rating_list = lists[list_id]
        # The recompute's cone (ratings/recompute/cone.py) starts from tables not rated as they stand:
        # every table of the list from that date now has a different player in it.
        # Their stored rows changed too: compared row by row (recompute.history_write).
        ListTournament.objects.filter(
            rating_list=rating_list, tournament__end_date__gte=day
        ).update(rated_at=None, history_digest=None)
        rating_list_request_recompute(rating_list=rating_list, from_date=day, trigger=trigger)
        outcome.recomputed[rating_list.name] = day


def _json(model_field: Any, value: Any) -> Any:
    """A field's value as JSON keeps it (dates as ISO text, a grade as its number);
    `_from_row` reads it back."""
    if model_field is not None and value is not None:
        value = model_field.get_prep_value(value)
    if isinstance(value, dt.date | dt.datetime | Decimal):
        return value.isoformat() if not isinstance(value, Decimal) else str(value)
    return value


def _row(obj: Any) -> dict[str, Any]:
    return {
        f.attname: _json(f, getattr(obj, f.attname))
        for f in obj._meta.concrete_fields
        if not f.primary_key
    }


def _from_row(model: Any, row: dict[str, Any], **override: Any) -> Any:
    values = {model._meta.get_field(name).attname: value for name, value in row.items()}
    values.update(override)
    return model(
        **{
            name: model._meta.get_field(name).to_python(value) if value is not None else None
            for name, value in values.items()
        }
    )


def _moved_to(keep: Member, drop: Member) -> dict[str, Any]:
    """Move every row of `drop` to `keep`; the ids moved, and the rows set aside where
    `keep` already has one (the same snapshot, baseline or day), for the undo."""
    ids: dict[str, list[int]] = {}
    aside: dict[str, list[dict[str, Any]]] = {}

    def move(name: str, rows: QuerySet, **update: Any) -> None:
        ids[name] = list(rows.values_list("pk", flat=True))
        rows.update(**update)

    def set_aside(name: str, rows: QuerySet) -> None:
        aside[name] = [_row(obj) for obj in rows]
        rows.delete()

    move("participations", Participant.objects.filter(member=drop), member=keep)
    move("games_white", Game.objects.filter(white=drop), white=keep)
    move("games_black", Game.objects.filter(black=drop), black=keep)
    move("seats", RoundSeat.objects.filter(member=drop), member=keep)
    move("history", RatingHistory.objects.filter(member=drop), member=keep)
    move("proposals", MemberProposal.objects.filter(member=drop), member=keep)
    # A snapshot that lists both keeps the kept one's line: published lists do not change.
    snapshots = PublishedEntry.objects.filter(member=keep).values("snapshot_id")
    set_aside("published", PublishedEntry.objects.filter(member=drop, snapshot_id__in=snapshots))
    move("published", PublishedEntry.objects.filter(member=drop), member=keep)
    baselines = BaselineRow.objects.filter(member=keep).values("baseline_id")
    set_aside("baseline", BaselineRow.objects.filter(member=drop, baseline_id__in=baselines))
    move("baseline", BaselineRow.objects.filter(member=drop), member=keep)
    days = FideRating.objects.filter(member=keep).values("valid_from")
    set_aside("fide", FideRating.objects.filter(member=drop, valid_from__in=days))
    move("fide", FideRating.objects.filter(member=drop), member=keep)
    entries = RatingEntry.objects.filter(member=drop)
    entries_changed(list(entries.values_list("rating_list_id", flat=True)))
    entries.delete()  # the recompute rebuilds the kept one's
    move("record history", Member.history.filter(id=drop.pk), id=keep.pk)
    return {"ids": ids, "aside": aside}


def _newest_fide_rating(member: Member) -> None:
    member.fide_rating = (
        member.fide_ratings.order_by("-valid_from").values_list("rating", flat=True).first()
    )


def _back_to(drop: Member, keep: Member, record: dict[str, Any]) -> None:
    """Undo `_moved_to`: each row moved goes back (where it is still the kept one's)."""
    ids = record["ids"]
    targets = (
        ("participations", Participant, "member"), ("games_white", Game, "white"),
        ("games_black", Game, "black"), ("seats", RoundSeat, "member"),
        ("history", RatingHistory, "member"), ("proposals", MemberProposal, "member"),
        ("published", PublishedEntry, "member"), ("baseline", BaselineRow, "member"),
        ("fide", FideRating, "member"),
    )  # fmt: skip
    for name, model, column in targets:
        model.objects.filter(pk__in=ids.get(name, []), **{column: keep}).update(**{column: drop})
    Member.history.filter(pk__in=ids.get("record history", []), id=keep.pk).update(id=drop.pk)
    for name, model in (("published", PublishedEntry), ("baseline", BaselineRow),
                        ("fide", FideRating)):  # fmt: skip
        model.objects.bulk_create(
            _from_row(model, row, member_id=drop.pk) for row in record["aside"].get(name, [])
        )
    entries = RatingEntry.objects.filter(member=keep)
    entries_changed(list(entries.values_list("rating_list_id", flat=True)))
    entries.delete()  # the recompute rebuilds both


@transaction.atomic
def members_merge_undo(*, merge: MemberMerge, by: AbstractBaseUser) -> Member:
    """A registrar undoes a merge: the dropped member is back with all he had, the kept
    one gives back what he took; their lists recompute. Returns the dropped member."""
    merge = MemberMerge.objects.select_for_update().get(pk=merge.pk)
    keep = Member.objects.select_related("club").filter(pk=merge.kept_id).first()
    if keep is None:
        raise ValidationError(_("The kept member was merged again: undo that merge first."))
    authority.require(by, "merge.undo", keep, _("Only a registrar undoes a merge."))
    if merge.undone_at is not None or Member.objects.filter(pk=merge.dropped_id).exists():
        raise ValidationError(_("This merge has already been undone."))
    record = merge.record
    affected = {int(k): dt.date.fromisoformat(v) for k, v in record["lists"].items()}
    if not lists_lock(
        sorted(set(affected) | set(_lists_of(keep))), wait_seconds=MERGE_WAIT_SECONDS
    ):
        raise ValidationError(
            _("A rating list of these members is being recomputed; undo it again in a minute.")
        )
    keep = Member.objects.select_for_update().get(pk=keep.pk)
    for name, value in record["filled"].items():
        if name == "user":
            keep.user_id = None if keep.user_id == value else keep.user_id
        elif _json(model_field := Member._meta.get_field(name), getattr(keep, name)) == value:
            setattr(keep, name, None if model_field.null else "")
    drop = _from_row(Member, record["dropped"], id=merge.dropped_id)
    for name in (*UNIQUE, "user_id"):
        value = getattr(drop, name)
        if value and Member.objects.filter(**{name: value}).exclude(pk=keep.pk).exists():
            raise ValidationError(
                _("%(field)s %(value)s is now another member's; change it before undoing.")
                % {"field": name, "value": value}
            )
    reason = _("Merge of #%(drop)d into #%(keep)d undone by %(who)s") % {
        "drop": merge.dropped_id, "keep": keep.pk, "who": by.get_username(),
    }  # fmt: skip
    keep._history_user = by  # type: ignore[attr-defined]
    keep._change_reason = reason  # type: ignore[attr-defined]
    keep.save()
    drop._history_user = by  # type: ignore[attr-defined]
    drop._change_reason = reason  # type: ignore[attr-defined]
    drop.save(force_insert=True)
    _back_to(drop, keep, record)
    for member in (keep, drop):
        _newest_fide_rating(member)
        member.save_without_historical_record(update_fields=["fide_rating"])  # type: ignore[attr-defined]
    merge.undone_at = timezone.now()
    merge.undone_by = by
    merge.save(update_fields=["undone_at", "undone_by"])
    _recompute(affected, f"undoing the merge of member {drop.pk}", MergeOutcome(kept=keep))
    return drop


def merge_request_make(*, keep: Member, drop: Member, by: AbstractBaseUser) -> MergeRequest:
    """Ask a registrar to merge `drop` into `keep` (who may not merge them himself)."""
    authority.require(by, "member.request_merge", keep, _("You may not ask for this merge."))
    if keep.pk == drop.pk:
        raise ValidationError(_("Choose two different members."))
    request, _created = MergeRequest.objects.get_or_create(
        keep=keep, drop=drop, defaults={"requested_by": by}
    )
    return request


def merge_redirect_target(member_id: int) -> int | None:
    """The member a dropped one's address now leads to (following later merges)."""
    seen: set[int] = set()
    target = None
    while member_id not in seen:
        seen.add(member_id)
        merge = MemberMerge.objects.filter(dropped_id=member_id, undone_at__isnull=True).first()
        if merge is None:
            break
        target = member_id = merge.kept_id
    return target
