"""The site's one search box (issue 56): a member by name in any script or spelling, by
EGD PIN or by FIDE ID, with his rating in every list and a link to his profile."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from clubsite.player_search import MAX_TYPED, member_search
from ratings.site_selectors import members_with_ratings

RESULTS = 30


@require_safe
def site_search(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:MAX_TYPED]
    found = member_search(query, limit=RESULTS)
    return render(
        request,
        "ratings/search.html",
        {
            "query": query,
            "results": members_with_ratings(found.members),
            "total": found.total,
            "more": max(0, found.total - len(found.members)),
        },
    )
