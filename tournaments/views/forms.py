"""Forms of the club-admin pages: a tournament, its players, one round's boards, an import.

The rating lists a table goes to are chosen on the ratings app's subclasses of the
tournament and upload forms (`tournaments.views.list_forms`).
"""

from __future__ import annotations

import datetime as dt
from pathlib import PurePath
from typing import Any

from django import forms
from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from clubsite.fields import GradeFormField
from clubsite.input_checks import is_country, name_problem
from clubsite.models import Club, GameKind, Member
from clubsite.views.choice_fields import IdModelChoiceField
from tournaments.formats import FORMATS, guess_format
from tournaments.formats.bounds import MAX_YEAR, MIN_YEAR
from tournaments.models import Game, Tournament

# The formats' titles as the upload form shows them, translated (the parsers' own titles
# in `tournaments.formats` are English data).
FORMAT_TITLES = {
    "egd": _("EGD tournament table (.h9, .txt)"),
    "trf16": _("FIDE TRF16"),
    "trf26": _("FIDE TRF26"),
    "csv": _("CSV games"),
    "json": _("JSON (engine contract)"),
}
DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
# EGD tables are named after their handicap rule: .h1 … .h9 (h9 the usual one).
EGD_EXTENSIONS = tuple(f".h{n}" for n in range(1, 10))
UPLOAD_EXTENSIONS = (*EGD_EXTENSIONS, ".txt", ".trf", ".trfx", ".csv", ".json")
UPLOAD_EXTENSIONS_RE = r"^\.h\d$"


def checked_country(value: str | None) -> str:
    """The typed country upper-cased; a ValidationError unless it is a known code ("ZZ" and
    "1<" were saved as countries)."""
    code = (value or "").strip().upper()
    if code and not is_country(code):
        raise forms.ValidationError(
            _("%(code)s is not a country code (ISO 3166, e.g. UA)."), params={"code": code}
        )
    return code


def checked_name(value: str | None) -> str:
    """A name as typed, unless it holds a control character (CR, LF, NUL...) or an invisible
    direction mark (a right-to-left override reverses how it shows in every list)."""
    value = value or ""
    if name_problem(value) is not None:
        raise forms.ValidationError(
            _("A name cannot contain line breaks, control characters or direction marks.")
        )
    return value


class TournamentForm(forms.ModelForm):
    """The tournament's details."""

    class Meta:
        model = Tournament
        fields = [
            "name", "organiser", "city", "country", "start_date", "end_date", "game",
            "board_size", "rounds", "basic_time_minutes", "overtime_kind", "overtime_seconds",
            "overtime_moves", "tournament_class", "official", "handicap_rule", "komi",
            "host", "host_external", "host_name",
        ]  # fmt: skip
        widgets = {"start_date": DATE_INPUT, "end_date": DATE_INPUT}

    # Who held it (issue 55): the entering club, another club he administers (staff: any
    # club), or an external organiser by name. Crediting a club needs its admins.
    held_by = forms.ChoiceField(label=_("Organised by"), required=False)

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["organiser"].queryset = clubs
        self.fields["organiser"].empty_label = None
        hosts = clubs
        if self.instance.host_id:  # kept as it is, though another club's (an import's)
            hosts = clubs | Club.objects.filter(pk=self.instance.host_id)
        self.fields["held_by"].choices = [
            ("", _("the club entering it")),
            *((str(c.pk), c.name) for c in hosts.distinct().order_by("name")),
            ("external", _("an external organiser (write its name)")),
        ]
        if self.instance.host_external:
            self.initial["held_by"] = "external"
        elif self.instance.host_id:
            self.initial["held_by"] = str(self.instance.host_id)
        self.fields["host"].queryset = hosts
        self.fields["host_name"].widget.attrs["maxlength"] = 200
        self.fields["rounds"].widget.attrs.update(min=1, max=30)
        # A real initial value, not a grey placeholder that looks filled in but saves empty.
        self.fields["country"].widget.attrs.update(maxlength=2)
        if not self.instance.pk and "country" not in self.initial:
            first = clubs.first()
            self.initial["country"] = first.country if first else ""
        for name in ("basic_time_minutes", "overtime_kind", "overtime_seconds", "overtime_moves"):
            self.fields[name].widget.attrs["data-time-control"] = name
        self.fields["handicap_rule"].help_text = _(
            "hN: the stones are the difference of the two grades minus N (at most 9). h9: "
            "even games whatever the grades; h2: a 5k playing a 1k gets 4 − 2 = 2 stones. "
            "Empty: even games."
        )

    def clean_country(self) -> str:
        return checked_country(self.cleaned_data.get("country"))

    def clean_name(self) -> str:
        return checked_name(self.cleaned_data.get("name"))

    def clean_city(self) -> str:
        return checked_name(self.cleaned_data.get("city"))

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        if not 1 <= rounds <= 30:
            raise forms.ValidationError(_("A tournament has 1 to 30 rounds."))
        if self.instance.pk:
            played = self.instance.games.filter(round__gt=rounds).exists()
            if played:
                raise forms.ValidationError(
                    _("Games are entered in later rounds; clear them first.")
                )
        return rounds

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The tournament cannot end before it starts."))
        for name in ("start_date", "end_date"):  # a year like 9999 broke the lists' recompute
            day = data.get(name)
            if day and not MIN_YEAR <= day.year <= MAX_YEAR:
                self.add_error(
                    name,
                    _("A date between %(low)d and %(high)d, please.")
                    % {"low": MIN_YEAR, "high": MAX_YEAR},
                )
        follow_the_game(self, data)
        self._clean_held_by(data)
        return data

    def _clean_held_by(self, data: dict[str, Any]) -> None:
        held = data.get("held_by") or ""
        valid = dict(self.fields["held_by"].choices)
        if held not in valid:
            self.add_error("held_by", _("Choose who organised it from the list."))
            return
        external = held == "external"
        host = self.fields["host"].queryset.filter(pk=held).first() if held.isdigit() else None
        data["host"] = None if host == data.get("organiser") else host
        data["host_external"] = external
        data["host_name"] = (data.get("host_name") or "").strip() if external else ""
        if external and not data["host_name"]:
            self.add_error("host_name", _("Write the external organiser's name."))


