"""The imported file's own lines, kept with the tournament (`KeptFile`) and
written back by the export of the same format (`tournaments.formats.kept_lines`)."""

from __future__ import annotations

from typing import Literal

from tournaments.formats import ALIASES, FORMATS, FormatError, write
from tournaments.formats.kept_lines import KEPT_FORMATS, layout_apply, layout_of
from tournaments.formats.model import ResultsFile
from tournaments.importing.export import tournament_to_results
from tournaments.models import KeptFile, Tournament


def _code(fmt: str) -> str:
    code = ALIASES.get(fmt.lower(), fmt.lower())
    return code if code in FORMATS else ""


def tournament_keep_file(*, tournament: Tournament, results: ResultsFile) -> None:
    """Keep the file's lines with the just-saved tournament (EGD and TRF files)."""
    if not results.source_text or results.source_format not in KEPT_FORMATS:
        return
    try:
        generated = write(tournament_to_results(tournament=tournament), results.source_format)
    except FormatError:
        return  # the export cannot write this table either; nothing to put back
    KeptFile.objects.create(tournament=tournament, layout=layout_of(results, generated))


def tournament_export_file(
    *, tournament: Tournament, fmt: str, keys: Literal["position", "external"] = "position"
) -> tuple[str, str]:
    """The tournament as a file in `fmt`, and the encoding to write it in: in the format
    it was imported from, the file's own lines where nothing changed since, in the file's
    own encoding; else UTF-8. Raises `FormatError` as `write` does."""
    text = write(tournament_to_results(tournament=tournament, keys=keys), fmt)
    kept = KeptFile.objects.filter(tournament=tournament).first()
    if keys == "position" and kept is not None and kept.layout.get("format") == _code(fmt):
        return layout_apply(kept.layout, text), kept.layout.get("encoding", "utf-8")
    return text, "utf-8"


def tournament_export_text(
    *, tournament: Tournament, fmt: str, keys: Literal["position", "external"] = "position"
) -> str:
    """The text of `tournament_export_file`."""
    return tournament_export_file(tournament=tournament, fmt=fmt, keys=keys)[0]
