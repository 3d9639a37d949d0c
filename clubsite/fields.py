"""GradeField: a Go grade stored as one small integer, so the database can order and range-filter it."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from ratings.systems.grades import ALL_GRADES, Grade

_INVALID = "%(value)s is not a grade (use 30k…1k, 1d…9d or 1p…9p)."


def _invalid(value: Any) -> ValidationError:
    return ValidationError(_INVALID, code="invalid_grade", params={"value": value})


def parse_grade(value: Any) -> Grade | None:
    """A Grade from a Grade, a rank number or text like '5k' / '3 dan'; None for blank.

    Anything else (a rank off the scale, a bool, unreadable text) is a ValidationError.
    """
    if value is None or value == "":
        return None
    if isinstance(value, Grade):
        return value
    if isinstance(value, bool):
        raise _invalid(value)
    try:
        if isinstance(value, int):
            return Grade.from_rank(value)
        return Grade.parse(str(value))
    except ValueError as error:
        raise _invalid(value) from error


class GradeFormField(forms.TypedChoiceField):
    """A grade select; also reads typed text in any accepted spelling ('5 kyu', '3D')."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("max_length", None)
        kwargs.pop("min_value", None)
        kwargs.pop("max_value", None)
        kwargs.setdefault("choices", [("", "—")] + [(str(g), str(g)) for g in reversed(ALL_GRADES)])
        kwargs["coerce"] = parse_grade
        kwargs["empty_value"] = None
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        try:
            grade = parse_grade(text)
        except ValidationError:
            return text  # left for the choice check to refuse
        return "" if grade is None else str(grade)

    def prepare_value(self, value: Any) -> Any:
        try:
            grade = parse_grade(value)
        except ValidationError:
            return value
        return "" if grade is None else str(grade)


_GRADE_OF_RANK = {grade.rank: grade for grade in ALL_GRADES}


class GradeField(models.SmallIntegerField):
    """Stores `Grade.rank` (30k = -29 … 1k = 0, 1d = 1 … 9d = 9, 1p = 10 … 9p = 18)."""

    description = "Go grade (30k … 9d, 1p … 9p)"

    @cached_property
    def validators(self) -> list[Any]:
        # Not IntegerField's backend range validators: they would compare a Grade with an
        # int. A Grade is on the scale by construction.
        return [*self.default_validators, *self._validators]

    def from_db_value(self, value: int | None, expression: Any, connection: Any) -> Grade | None:
        if value is None:
            return None
        # The grades are few and immutable: share them (a profile reads four hundred).
        return _GRADE_OF_RANK.get(value) or Grade.from_rank(value)

    def to_python(self, value: Any) -> Grade | None:
        return parse_grade(value)

    def get_prep_value(self, value: Any) -> int | None:
        grade = parse_grade(value)
        return None if grade is None else grade.rank

    def value_to_string(self, obj: models.Model) -> str:
        value = self.value_from_object(obj)
        return "" if value is None else str(value)

    def formfield(self, **kwargs: Any) -> forms.Field:
        defaults: dict[str, Any] = {"form_class": GradeFormField, "choices_form_class": None}
        defaults.update(kwargs)
        return super().formfield(**defaults)
