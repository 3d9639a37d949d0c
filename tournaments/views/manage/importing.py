"""The club admin's results import: upload, preview, confirm, for a rating list.

Mounted at /manage/ (see `tournaments.views.manage.list_urls`). The file is parsed by
`tournaments.formats`, matched and saved by `tournaments.importing` through
`ratings.submissions.importing`, which adds the list (who is new to it, the link).
"""

from __future__ import annotations

import base64
import secrets
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.models import Club
from ratings.models import RatingList
from ratings.submissions import importing as ratings_importing
from tournaments import importing
from tournaments.formats import FormatError, ResultsFile, guess_format
from tournaments.formats import parse as parse_results
from tournaments.formats.dates import with_dates
from tournaments.importing.preview_table import preview_crosstable
from tournaments.messages import problem_rows
from tournaments.views.forms import ENCODING_TITLES, ImportConfirmForm
from tournaments.views.list_forms import ResultsUploadListForm
from tournaments.views.manage.access import NAV, clubs_or_403, error_messages

IMPORT_SESSION_KEY = "results-import"


def _stash(request: HttpRequest, data: bytes, meta: dict[str, Any]) -> str:
    token = secrets.token_urlsafe(16)
    request.session[IMPORT_SESSION_KEY] = {
        "token": token, "data": base64.b64encode(data).decode("ascii"), **meta,
    }  # fmt: skip
    return token


def _unstash(request: HttpRequest, token: str) -> tuple[bytes, dict[str, Any]] | None:
    stash = request.session.get(IMPORT_SESSION_KEY)
    # Compared as bytes: compare_digest refuses a str with non-ASCII characters (a 500).
    expected = str(stash.get("token", "")).encode() if stash else b""
    if not stash or not secrets.compare_digest(expected, token.encode()):
        return None
    return base64.b64decode(stash["data"]), stash


def _held_by(organiser: Club, held_by: Club | str | None) -> str:
    """Who held the tournament, as the preview says it."""
    if held_by == "external":
        return _("an external organiser")
    return held_by.name if isinstance(held_by, Club) else organiser.name


def _held_by_from(meta: dict[str, Any]) -> Club | str | None:
    value = meta.get("held_by")
    if value == "external":
        return "external"
    return Club.objects.filter(pk=value).first() if isinstance(value, int) else None


def _choice_options(match: importing.PlayerMatch) -> list[tuple[str, str]]:
    """What the admin may say a file player is: the match, a candidate, or a new member."""
    options: list[tuple[str, str]] = []
    members = ([match.member] if match.member is not None else []) + list(match.candidates)
    seen = set()
    for member in members:
        if member.pk in seen:
            continue
        seen.add(member.pk)
        club = f", {member.club.name}" if member.club_id else ""
        options.append((str(member.pk), f"{member.full_name} (#{member.pk}{club})"))
    options.append(("new", _("a new member")))
    return options


def _preview_rows(preview: importing.ImportPreview, posted: Any = None) -> list[dict[str, Any]]:
    rows = []
    for index, match in enumerate(preview.players):
        options = _choice_options(match)
        default = (
            str(match.member.pk)
            if match.status == "matched"
            else ("new" if match.status == "new" else "")
        )
        chosen = posted.get(f"choice-{index}", default) if posted is not None else default
        rows.append({"index": index, "match": match, "options": options, "chosen": chosen})
    return rows


