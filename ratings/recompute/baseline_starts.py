"""Where a list's members start: the baseline's rows, as the replay reads them.

A list may start from a published rating list (a `Baseline`): each member it names starts
from his row, and tournaments dated on or before its date are not replayed for him (they
stay on record; his opponents in them meet him at his baseline standing). Members it does
not name are replayed from nothing, as without a baseline. The replay (`replay.py`) calls
`baseline_starts`; writes live in `baseline_services.py`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ratings.models import Baseline, BaselineRow, RatingList
from ratings.systems.grades import Grade

SMALL = 5000  # members read by id in an `IN` list; for most of a baseline, read it whole


@dataclass(frozen=True)
class BaselineStart:
    """One member's row: his standing on the baseline's date."""

    rating: float
    provisional: bool
    grade: int | None
    best_grade: int | None
    tournaments: int
    games: int
    last_played: dt.date | None
    history: Any


def baseline_date(rating_list: RatingList) -> dt.date | None:
    """The date the list's baseline stands on (None: the list starts from nothing)."""
    return Baseline.objects.filter(rating_list=rating_list).values_list("date", flat=True).first()


def _rank(value: Grade | int | None) -> int | None:
    return value.rank if isinstance(value, Grade) else value


def baseline_starts(
    rating_list: RatingList, member_ids: Iterable[int] | None = None
) -> dict[int, BaselineStart]:
    """The rows of the list's baseline: of every member it names, or only of `member_ids`."""
    rows = BaselineRow.objects.filter(baseline__rating_list=rating_list)
    fields = (
        "member_id", "rating", "provisional", "grade", "best_grade", "tournaments", "games",
        "last_played", "history",
    )  # fmt: skip
    starts: dict[int, BaselineStart] = {}
    wanted = None if member_ids is None else set(member_ids)
    if wanted is None or (len(wanted) > SMALL and 2 * len(wanted) > rows.count()):
        # Most of the baseline (a recompute of a list that only has one): read it whole,
        # one query, rather than long `IN` lists.
        chunks: Iterable[list[int] | None] = [None]
    else:
        ids = sorted(wanted)
        chunks = [ids[at : at + SMALL] for at in range(0, len(ids), SMALL)]
    for chunk in chunks:
        selected = rows if chunk is None else rows.filter(member_id__in=chunk)
        for (
            member_id,
            rating,
            provisional,
            grade,
            best,
            tournaments,
            games,
            last,
            history,
        ) in selected.values_list(*fields).iterator(chunk_size=10000):
            if wanted is not None and member_id not in wanted:
                continue
            starts[member_id] = BaselineStart(
                rating, provisional, _rank(grade), _rank(best), tournaments, games, last, history
            )
    return starts


def baseline_member_ids(rating_list: RatingList) -> set[int]:
    return set(
        BaselineRow.objects.filter(baseline__rating_list=rating_list).values_list(
            "member_id", flat=True
        )
    )


def baselines_after(tournament_id: int, end_date: dt.date) -> list[Baseline]:
    """The baselines of the tournament's lists dated on or after it: for the players they
    name, the tournament is before the list's baseline (kept, not replayed)."""
    return list(
        Baseline.objects.filter(
            rating_list__tournaments=tournament_id, date__gte=end_date
        ).select_related("rating_list")
    )
