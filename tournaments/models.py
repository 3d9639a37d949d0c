"""Tournaments, their participants and games, and the approval workflow's record."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubsite.fields import GradeField
from clubsite.models import Club, GameKind, Member

# Game kinds without an opponent (the DB constraint lists them; `Game.BYES` too).
BYE_KINDS = ["bye_full", "bye_half", "bye_zero", "bye_pairing"]
CLASS_WEIGHTS = {"A": Decimal("1.00"), "B": Decimal("0.75"), "C": Decimal("0.50")}


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        SUBMITTED = "submitted", _("waiting for a referee")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    class Klass(models.TextChoices):
        A = "A", _("A (weight 1.00)")
        B = "B", _("B (weight 0.75)")
        C = "C", _("C (weight 0.50)")

    class Overtime(models.TextChoices):
        SUDDEN_DEATH = "sudden_death", _("sudden death")
        BYOYOMI = "byoyomi", _("Japanese byoyomi")
        CANADIAN = "canadian", _("Canadian byoyomi")
        FISCHER = "fischer", _("Fischer increment")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=100, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    game = models.CharField(_("game"), max_length=10, choices=GameKind.choices, default=GameKind.GO)
    board_size = models.PositiveSmallIntegerField(
        _("board size"), choices=[(19, "19×19"), (13, "13×13"), (9, "9×9")], default=19
    )
    tournament_class = models.CharField(
        _("class"), max_length=1, choices=Klass.choices, default=Klass.A
    )
    # Minutes exactly as given (29.5 stays 29.5): every threshold compares them unrounded.
    basic_time_minutes = models.DecimalField(
        _("basic time (minutes)"),
        max_digits=7,
        decimal_places=2,
        default=60,
        validators=[MinValueValidator(0)],
    )
    overtime_kind = models.CharField(
        _("overtime"), max_length=16, choices=Overtime.choices, default=Overtime.BYOYOMI
    )
    overtime_seconds = models.PositiveIntegerField(
        _("overtime seconds"),
        default=30,
        help_text=_(
            "Byoyomi: seconds per period; Canadian: seconds per block; Fischer: increment."
        ),
    )
    overtime_moves = models.PositiveSmallIntegerField(_("moves per Canadian block"), default=1)
    # A results file that says nothing readable about time (issue 53): no time-control
    # rule blocks rating, the referee is warned, the export writes no time control.
    time_control_known = models.BooleanField(_("time control known"), default=True)
    time_control_text = models.CharField(
        _("time control as written"),
        max_length=200,
        blank=True,
        help_text=_(
            "The results file's own words (TRF 122, EGD TM[…]); the export writes them back."
        ),
    )
    official = models.BooleanField(_("official (UFGO K3)"), default=True)
    handicap_rule = models.CharField(
        _("handicap rule"),
        max_length=10,
        blank=True,
        help_text=_("e.g. h9, h2; empty for even games"),
    )
    komi = models.DecimalField(_("komi"), max_digits=4, decimal_places=1, null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=5)
    participants_declared = models.PositiveIntegerField(
        _("number of participants"),
        null=True,
        blank=True,
        help_text=_(
            "The tournament's total number of participants when the results file lists only "
            "some of them (JSON event.participants, TRF record 062); ORR's Kt uses it (B.2)."
        ),
    )
    participants_declared_below_listed = models.PositiveIntegerField(
        _("number of participants declared below the players listed"),
        null=True,
        blank=True,
        help_text=_(
            "The number of participants the results file declared when it is below the "
            "players it lists: a contradiction the referee sees; the listed count is used "
            "(orr.md Part D)."
        ),
    )
    comment = models.TextField(
        _("comment"), blank=True, help_text=_("The results file's comment (EGD CM[…]).")
    )
    adjusted_minutes = models.DecimalField(
        _("adjusted time (minutes)"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("The EGD file's TM[…] as written; the export gives it when set."),
    )
    federation = models.CharField(
        _("federation"),
        max_length=100,
        blank=True,
        help_text=_("TRF record 032 as written: a FIDE code, or e.g. Lichess."),
    )
    # EGD CL[D] (online) and CL[X] (unrated): imported, never rated, written back as such.
    file_class = models.CharField(
        _("class in the results file"),
        max_length=1,
        blank=True,
        choices=[("D", _("D (online, not rated)")), ("X", _("X (not rated)"))],
    )
    chief_arbiter = models.CharField(_("chief arbiter"), max_length=200, blank=True)
    tournament_type = models.CharField(
        _("tournament type"), max_length=200, blank=True, help_text=_("TRF record 092.")
    )
    code = models.CharField(
        _("results file code"),
        max_length=200,
        blank=True,
        db_index=True,
        help_text=_(
            "The code an imported results file gives the tournament (EGD TC[…]), as written."
        ),
    )
    organiser = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("organiser")
    )
    # Who held it, when that is not the club that enters the table (an imported file's
    # event): another club, or nobody of ours (`host_external`). Empty: the organiser.
    host = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="hosted_tournaments",
        verbose_name=_("organised by"),
    )
    host_external = models.BooleanField(_("organised by no club here"), default=False)
    # The external organiser as the admin wrote it (issue 55); shown, never a club here.
    host_name = models.CharField(_("external organiser"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT, db_index=True
    )
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("referee"),
    )
    decision_comment = models.TextField(_("referee's comment"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-end_date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")), name="tournament_dates_in_order"
            ),
            models.CheckConstraint(
                condition=Q(board_size__in=[9, 13, 19]), name="tournament_board_size_known"
            ),
            models.CheckConstraint(
                condition=Q(tournament_class__in=["A", "B", "C"]), name="tournament_class_known"
            ),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="tournament_has_rounds"),
        ]
        indexes = [
            models.Index(fields=["status", "end_date"]),
            # The public list's order (newest first): a page is read in order, not sorted.
            models.Index(fields=["-end_date", "-id"], name="tournament_newest_first"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", args=[self.pk])

    def clean(self) -> None:
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValidationError({"end_date": _("The tournament cannot end before it starts.")})

    @property
    def organised_by(self) -> Club | None:
        """The club that held it; None when it was held by nobody of ours."""
        if self.host_external:
            return None
        return self.host if self.host_id else self.organiser

    @property
    def class_weight(self) -> Decimal:
        return CLASS_WEIGHTS[self.tournament_class]

    @property
    def is_locked(self) -> bool:
        """Approved and submitted tables are not edited; reopening records a new draft."""
        return self.status in (self.Status.SUBMITTED, self.Status.APPROVED)


class Participant(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="participants"
    )
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="participations")
    grade = GradeField(_("grade professed"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    team = models.CharField(_("team"), max_length=100, blank=True)
    rating_declared = models.FloatField(
        _("rating declared"),
        null=True,
        blank=True,
        help_text=_("A rating the player brought from elsewhere (e.g. FIDE, from a TRF file)."),
    )

    class Meta:
        ordering = ["place", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "member"], name="participant_once"),
        ]

    def __str__(self) -> str:
        return f"{self.member} @ {self.tournament}"


class TournamentCounts(models.Model):
    """How many players each tournament has, kept by database triggers on the participants
    (migration 0011), so that the public list shows and sorts by it without counting
    every tournament's entrants on each request (~100 ms at EGD scale). A table of its
    own: no `Tournament.save()` from a stale instance can overwrite it."""

    tournament = models.OneToOneField(
        Tournament,
        primary_key=True,
        on_delete=models.DO_NOTHING,  # the triggers delete the row with its tournament
        db_constraint=False,
        related_name="counts",
    )
    players = models.IntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.players} players"


class Game(models.Model):
    class Result(models.TextChoices):
        WHITE = "white", _("White won")
        BLACK = "black", _("Black won")
        DRAW = "draw", _("draw / jigo")

    class Kind(models.TextChoices):
        PLAYED = "played", _("played")
        UNRATED = "unrated", _("played, not rated")
        FORFEIT = "forfeit", _("won by forfeit")
        BYE_FULL = "bye_full", _("bye, full point")
        BYE_PAIRING = "bye_pairing", _("bye allocated by the pairing, full point")
        BYE_HALF = "bye_half", _("bye, half point")
        BYE_ZERO = "bye_zero", _("bye, zero")

    BYES = (Kind.BYE_FULL, Kind.BYE_HALF, Kind.BYE_ZERO, Kind.BYE_PAIRING)
    # The points a bye gives.
    BYE_POINTS = {
        Kind.BYE_FULL: 1.0,
        Kind.BYE_PAIRING: 1.0,
        Kind.BYE_HALF: 0.5,
        Kind.BYE_ZERO: 0.0,
    }

    # Indexed with the round (`game_table_order`), not alone.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="games", db_index=False
    )
    round = models.PositiveSmallIntegerField(_("round"))
    white = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="games_as_white")
    black = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="games_as_black",
        null=True,
        blank=True,
        help_text=_("Empty for a bye."),
    )
    result = models.CharField(_("result"), max_length=5, choices=Result.choices, blank=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.PLAYED)
    handicap = models.PositiveSmallIntegerField(
        _("handicap"), default=0, validators=[MinValueValidator(0), MaxValueValidator(9)]
    )
    komi = models.DecimalField(_("komi"), max_digits=4, decimal_places=1, null=True, blank=True)
    # False when the file (or the admin) did not record who had White: kept unknown, and
    # the listed White is then only the first-listed player.
    colours_known = models.BooleanField(_("colours recorded"), default=True)

    class Meta:
        ordering = ["round", "id"]
        indexes = [
            # A table's games in their order, read without a sort: by its page, and by a
            # recompute (a million games streamed table after table, issue 18).
            models.Index(fields=["tournament", "round", "id"], name="game_table_order"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_no_self_play"),
            models.CheckConstraint(condition=Q(round__gte=1), name="game_round_positive"),
            models.CheckConstraint(
                condition=Q(handicap__gte=0, handicap__lte=9), name="game_handicap_0_9"
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind__in=BYE_KINDS, black__isnull=True)
                    | (
                        ~Q(kind__in=BYE_KINDS)
                        & Q(black__isnull=False)
                        & Q(result__in=["white", "black", "draw"])
                    )
                ),
                name="game_bye_has_no_opponent",
            ),
            models.CheckConstraint(
                condition=~Q(kind="forfeit", result="draw"), name="game_forfeit_has_winner"
            ),
        ]

    def __str__(self) -> str:
        if self.black_id is None:
            return f"R{self.round}: {self.white} — {self.get_kind_display()}"
        return f"R{self.round}: {self.white} – {self.black} ({self.result})"

    def clean(self) -> None:
        if self.black_id is not None and self.white_id == self.black_id:
            raise ValidationError(_("A player cannot play against themselves."))

    @property
    def is_rated(self) -> bool:
        return self.kind == self.Kind.PLAYED


class KeptFile(models.Model):
    """The imported EGD or TRF file's lines, each with what the writer made of it then
    (`tournaments.formats.kept_lines`): the export of the same format writes back what the
    application does not use, and every line nothing changed since, as the file had it.
    A table of its own, read only by the export: the pages never load it."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="kept_file"
    )
    layout = models.JSONField(_("the imported file's lines"))

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.layout.get('format', '')}"


