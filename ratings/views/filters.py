"""The rating list's filter: country, club, grade range, active/all, name search, sex and
age category (issue 56)."""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubsite.fields import parse_grade
from clubsite.player_search import member_q
from clubsite.widgets import FastSelect
from ratings.models import RatingList
from ratings.selectors import active_filter, rating_list_club_choices
from ratings.systems.grades import ALL_GRADES

GRADE_CHOICES = [(str(g), str(g)) for g in reversed(ALL_GRADES)]
# Age categories by birth year, as FIDE's youth and senior events count them: U8 in 2025
# is born in 2017 or later (he is at most 8 in the year), 50+ born in 1975 or earlier.
YOUTH = (8, 10, 12, 14, 16, 18, 20)
SENIOR = (50, 65)
CATEGORY_CHOICES = [(f"u{age}", f"U{age}") for age in YOUTH] + [
    (f"{age}+", f"{age}+") for age in SENIOR
]
SEX_CHOICES = [("f", _("Women")), ("m", _("Men"))]


def born_from(year: int, prefix: str = "member__") -> Q:
    """Born in `year` or later (a birth date, else a birth year)."""
    return Q(**{f"{prefix}birth_date__gte": dt.date(year, 1, 1)}) | Q(
        **{f"{prefix}birth_date__isnull": True, f"{prefix}birth_year__gte": year}
    )


def born_until(year: int, prefix: str = "member__") -> Q:
    """Born in `year` or earlier."""
    return Q(**{f"{prefix}birth_date__lt": dt.date(year + 1, 1, 1)}) | Q(
        **{f"{prefix}birth_date__isnull": True, f"{prefix}birth_year__lte": year}
    )


def category_q(category: str, year: int, prefix: str = "member__") -> Q | None:
    """The players of an age category in `year` (None: no such category)."""
    if category in {f"u{age}" for age in YOUTH}:
        return born_from(year - int(category[1:]), prefix)
    if category in {f"{age}+" for age in SENIOR}:
        return born_until(year - int(category[:-1]), prefix)
    return None


ACTIVE_CHOICES = [("active", _("Active players")), ("all", _("Everyone"))]


class RatingEntryFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_name", label=_("Name"))
    country = django_filters.ChoiceFilter(
        field_name="member__country", label=_("Country"), empty_label=_("All countries")
    )
    club = django_filters.ChoiceFilter(
        field_name="member__club_id", label=_("Club"), empty_label=_("All clubs")
    )
    grade_min = django_filters.ChoiceFilter(
        choices=GRADE_CHOICES, method="filter_grade_min", label=_("Grade from"),
        empty_label="—",
    )  # fmt: skip
    grade_max = django_filters.ChoiceFilter(
        choices=GRADE_CHOICES, method="filter_grade_max", label=_("Grade to"), empty_label="—"
    )
    active = django_filters.ChoiceFilter(
        choices=ACTIVE_CHOICES, method="filter_active", label=_("Show"), empty_label=None
    )
    sex = django_filters.ChoiceFilter(
        field_name="member__sex", choices=SEX_CHOICES, label=_("Sex"), empty_label=_("Everyone")
    )
    category = django_filters.ChoiceFilter(
        choices=CATEGORY_CHOICES, method="filter_category", label=_("Age"),
        empty_label=_("All ages"),
    )  # fmt: skip

    def __init__(
        self,
        data: Any = None,
        *args: Any,
        rating_list: RatingList,
        countries: list[str],
        **kwargs: Any,
    ) -> None:
        data = data.copy() if data is not None else {}
        if not data.get("active"):
            data["active"] = "active"
        super().__init__(data, *args, **kwargs)
        self.filters["country"].extra["choices"] = [(c, c) for c in countries]
        # The list's clubs (cached), read only when a club is chosen or the form is drawn:
        # checked against them, a chosen club costs no query (a list from the EGD names
        # 2,800 clubs, and finding whether one has a member in it took 24 ms).
        self.filters["club"].extra["choices"] = partial(rating_list_club_choices, rating_list)
        self.rating_list = rating_list
        self.form.fields["q"].widget = forms.TextInput(
            attrs={"placeholder": _("Name, EGD PIN or FIDE ID"), "type": "search"}
        )
        for name in ("country", "club", "grade_min", "grade_max", "active", "sex", "category"):
            field = self.form.fields[name]
            field.widget = FastSelect(choices=field.choices)

    def filter_category(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        condition = category_q(value, today().year)
        return queryset if condition is None else queryset.filter(condition)

    def filter_name(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        """The site search's names (any script or spelling), EGD PIN or FIDE ID."""
        return queryset.filter(member_q(value, "member__"))

    def _grade_ranks(self) -> tuple[int | None, int | None]:
        """The range's ends as ranks, weaker first: "from 5k to 15k" means 15k..5k."""
        data = self.form.cleaned_data
        low, high = (parse_grade(data.get(name) or "") for name in ("grade_min", "grade_max"))
        ranks = (low.rank if low else None, high.rank if high else None)
        if None not in ranks:
            return min(ranks), max(ranks)  # type: ignore[type-var]
        return ranks

    def filter_grade_min(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        low = self._grade_ranks()[0]
        return queryset if low is None else queryset.filter(grade__gte=low)

    def filter_grade_max(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        high = self._grade_ranks()[1]
        return queryset if high is None else queryset.filter(grade__lte=high)

    def filter_active(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        if value == "all" or (self.form.cleaned_data.get("q") or "").strip():
            return queryset  # a name search looks at everyone; the inactive are marked
        return queryset.filter(active_filter(self.rating_list, today()))


def today() -> dt.date:
    return timezone.localdate()
