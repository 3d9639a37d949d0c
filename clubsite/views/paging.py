"""Paging of the public lists and tables: the page and per-page come from the URL, read safely.

django-tables2's RequestConfig reads `page` and `per_page` from the URL with `int()` and
trusts them: `per_page=10000000` returned every row and `per_page=-1` was a 500. Here the
sort still comes from RequestConfig, but the page size is one of the page's own choices and
the page number is a plain number clamped to the pages there are.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, Paginator
from django.http import HttpRequest, QueryDict
from django_tables2 import RequestConfig, Table

from clubsite.numbers import int_or_default

PER_PAGE_CHOICES = (25, 50, 100, 200)
DEFAULT_PER_PAGE = 50
MAX_PAGE = 10**9


def per_page_of(request: HttpRequest, choices: tuple[int, ...] = PER_PAGE_CHOICES,
                default: int = DEFAULT_PER_PAGE) -> int:  # fmt: skip
    """The requested page size when it is one of `choices`, else the default."""
    value = int_or_default(request.GET.get("per_page"), default, minimum=1, maximum=max(choices))
    return value if value in choices else default


def page_of(request: HttpRequest) -> int:
    return int_or_default(request.GET.get("page"), 1, minimum=1, maximum=MAX_PAGE)


def configure_table(
    request: HttpRequest,
    table: Table,
    *,
    per_page: int | None,
    paginator_class: type[Paginator] = Paginator,
    **paginator_kwargs: Any,
) -> Table:
    """Sort `table` as the URL asks; page it `per_page` rows a page (None: no paging).
    A page past the end shows the last page."""
    RequestConfig(request, paginate=False).configure(table)
    if per_page is None:
        return table
    try:
        table.paginate(paginator_class=paginator_class, per_page=per_page, page=page_of(request),
                       **paginator_kwargs)  # fmt: skip
    except EmptyPage:
        table.page = table.paginator.page(table.paginator.num_pages)
    return table


def query_without(request: HttpRequest, *names: str) -> str:
    """The URL's query without `names`, ready to have `name=value` appended ("" or "…&")."""
    query: QueryDict = request.GET.copy()
    for name in names:
        query.pop(name, None)
    text = query.urlencode()
    return text + "&" if text else ""
