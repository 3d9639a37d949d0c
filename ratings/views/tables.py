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
    # The id breaks ties, the other way round lowest first: every reader of a page best
    # first (or lowest first) walks one order and its exact reverse, so that players rated
    # alike neither repeat nor drop between pages (ratings.selectors.BEST_FIRST).
    rating = _RatingColumn(verbose_name=_("Rating"), order_by=("rating", "-pk"))
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

    def __init__(self, *args: Any, system: str, **kwargs: Any) -> None:
        self.system = system
        super().__init__(*args, **kwargs)

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
    """The same values the HTML row shows, as plain text."""
    member = record.member
    return [
        str(record.rank),
        member.full_name,
        "" if record.grade is None else str(record.grade),
        member.club.name if member.club else "",
        member.country,
        format_rating(record.rating, table.system, record.provisional),
        str(record.tournaments),
        "" if record.last_played is None else record.last_played.isoformat(),  # ISO 8601
    ]
