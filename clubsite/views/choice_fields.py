"""Model choice fields that read the submitted ids through `clubsite.numbers`.

Django's fields hand the posted value to the database: `10**20` overflowed SQLite's integer
(OverflowError, a 500) and `²` passed some checks and not others. Here an id is ASCII
digits within the range a primary key can hold, or the field's ordinary "invalid choice".
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from clubsite.numbers import MAX_ID, int_or_none


def _checked_id(field: forms.ModelChoiceField, value: Any) -> Any:
    if value in field.empty_values or field.to_field_name or hasattr(value, "_meta"):
        return value
    number = int_or_none(str(value), minimum=1, maximum=MAX_ID)
    if number is None:
        raise ValidationError(
            field.error_messages["invalid_choice"],
            code="invalid_choice",
            params={"value": str(value)[:20]},
        )
    return number


class IdModelChoiceField(forms.ModelChoiceField):
    def to_python(self, value: Any) -> Any:
        return super().to_python(_checked_id(self, value))


class IdModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    def _check_values(self, value: Any) -> Any:
        try:
            values = [_checked_id(self, v) for v in value]
        except ValidationError as error:
            raise ValidationError(
                self.error_messages["invalid_choice"],
                code="invalid_choice",
                params=error.params,
            ) from None
        except TypeError:
            raise ValidationError(
                self.error_messages["invalid_list"], code="invalid_list"
            ) from None
        return super()._check_values(values)
