from django.contrib import admin

from clubsite.admin import ViewOnlyAdmin
from tournaments.models import (
    Game,
    KeptFile,
    MemberProposal,
    Participant,
    RoundSeat,
    Tournament,
    TournamentCounts,
    TournamentLog,
    UnenteredGame,
)


def _locked(tournament: Tournament | None) -> bool:
    return tournament is not None and tournament.is_locked


class ParticipantInline(admin.TabularInline):
    """Editable on a draft or rejected table only: a submitted or approved one is locked."""

    model = Participant
    extra = 0
    autocomplete_fields = ["member"]

    def has_add_permission(self, request, obj=None):
        return not _locked(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return not _locked(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not _locked(obj) and super().has_delete_permission(request, obj)


class LogInline(admin.TabularInline):
    model = TournamentLog
    extra = 0
    readonly_fields = ["action", "by", "at", "comment"]
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """A submitted or approved tournament is view-only: reopen it through the workflow first."""

    list_display = ["name", "end_date", "game", "tournament_class", "organiser", "status"]
    list_filter = ["status", "game", "tournament_class", "board_size", "country", "official"]
    search_fields = ["name", "city", "slug"]
    date_hierarchy = "end_date"
    prepopulated_fields = {"slug": ["name"]}
    # Status changes go through the workflow services (approval queues the recompute).
    readonly_fields = ["status", "submitted_at", "submitted_by", "decided_at", "decided_by"]
    inlines = [ParticipantInline, LogInline]

    def has_change_permission(self, request, obj=None):
        return not _locked(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not _locked(obj) and super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs, request):
        # Games, seats and the games' marks have no delete permission of their own
        # (nobody edits them here), but they go with the draft they belong to.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed -= {
            Game._meta.verbose_name,
            RoundSeat._meta.verbose_name,
            UnenteredGame._meta.verbose_name,
        }
        return deleted, counts, perms_needed, protected


@admin.register(Game)
class GameAdmin(ViewOnlyAdmin):
    """Read-only: games are written, with their round seats, by the results services only."""

    list_display = ["tournament", "round", "white", "black", "result", "kind", "handicap"]
    list_filter = ["kind", "result", "tournament__game"]
    search_fields = ["tournament__name", "white__family_name", "black__family_name"]
    list_select_related = ["tournament", "white", "black"]


@admin.register(TournamentLog)
class TournamentLogAdmin(admin.ModelAdmin):
    list_display = ["tournament", "action", "by", "at"]
    list_filter = ["action"]
    search_fields = ["tournament__name", "comment"]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    """A participant of a submitted or approved tournament is view-only, as in the inline."""

    list_display = ["member", "tournament", "grade", "place", "team"]
    list_filter = ["tournament__game"]
    search_fields = ["member__family_name", "member__given_name", "tournament__name"]
    list_select_related = ["member", "tournament"]
    autocomplete_fields = ["member", "tournament"]

    def has_change_permission(self, request, obj=None):
        locked = obj is not None and obj.tournament.is_locked
        return not locked and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        locked = obj is not None and obj.tournament.is_locked
        return not locked and super().has_delete_permission(request, obj)


@admin.register(RoundSeat)
class RoundSeatAdmin(ViewOnlyAdmin):
    """Read-only: seats are written with their games by the results services."""

    list_display = ["tournament", "round", "member", "game"]
    search_fields = ["tournament__name", "member__family_name"]
    list_select_related = ["tournament", "member", "game"]


@admin.register(MemberProposal)
class MemberProposalAdmin(ViewOnlyAdmin):
    """Read-only: a table proposes, an approval applies (`tournaments.review.proposals`)."""

    list_display = ["member", "field", "value", "tournament", "proposed_by", "applied_at"]
    list_filter = ["field"]
    search_fields = ["member__family_name", "tournament__name", "value"]
    list_select_related = ["member", "tournament", "proposed_by"]


@admin.register(KeptFile)
class KeptFileAdmin(ViewOnlyAdmin):
    """An imported file's own lines, written back by its export: shown, never edited."""

    list_display = ["tournament", "__str__"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]


@admin.register(UnenteredGame)
class UnenteredGameAdmin(ViewOnlyAdmin):
    """Kept by database triggers on games and entries: shown, never edited."""

    list_display = ["game", "tournament_id"]
    list_select_related = ["game"]


@admin.register(TournamentCounts)
class TournamentCountsAdmin(admin.ModelAdmin):
    """Kept by database triggers on the participants: shown, never edited."""

    list_display = ["tournament", "players"]
    list_select_related = ["tournament"]

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False
