"""Read-only JSON for machines: rating lists, a player with his history, a tournament.

Described in docs/api.md. Everything here is public; drafts are never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from clubsite.numbers import int_or_none
from ratings import selectors
from ratings.crosstable import crosstable_with_ratings
from ratings.display.formatting import rating_number
from ratings.models import RatingEntry, RatingHistory, RatingList
from ratings.recompute.reads import any_of
from ratings.systems.registry import SYSTEMS
from ratings.views.filters import category_q
from ratings.views.pagination import COUNT_SECONDS
from tournaments import selectors as tournament_selectors
from tournaments.models import Game, Tournament

DEFAULT_LIMIT = 1000
MAX_LIMIT = 10000


def _json(data: Any, status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _int(value: str | None, default: int, low: int, high: int) -> int:
    number = int_or_none(value, minimum=-(10**18), maximum=10**18)
    return default if number is None else max(low, min(high, number))


def _grade(value: Any) -> str | None:
    return None if value is None else str(value)


def _date(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def _list_json(rating_list: RatingList, request: HttpRequest) -> dict[str, Any]:
    return {
        "slug": rating_list.slug,
        "name": rating_list.name,
        "system": rating_list.system,
        "system_title": SYSTEMS[rating_list.system].title if rating_list.system in SYSTEMS else "",
        "game": rating_list.game,
        "url": request.build_absolute_uri(reverse("api_rating_list", args=[rating_list.slug])),
    }


def _template(request: HttpRequest, name: str, placeholder: str) -> str:
    """An absolute URL template such as `https://…/api/players/{id}/`, braces unescaped."""
    sentinel = "0" if placeholder == "id" else "placeholder-slug"
    url = request.build_absolute_uri(reverse(name, args=[sentinel]))
    head, _sep, tail = url.rpartition(f"/{sentinel}/")
    return f"{head}/{{{placeholder}}}/{tail}"


@csrf_exempt
@require_safe
def api_index(request: HttpRequest) -> JsonResponse:
    return _json(
        {
            "rating_lists": request.build_absolute_uri(reverse("api_rating_lists")),
            "rating_list": _template(request, "api_rating_list", "slug"),
            "player": _template(request, "api_player", "id"),
            "tournament": _template(request, "api_tournament", "id"),
        }
    )


@csrf_exempt
@require_safe
def api_rating_lists(request: HttpRequest) -> JsonResponse:
    lists = selectors.rating_list_all()
    return _json({"lists": [dict(_list_json(rl, request), players=rl.players) for rl in lists]})


@csrf_exempt
@require_safe
def api_rating_list(request: HttpRequest, slug: str) -> JsonResponse:
    """Entries by rating: `?active=all` for everyone, `sex`, `category` (as the page's
    filter), `offset`, `limit` (≤ 10000)."""
    rating_list = get_object_or_404(RatingList, slug=slug)
    entries = selectors.rating_entries(rating_list)
    everyone = request.GET.get("active") == "all"
    today = timezone.localdate()
    if not everyone:
        entries = entries.filter(selectors.active_filter(rating_list, today))
    chosen = _chosen_players(request, today)  # sex and age category, as the page's filter
    for condition in chosen.values():
        entries = entries.filter(condition)
    version = ("api", everyone, today, *sorted(chosen))
    total = _count(entries, selectors.list_version_key(rating_list, *version))
    offset = _int(request.GET.get("offset"), 0, 0, 10**9)
    limit = _int(request.GET.get("limit"), DEFAULT_LIMIT, 1, MAX_LIMIT)
    system = rating_list.system
    rows: list[tuple[Any, ...]] = []
    if offset == 0:  # from the top the window ranks the rows as it reads them
        ranked = selectors.with_rank(entries).order_by(*API_ORDER, "pk")
        rows = list(ranked.values_list("rank", *_PLAYER_FIELDS)[:limit])
    elif offset < total:
        key = partial(selectors.list_version_key, rating_list, *version)
        rows = _ranked_window(entries, key, start=offset, stop=offset + limit, total=total)
    players = [
        {
            "rank": rank,
            "id": member_id,
            "name": f"{given} {family}".strip(),  # Member.full_name
            "family_name": family,
            "given_name": given,
            "country": country,
            "club": club,
            "grade": _grade(grade),
            "rating": rating,
            "rating_shown": _shown(rating, system),
            "provisional": provisional,
            "tournaments": tournaments,
            "games": games,
            "last_played": _date(last_played),
            "active_until": _date(active_until),
            "egd_pin": egd_pin or None,
            "fide_id": fide_id or None,
            "title": title or None,
        }
        for (
            rank, member_id, given, family, country, club, grade, rating, provisional,
            tournaments, games, last_played, active_until, egd_pin, fide_id, title,
        ) in rows
    ]  # fmt: skip
    return _json(
        dict(
            _list_json(rating_list, request),
            total=total,
            offset=offset,
            limit=limit,
            players=players,
        )  # fmt: skip
    )


_HISTORY_FIELDS = (
    "rating_list_id", "date", "tournament_id", "tournament__name", "tournament__tournament_class",
    "rating_in", "before", "after", "change", "games_count", "rated", "provisional", "grade",
    "klass", "note", "breakdown",
)  # fmt: skip


API_ORDER = ("-rating", "member__family_name")  # then the entry's id
# Plain values, not model instances: a thousand rows of entry, member and club objects
# were most of this answer's time.
_PLAYER_FIELDS = (
    "member_id", "member__given_name", "member__family_name", "member__country",
    "member__club__name", "grade", "rating", "provisional", "tournaments", "games",
    "last_played", "active_until", "member__egd_pin", "member__fide_id", "member__fide_title",
)  # fmt: skip


def _chosen_players(request: HttpRequest, today: Any) -> dict[str, Q]:
    """`?sex=f|m` and `?category=u8…u20|50+|65+` as conditions, by name (others ignored)."""
    chosen: dict[str, Q] = {}
    sex = request.GET.get("sex")
    if sex in ("f", "m"):
        chosen[f"sex={sex}"] = Q(member__sex=sex)
    category = request.GET.get("category") or ""
    condition = category_q(category, today.year)
    if condition is not None:
        chosen[f"category={category}"] = condition
    return chosen


def _ranked_window(
    entries: QuerySet[RatingEntry], key: Callable[..., str], *, start: int, stop: int, total: int
) -> list[tuple[Any, ...]]:
    """Rows `start:stop` of `entries` in `API_ORDER` as (rank, *`_PLAYER_FIELDS`), found as
    the list page finds a page (`selectors.keys_of_page`: from the nearer end, or cut out
    of the keys in that order, kept), then read by key. Ranking every row above by a window
    cost an offset of 40,000 in the EGD list 80 ms."""
    keys_only = entries.select_related(None).only("id", "rating")
    keys = partial(
        selectors.kept_keys_in_order, keys_only, API_ORDER,
        key=key("keys"), ratings_key=key("ratings"), seconds=COUNT_SECONDS,
    )  # fmt: skip
    window = selectors.keys_of_page(
        keys_only, ordering=API_ORDER, keys=keys, start=start, stop=stop, total=total
    )
    best_first = selectors.kept_ratings_best_first(
        keys_only, key=key("ratings"), seconds=COUNT_SECONDS
    )
    values = entries.filter(any_of("pk", [pk for pk, _rating in window]))
    by_key = {pk: row for pk, *row in values.values_list("pk", *_PLAYER_FIELDS)}
    return [
        (selectors.rank_among(best_first, rating), *by_key[pk])
        for pk, rating in window
        if pk in by_key  # else gone since the keys were kept: the window is short
    ]


def _count(entries: QuerySet[RatingEntry], key: str) -> int:
    """How many `entries`, kept as long as the list page keeps its count (`key` names the
    list's version): counting 25,000 active players took a third of this answer."""
    total = cache.get(key)
    if total is None:
        total = entries.count()
        cache.set(key, total, COUNT_SECONDS)
    return total


def _shown(value: float | None, system: str) -> float | None:
    number = rating_number(value, system)
    return None if number is None else float(number)


@csrf_exempt
@require_safe
def api_player(request: HttpRequest, pk: int) -> JsonResponse:
    try:
        member = selectors.player_get(pk, request.user)
    except ObjectDoesNotExist as error:
        raise Http404 from error
    entries = member.rating_entries.select_related("rating_list").order_by("rating_list__name")
    lists: dict[int, dict[str, Any]] = {}
    for e in entries:
        lists[e.rating_list_id] = dict(
            _list_json(e.rating_list, request),
            rating=e.rating, rating_shown=_shown(e.rating, e.rating_list.system),
            provisional=e.provisional, grade=_grade(e.grade), tournaments=e.tournaments,
            games=e.games, last_played=_date(e.last_played), history=[],
        )  # fmt: skip
    # Plain values, not model instances: the busiest player's two hundred rows, each with
    # its list and tournament objects, were most of this answer's time.
    history = (
        RatingHistory.objects.filter(member=member)
        .order_by("rating_list__name", "date", "sequence")
        .values_list(*_HISTORY_FIELDS)
    )
    for row in history:
        h = dict(zip(_HISTORY_FIELDS, row, strict=True))
        target = lists.get(h["rating_list_id"])
        if target is None:  # history in a list where he has no entry
            rating_list = RatingList.objects.get(pk=h["rating_list_id"])
            target = lists[rating_list.pk] = dict(
                _list_json(rating_list, request), rating=None, history=[]
            )
        target["history"].append(
            {
                "date": h["date"].isoformat(),
                "tournament": {"id": h["tournament_id"], "name": h["tournament__name"]},
                "rating_in": h["rating_in"],
                "before": h["before"],
                "after": h["after"],
                "change": h["change"],
                "games": h["games_count"],
                "rated": h["rated"],
                "provisional": h["provisional"],
                "grade": _grade(h["grade"]),
                # egf.md §8: the class the list applied, not the one entered.
                "class": h["klass"] or h["tournament__tournament_class"],
                "note": h["note"],
                "breakdown": h["breakdown"] or [],
            }
        )
    return _json(
        {
            "id": member.pk,
            "name": member.full_name,
            "family_name": member.family_name,
            "given_name": member.given_name,
            "country": member.country,
            "club": member.club.slug if member.club else None,
            "grade": _grade(member.grade),
            "egd_pin": member.egd_pin or None,
            "fide_id": member.fide_id or None,
            "lists": list(lists.values()),
        }
    )


@csrf_exempt
@require_safe
def api_tournament(request: HttpRequest, pk: int) -> JsonResponse:
    try:
        tournament = tournament_selectors.tournament_get(pk)
    except ObjectDoesNotExist as error:
        raise Http404 from error
    if tournament.status == Tournament.Status.DRAFT:
        raise Http404
    table = crosstable_with_ratings(tournament)
    games = Game.objects.filter(tournament=tournament).order_by("round", "id")
    known_time = tournament.time_control_known
    return _json(
        {
            "id": tournament.pk,
            "name": tournament.name,
            "status": tournament.status,
            "rejection_reason": tournament.decision_comment
            if tournament.status == Tournament.Status.REJECTED
            else None,
            "game": tournament.game,
            "start_date": tournament.start_date.isoformat(),
            "end_date": tournament.end_date.isoformat(),
            "city": tournament.city,
            "country": tournament.country,
            "organiser": tournament.organiser.slug,
            "class": _applied_class(table.lists) or tournament.tournament_class,
            "class_entered": tournament.tournament_class,
            "class_by_list": {
                link.rating_list.slug: link.applied_class
                for link in table.lists
                if link.applied_class
            },
            "board_size": tournament.board_size,
            # Unknown (a results file said nothing readable): null, not the model's defaults.
            "basic_time_minutes": float(tournament.basic_time_minutes) if known_time else None,
            "overtime": {
                "kind": tournament.overtime_kind,
                "seconds": tournament.overtime_seconds,
                "moves": tournament.overtime_moves,
            }
            if known_time
            else None,
            "time_control_text": tournament.time_control_text,
            "rounds": tournament.rounds,
            "participants": tournament.participants_declared,
            "rating_lists": [link.rating_list.slug for link in table.lists],
            "players": [
                {
                    "number": row.number,
                    "place": row.participant.place,
                    "id": row.participant.member_id,
                    "name": row.participant.member.full_name,
                    "grade": _grade(row.participant.grade),
                    "points": float(row.points),
                    "rating_changes": [
                        {
                            "list": c.list_slug,
                            "before": c.before,
                            "after": c.after,
                            "change": c.change,
                            "rated": c.rated,
                        }
                        for c in row.changes
                        if c is not None
                    ],
                }
                for row in table.rows
            ],
            "games": [
                {
                    "round": g.round,
                    "white": g.white_id,
                    "black": g.black_id,
                    "result": g.result or None,
                    "kind": g.kind,
                    "handicap": g.handicap,
                }
                for g in games
            ],
        }
    )


def _applied_class(links) -> str:
    """egf.md §8: the class an EGF list rated the table at (the weakest, if several)."""
    applied = sorted({link.applied_class for link in links if link.applied_class}, reverse=True)
    return applied[0] if applied else ""
