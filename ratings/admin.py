from django.contrib import admin

from ratings.models import (
    Baseline,
    BaselineRow,
    ListTournament,
    PublishedEntry,
    PublishedList,
    RatingEntry,
    RatingHistory,
    RatingList,
    RecomputeRun,
)


class ListTournamentInline(admin.TabularInline):
    model = ListTournament
    extra = 0
    autocomplete_fields = ["tournament"]


@admin.register(RatingList)
class RatingListAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "game", "owner_club", "federation", "state", "pending_from"]
    list_filter = ["system", "game", "state"]
    search_fields = ["name", "slug", "federation"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["referees", "submitting_clubs"]
    readonly_fields = ["state", "pending_from", "last_error"]
    inlines = [ListTournamentInline]


@admin.register(RatingEntry)
class RatingEntryAdmin(admin.ModelAdmin):
    list_display = ["member", "rating_list", "rating", "provisional", "tournaments", "last_played"]
    list_filter = ["rating_list", "provisional"]
    search_fields = ["member__family_name", "member__given_name"]
    list_select_related = ["member", "rating_list"]
    raw_id_fields = ["member"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):
    list_display = ["member", "rating_list", "tournament", "date", "before", "after", "change"]
    list_filter = ["rating_list", "anomalous", "reset", "provisional"]
    search_fields = ["member__family_name", "tournament__name"]
    list_select_related = ["member", "rating_list", "tournament"]
    raw_id_fields = ["member", "tournament"]
    date_hierarchy = "date"

    def save_model(self, request, obj, form, change) -> None:  # noqa: ANN001
        # A row edited by hand no longer matches its fingerprint, nor its table's rows their
        # digest: the next recompute that reaches it rewrites it
        # (ratings.recompute.history_write).
        obj.fingerprint = None
        super().save_model(request, obj, form, change)
        _forget_table_digests([obj])

    def delete_model(self, request, obj) -> None:  # noqa: ANN001
        super().delete_model(request, obj)
        _forget_table_digests([obj])

    def delete_queryset(self, request, queryset) -> None:  # noqa: ANN001
        rows = list(queryset.only("rating_list_id", "tournament_id"))
        super().delete_queryset(request, queryset)
        _forget_table_digests(rows)


def _forget_table_digests(rows: list[RatingHistory]) -> None:
    """The tables of these rows no longer hold what their digest says: the next recompute
    compares them row by row (a row deleted comes back)."""
    for rating_list_id, tournament_id in {(r.rating_list_id, r.tournament_id) for r in rows}:
        ListTournament.objects.filter(
            rating_list_id=rating_list_id, tournament_id=tournament_id
        ).update(history_digest=None)


@admin.register(RecomputeRun)
class RecomputeRunAdmin(admin.ModelAdmin):
    list_display = [
        "rating_list",
        "trigger",
        "from_date",
        "started_at",
        "duration_ms",
        "tournaments",
        "games",
        "outcome",
    ]
    list_filter = ["outcome", "rating_list"]


class PublishedEntryInline(admin.TabularInline):
    model = PublishedEntry
    extra = 0
    raw_id_fields = ["member"]


@admin.register(PublishedList)
class PublishedListAdmin(admin.ModelAdmin):
    list_display = ["rating_list", "date", "created_at"]
    list_filter = ["rating_list"]
    inlines = [PublishedEntryInline]


@admin.register(ListTournament)
class ListTournamentAdmin(admin.ModelAdmin):
    list_display = ["tournament", "rating_list", "rated_at", "not_rated_reason"]
    list_filter = ["rating_list"]
    search_fields = ["tournament__name"]
    list_select_related = ["tournament", "rating_list"]
    autocomplete_fields = ["tournament"]
    readonly_fields = ["rated_at", "not_rated_reason"]


@admin.register(PublishedEntry)
class PublishedEntryAdmin(admin.ModelAdmin):
    list_display = ["snapshot", "rank", "member", "rating", "grade"]
    list_filter = ["snapshot__rating_list"]
    search_fields = ["member__family_name", "member__given_name"]
    list_select_related = ["snapshot__rating_list", "member"]
    raw_id_fields = ["member"]


@admin.register(Baseline)
class BaselineAdmin(admin.ModelAdmin):
    """Import and replace through the list's page or `import_ratings` (they recompute)."""

    list_display = ("rating_list", "date", "source", "filename", "created_at")
    readonly_fields = ("rating_list", "date", "source", "filename", "created_by")

    def has_add_permission(self, request):
        return False


@admin.register(BaselineRow)
class BaselineRowAdmin(admin.ModelAdmin):
    list_display = ("member", "baseline", "rating", "grade", "tournaments")
    list_select_related = ("member", "baseline__rating_list")
    raw_id_fields = ("member", "baseline")
    search_fields = ("member__family_name", "member__egd_pin", "member__fide_id")

    def has_add_permission(self, request):
        return False
