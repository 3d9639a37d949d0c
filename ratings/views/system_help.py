"""The "How is this rating computed?" pages: an index of the systems and one page each."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from ratings.display import system_help
from ratings.display.system_titles import system_title


def rating_systems(request: HttpRequest) -> HttpResponse:
    systems = [{"code": code, "title": system_title(code)} for code in system_help.SYSTEM_CODES]
    return render(
        request,
        "ratings/systems_help/index.html",
        {"systems": systems, "nav_active": "ratings"},
    )


def rating_system(request: HttpRequest, code: str) -> HttpResponse:
    if not system_help.is_known(code):
        raise Http404("no such rating system")
    systems = [{"code": c, "title": system_title(c)} for c in system_help.SYSTEM_CODES]
    return render(
        request,
        "ratings/systems_help/page.html",
        {
            "code": code,
            "title": system_title(code),
            "systems": systems,
            "prose": system_help.help_template(code, get_language()),
            "example": system_help.example(code),
            "example_rows": system_help.example_rows(code),
            "example_notes": system_help.example_note_paths(code),
            "tables": system_help.tables(code),
            "nav_active": "ratings",
        },
    )
