"""The public page of one tournament: its crosstable with each list's rating changes.

The tournament list is in `tournaments.views.public`; this page also reads what the
ratings app made of the table (`ratings.crosstable`).
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.crosstable import crosstable_with_ratings
from ratings.recompute.baseline_starts import baselines_after
from tournaments import selectors


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        tournament = selectors.tournament_get(pk)
    except ObjectDoesNotExist as error:
        raise Http404 from error
    if not selectors.tournament_visible(request.user, tournament):
        raise Http404
    table = crosstable_with_ratings(tournament)
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "crosstable": table,
            "nav_active": "tournaments",
            "baselines_after": baselines_after(tournament.pk, tournament.end_date),
        },
    )
