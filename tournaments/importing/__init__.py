"""Results files into the database and back (issue 7): preview, import, export.

The parsers in `tournaments.formats` turn a file into a neutral `ResultsFile`;
this package decides who each file player is (`results_preview`, writes
nothing), saves the tournament in one transaction (`results_import`) and
builds a `ResultsFile` from a stored tournament (`tournament_to_results`).

The rating list a file is meant for comes from the caller as a `ListTarget`: its
name, game and system, which of the players it already lists, and how to link the
saved tournament to it. This app never imports the ratings app; `ratings.submissions.importing`
builds the target from a `RatingList` and is what the pages and the command call.

One module per step: `matching` (who is who), `preview` (the checks), `saving` (the
import), `export` (back to a file), `kept` (the file's own lines, written back in place); `common` holds what they share.
"""

from tournaments.importing.common import Choice, ListTarget, problems_text
from tournaments.importing.export import tournament_to_results
from tournaments.importing.kept import tournament_export_file, tournament_export_text
from tournaments.importing.matching import ImportPreview, PlayerMatch
from tournaments.importing.preview import results_preview
from tournaments.importing.saving import results_errors, results_import

__all__ = [
    "Choice",
    "ImportPreview",
    "ListTarget",
    "PlayerMatch",
    "problems_text",
    "results_errors",
    "results_import",
    "results_preview",
    "tournament_export_file",
    "tournament_export_text",
    "tournament_to_results",
]