def _render_preview(
    request: HttpRequest,
    preview: importing.ImportPreview,
    token: str,
    *,
    filename: str,
    posted: Any = None,
    errors: list[str] | None = None,
    held_by: str = "",
) -> HttpResponse:
    details = preview.results.details
    initial = {
        "token": token,
        "encoding": preview.results.encoding,
        "start_date": details.start_date,
        "end_date": details.end_date,
    }
    confirm = ImportConfirmForm(posted or None, initial=initial)
    if posted is None:
        confirm = ImportConfirmForm(initial=initial)
    return render(
        request,
        "tournaments/manage/import_preview.html",
        {
            "preview": preview,
            "rows": _preview_rows(preview, posted),
            "warnings": problem_rows(preview.warnings),
            "crosstable": preview_crosstable(preview.results),
            "confirm": confirm,
            "filename": filename,
            "encoding_title": ENCODING_TITLES.get(preview.results.encoding, ""),
            "held_by": held_by,
            "errors": errors or [],
            **NAV,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_import(request: HttpRequest) -> HttpResponse:
    """Upload a results file and see what it would become; nothing is saved here."""
    clubs = clubs_or_403(request)
    form = ResultsUploadListForm(request.POST or None, request.FILES or None, clubs=clubs)
    problems = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        data = upload.read()
        fmt = form.cleaned_data["fmt"] or guess_format(upload.name)
        try:
            results = parse_results(
                data, fmt, upload.name, max_bytes=settings.RESULTS_UPLOAD_MAX_BYTES
            )
        except FormatError as error:
            problems = problem_rows(error.problems)
        else:
            organiser: Club = form.cleaned_data["organiser"]
            held_by = form.cleaned_data["held_by"]
            rating_list: RatingList | None = form.cleaned_data["rating_list"]
            preview = ratings_importing.results_preview(
                results=results, rating_list=rating_list, organiser=organiser, fmt=fmt
            )
            token = _stash(
                request,
                data,
                {
                    "fmt": fmt, "filename": upload.name, "organiser": organiser.pk,
                    "rating_list": rating_list.pk if rating_list else None,
                    "held_by": held_by.pk if isinstance(held_by, Club) else held_by,
                },
            )  # fmt: skip
            return _render_preview(
                request, preview, token, filename=upload.name, held_by=_held_by(organiser, held_by)
            )
    return render(
        request,
        "tournaments/manage/import_upload.html",
        {"form": form, "problems": problems, **NAV},
    )


def _parse_stashed(data: bytes, meta: dict[str, Any], encoding: str | None) -> ResultsFile:
    return parse_results(
        data, meta["fmt"], meta["filename"], max_bytes=settings.RESULTS_UPLOAD_MAX_BYTES,
        encoding=encoding,
    )  # fmt: skip


@login_required
@require_POST
def manage_import_confirm(request: HttpRequest) -> HttpResponse:
    """Save the previewed file with the admin's choices, all or nothing."""
    clubs = clubs_or_403(request)
    token = request.POST.get("token", "")
    stashed = _unstash(request, token)
    if stashed is None:
        messages.error(request, _("That upload has expired; please upload the file again."))
        return redirect("manage_import")
    data, meta = stashed
    organiser = clubs.filter(pk=meta["organiser"]).first()
    if organiser is None:
        raise PermissionDenied(_("You do not administer this club."))
    rating_list = RatingList.objects.filter(pk=meta.get("rating_list")).first()
    held_by = _held_by_from(meta)
    confirm = ImportConfirmForm(request.POST)
    confirm_valid = confirm.is_valid()
    errors: list[str] = []
    reread = "reread" in request.POST
    chosen = request.POST.get("encoding", "")
    encoding = chosen if reread and chosen in ENCODING_TITLES else meta.get("encoding")
    try:
        results = _parse_stashed(data, meta, encoding)
    except FormatError as error:
        if encoding == meta.get("encoding"):  # the site's limit went down since the upload
            messages.error(request, _("That upload can no longer be read; please upload it again."))
            return redirect("manage_import")
        errors += [problem.message for problem in error.errors]  # keep the last reading
        encoding, reread = meta.get("encoding"), True
        results = _parse_stashed(data, meta, encoding)
    if encoding != meta.get("encoding"):
        request.session[IMPORT_SESSION_KEY]["encoding"] = encoding
        request.session.modified = True
    if confirm_valid and (dates := confirm.dates()) is not None:
        results = with_dates(results, *dates)
    preview = ratings_importing.results_preview(
        results=results, rating_list=rating_list, organiser=organiser, fmt=meta["fmt"]
    )
    if reread:  # another encoding asked for: show what it reads, save nothing
        return _render_preview(
            request, preview, token, filename=meta["filename"], errors=errors,
            held_by=_held_by(organiser, held_by),
        )  # fmt: skip
    choices: dict[str, Any] = {}
    for row in _preview_rows(preview, request.POST):
        allowed = {value for value, _label in row["options"]}
        chosen = row["chosen"]
        if chosen == "":
            continue  # undecided: results_import names him
        if chosen not in allowed:
            errors.append(
                _("%(player)s: choose from the list.") % {"player": row["match"].player.name}
            )
            continue
        choices[row["match"].key] = "new" if chosen == "new" else int(chosen)
    if not confirm_valid:
        errors.append(_("Choose how to save the table."))
    if not errors:
        try:
            tournament = ratings_importing.results_import(
                results=results, rating_list=rating_list, organiser=organiser,
                by=request.user, choices=choices, status=confirm.cleaned_data["status"],
                fmt=meta["fmt"], source=meta["filename"],
                host=held_by if isinstance(held_by, Club) else None,
                host_external=held_by == "external",
            )  # fmt: skip
        except ValidationError as error:
            # The preview's own errors are on the page already.
            errors = [e for e in error_messages(error) if e not in preview.errors]
        else:
            request.session.pop(IMPORT_SESSION_KEY, None)
            messages.success(
                request,
                _("%(name)s is imported with %(n)d players.")
                % {"name": tournament.name, "n": len(preview.players)},
            )
            return redirect("manage_tournament", pk=tournament.pk)
    return _render_preview(
        request, preview, token, filename=meta["filename"], posted=request.POST, errors=errors,
        held_by=_held_by(organiser, held_by),
    )  # fmt: skip
