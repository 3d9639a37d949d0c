"""Forms of the public site: the calculator and a player's own contact details."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.models import GameKind, Profile
from clubsite.player_search import MAX_CANDIDATES, player_find


class CalculatorForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=GameKind.choices, initial=GameKind.GO)
    a = forms.CharField(
        label=_("Player A (white): name or number"), required=False, max_length=100,
        help_text=_("Type a name (or part of it), or the number in the player's page "
                    "address: 42 in /players/42/."),
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )  # fmt: skip
    rating_a = forms.FloatField(
        label=_("or A's rating"), required=False, min_value=-10000, max_value=10000
    )
    b = forms.CharField(
        label=_("Player B (black): name or number"), required=False, max_length=100,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )  # fmt: skip
    rating_b = forms.FloatField(
        label=_("or B's rating"), required=False, min_value=-10000, max_value=10000
    )
    handicap = forms.IntegerField(
        label=_("Handicap stones (B takes them)"), min_value=0, max_value=9, initial=0,
        required=False,
    )  # fmt: skip

    def _player(self, side: str) -> int | None:
        text = self.cleaned_data.get(side) or ""
        if not text.strip():
            return None
        found = player_find(text)
        if found.member is not None:
            return found.member.pk
        if found.number is not None:
            raise forms.ValidationError(
                _("No player has the number %(n)d."), params={"n": found.number}, code="unknown"
            )
        if not found.candidates:
            raise forms.ValidationError(
                _("Nobody is called %(name)s."), params={"name": text}, code="unknown"
            )
        names = ", ".join(f"{m.full_name} ({m.pk})" for m in found.candidates[:MAX_CANDIDATES])
        raise forms.ValidationError(
            _("Several players match: %(names)s. Type more of the name, or the number."),
            params={"names": names}, code="ambiguous",
        )  # fmt: skip

    def clean_a(self) -> int | None:
        return self._player("a")

    def clean_b(self) -> int | None:
        return self._player("b")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for side in ("a", "b"):
            if side in self.errors:
                continue
            if data.get(side) is None and data.get(f"rating_{side}") is None:
                self.add_error(f"rating_{side}", _("Give a player or a rating."))
        return data


class ContactForm(forms.Form):
    """The account's e-mail (where a password reset goes) and, for a player, his phone."""

    email = forms.EmailField(
        label=_("e-mail"), required=False, max_length=254,
        help_text=_("Password reset links are sent here."),
    )  # fmt: skip
    phone = forms.CharField(label=_("phone"), required=False, max_length=40)

    def __init__(self, *args: Any, with_phone: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not with_phone:
            del self.fields["phone"]


class DateSettingsForm(forms.ModelForm):
    """How dates are written on English pages."""

    class Meta:
        model = Profile
        fields = ["date_style"]


class MailSettingsForm(forms.ModelForm):
    """The language of the user's e-mail and which kinds he gets."""

    class Meta:
        model = Profile
        fields = [
            "language",
            "mail_submitted",
            "mail_approved",
            "mail_rejected",
            "mail_reopened",
            "mail_note",
            "mail_rating",
        ]
