"""A rating list as a file for the pairing programs (issue 56): the EGF rating list
(OpenGotha, Pairgoth) and FIDE's TXT list (Swiss-Manager, Vega, JaVaFo), of the live list
or of one publication. ISO-8859-1, the encoding OpenGotha reads the EGD's file in."""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from ratings.list_files import PAIRING_FORMATS, file_formats, rating_list_text
from ratings.models import PublishedList, RatingList


def _file_response(the_list: RatingList, fmt: str, snapshot: PublishedList | None) -> HttpResponse:
    if fmt not in file_formats(the_list):
        raise Http404
    text = rating_list_text(rating_list=the_list, fmt=fmt, snapshot=snapshot)
    day = snapshot.date if snapshot is not None else dt.date.today()
    filename = f"{slugify(the_list.slug)}-{day.isoformat()}-{PAIRING_FORMATS[fmt]}.txt"
    response = HttpResponse(
        text.encode("iso-8859-1"), content_type="text/plain; charset=iso-8859-1"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def rating_list_file(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """Everyone the live list rates, in the EGF list's or FIDE's layout."""
    return _file_response(get_object_or_404(RatingList, slug=slug), fmt, None)


@require_safe
def rating_snapshot_file(request: HttpRequest, slug: str, date: str, fmt: str) -> HttpResponse:
    """One publication of the list, in the EGF list's or FIDE's layout."""
    the_list = get_object_or_404(RatingList, slug=slug)
    try:
        day = dt.date.fromisoformat(date)
    except ValueError as error:
        raise Http404 from error
    snapshot = get_object_or_404(PublishedList, rating_list=the_list, date=day)
    return _file_response(the_list, fmt, snapshot)
