from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from clubsite.models import (
    Club,
    FideRating,
    Member,
    MemberClaim,
    MemberMerge,
    MergeRequest,
    Profile,
    Registrar,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "country", "plays_go", "plays_chess", "plays_reversi"]
    list_filter = ["country", "plays_go", "plays_chess", "plays_reversi"]
    search_fields = ["name", "city", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["admins"]


@admin.register(Member)
class MemberAdmin(SimpleHistoryAdmin):
    list_display = [
        "family_name",
        "given_name",
        "grade",
        "country",
        "federation",
        "fide_title",
        "club",
        "egd_pin",
        "fide_id",
    ]
    list_filter = ["country", "federation", "fide_title", "sex", "club"]
    search_fields = [
        "family_name",
        "given_name",
        "native_name",
        "egd_pin",
        "fide_id",
        "national_id",
        "federation",
        "fide_title",
    ]
    list_select_related = ["club"]
    autocomplete_fields = ["club", "user"]


class ViewOnlyAdmin(admin.ModelAdmin):
    """Rows written only by the services: the admin may look, never touch."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Member.history.model)
class MemberHistoryAdmin(ViewOnlyAdmin):
    """Read-only: a member's history is written by his changes, never by hand."""

    list_display = ["family_name", "given_name", "history_date", "history_user", "history_type"]
    list_filter = ["history_type"]
    search_fields = ["family_name", "given_name", "history_change_reason"]
    list_select_related = ["history_user"]


@admin.register(FideRating)
class FideRatingAdmin(admin.ModelAdmin):
    """A member's FIDE ratings with the day each became valid (ORR seeds newcomers by them)."""

    list_display = ["member", "rating", "valid_from"]
    search_fields = ["member__family_name", "member__given_name", "member__fide_id"]
    autocomplete_fields = ["member"]
    date_hierarchy = "valid_from"


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "language", "mail_submitted", "mail_approved", "mail_rating"]
    list_filter = ["language", "mail_rating"]
    search_fields = ["user__username", "user__email"]
    list_select_related = ["user"]
    autocomplete_fields = ["user"]


@admin.register(MemberClaim)
class MemberClaimAdmin(ViewOnlyAdmin):
    """The "this is me" requests, to look up: decided on their page (`/me/requests/`),
    where the decision links the account and who may decide is checked."""

    list_display = ["user", "member", "state", "created_at", "decided_by", "decided_at"]
    list_filter = ["state"]
    search_fields = ["user__username", "member__family_name", "member__given_name"]
    list_select_related = ["user", "member", "decided_by"]


@admin.register(Registrar)
class RegistrarAdmin(admin.ModelAdmin):
    """Staff name the registrars (docs/authority.md) and their scope."""

    list_display = ["user", "country", "federation"]
    list_filter = ["country", "federation"]
    search_fields = ["user__username"]
    autocomplete_fields = ["user"]


@admin.register(MemberMerge)
class MemberMergeAdmin(ViewOnlyAdmin):
    """Read-only: a merge is made and undone by a registrar on the member's merge page."""

    list_display = ["kept_id", "dropped_id", "by", "at", "undone_at", "undone_by"]
    list_filter = ["undone_at"]
    search_fields = ["=kept_id", "=dropped_id", "by__username"]
    list_select_related = ["by", "undone_by"]


@admin.register(MergeRequest)
class MergeRequestAdmin(admin.ModelAdmin):
    list_display = ["keep", "drop", "requested_by", "at"]
    search_fields = ["keep__family_name", "drop__family_name", "requested_by__username"]
    list_select_related = ["keep", "drop", "requested_by"]
    autocomplete_fields = ["keep", "drop"]
