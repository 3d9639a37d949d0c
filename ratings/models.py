"""Rating lists, their live ratings and history, recompute runs and published snapshots.

The math lives in `ratings.systems`; these models only keep what it returned.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubsite.fields import GradeField
from clubsite.models import Club, GameKind, Member
from ratings.systems.registry import SYSTEMS
from tournaments.models import Tournament

# The games each system's rules are written for: the Go systems rate Go only, ORR
# (a chess federation's rules, FIDE-rated newcomers) chess only; USCF's formula is used
# for chess and for Reversi.
SYSTEM_GAMES: dict[str, tuple[str, ...]] = {
    "egf": (GameKind.GO,),
    "ufgo": (GameKind.GO,),
    "rivne": (GameKind.GO,),
    "orr": (GameKind.CHESS,),
    "uscf": (GameKind.CHESS, GameKind.REVERSI),
}


def system_choices() -> list[tuple[str, str]]:
    return [(code, system.title) for code, system in sorted(SYSTEMS.items())]


class RatingList(models.Model):
    class State(models.TextChoices):
        RATED = "rated", _("rated")
        WAITING = "waiting", _("waiting to be rated")
        RECOMPUTING = "recomputing", _("recomputing")
        FAILED = "failed", _("failed")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    system = models.CharField(_("rating system"), max_length=10, choices=system_choices)
    game = models.CharField(_("game"), max_length=10, choices=GameKind.choices, default=GameKind.GO)
    owner_club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rating_lists",
        verbose_name=_("owner club"),
    )
    federation = models.CharField(_("federation"), max_length=120, blank=True)
    # Which clubs may submit tables to the list (`clubsite.authority.list_accepts`).
    submitters = models.CharField(
        _("who may submit"),
        max_length=8,
        choices=[
            ("", _("the owner club only (any club if the list has no owner)")),
            ("all", _("any club")),
            ("named", _("the owner club and the clubs named")),
        ],
        blank=True,
        default="",
    )
    submitting_clubs = models.ManyToManyField(
        Club,
        blank=True,
        related_name="+",
        verbose_name=_("clubs that may submit"),
        help_text=_("With 'the owner club and the clubs named'."),
    )
    description = models.TextField(_("description"), blank=True)
    params = models.JSONField(_("parameter overrides"), default=dict, blank=True)
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="refereed_lists",
        verbose_name=_("referees"),
    )
    tournaments = models.ManyToManyField(
        Tournament, through="ListTournament", related_name="rating_lists", blank=True
    )
    # The recompute queue lives here, in the row the recompute locks: the earliest date
    # whose ratings are stale. Set when a table is approved, cleared by the run that covers it.
    pending_from = models.DateField(null=True, blank=True)
    # Bumped by every request, so a run can tell whether another arrived while it worked.
    pending_version = models.PositiveIntegerField(default=0)
    # Bumped whenever its live entries change (`ratings.recompute.store.entries_changed`):
    # what pages keep of the entries is kept under it (`selectors.list_version_key`).
    entries_version = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=12, choices=State.choices, default=State.RATED)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("rating list")
        verbose_name_plural = _("rating lists")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("rating_list", args=[self.slug])

    def clean(self) -> None:
        if self.system not in SYSTEMS:
            raise ValidationError({"system": _("Unknown rating system.")})
        games = SYSTEM_GAMES.get(self.system, tuple(GameKind.values))
        if self.game not in games:
            names = _(" or ").join(str(GameKind(game).label) for game in games)
            game = GameKind(self.game).label if self.game in GameKind.values else self.game
            raise ValidationError(
                {
                    "game": _("The %(system)s system rates %(games)s only, not %(game)s.")
                    % {"system": self.system, "games": names, "game": game}
                }
            )
        if not isinstance(self.params, dict):
            raise ValidationError({"params": _("Parameters must be a JSON object.")})
        unknown = sorted(set(self.params) - set(SYSTEMS[self.system].params))
        if unknown:
            raise ValidationError({"params": _("Unknown parameters: %s") % ", ".join(unknown)})


class ListTournament(models.Model):
    """A tournament submitted to a rating list, and how that list treated it: each list's
    referee decides for his list (`ratings.submissions.list_approval`)."""

    class Decision(models.TextChoices):
        UNDECIDED = "", _("waiting for the list's referee")
        APPROVED = "approved", _("approved for the list")
        REJECTED = "rejected", _("refused by the list")

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="list_links")
    decision = models.CharField(
        _("decision"), max_length=8, choices=Decision.choices, blank=True, default=""
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("referee"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_comment = models.TextField(_("referee's comment"), blank=True)
    rated_at = models.DateTimeField(null=True, blank=True)
    # Why the list does not rate it (e.g. UFGO: under 45 minutes per player).
    not_rated_reason = models.CharField(max_length=300, blank=True)
    # The EGF class the list rated it at, after the time-control cap (egf.md §8); empty
    # when the list does not weigh by class or has not rated it.
    applied_class = models.CharField(_("class applied"), max_length=1, blank=True)
    # A digest of the table's history rows in the list as the recompute wrote them
    # (ratings.recompute.history_write): a recompute compares the rows of a table row by
    # row only when its digest changed. Null: not known, compared row by row.
    history_digest = models.BigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "tournament"], name="list_tournament_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} in {self.rating_list}"


def rated_since_decided() -> Q:
    """The `ListTournament` rows whose table a recompute rated after the last decision on
    it, the table's as a whole and the list's (a run stamps `rated_at` with the moment it
    read the data: a decision after it is newer than that rating)."""
    return (
        Q(rated_at__isnull=False)
        & (Q(decided_at__isnull=True) | Q(decided_at__lte=F("rated_at")))
        & (Q(tournament__decided_at__isnull=True) | Q(tournament__decided_at__lte=F("rated_at")))
    )


def counted_links() -> Q:
    """The `ListTournament` rows whose table counts in the list: approved for it (or a
    table approved as a whole, before the lists decided one by one, that no list refused)."""
    return Q(decision=ListTournament.Decision.APPROVED) | Q(
        decision=ListTournament.Decision.UNDECIDED, tournament__status=Tournament.Status.APPROVED
    )


class RatingEntry(models.Model):
    """A member's current standing in one list: the last row of his history, kept for fast pages."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="entries")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_entries")
    rating = models.FloatField(null=True)
    rated = models.BooleanField(default=True)
    provisional = models.BooleanField(default=False)
    grade = GradeField(null=True, blank=True)
    best_grade = GradeField(null=True, blank=True)
    tournaments = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True)
    # The last day he still shows in the live list (EGF's inactivity rule); null = always.
    active_until = models.DateField(null=True, blank=True)
    history = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "member"], name="entry_once_per_list")
        ]
        indexes = [
            # A page deep in the list is found in the index alone (PostgreSQL): the rows it
            # walks past are counted and filtered by activity there, not read from the table
            # (the list lowest first at its middle page: 30 -> 16 ms at EGD scale).
            models.Index(
                fields=["rating_list", "-rating"],
                include=["active_until", "id"],
                name="entry_list_rating_covering",
            ),
            # Who is active in a list (`selectors.active_filter`) without reading the rest.
            models.Index(fields=["rating_list", "active_until"], name="entry_list_active"),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.rating} ({self.rating_list})"


