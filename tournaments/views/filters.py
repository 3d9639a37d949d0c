"""The public tournament list's filter."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from clubsite.models import GameKind
from clubsite.numbers import int_or_none
from tournaments.formats.bounds import MAX_YEAR, MIN_YEAR
from tournaments.models import Tournament

STATUS_CHOICES = [
    (Tournament.Status.APPROVED, _("rated")),
    (Tournament.Status.SUBMITTED, _("waiting for a referee")),
    (Tournament.Status.REJECTED, _("rejected")),
]


class TournamentFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_text", label=_("Name or city"))
    status = django_filters.ChoiceFilter(
        choices=STATUS_CHOICES, label=_("Status"), empty_label=_("Any status")
    )
    game = django_filters.ChoiceFilter(
        choices=GameKind.choices, label=_("Game"), empty_label=_("Any game")
    )
    year = django_filters.CharFilter(
        method="filter_year", label=_("Year"),
        widget=forms.NumberInput(attrs={"min": MIN_YEAR, "max": MAX_YEAR}),
    )  # fmt: skip

    class Meta:
        model = Tournament
        fields: list[str] = []

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self.form.fields["q"].widget = forms.TextInput(attrs={"type": "search"})

    def filter_year(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        year = int_or_none(value, minimum=MIN_YEAR, maximum=MAX_YEAR)
        return queryset.none() if year is None else queryset.filter(end_date__year=year)

    def filter_text(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(Q(name__icontains=value) | Q(city__icontains=value))