# Go's own fields and time controls; the form hides them for chess and Reversi.
GO_ONLY_DEFAULTS = {"board_size": 19, "komi": None, "handicap_rule": "", "overtime_moves": 1}
GO_OVERTIMES = (Tournament.Overtime.BYOYOMI, Tournament.Overtime.CANADIAN)


def follow_the_game(form: forms.ModelForm, data: dict[str, Any]) -> None:
    """Chess and Reversi have no board size, komi or handicap rule, and no byo-yomi."""
    if data.get("game") in (None, GameKind.GO):
        return
    data.update(GO_ONLY_DEFAULTS)
    if data.get("overtime_kind") in GO_OVERTIMES:
        form.add_error(
            "overtime_kind",
            _("Byo-yomi is a Go time control; choose sudden death or a Fischer increment."),
        )


class MemberSearchForm(forms.Form):
    q = forms.CharField(label=_("Find a member"), max_length=100, required=False)


class MemberCreateForm(forms.ModelForm):
    """A new member created inline while adding players."""

    grade = GradeFormField(label=_("Grade"), required=False)

    class Meta:
        model = Member
        fields = ["given_name", "family_name", "birth_date", "grade", "club", "country"]
        widgets = {"birth_date": DATE_INPUT}

    def __init__(self, *args: Any, clubs: QuerySet[Club] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only the clubs he administers: another club's roster is its admins' to grow.
        self.fields["club"].queryset = (clubs if clubs is not None else Club.objects).order_by(
            "name"
        )
        self.fields["club"].empty_label = _("— no club")
        self.fields["country"].widget.attrs.update(maxlength=2, placeholder="UA")
        self.fields["country"].help_text = _("ISO code; the club's country if left empty.")

    def clean_country(self) -> str:
        return checked_country(self.cleaned_data.get("country"))

    def clean_given_name(self) -> str:
        return checked_name(self.cleaned_data.get("given_name"))

    def clean_family_name(self) -> str:
        return checked_name(self.cleaned_data.get("family_name"))


class MemberIdentityForm(forms.ModelForm):
    """A member's identity data: saved by his club's admins, proposed by anyone else. His
    name only his club's admins correct (`names`): a name is not proposed."""

    grade = GradeFormField(label=_("Grade"), required=False)
    NAMES = ("family_name", "given_name", "native_name")

    class Meta:
        model = Member
        fields = ["family_name", "given_name", "native_name", "fide_id", "egd_pin",
                  "fide_title", "federation", "birth_year", "grade", "club"]  # fmt: skip

    def __init__(self, *args: Any, names: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.NAMES:
            # A post without the field (an older form, a script) leaves the name alone.
            if not names or (self.is_bound and name not in self.data):
                del self.fields[name]
        self.fields["club"].queryset = Club.objects.order_by("name")
        self.fields["club"].empty_label = _("— no club")
        self.fields["birth_year"].widget.attrs.update(min=1900, max=2100)

    def clean_federation(self) -> str:
        return (self.cleaned_data.get("federation") or "").upper()

    def _post_clean(self) -> None:
        """The uniqueness of PINs and FIDE IDs is the service's check (a proposal may name
        an ID another member holds; the referee sees it)."""

    def changes(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.changed_data}

    def renames(self) -> bool:
        return any(name in self.changed_data for name in self.NAMES)


class RoundBoardForm(forms.Form):
    """One board of a round: who played whom, with which colour, handicap and result."""

    white = IdModelChoiceField(label=_("White"), queryset=Member.objects.none(), required=False)
    black = IdModelChoiceField(label=_("Black"), queryset=Member.objects.none(), required=False)
    kind = forms.ChoiceField(label=_("Game"), choices=Game.Kind.choices, initial="played")
    result = forms.ChoiceField(
        label=_("Result"), choices=[("", "—"), *Game.Result.choices], required=False
    )
    handicap = forms.IntegerField(label=_("Handicap"), min_value=0, max_value=9, initial=0)
    colour = forms.ChoiceField(
        label=_("Colour"),
        choices=[("recorded", _("as entered")), ("unknown", _("colour not recorded"))],
        initial="recorded",
        required=False,
    )

    def __init__(self, *args: Any, members: QuerySet[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["white"].queryset = members
        self.fields["black"].queryset = members
        self.fields["white"].empty_label = "—"
        self.fields["black"].empty_label = _("— (bye)")
        self.fields["handicap"].widget.attrs.update(min=0, max=9)
        for name, field in self.fields.items():
            css = (
                "form-control form-control-sm w-handicap"
                if name == "handicap"
                else "form-select form-select-sm"
            )
            field.widget.attrs["class"] = css

    def add_error(self, field: str | None, error: Any) -> None:
        super().add_error(field, error)
        for name in self.errors:
            widget = self.fields[name].widget if name in self.fields else None
            if widget is not None and "is-invalid" not in widget.attrs.get("class", ""):
                widget.attrs["class"] = widget.attrs.get("class", "") + " is-invalid"

    @property
    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", {})
        return not data.get("white") and not data.get("black")


class BaseRoundFormSet(forms.BaseFormSet):
    """Every board of one round; errors land on the field they are about."""

    def __init__(self, *args: Any, members: QuerySet[Member], **kwargs: Any) -> None:
        self.members = members
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {"members": self.members}

    @property
    def empty_form(self) -> forms.Form:
        form = self.form(
            auto_id=self.auto_id,
            prefix=self.add_prefix("__prefix__"),
            empty_permitted=True,
            use_required_attribute=False,
            members=self.members,
            renderer=self.renderer,
        )
        self.add_fields(form, None)
        return form

    def clean(self) -> None:
        """The round's checks run on every board, even one with a field error elsewhere,
        so the admin sees every problem in one pass. A check about a field that already
        has an error (not a member of this tournament, handicap 12) is left out."""
        seen: dict[int, int] = {}
        for number, form in enumerate(self.forms, start=1):
            data = getattr(form, "cleaned_data", None) or {}
            failed = set(form.errors)
            if (not data and not failed) or (form.is_blank and not failed & {"white", "black"}):
                continue
            white, black, kind = data.get("white"), data.get("black"), data.get("kind")
            is_bye = kind in Game.BYES
            if white is None:
                if "white" not in failed:
                    form.add_error("white", _("Choose the player."))
                continue
            if "kind" in failed:
                continue
            if black is not None and black.pk == white.pk:
                form.add_error(
                    "black", _("%(name)s cannot play against themselves.") % {"name": white}
                )
            for field, player in (("white", white), ("black", black)):
                if player is None:
                    continue
                if player.pk in seen and not (field == "black" and black.pk == white.pk):
                    form.add_error(
                        field,
                        _("%(name)s already plays on board %(board)d.")
                        % {"name": player, "board": seen[player.pk]},
                    )
                seen.setdefault(player.pk, number)
            if is_bye and black is not None:
                form.add_error("black", _("A bye has no opponent."))
            if not is_bye and black is None and "black" not in failed:
                form.add_error("black", _("Choose the opponent, or mark a bye."))
            if not is_bye and not data.get("result") and "result" not in failed:
                form.add_error("result", _("Choose a result."))
            if kind == Game.Kind.FORFEIT and data.get("result") == Game.Result.DRAW:
                form.add_error("result", _("A forfeit has a winner."))

    def boards(self) -> list[dict[str, Any]]:
        """The filled boards' cleaned data, in order."""
        return [f.cleaned_data for f in self.forms if f.cleaned_data and not f.is_blank]


RoundFormSet = forms.formset_factory(
    RoundBoardForm, formset=BaseRoundFormSet, extra=0, max_num=200, absolute_max=400
)


class DecisionCommentForm(forms.Form):
    comment = forms.CharField(
        label=_("Comment"), widget=forms.Textarea(attrs={"rows": 3}), required=False,
        max_length=2000,
    )  # fmt: skip


class ResultsUploadForm(forms.Form):
    """A results file, bounded in size and type, and its organiser."""

    file = forms.FileField(
        label=_("Results file"),
        help_text=_("EGD table (.h9, .txt), FIDE TRF (.trf), CSV games (.csv) or JSON."),
    )
    fmt = forms.ChoiceField(label=_("Format"), required=False)
    organiser = IdModelChoiceField(
        label=_("Entered by"),
        queryset=Club.objects.none(),
        help_text=_("Your club, whose admins answer for the table."),
    )
    held_by = forms.ChoiceField(
        label=_("Organised by"),
        required=False,
        help_text=_(
            "Who held the tournament: the club entering it, another club you administer, or "
            "none here."
        ),
    )

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["held_by"].choices = [
            ("", _("the club entering it")),
            ("external", _("no club here (an external organiser)")),
        ] + [(str(c.pk), c.name) for c in clubs.order_by("name")]  # no club's name without it
        self.fields["fmt"].choices = [("", _("from the file name"))] + [
            (code, FORMAT_TITLES.get(code, spec.title)) for code, spec in FORMATS.items()
        ]
        self.fields["organiser"].queryset = clubs
        self.fields["organiser"].empty_label = None
        self.fields["file"].widget.attrs["accept"] = ",".join(UPLOAD_EXTENSIONS)

    def clean_held_by(self) -> Club | str | None:
        """None: the entering club; "external"; or the club that held it."""
        value = self.cleaned_data.get("held_by") or ""
        if value == "external":
            return "external"
        return Club.objects.filter(pk=int(value)).first() if value.isdigit() else None

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        limit = settings.RESULTS_UPLOAD_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                _("The file is larger than %(kb)d kB.") % {"kb": limit // 1024}
            )
        name = PurePath(upload.name or "").name
        if guess_format(name) is None:
            raise forms.ValidationError(_("Upload an .h9, .txt, .trf, .csv or .json results file."))
        return upload


# The encodings an upload may be read in (`tournaments.formats.encoding.ENCODINGS`).
ENCODING_TITLES = {
    "utf-8": "UTF-8",
    "iso8859_15": _("ISO-8859-15 (Western European)"),
    "cp1252": _("Windows-1252 (Western European)"),
    "cp1250": _("Windows-1250 (Central European)"),
    "iso8859_2": _("ISO-8859-2 (Central European)"),
    "cp1251": _("Windows-1251 (Cyrillic)"),
    "koi8_u": _("KOI8-U (Ukrainian)"),
    "koi8_r": _("KOI8-R (Russian)"),
    "cp866": _("DOS 866 (Cyrillic)"),
}


class ImportConfirmForm(forms.Form):
    """Save the previewed file: as a draft or straight to the referee; the dates where
    the file gives none it can read for certain, and the encoding to read it in."""

    token = forms.CharField(widget=forms.HiddenInput, max_length=64)
    status = forms.ChoiceField(
        label=_("Save as"),
        choices=[
            (Tournament.Status.DRAFT, _("a draft I check first")),
            (Tournament.Status.SUBMITTED, _("submitted to the referee")),
        ],
        initial=Tournament.Status.DRAFT,
        widget=forms.RadioSelect,
    )
    encoding = forms.ChoiceField(
        label=_("Read the file as"), choices=list(ENCODING_TITLES.items()), required=False
    )
    start_date = forms.DateField(label=_("Start date"), required=False, widget=DATE_INPUT)
    end_date = forms.DateField(label=_("End date"), required=False, widget=DATE_INPUT)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        for name, day in (("start_date", start), ("end_date", end)):
            if day and not MIN_YEAR <= day.year <= MAX_YEAR:
                self.add_error(
                    name,
                    _("A date between %(low)d and %(high)d, please.")
                    % {"low": MIN_YEAR, "high": MAX_YEAR},
                )
        if end and not start:
            self.add_error("start_date", _("Give the start date too."))
        elif start and end and end < start:
            self.add_error("end_date", _("The tournament cannot end before it starts."))
        return data

    def dates(self) -> tuple[dt.date, dt.date] | None:
        """The dates the admin gave (a one-day event: the start alone), once valid."""
        start = self.cleaned_data.get("start_date")
        if start is None:
            return None
        return start, self.cleaned_data.get("end_date") or start
