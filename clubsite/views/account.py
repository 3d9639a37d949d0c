"""A player's own page: "my profile" (home, a club's page: `clubsite.views.public`)."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubsite import selectors
from clubsite.forms import ContactForm, DateSettingsForm, MailSettingsForm
from clubsite.services import account_update_contact, profile_update, profile_update_date_style


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    """The account's e-mail (where password resets go) and, for a linked player, his phone.
    The player's e-mail is kept equal to the account's."""
    member = selectors.member_for_user(request.user)
    initial = {
        "email": request.user.email or (member.email if member else ""),
        "phone": member.phone if member else "",
    }
    if request.method == "POST" and "mail_settings" in request.POST:
        return _mail_settings(request, member)
    if request.method == "POST" and "date_settings" in request.POST:
        return _date_settings(request, member)
    form = ContactForm(request.POST or None, initial=initial, with_phone=member is not None)
    if request.method == "POST" and form.is_valid():
        try:
            account_update_contact(
                user=request.user,
                member=member,
                email=form.cleaned_data["email"],
                phone=form.cleaned_data.get("phone"),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Your contact details are saved."))
            return redirect("my_profile")
    return _page(request, member, form, _mail_form(request, data=None))


def _mail_form(request: HttpRequest, data: object) -> MailSettingsForm:
    profile = selectors.profile_for_user(request.user)
    initial = {} if profile.pk else {"language": request.LANGUAGE_CODE}
    return MailSettingsForm(data, instance=profile, initial=initial, prefix="mail")


def _mail_settings(request: HttpRequest, member: object) -> HttpResponse:
    mail_form = _mail_form(request, data=request.POST)
    if mail_form.is_valid():
        profile_update(user=request.user, **mail_form.cleaned_data)
        messages.success(request, _("Your e-mail settings are saved."))
        return redirect("my_profile")
    return _page(request, member, None, mail_form)


def _date_form(request: HttpRequest, data: object) -> DateSettingsForm:
    profile = selectors.profile_for_user(request.user)
    return DateSettingsForm(data, instance=profile, prefix="dates")


def _date_settings(request: HttpRequest, member: object) -> HttpResponse:
    date_form = _date_form(request, data=request.POST)
    if date_form.is_valid():
        profile_update_date_style(user=request.user, **date_form.cleaned_data)
        messages.success(request, _("Your date setting is saved."))
        return redirect("my_profile")
    return _page(request, member, None, _mail_form(request, data=None), date_form)


def _page(
    request: HttpRequest,
    member: object,
    form: ContactForm | None,
    mail_form: MailSettingsForm,
    date_form: DateSettingsForm | None = None,
) -> HttpResponse:
    if form is None:
        form = ContactForm(with_phone=member is not None, initial={"email": request.user.email})
    date_form = date_form or _date_form(request, data=None)
    return render(
        request,
        "clubsite/my_profile.html",
        {
            "member": member,
            "form": form,
            "mail_form": mail_form,
            "date_form": date_form,
            "pending_claim": None
            if member
            else selectors.member_claim_pending_for_user(request.user),
            "claims_to_decide": selectors.member_claims_to_decide(request.user).count(),
        },
    )


# Password reset mail: at most this many per address and per client address an hour. The
# cache is per process unless a shared one is configured, so the bound is per worker then.
RESET_MAILS_PER_ADDRESS = 3
RESET_MAILS_PER_CLIENT = 10
RESET_WINDOW_SECONDS = 3600


def _under_limit(key: str, limit: int) -> bool:
    """Count one more request under `key`; False once `limit` are counted in the window."""
    cache.add(key, 0, RESET_WINDOW_SECONDS)
    try:
        return cache.incr(key) <= limit
    except ValueError:  # expired between add and incr
        cache.add(key, 1, RESET_WINDOW_SECONDS)
        return True


class ThrottledPasswordResetView(PasswordResetView):
    """Django's reset page, but six requests no longer send six mails: over the limit the
    page answers as usual ("if the address is known, a mail is on its way") and sends none,
    so it neither floods a mailbox nor tells who is registered."""

    def form_valid(self, form):  # noqa: ANN001, ANN201
        email = form.cleaned_data["email"].strip().lower()
        digest = hashlib.sha256(email.encode()).hexdigest()
        client = self.request.META.get("REMOTE_ADDR", "")
        allowed = _under_limit(f"reset-mail:{digest}", RESET_MAILS_PER_ADDRESS)
        allowed = _under_limit(f"reset-client:{client}", RESET_MAILS_PER_CLIENT) and allowed
        if not allowed:
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)
