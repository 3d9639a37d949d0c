"""The FIDE rating list as FIDE's XML download gives it (`standard_rating_list_xml`,
`players_list_xml_foa`): one `<player>` per player with `<fideid>`, `<name>`,
`<country>`, `<sex>`, `<title>`, `<w_title>`, `<rating>`, `<games>`, `<k>`,
`<birthday>`, `<flag>`; the combined list adds `<rapid_rating>`, `<blitz_rating>` and
their games and K. Read by pattern, not by an XML parser: no entity is ever expanded,
and each problem names the line its player starts on.
"""

from __future__ import annotations

import html
import re

from tournaments.formats.fide_list import Kind, fide_row
from tournaments.formats.list_model import ListRow, RatingListFile, rows_or_refuse
from tournaments.formats.model import ProblemLog

_PLAYER = re.compile(r"<player>(.*?)</player>", re.DOTALL)
_FIELD = re.compile(r"<(\w+)>([^<]*)</\1>|<(\w+)\s*/>")
# Our field names and FIDE's tags; rating, games and K depend on the kind chosen.
_TAGS = {"id": "fideid", "name": "name", "fed": "country", "sex": "sex", "tit": "title"}
_TAGS |= {"wtit": "w_title", "bday": "birthday", "flag": "flag"}


def parse(text: str, filename: str | None = None, kind: Kind = "standard") -> RatingListFile:
    problems = ProblemLog()
    rows: list[ListRow] = []
    seen: dict[str, int] = {}
    unrated = 0
    line, at = 1, 0
    # The combined list names each kind's tags; a single list's `<rating>` is its kind's.
    combined = kind != "standard" and f"<{kind}_rating" in text
    prefix = f"{kind}_" if combined else ""
    for match in _PLAYER.finditer(text):
        line += text.count("\n", at, match.start())
        at = match.start()
        tags = {
            (found.group(1) or found.group(3)): html.unescape(found.group(2) or "").strip()
            for found in _FIELD.finditer(match.group(1))
        }
        fields = {key: tags.get(tag, "") for key, tag in _TAGS.items()}
        for key in ("rating", "games", "k"):
            fields[key] = tags.get(prefix + key, "")
        if not fields["rating"] or fields["rating"] == "0":
            unrated += 1  # no rating of this kind: not in this list
            continue
        if fields["id"] in seen:
            problems.error(
                line, f"FIDE ID {fields['id']} is listed twice (line {seen[fields['id']]})."
            )
            continue
        row = fide_row(line, fields, problems, lambda key: None)
        if problems.full:
            break
        if row is not None:
            seen[row.key] = line
            rows.append(row)
    if unrated:
        problems.warn(None, f"{unrated} players have no {kind} rating; they are not in this list.")
    if not rows and not problems.has_errors:
        problems.error(None, "No <player> rows found: is this a FIDE rating list (XML)?")
    left_out = rows_or_refuse(rows, problems)
    return RatingListFile("fide", tuple(rows), None, problems.warnings(), left_out)
