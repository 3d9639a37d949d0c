"""`{% organised_by tournament %}`: who held a tournament, and who entered it if another.

A tag, not an included template: the tournament list draws fifty of them a page, and as
includes they took a fifth of its time."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from clubsite.views.url_prefix import url_prefix
from tournaments.models import Tournament

register = template.Library()


@register.simple_tag
def organised_by(tournament: Tournament, club_prefix: str = "") -> SafeString:
    """The holding club's link (or "external organiser"), then the entering club when it is
    another. `club_prefix`: the clubs' URL without a slug, when the page has it already."""
    prefix = club_prefix or url_prefix("club_detail")
    club = tournament.organised_by
    if club:
        held = format_html('<a href="{}{}/">{}</a>', prefix, club.slug, club.name)
    elif tournament.host_name:
        held = format_html("{}", tournament.host_name)
    else:
        held = format_html("{}", gettext("external organiser"))
    entered = ""
    if club != tournament.organiser:
        note = gettext("entered by %(entered)s") % {"entered": tournament.organiser.name}
        entered = format_html(' <span class="muted small">({})</span>', note)
    return format_html('<span class="organised-by">{}{}</span>', held, entered)
