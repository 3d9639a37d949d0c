"""The club admin's forms with the rating lists a table goes to.

`tournaments.views.forms` has the tournament and upload forms; these subclasses add the list
choice, which only the ratings app knows about.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.views.choice_fields import IdModelChoiceField, IdModelMultipleChoiceField
from ratings.models import RatingList
from ratings.submissions.list_approval import lists_refusing
from tournaments.views.forms import ResultsUploadForm, TournamentForm


class ListCheckboxes(forms.CheckboxSelectMultiple):
    """Each list's box carries the game it rates, so the form shows only the fitting ones."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        instance = getattr(option["value"], "instance", None)
        if instance is not None:
            option["attrs"]["data-game"] = instance.game
        return option


class TournamentListsForm(TournamentForm):
    """The tournament's details and the rating lists its table is submitted to."""

    rating_lists = IdModelMultipleChoiceField(
        label=_("Rating lists"),
        queryset=RatingList.objects.none(),
        required=False,
        widget=ListCheckboxes,
        help_text=_("The lists the results are submitted to; their referees approve them."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rating_lists"].queryset = RatingList.objects.order_by("name")
        if self.instance.pk:
            self.initial.setdefault("rating_lists", list(self.instance.rating_lists.all()))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        refusing = lists_refusing(data.get("rating_lists") or [], data.get("organiser"))
        for rating_list in refusing:
            self.add_error(
                "rating_lists",
                _("%(list)s accepts tables of its own club only (or of the clubs it names).")
                % {"list": rating_list.name},
            )
        game = data.get("game")
        for rating_list in data.get("rating_lists") or []:
            if game and rating_list.game != game:
                self.add_error(
                    "rating_lists",
                    _("%(list)s rates %(list_game)s, not %(game)s.")
                    % {
                        "list": rating_list.name,
                        "list_game": rating_list.get_game_display(),
                        "game": dict(self.fields["game"].choices).get(game, game),
                    },
                )
        return data


class ResultsUploadListForm(ResultsUploadForm):
    """A results file, its organiser and the rating list its table goes to."""

    rating_list = IdModelChoiceField(
        label=_("Rating list"), queryset=RatingList.objects.none(), required=False,
        empty_label=_("— none (import without rating)"),
    )  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rating_list"].queryset = RatingList.objects.order_by("name")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        rating_list = data.get("rating_list")
        if rating_list is not None and lists_refusing([rating_list], data.get("organiser")):
            self.add_error(
                "rating_list",
                _("%(list)s accepts tables of its own club only (or of the clubs it names).")
                % {"list": rating_list.name},
            )
        return data
