"""clubsite.numbers: ASCII digits only, range-checked (issue 16)."""

from __future__ import annotations

import pytest

from clubsite.numbers import NumberError, int_or_default, int_or_none, is_ascii_number, read_int


@pytest.mark.parametrize(
    "text", ["²", "①", "¹", "١٢", "1_0", " 5", "5 ", "+5", "", "--1", "1e3", "\x00"]
)
def test_only_ascii_digits(text):
    with pytest.raises(NumberError):
        read_int(text, minimum=-100, maximum=100)
    assert int_or_none(text, minimum=-100, maximum=100) is None


def test_range_is_checked_before_use():
    assert read_int("-12", minimum=-100, maximum=100) == -12
    with pytest.raises(NumberError):
        read_int("1" + "0" * 20, minimum=0, maximum=10**30)
    with pytest.raises(NumberError):
        read_int("101", minimum=0, maximum=100)
    assert int_or_default("-1", 7, minimum=0, maximum=100) == 7
    assert int_or_default(None, 7, minimum=0, maximum=100) == 7


def test_keys():
    assert is_ascii_number("0123")
    assert not is_ascii_number("²")
    assert not is_ascii_number("1" * 19)
    assert not is_ascii_number("")
