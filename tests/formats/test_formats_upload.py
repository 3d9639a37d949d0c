"""The upload entry point: size limit before decoding, encodings, format names."""

from __future__ import annotations

from dataclasses import replace

import pytest

import tournaments.formats as formats
from tests.formats.helpers import TABLES
from tournaments.formats import egd
from tournaments.formats.model import FormatError

TABLE = (TABLES / "amp2006.txt").read_bytes()


def test_a_5_mb_upload_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def must_not_run(*args: object) -> None:
        raise AssertionError("parsed an oversized upload")

    monkeypatch.setitem(formats.FORMATS, "egd", replace(formats.FORMATS["egd"], parse=must_not_run))
    monkeypatch.setattr(formats, "decode_text", must_not_run)
    with pytest.raises(FormatError) as info:
        formats.parse(b"1" * (5 * 1024 * 1024), "egd", "big.h9")
    assert "larger than 2 MB" in str(info.value)
    assert formats.MAX_UPLOAD_BYTES == 2 * 1024 * 1024


def test_the_limit_itself_is_accepted() -> None:
    padded = TABLE + b"\n" * (formats.MAX_UPLOAD_BYTES - len(TABLE))
    assert len(padded) == formats.MAX_UPLOAD_BYTES
    assert formats.parse(padded, "egd").players


def test_format_is_guessed_from_the_file_name() -> None:
    assert formats.guess_format("t970920b.h2") == "egd"
    assert formats.guess_format("E961122.H9") == "egd"
    assert formats.guess_format("amp2006.txt") == "egd"
    assert formats.guess_format("cup.trf") == "trf16"
    assert formats.guess_format("games.csv") == "csv"
    assert formats.guess_format("event.json") == "json"
    assert formats.guess_format("photo.png") is None
    assert formats.parse(TABLE, filename="amp2006.txt") == egd.parse(TABLE.decode())


def test_unknown_or_missing_format() -> None:
    with pytest.raises(FormatError, match="Unknown file format 'pgn'"):
        formats.parse(TABLE, "pgn")
    with pytest.raises(FormatError, match="which format"):
        formats.parse(TABLE)


def test_egd_falls_back_to_cp1251_with_a_warning() -> None:
    text = "1 Коваленко Іван 3d UA Rivn 2+/w\n2 Шевченко Олена 1k UA Kyiv 1-/b\n"
    results = formats.parse(text.encode("cp1251"), "egd")
    assert results.player("1").family_name == "Коваленко"
    assert "read as Windows-1251" in results.warnings[0].message
    assert results.encoding == "cp1251"


def test_egd_latin1_bytes_never_fail_to_decode() -> None:
    results = formats.parse(
        "1 M\xfcller Jan 3d DE Berl 2+/w\n2 B C 1k DE x 1-/b\n".encode("latin-1") + b"; \x98\n",
        "egd",
    )
    assert results.players[0].family_name.startswith("M")


def test_other_formats_must_be_utf8() -> None:
    with pytest.raises(FormatError) as info:
        formats.parse(b"round,white,black,result\n1,\xff,B,white\n", "csv")
    assert info.value.errors[0].line == 2


def test_write_by_name_and_formats_listed() -> None:
    results = formats.parse(TABLE, "egd")
    assert set(formats.FORMATS) == {"egd", "trf16", "trf26", "csv", "json"}
    assert formats.write(results, "trf26").startswith("###")
    assert formats.parse(formats.write(results, "egd").encode(), "egd") == results
