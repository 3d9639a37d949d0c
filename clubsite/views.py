"""The club domain's own page: "my profile".

Home, a club's page and the calculator show ratings and tournaments, so they live in
`ratings.site_views` (imports run ratings → tournaments → clubsite).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubsite import selectors
from clubsite.forms import ContactForm
from clubsite.services import member_update_contact


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
