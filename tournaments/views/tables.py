"""The public tournament list as a django-tables2 table."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _


def status_badge(record: Any) -> str:
    return format_html(
        '<span class="badge badge-status-{}">{}</span>',
        record.status,
        record.get_status_display(),
    )


class TournamentTable(tables.Table):
    end_date = tables.DateColumn(verbose_name=_("Date"), short=True, order_by=("end_date", "id"))
    name = tables.Column(verbose_name=_("Tournament"))
    city = tables.Column(verbose_name=_("City"))
    organiser = tables.Column(verbose_name=_("Organiser"), order_by=("organiser__name",))
    game = tables.Column(verbose_name=_("Game"))
    tournament_class = tables.Column(verbose_name=_("Class"))
    players = tables.Column(
        verbose_name=_("Players"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    status = tables.Column(verbose_name=_("Status"))

    class Meta:
        attrs = {"class": "table table-sm table-hover align-middle"}
        order_by = ("-end_date",)
        empty_text = _("No tournaments match.")

    def render_name(self, record: Any) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("tournament_detail", args=[record.pk]), record.name
        )

    def render_organiser(self, record: Any) -> str:
        club = record.organised_by
        if club is None:
            return format_html('<span class="muted">{}</span>', _("external organiser"))
        return format_html(
            '<a href="{}">{}</a>', reverse("club_detail", args=[club.slug]), club.name
        )

    def render_status(self, record: Any) -> str:
        return status_badge(record)