class UnenteredGame(models.Model):
    """A played game of someone his table does not enter (his entry removed, or the game
    edited, the games left). Kept by the database itself, by triggers on games and entries
    (migration 0016), so that a recompute can tell whether a year of tables holds one
    without reading their hundred thousand games (issue 18)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, db_constraint=False, related_name="+"
    )
    tournament_id = models.BigIntegerField(db_index=True)

    def __str__(self) -> str:
        return f"game {self.game_id} of tournament {self.tournament_id}"


class RoundSeat(models.Model):
    """One row per player per round, so the database itself refuses a second game in a round."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField()
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "member"], name="seat_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} in round {self.round}"


class TournamentLog(models.Model):
    """What happened to a results table: submitted, approved, rejected, reopened, edited."""

    class Action(models.TextChoices):
        CREATED = "created", _("created")
        SUBMITTED = "submitted", _("submitted")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")
        REOPENED = "reopened", _("reopened")
        IMPORTED = "imported", _("imported")
        WITHDRAWN = "withdrawn", _("withdrawn")
        NOTE = "note", _("note")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="log")
    action = models.CharField(max_length=10, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    comment = models.TextField(blank=True)
    # What the site wrote (not a person): {"lines": [[template, params], ...]}, worded in
    # the reader's language when shown (`tournaments.messages.history_entry`).
    params = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.action}"


