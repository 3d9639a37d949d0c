"""The referee's page "Start this list from a published list": upload, preview (matched /
new / ambiguous), settle the ambiguous rows, confirm. Only the list's referees and staff.
The upload waits in a temporary file named in the session until it is confirmed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
import time
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite import authority
from ratings.baselines.matching import BaselinePreview, choices_from
from ratings.baselines.services import baseline_errors, baseline_import, baseline_preview
from ratings.models import Baseline, RatingList
from tournaments.formats import FormatError
from tournaments.formats.bounds import MAX_YEAR, MIN_YEAR
from tournaments.formats.rating_lists import LIST_FORMATS, parse_rating_list

SESSION_KEY = "baseline_upload"
SHOWN_ROWS = 200
# An upload not confirmed within a day is abandoned: its file goes at the next upload.
ABANDONED_AFTER_SECONDS = 24 * 3600


def upload_folder() -> str:
    """The uploads' own folder, so a sweep never touches another program's temporary files."""
    folder = os.path.join(tempfile.gettempdir(), "clubsite-baselines")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return folder


def _discard_abandoned(request: HttpRequest) -> None:
    """Delete this session's previous upload (a new one replaces it) and every upload
    older than ABANDONED_AFTER_SECONDS (its referee left without confirming)."""
    previous = (request.session.get(SESSION_KEY) or {}).get("path")
    folder = upload_folder()
    if previous and os.path.dirname(previous) == folder:
        _remove(previous)
    cutoff = time.time() - ABANDONED_AFTER_SECONDS
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith("baseline-") and entry.stat().st_mtime < cutoff:
                _remove(entry.path)


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):  # another request swept it first
        os.unlink(path)


class BaselineUploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Rating list file"))
    fmt = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=[(code, title) for code, (title, _parse) in LIST_FORMATS.items()],
    )
    date = forms.DateField(
        label=gettext_lazy("The list's date"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean_date(self):
        day = self.cleaned_data["date"]
        if not MIN_YEAR <= day.year <= MAX_YEAR:  # the lists' date arithmetic stops at 9999
            raise ValidationError(
                _("A date between %(low)d and %(high)d, please.")
                % {"low": MIN_YEAR, "high": MAX_YEAR}
            )
        return day


def _list_for_referee(request: HttpRequest, slug: str) -> RatingList:
    rating_list = get_object_or_404(RatingList, slug=slug)
    if not authority.allowed(request.user, "list.baseline", rating_list):
        raise PermissionDenied(_("Only the list's referees start it from a published list."))
    return rating_list


def _rows(preview: BaselinePreview, posted: Any = None) -> list[dict[str, Any]]:
    shown = [m for m in preview.rows if m.status == "ambiguous"]
    shown += [m for m in preview.rows if m.status != "ambiguous"][:SHOWN_ROWS]
    return [
        {
            "match": m,
            "field": f"choice-{m.key}",
            "value": (posted or {}).get(f"choice-{m.key}", ""),
        }
        for m in shown
    ]


def _render(request, rating_list, preview, *, token="", errors=(), posted=None, form=None):
    return render(
        request,
        "ratings/list_baseline.html",
        {
            "rating_list": rating_list,
            "baseline": Baseline.objects.filter(rating_list=rating_list).first(),
            "form": form or BaselineUploadForm(),
            "preview": preview,
            "rows": _rows(preview, posted) if preview is not None else [],
            "hidden_rows": max(0, len(preview.rows) - SHOWN_ROWS) if preview else 0,
            "token": token,
            "errors": errors,
        },
    )


def _read(meta: dict[str, Any]):
    with open(meta["path"], "rb") as file:
        return parse_rating_list(file.read(), meta["fmt"], meta["filename"])


@login_required
def list_baseline(request: HttpRequest, slug: str) -> HttpResponse:
    rating_list = _list_for_referee(request, slug)
    if request.method != "POST":
        return _render(request, rating_list, None)
    if "token" in request.POST:
        return _confirm(request, rating_list)
    form = BaselineUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render(request, rating_list, None, form=form)
    upload = form.cleaned_data["file"]
    data = upload.read()
    try:
        listfile = parse_rating_list(data, form.cleaned_data["fmt"], upload.name)
    except FormatError as error:
        return _render(
            request, rating_list, None, form=form, errors=[str(p) for p in error.problems]
        )
    _discard_abandoned(request)
    handle, path = tempfile.mkstemp(prefix="baseline-", dir=upload_folder())
    with os.fdopen(handle, "wb") as file:
        file.write(data)
    token = secrets.token_urlsafe(16)
    request.session[SESSION_KEY] = {
        "token": token, "path": path, "fmt": form.cleaned_data["fmt"], "filename": upload.name,
        "date": form.cleaned_data["date"].isoformat(), "list": rating_list.pk,
    }  # fmt: skip
    return _render(request, rating_list, baseline_preview(listfile=listfile), token=token)


def _confirm(request: HttpRequest, rating_list: RatingList) -> HttpResponse:
    import datetime as dt

    meta = request.session.get(SESSION_KEY) or {}
    token = request.POST.get("token", "")
    if (
        not meta
        or meta.get("list") != rating_list.pk
        # As bytes: compare_digest refuses a str with non-ASCII characters (a 500).
        or not secrets.compare_digest(str(meta.get("token", "")).encode(), token.encode())
        or not os.path.exists(meta.get("path", ""))
    ):
        messages.error(request, _("That upload has expired; please upload the file again."))
        return redirect("list_baseline", slug=rating_list.slug)
    listfile = _read(meta)
    preview = baseline_preview(listfile=listfile)
    choices = choices_from(
        (key[len("choice-") :], value)
        for key, value in request.POST.items()
        if key.startswith("choice-")
    )
    errors = baseline_errors(
        listfile=listfile, rating_list=rating_list, preview=preview, choices=choices
    )
    if errors:
        return _render(
            request, rating_list, preview, token=token, errors=errors, posted=request.POST
        )
    try:
        baseline = baseline_import(
            listfile=listfile, rating_list=rating_list, date=dt.date.fromisoformat(meta["date"]),
            by=request.user, choices=choices, filename=meta["filename"], preview=preview,
        )  # fmt: skip
    except ValidationError as error:
        return _render(
            request, rating_list, preview, token=token, errors=error.messages, posted=request.POST
        )
    _remove(meta["path"])
    request.session.pop(SESSION_KEY, None)
    messages.success(
        request,
        _("The list starts from %(n)s players on %(date)s; it is being recomputed.")
        % {"n": baseline.rows.count(), "date": baseline.date},
    )
    return redirect(rating_list.get_absolute_url())