# A member's state after a history row, as the recompute reads it from the indexes below
# (with the row's member and date, which are in their keys).
STATE_AFTER_ROW = (
    "after", "provisional", "list_grade", "history", "tournaments_so_far", "games_so_far",
    "best_grade_so_far",
)  # fmt: skip


class RatingHistory(models.Model):
    """One rated tournament of one member in one list: what came in, what the engine said."""

    # No index of their own on these two: the unique key (list, member, tournament) and
    # the indexes below start with them, and every index costs each row a recompute writes.
    rating_list = models.ForeignKey(
        RatingList, on_delete=models.CASCADE, related_name="history", db_index=False
    )
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="rating_history", db_index=False
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rating_history"
    )
    date = models.DateField()
    # Not a running count: a table put in or taken out a year back would renumber every
    # row after it (issue 18: 37,000 rows rewritten for 1,900 that changed).
    sequence = models.PositiveIntegerField(
        help_text=_("Replay order among the tables of one date: the tournament's id.")
    )
    rating_in = models.FloatField(
        null=True, help_text=_("His rating in the list before; null if new.")
    )
    before = models.FloatField(
        null=True, help_text=_("The engine's start (raised by resets, restarts).")
    )
    after = models.FloatField(null=True)
    change = models.FloatField(null=True)
    games_count = models.PositiveSmallIntegerField(default=0)
    rated = models.BooleanField(default=True)
    provisional = models.BooleanField(default=False)
    anomalous = models.BooleanField(default=False)
    reset = models.BooleanField(default=False)
    grade = GradeField(null=True, blank=True, help_text=_("Grade professed at the tournament."))
    list_grade = GradeField(
        null=True, blank=True, help_text=_("Grade the list gives him after it.")
    )
    # His standing after this row, counted over the list (a baseline's counts included):
    # his state before any date is his last row before it, read without summing his
    # history (issue 18: a retroactive insert read every player's whole history).
    tournaments_so_far = models.PositiveIntegerField(default=0)
    games_so_far = models.PositiveIntegerField(default=0)
    best_grade_so_far = GradeField(
        null=True, blank=True, help_text=_("Highest grade professed up to this tournament.")
    )
    history = models.JSONField(null=True, blank=True)
    breakdown = models.JSONField(default=list, blank=True)
    # The EGF class the list rated the tournament at (egf.md §8); empty for other systems.
    klass = models.CharField(_("class applied"), max_length=1, blank=True)
    # What happened to him, in the system's words, when it is not a plain rating change
    # (a UFGO player kept by the time-control rule, a UFGO anomaly restart).
    note = models.CharField(_("note"), max_length=200, blank=True)
    # A digest of the other columns as the recompute wrote them (ratings.recompute.
    # history_write): a recompute rewrites only rows whose digest changed. Null (any row
    # written or edited elsewhere) never matches, so such a row is always rewritten.
    fingerprint = models.BigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["rating_list", "date", "sequence", "member"]  # replay order
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "member", "tournament"], name="history_once"
            ),
            models.CheckConstraint(
                condition=Q(rated=False) | Q(after__isnull=False), name="history_rated_has_after"
            ),
        ]
        indexes = [
            # The replay's reads: the rows from a date on, and each player's state before
            # it, his last row. That state's columns are in the index (PostgreSQL), so the
            # read finds it there, not in the row (a kilobyte, mostly the breakdown).
            # The rows from a date hold, in the index, what the cone reads of them (its
            # table, member, fingerprint and his state after it): a year's 40,000 rows at
            # EGD scale are 470 index pages against 5,800 pages of rows (8 ms against 23
            # in shared buffers, 65 from the system's cache). It also tells which tables
            # have rows from a date.
            models.Index(
                fields=["rating_list", "date", "sequence"],
                include=["tournament_id", "member_id", "fingerprint", *STATE_AFTER_ROW],
                name="history_list_date_rows",
            ),
            models.Index(
                fields=["rating_list", "member", "date", "sequence"],
                include=list(STATE_AFTER_ROW),
                name="history_list_state",
            ),
            models.Index(fields=["member", "date"], name="history_member_date"),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.before} → {self.after} ({self.tournament})"