class MemberProposal(models.Model):
    """Identity data a table (its file or its admin's form) or a list's baseline says about a
    member whose record is not its author's to change: it waits for the member's club admins
    or a registrar to accept or decline it (issue 54, docs/authority.md); dropped with the
    table if it is abandoned (`tournaments.review.proposals`)."""

    class Decision(models.TextChoices):
        WAITING = "", _("waiting")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    class Field(models.TextChoices):
        FIDE_ID = "fide_id", _("FIDE ID")
        EGD_PIN = "egd_pin", _("EGD PIN")
        FIDE_TITLE = "fide_title", _("FIDE title")
        FEDERATION = "federation", _("federation")
        BIRTH_YEAR = "birth_year", _("birth year")
        GRADE = "grade", _("declared Go grade")
        CLUB = "club", _("club")
        # Valid from the table's start (issue 20): applied as a dated `FideRating`.
        FIDE_RATING = "fide_rating", _("FIDE rating")

    # None: proposed by a list's baseline (its source names the list).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="proposals", null=True, blank=True
    )
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="proposals")
    field = models.CharField(_("field"), max_length=12, choices=Field.choices)
    # As text: a club by its id, a grade as written ("2k"), a year as digits.
    value = models.CharField(_("proposed value"), max_length=200, blank=True)
    # What the member had when the proposal was applied (before it, his current value).
    previous = models.CharField(_("previous value"), max_length=200, blank=True)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    source = models.CharField(_("source"), max_length=200, blank=True)  # a file's name, "form"
    created_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    # Empty when applied as proposed; else why not (e.g. the FIDE ID is another member's).
    outcome = models.CharField(_("outcome"), max_length=300, blank=True)
    decision = models.CharField(
        _("decision"), max_length=8, choices=Decision.choices, blank=True, default=""
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["member__family_name", "member__given_name", "field"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "member", "field"], name="proposal_once_per_field"
            )
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.field} = {self.value} ({self.tournament})"
