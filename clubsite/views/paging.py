"""Paging of the public lists and tables: the page and per-page come from the URL, read safely.

django-tables2's RequestConfig reads `page` and `per_page` from the URL with `int()` and
trusts them: `per_page=10000000` returned every row and `per_page=-1` was a 500. Here the
sort still comes from RequestConfig, but the page size is one of the page's own choices and
the page number is a plain number clamped to the pages there are.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, QueryDict
from django.utils.functional import cached_property
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
    A page past the end shows the last page; a sort by no column keeps the table's own."""
    default_order = table.order_by
    RequestConfig(request, paginate=False).configure(table)
    if not table.order_by:
        # django-tables2 drops an unknown `sort` and leaves the rows in the default order,
        # but its order as none: the pages that read a deep page along the rating index
        # then fell back to ranking every row (`?sort=junk` cost the EGD list 50 ms).
        table.order_by = default_order
    _break_ties(table)
    if per_page is None:
        return table
    try:
        table.paginate(paginator_class=paginator_class, per_page=per_page, page=page_of(request),
                       **paginator_kwargs)  # fmt: skip
    except EmptyPage:
        table.page = table.paginator.page(table.paginator.num_pages)
    return table


class CountedApartPaginator(Paginator):
    """Counts `counted` (the page's rows without the joins that only draw them) instead of
    the rows: PostgreSQL counts the public tournaments along an index in 1 ms, but through
    a join to their counts, removed by the planner too late to choose the index, in 6."""

    def __init__(self, *args: Any, counted: QuerySet, **kwargs: Any) -> None:
        self.counted = counted
        super().__init__(*args, **kwargs)

    @cached_property
    def count(self) -> int:
        return self.counted.count()


def _break_ties(table: Table) -> None:
    """End the table's sort with the row's id unless it ends so already: sorted by a column
    many rows share (players, city, grade), the database may give tied rows in any order,
    and a page could repeat rows of the page before and never show others (39 pages of the
    EGD-scale tournament list by players showed 48 tournaments twice)."""
    data = getattr(table.data, "data", None)
    if not isinstance(data, QuerySet):
        return
    ordering = data.query.order_by
    if not ordering or not all(isinstance(key, str) for key in ordering):
        return
    if ordering[-1].lstrip("-") in ("pk", "id"):
        return
    table.data.data = data.order_by(*ordering, "-pk" if ordering[-1].startswith("-") else "pk")


def query_without(request: HttpRequest, *names: str) -> str:
    """The URL's query without `names`, ready to have `name=value` appended ("" or "…&")."""
    query: QueryDict = request.GET.copy()
    for name in names:
        query.pop(name, None)
    text = query.urlencode()
    return text + "&" if text else ""


def sort_headers(
    request: HttpRequest, table: Table, *, numeric: tuple[str, ...] = ()
) -> list[dict[str, str]]:
    """Column headers with their sort links (what django-tables2's template would draw);
    the `numeric` columns are right-aligned."""
    headers = []
    for column in table.columns:
        css = "num" if column.name in numeric else ""
        url = ""
        if column.orderable:
            query = request.GET.copy()
            query.pop("page", None)
            query["sort"] = column.order_by_alias.next
            url = "?" + query.urlencode()
            if column.is_ordered:
                css += " desc" if column.order_by_alias.is_descending else " asc"
        headers.append({"label": str(column.header), "url": url, "css": css.strip()})
    return headers


def page_range(page_number: int, pages: int) -> list[int | None]:
    """1 … 4 5 [6] 7 8 … 40: the first, the last, and two either side (None = a gap)."""
    shown = sorted({1, pages, *range(max(1, page_number - 2), min(pages, page_number + 2) + 1)})
    out: list[int | None] = []
    for p in shown:
        if out and p - (out[-1] or 0) > 1:
            out.append(None)
        out.append(p)
    return out
