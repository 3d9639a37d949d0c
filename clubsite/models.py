"""The club domain: clubs and their members (the players)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubsite.fields import GradeField


class GameKind(models.TextChoices):
    GO = "go", _("Go")
    CHESS = "chess", _("Chess")
    REVERSI = "reversi", _("Reversi")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    country = models.CharField(
        _("country"), max_length=2, blank=True, help_text=_("ISO code, e.g. UA")
    )
    plays_go = models.BooleanField(_("plays Go"), default=False)
    plays_chess = models.BooleanField(_("plays chess"), default=False)
    plays_reversi = models.BooleanField(_("plays Reversi"), default=False)
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="administered_clubs",
        verbose_name=_("admins"),
    )
    website = models.URLField(_("website"), blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_detail", args=[self.slug])

    @property
    def games(self) -> list[str]:
        flags = [
            (GameKind.GO, self.plays_go),
            (GameKind.CHESS, self.plays_chess),
            (GameKind.REVERSI, self.plays_reversi),
        ]
        return [kind for kind, plays in flags if plays]


class Member(models.Model):
    class Sex(models.TextChoices):
        FEMALE = "f", _("female")
        MALE = "m", _("male")

    family_name = models.CharField(_("family name"), max_length=100)
    given_name = models.CharField(_("given name"), max_length=100, blank=True)
    native_name = models.CharField(_("name in native script"), max_length=200, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"),
        null=True,
        blank=True,
        help_text=_("When only the year is known (ages then count from 1 July)."),
    )
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("club"),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="member",
        verbose_name=_("user account"),
    )
    egd_pin = models.CharField(_("EGD PIN"), max_length=12, blank=True)
    fide_id = models.CharField(_("FIDE ID"), max_length=12, blank=True)
    fide_rating = models.PositiveSmallIntegerField(_("FIDE rating"), null=True, blank=True)
    fide_title = models.CharField(_("FIDE title"), max_length=3, blank=True)
    federation = models.CharField(
        _("federation"), max_length=3, blank=True, help_text=_("FIDE three-letter code, e.g. UKR")
    )
    national_id = models.CharField(_("national id"), max_length=30, blank=True)
    # The id a results file or script gave him (e.g. a JSON event's player id), for re-imports.
    import_key = models.CharField(_("import key"), max_length=60, blank=True)
    grade = GradeField(_("declared Go grade"), null=True, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    # Every change: who, when, the values before and after, and why (the table or form).
    history = HistoricalRecords(
        excluded_fields=["email", "phone"], history_change_reason_field=models.TextField(null=True)
    )

    class Meta:
        ordering = ["family_name", "given_name"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(
                fields=["egd_pin"], condition=~Q(egd_pin=""), name="member_unique_egd_pin"
            ),
            models.UniqueConstraint(
                fields=["fide_id"], condition=~Q(fide_id=""), name="member_unique_fide_id"
            ),
            models.UniqueConstraint(
                fields=["import_key"], condition=~Q(import_key=""), name="member_unique_import_key"
            ),
            models.CheckConstraint(
                condition=Q(grade__isnull=True) | Q(grade__gte=-29, grade__lte=18),
                name="member_grade_in_scale",
            ),
        ]
        indexes = [models.Index(fields=["family_name", "given_name"])]

    def __str__(self) -> str:
        return self.full_name

    def get_absolute_url(self) -> str:
        return reverse("player_detail", args=[self.pk])

    @property
    def full_name(self) -> str:
        return f"{self.given_name} {self.family_name}".strip()


class FideRating(models.Model):
    """A member's FIDE rating and the day it became valid (issue 20: ORR seeds a newcomer
    with the rating valid when the tournament started, not with today's)."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="fide_ratings")
    rating = models.PositiveSmallIntegerField(_("FIDE rating"))
    valid_from = models.DateField(_("valid from"))

    class Meta:
        ordering = ["member", "valid_from"]
        verbose_name = _("FIDE rating")
        verbose_name_plural = _("FIDE ratings")
        constraints = [
            models.UniqueConstraint(fields=["member", "valid_from"], name="fide_rating_once_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.rating} from {self.valid_from}"


class Profile(models.Model):
    """A user's own settings: the language his mail is written in and the mail he wants.
    Created on first save of "my profile"; a user without one gets the defaults
    (`clubsite.selectors.profile_for_user`)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    language = models.CharField(
        _("language of e-mail"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Empty: the site's default language."),
    )
    mail_submitted = models.BooleanField(
        _("a table is submitted to a list I referee"), default=True
    )
    mail_approved = models.BooleanField(_("my club's table is approved"), default=True)
    mail_rejected = models.BooleanField(_("my club's table is rejected"), default=True)
    mail_reopened = models.BooleanField(_("my club's table is reopened"), default=True)
    # Issue 55: a club's note on a table reaches its lists' referees, a referee's the club.
    mail_note = models.BooleanField(_("a note in a table's conversation"), default=True)
    # A player asks for these himself: off until he does.
    mail_rating = models.BooleanField(_("my rating changes"), default=False)

    class DateStyle(models.TextChoices):
        LANGUAGE = "", _("the language's own (in English: 08/10/2026, 8 October 2026)")
        US = "us", _("American on English pages (10/08/2026, October 8, 2026)")

    # English pages write British dates; a user may ask for the US order (issue 55).
    date_style = models.CharField(
        _("dates"), max_length=4, choices=DateStyle.choices, blank=True, default=""
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return f"profile of {self.user}"


class MemberClaim(models.Model):
    """A signed-in user's "this is me" about a member (issue 56): pending until the
    member's club admin (or staff) confirms it, which links the account to the member, or
    refuses it."""

    class State(models.TextChoices):
        PENDING = "pending", _("waiting for confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        REFUSED = "refused", _("refused")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="member_claims"
    )
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="claims")
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("\u201cthis is me\u201d request")
        verbose_name_plural = _("\u201cthis is me\u201d requests")
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(state="pending"), name="claim_one_pending_per_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.member}? ({self.state})"


class Registrar(models.Model):
    """A keeper of members' identities (issue 54, docs/authority.md): he accepts or declines
    what others propose about them, merges two records of one person and undoes a merge.
    His scope is the members of one country (ISO code, the member's or his club's) or of
    one federation (FIDE code); both empty: the whole site."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="registrar_scopes",
        verbose_name=_("user"),
    )
    country = models.CharField(
        _("country"), max_length=2, blank=True, help_text=_("ISO code, e.g. UA; empty: any")
    )
    federation = models.CharField(
        _("federation"), max_length=3, blank=True, help_text=_("FIDE code, e.g. UKR; empty: any")
    )

    class Meta:
        verbose_name = _("registrar")
        verbose_name_plural = _("registrars")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "country", "federation"], name="registrar_scope_once"
            )
        ]

    def __str__(self) -> str:
        scope = " ".join(part for part in (self.country, self.federation) if part)
        return f"{self.user}: {scope or _('whole site')}"


class MemberMerge(models.Model):
    """Two records of one person made one by a registrar (issue 54): who, when, and all a
    registrar needs to undo it (`ratings.merging`). By ids, not keys: either member may be
    merged again later."""

    kept_id = models.PositiveIntegerField(_("kept member"), db_index=True)
    dropped_id = models.PositiveIntegerField(_("dropped member"), db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    # The dropped record, the values the kept one took, and the ids of every row moved.
    record = models.JSONField(default=dict)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-at"]
        verbose_name = _("merge of members")
        verbose_name_plural = _("merges of members")

    def __str__(self) -> str:
        return f"#{self.dropped_id} into #{self.kept_id}"


class MergeRequest(models.Model):
    """Someone who may not merge (a referee, a club admin) asks a registrar to (issue 54)."""

    keep = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    drop = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at"]
        verbose_name = _("merge request")
        verbose_name_plural = _("merge requests")
        constraints = [models.UniqueConstraint(fields=["keep", "drop"], name="merge_request_once")]

    def __str__(self) -> str:
        return f"{self.drop} into {self.keep}"
