"""The site's own pages: home, a club, the win-probability calculator, "my profile"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubsite import selectors
from clubsite.forms import CalculatorForm, ContactForm
from clubsite.services import member_update_contact
from ratings.selectors import rating_list_all
from tournaments.selectors import tournaments_recent_rated, tournaments_waiting


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "clubsite/home.html",
        {
            "lists": rating_list_all(),
            "recent": tournaments_recent_rated(),
            "waiting": tournaments_waiting(),
        },
    )


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        club = selectors.club_get(slug)
    except ObjectDoesNotExist as error:
        raise Http404 from error
    return render(
        request,
        "clubsite/club_detail.html",
        {
            "club": club,
            "members": selectors.club_members(club),
            "tournaments": selectors.club_tournaments(club),
            "lists": club.rating_lists.all(),
        },
    )


def calculator(request: HttpRequest) -> HttpResponse:
    answer = None
    form = CalculatorForm(request.GET or None)
    if form.is_valid():
        data = form.cleaned_data
        answer = selectors.calculate(
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


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    member = selectors.member_for_user(request.user)
    if member is None:
        return render(request, "clubsite/my_profile.html", {"member": None})
    form = ContactForm(request.POST or None, instance=member)
    if request.method == "POST" and form.is_valid():
        try:
            member_update_contact(
                member=member,
                email=form.cleaned_data["email"],
                phone=form.cleaned_data["phone"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Your contact details are saved."))
            return redirect("my_profile")
    return render(request, "clubsite/my_profile.html", {"member": member, "form": form})
