"""Form widgets rendered in Python: a <select> with hundreds of options costs one template
render per option with Django's default widgets, too slow for the filter forms."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString


class FastSelect(forms.Select):
    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        chosen = {"" if v is None else str(v) for v in self.format_value(value)}
        options = []
        for option_value, label in self.choices:
            key = "" if option_value is None else str(option_value)
            key = str(getattr(option_value, "value", key))  # ModelChoiceIteratorValue
            options.append((key, " selected" if key in chosen else "", label))
        body = format_html_join("", '<option value="{}"{}>{}</option>', options)
        return format_html("<select{}>{}</select>", flatatt(final), body)
