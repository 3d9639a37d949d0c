from django.contrib import admin

from tournaments.models import Game, Participant, RoundSeat, Tournament, TournamentLog


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    autocomplete_fields = ["member"]


class LogInline(admin.TabularInline):
    model = TournamentLog
    extra = 0
    readonly_fields = ["action", "by", "at", "comment"]
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "end_date", "game", "tournament_class", "organiser", "status"]
    list_filter = ["status", "game", "tournament_class", "board_size", "country", "official"]
    search_fields = ["name", "city", "slug"]
    date_hierarchy = "end_date"
    prepopulated_fields = {"slug": ["name"]}
    # Status changes go through the workflow services (approval queues the recompute).
    readonly_fields = ["status", "submitted_at", "submitted_by", "decided_at", "decided_by"]
    inlines = [ParticipantInline, LogInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["tournament", "round", "white", "black", "result", "kind", "handicap"]
    list_filter = ["kind", "result", "tournament__game"]
    search_fields = ["tournament__name", "white__family_name", "black__family_name"]
    list_select_related = ["tournament", "white", "black"]
    autocomplete_fields = ["tournament", "white", "black"]


@admin.register(TournamentLog)
class TournamentLogAdmin(admin.ModelAdmin):
    list_display = ["tournament", "action", "by", "at"]
    list_filter = ["action"]
    search_fields = ["tournament__name", "comment"]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ["member", "tournament", "grade", "place", "team"]
    list_filter = ["tournament__game"]
    search_fields = ["member__family_name", "member__given_name", "tournament__name"]
    list_select_related = ["member", "tournament"]
    autocomplete_fields = ["member", "tournament"]


@admin.register(RoundSeat)
class RoundSeatAdmin(admin.ModelAdmin):
    """Read-only: seats are written with their games by the results services."""

    list_display = ["tournament", "round", "member", "game"]
    search_fields = ["tournament__name", "member__family_name"]
    list_select_related = ["tournament", "member", "game"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
