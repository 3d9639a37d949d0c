"""The site pages that show clubs, tournaments and ratings together: home, a club, the
win-probability calculator.

Pages sit above every domain app, so they read clubs, tournaments and ratings alike
(`clubsite.config.site_urls` mounts them).
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from clubsite.forms import CalculatorForm
from clubsite.selectors import club_get
from clubsite.views.rows import club_member_rows_html, tournament_short_list_html
from clubsite.views.url_prefix import url_prefix
from ratings import site_selectors
from ratings.selectors import rating_list_all
from ratings.views.calculator_links import calculator_form_data
from tournaments.selectors import tournaments_recent_rated, tournaments_waiting


def home(request: HttpRequest) -> HttpResponse:
    tournament_prefix = url_prefix("tournament_detail")
    return render(
        request,
        "clubsite/home.html",
        {
            "lists": rating_list_all(),
            "recent_html": tournament_short_list_html(
                tournaments_recent_rated(),
                tournament_prefix=tournament_prefix,
                empty_text=_("No rated tournaments yet."),
            ),
            "waiting_html": tournament_short_list_html(
                tournaments_waiting(),
                tournament_prefix=tournament_prefix,
                empty_text=_("Nothing is waiting."),
            ),
        },
    )


MEMBERS_PER_PAGE = 100  # a club may hold a whole federation (45,000 at EGD scale)


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        club = club_get(slug)
    except ObjectDoesNotExist as error:
        raise Http404 from error
    page = Paginator(site_selectors.club_members(club), MEMBERS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    members = site_selectors.club_members_slice(
        club, start=page.start_index() - 1, stop=page.end_index(), total=page.paginator.count
    )  # the page's own slice is never read
    return render(
        request,
        "clubsite/club_detail.html",
        {
            "club": club,
            "members": members,
            "member_rows_html": club_member_rows_html(
                members, player_prefix=url_prefix("player_detail")
            ),
            "page": page,
            "tournaments_html": tournament_short_list_html(
                site_selectors.club_tournaments(club),
                tournament_prefix=url_prefix("tournament_detail"),
                empty_text=_("No tournaments yet."),
            ),
            "lists": club.rating_lists.all(),
        },
    )


def calculator(request: HttpRequest) -> HttpResponse:
    answer = None
    data, initial = calculator_form_data(request.GET)
    form = CalculatorForm(data) if data is not None else CalculatorForm(initial=initial)
    if form.is_valid():
        data = form.cleaned_data
        answer = site_selectors.calculate(
            game=data["game"],
            a=data.get("a"),
            b=data.get("b"),
            rating_a=data.get("rating_a"),
            rating_b=data.get("rating_b"),
            handicap=data.get("handicap") or 0,
        )
    return render(
        request,
        "clubsite/calculator.html",
        {"form": form, "answer": answer, "nav_active": "calculator"},
    )
