"""django-tables2 tables of the rating pages; the CSV download reuses `csv_row`."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ratings.display.formatting import format_rating


class _RatingColumn(tables.Column):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num rating"}, "th": {"class": "num"}})
        super().__init__(**kwargs)

    def render(self, value: float, record: Any, table: tables.Table) -> str:
        return format_rating(value, table.system, record.provisional)


def _name_link(record: Any) -> str:
    member = record.member
    return format_html('<a href="{}">{}</a>', reverse("player_detail", args=[member.pk]),
                       member.full_name)  # fmt: skip


def _club_link(record: Any) -> str:
    club = record.member.club
    if club is None:
        return "—"
    return format_html('<a href="{}">{}</a>', reverse("club_detail", args=[club.slug]), club.name)


# The players' numbers a list shows by its game (issue 56): EGD PIN for Go, FIDE ID and
# title for chess; the CSV carries both numbers whatever the game.
NUMBER_COLUMNS = ("egd_pin", "fide_id", "fide_title")
NUMBERS_BY_GAME = {"go": ("egd_pin",), "chess": ("fide_id", "fide_title")}


def number_columns(game: str, *, csv: bool = False) -> tuple[str, ...]:
    shown = set(NUMBERS_BY_GAME.get(game, ()))
    if csv:
        shown |= {"egd_pin", "fide_id"}
    return tuple(name for name in NUMBER_COLUMNS if name in shown)


def _number_column(label: Any, accessor: str) -> tables.Column:
    return tables.Column(verbose_name=label, accessor=accessor, orderable=False, default="")


class RatingEntryTable(tables.Table):
    rank = tables.Column(
        verbose_name="#", orderable=False, attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    name = tables.Column(
        verbose_name=_("Name"), accessor="member__family_name",
        order_by=("member__family_name", "member__given_name"),
    )  # fmt: skip
    grade = tables.Column(verbose_name=_("Grade"), order_by=("grade",))
    club = tables.Column(verbose_name=_("Club"), accessor="member__club__name", default="—")
    country = tables.Column(verbose_name=_("Country"), accessor="member__country")
    egd_pin = _number_column(_("EGD PIN"), "member__egd_pin")
    fide_id = _number_column(_("FIDE ID"), "member__fide_id")
    fide_title = _number_column(_("Title"), "member__fide_title")
    # The id breaks ties, the other way round lowest first: every reader of a page best
    # first (or lowest first) walks one order and its exact reverse, so that players rated
    # alike neither repeat nor drop between pages (ratings.selectors.BEST_FIRST).
    rating = _RatingColumn(verbose_name=_("Rating"), order_by=("rating", "-pk"))
    r_max = tables.Column(
        verbose_name=_("R_max"), orderable=False, default="",
        attrs={"td": {"class": "num"}, "th": {"class": "num", "title": _(
            "The highest rating of the last 12 months")}},
    )  # fmt: skip
    tournaments = tables.Column(
        verbose_name=_("Tournaments"), order_by=("tournaments",),
        attrs={"td": {"class": "num"}, "th": {"class": "num"}},
    )  # fmt: skip
    last_played = tables.DateColumn(
        verbose_name=_("Last played"), short=True, order_by=("last_played",)
    )

    class Meta:
        attrs = {"class": "table table-sm table-hover align-middle rating-table"}
        order_by = ("-rating",)
        empty_text = _("Nobody matches these filters.")

    def __init__(
        self,
        *args: Any,
        system: str,
        numbers: tuple[str, ...] = (),
        r_max: bool = False,
        **kwargs: Any,
    ) -> None:
        """`numbers`: the players' number columns shown (`number_columns`); `r_max`: the
        R_max column (each record's `r_max` set by the caller)."""
        self.system = system
        hidden = [name for name in NUMBER_COLUMNS if name not in numbers]
        kwargs["exclude"] = (*kwargs.get("exclude", ()), *hidden, *([] if r_max else ["r_max"]))
        super().__init__(*args, **kwargs)

    def render_r_max(self, value: float | None) -> str:
        return format_rating(value, self.system)

    def render_name(self, record: Any) -> str:
        return _name_link(record)

    def render_club(self, record: Any) -> str:
        return _club_link(record)


class SnapshotTable(RatingEntryTable):
    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    grade = tables.Column(verbose_name=_("Grade"), order_by=("grade",))

    class Meta(RatingEntryTable.Meta):
        order_by = ("rank",)


def csv_header(table: RatingEntryTable) -> list[str]:
    return [str(column.header) for column in table.columns]


def csv_row(table: RatingEntryTable, record: Any) -> list[str]:
    """The same values the HTML row shows, as plain text, column for column."""
    member = record.member
    values = {
        "rank": str(record.rank),
        "name": member.full_name,
        "grade": "" if record.grade is None else str(record.grade),
        "club": member.club.name if member.club else "",
        "country": member.country,
        "egd_pin": member.egd_pin,
        "fide_id": member.fide_id,
        "fide_title": member.fide_title,
        "rating": format_rating(record.rating, table.system, record.provisional),
        "r_max": format_rating(getattr(record, "r_max", None), table.system),
        "tournaments": str(record.tournaments),
        "last_played": "" if record.last_played is None else record.last_played.isoformat(),
    }
    return [values[column.name] for column in table.columns]
