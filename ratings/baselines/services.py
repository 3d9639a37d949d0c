"""A list's baseline written: members created or matched from a published list, its rows
saved, the list recomputed (through the ordinary recompute request).

`baseline_import` is what the command and the page call, in one transaction; a list has
at most one baseline, so importing replaces the old one; `baseline_remove` takes it away.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Min
from django.utils.translation import gettext as _

from clubsite.fields import parse_grade
from clubsite.models import GameKind
from ratings.baselines.matching import BaselinePreview, Choice, match_rows, resolve
from ratings.baselines.members import members_for, new_member_clashes
from ratings.models import (
    Baseline,
    BaselineRow,
    ListTournament,
    RatingEntry,
    RatingList,
    counted_links,
)
from ratings.recompute.bulk import as_json, insert_rows
from ratings.recompute.services import rating_list_request_recompute
from ratings.recompute.store import entries_changed
from tournaments.formats.bounds import MAX_YEAR, MIN_YEAR
from tournaments.formats.list_model import ListRow, RatingListFile

# Which lists a format can start: the EGD's list is Go, FIDE's chess; CSV any.
FORMAT_GAMES = {"egd": (GameKind.GO,), "fide": (GameKind.CHESS,)}
ROW_COLUMNS = [
    "baseline_id", "member_id", "rating", "provisional", "grade", "best_grade",
    "tournaments", "games", "last_played", "history",
]  # fmt: skip


def baseline_preview(*, listfile: RatingListFile) -> BaselinePreview:
    """Matched / new / ambiguous rows; writes nothing."""
    return match_rows(listfile)


def baseline_errors(
    *,
    listfile: RatingListFile,
    rating_list: RatingList,
    preview: BaselinePreview,
    choices: Mapping[str, Choice],
    new_for_ambiguous: bool = False,
) -> list[str]:
    """Why `baseline_import` would refuse (empty: it would save). Writes nothing."""
    return _check(listfile, rating_list, preview, choices, new_for_ambiguous)[1]


def _check(
    listfile: RatingListFile,
    rating_list: RatingList,
    preview: BaselinePreview,
    choices: Mapping[str, Choice],
    new_for_ambiguous: bool,
) -> tuple[list[tuple[ListRow, int | None]], list[str]]:
    errors = []
    games = FORMAT_GAMES.get(listfile.source)
    if games is not None and rating_list.game not in games:
        errors.append(
            _("A %(format)s list cannot start a list of %(game)s.")
            % {"format": listfile.source.upper(), "game": GameKind(rating_list.game).label}
        )
    resolved, problems = resolve(preview, choices, new_for_ambiguous=new_for_ambiguous)
    if not problems:
        problems = new_member_clashes(resolved, rating_list.game)
    return resolved, errors + problems


@transaction.atomic
def baseline_import(
    *,
    listfile: RatingListFile,
    rating_list: RatingList,
    date: dt.date,
    by: AbstractBaseUser | None,
    choices: Mapping[str, Choice] | None = None,
    new_for_ambiguous: bool = False,
    filename: str = "",
    preview: BaselinePreview | None = None,
) -> Baseline:
    """Start the list from the published list: create the members it names who are not
    here yet (with the club it names), replace the list's baseline, request the recompute.
    Raises ValidationError with every reason when it cannot."""
    _check_date(date)
    preview = preview or match_rows(listfile)
    resolved, errors = _check(listfile, rating_list, preview, choices or {}, new_for_ambiguous)
    if errors:
        raise ValidationError(errors)
    member_ids = members_for(
        resolved=resolved, game=rating_list.game, by=by,
        source=_("baseline of %(list)s") % {"list": rating_list.name},
    )  # fmt: skip
    return baseline_replace(
        rating_list=rating_list,
        date=date,
        source=listfile.source,
        filename=filename,
        by=by,
        rows=[
            _row_values(rating_list.system, row, member_id)
            for (row, _m), member_id in zip(resolved, member_ids, strict=True)
        ],
    )


def _check_date(date: dt.date) -> None:
    """The same bounds as a results file's dates: year 9999 breaks the lists' arithmetic."""
    if not MIN_YEAR <= date.year <= MAX_YEAR:
        raise ValidationError(
            _("The baseline's date %(date)s is not between %(low)d and %(high)d.")
            % {"date": date, "low": MIN_YEAR, "high": MAX_YEAR}
        )


def carried_history(system: str, row: ListRow) -> Any:
    """What the engine carries for him beyond his rating, rebuilt from the row.

    Rivne: whether he has been at or above 100 (D20; the row's flag, else his rating says).
    ORR: a provisional player's counted games are stored games (B.8); the list gives their
    number, not the games, so they stand as that many draws at his rating: the same
    performance, the same weight."""
    if system == "rivne":
        return {"above_100": row.above_100 if row.above_100 is not None else row.rating >= 100}
    if system == "orr" and row.provisional and row.games:
        game = {"rating": row.rating, "score": 0.5}
        return {"events": max(1, row.tournaments or 1), "games": [game] * row.games}
    return None


def _row_values(system: str, row: ListRow, member_id: int) -> dict[str, Any]:
    go = system in ("egf", "ufgo", "rivne")
    grade = parse_grade(row.grade) if go else None
    best = parse_grade(row.best_grade) if go else None
    return {
        "member_id": member_id,
        "rating": row.rating,
        "provisional": row.provisional,
        "grade": grade.rank if grade is not None else None,
        "best_grade": (best or grade).rank if (best or grade) is not None else None,
        "tournaments": row.tournaments or 0,
        "games": row.games or 0,
        "last_played": row.last_played,
        "history": carried_history(system, row),
    }


@transaction.atomic
def baseline_replace(
    *,
    rating_list: RatingList,
    date: dt.date,
    source: str,
    rows: list[dict[str, Any]],
    by: AbstractBaseUser | None = None,
    filename: str = "",
) -> Baseline:
    """Make `rows` the list's baseline (replacing any) and recompute the list from the
    earliest date either baseline or any of its tournaments touches."""
    _check_date(date)
    earliest = _take_out(rating_list)
    baseline = Baseline.objects.create(
        rating_list=rating_list, date=date, source=source, filename=filename[:200], created_by=by
    )
    insert_rows(
        BaselineRow,
        ROW_COLUMNS,
        (
            (
                baseline.pk, r["member_id"], r["rating"], r["provisional"], r["grade"],
                r["best_grade"], r["tournaments"], r["games"], r["last_played"],
                as_json(r["history"]),
            )
            for r in rows
        ),
    )  # fmt: skip
    _request(rating_list, min(d for d in (earliest, date) if d is not None), "baseline imported")
    return baseline


@transaction.atomic
def baseline_remove(*, rating_list: RatingList) -> bool:
    """Start the list from nothing again; False when it had no baseline."""
    if not Baseline.objects.filter(rating_list=rating_list).exists():
        return False
    earliest = _take_out(rating_list)
    assert earliest is not None
    _request(rating_list, earliest, "baseline removed")
    return True


def _take_out(rating_list: RatingList) -> dt.date | None:
    """Delete the baseline (and the entries it gave); the earliest date to recompute from."""
    first_tournament = ListTournament.objects.filter(
        counted_links(), rating_list=rating_list
    ).aggregate(first=Min("tournament__end_date"))["first"]
    old = Baseline.objects.filter(rating_list=rating_list).first()
    if old is None:
        return first_tournament
    named = BaselineRow.objects.filter(baseline=old).values("member_id")
    RatingEntry.objects.filter(rating_list=rating_list, member_id__in=named).delete()
    entries_changed([rating_list.pk])
    old_date = old.date
    old.delete()
    return min(d for d in (first_tournament, old_date) if d is not None)


def _request(rating_list: RatingList, from_date: dt.date, trigger: str) -> None:
    # Every table from the date is rated again from the new starts: a requested recompute
    # replays the cone of the tables whose `rated_at` is empty (ratings/recompute/cone.py).
    ListTournament.objects.filter(
        rating_list=rating_list, tournament__end_date__gte=from_date
    ).update(rated_at=None)
    rating_list_request_recompute(rating_list=rating_list, from_date=from_date, trigger=trigger)
