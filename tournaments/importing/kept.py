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


def tournament_export_text(
    *, tournament: Tournament, fmt: str, keys: Literal["position", "external"] = "position"
) -> str:
    """The tournament as a file in `fmt`; in the format it was imported from, with the
    file's own lines where nothing changed since. Raises `FormatError` as `write` does."""
    text = write(tournament_to_results(tournament=tournament, keys=keys), fmt)
    kept = KeptFile.objects.filter(tournament=tournament).first()
    if keys == "position" and kept is not None and kept.layout.get("format") == _code(fmt):
        return layout_apply(kept.layout, text)
    return text