class RecomputeRun(models.Model):
    class Outcome(models.TextChoices):
        RUNNING = "running", _("running")
        SUCCESS = "success", _("done")
        FAILED = "failed", _("failed")

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="runs")
    trigger = models.CharField(max_length=40)
    from_date = models.DateField(null=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True)
    duration_ms = models.PositiveIntegerField(null=True)
    engine_ms = models.PositiveIntegerField(null=True)
    tournaments = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, default=Outcome.RUNNING)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"{self.rating_list} from {self.from_date}: {self.outcome}"


class PublishedList(models.Model):
    """An immutable snapshot of a list on a date (UFGO publishes quarterly)."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="snapshots")
    date = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "date"], name="snapshot_once_per_date")
        ]

    def __str__(self) -> str:
        return f"{self.rating_list} on {self.date}"


class PublishedEntry(models.Model):
    snapshot = models.ForeignKey(PublishedList, on_delete=models.CASCADE, related_name="entries")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    rating = models.FloatField()
    provisional = models.BooleanField(default=False)
    grade = GradeField(null=True, blank=True)
    tournaments = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True)

    class Meta:
        ordering = ["rank"]
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "member"], name="snapshot_member_once")
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.member} {self.rating}"


class Baseline(models.Model):
    """Where a list starts: a published rating list's state on a date (one per list).

    Each member it names starts the replay from his row; for him, tournaments dated on or
    before `date` stay on record but are not replayed (ratings/recompute/baseline_starts.py)."""

    class Source(models.TextChoices):
        EGD = "egd", _("EGD rating list")
        FIDE = "fide", _("FIDE rating list")
        CSV = "csv", _("CSV rating list")

    rating_list = models.OneToOneField(
        RatingList, on_delete=models.CASCADE, related_name="baseline", verbose_name=_("rating list")
    )
    date = models.DateField(_("date"))
    source = models.CharField(_("format"), max_length=8, choices=Source.choices)
    filename = models.CharField(_("file"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("baseline")
        verbose_name_plural = _("baselines")

    def __str__(self) -> str:
        return f"{self.rating_list} from {self.date}"


class BaselineRow(models.Model):
    """One member's standing in the published list: his rating and what his system carries
    beyond it (EGF: grade, best grade; UFGO: grade, counters; ORR: games counted,
    provisional; USCF: games played, provisional; Rivne: the above-100 flag in `history`)."""

    baseline = models.ForeignKey(Baseline, on_delete=models.CASCADE, related_name="rows")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    rating = models.FloatField()
    provisional = models.BooleanField(default=False)
    grade = GradeField(null=True, blank=True)
    best_grade = GradeField(null=True, blank=True)
    tournaments = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True, blank=True)
    # The engine's carried state, built from the row at import (ORR, Rivne); null: none.
    history = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["baseline", "member"], name="baseline_member_once")
        ]

    def __str__(self) -> str:
        return f"{self.member_id}: {self.rating} ({self.baseline})"
