"""A results file's own lines, kept with its tournament and written back in place.

What the application does not use (TRF records such as XXR, 082, 142–362, 310, 240, 250,
299, 801, `###` comments; EGD comment lines and unknown tags) and what it cannot store
as written (declared points, the file's club strings, forfeits without an opponent,
double forfeits, OpenGotha's blank places and `?`) would be lost between import and
export. So the import keeps every line of the file, each with the *units* it holds (a
header record or tag, a player) and what the writer made of those units right after the
import (`layout_of`). The export of the same format (`layout_apply`) walks the kept
lines: a line nothing changed since comes back as the file had it, a line whose units
the writer now writes differently is replaced by the writer's lines (the tournament was
edited), a line of no unit comes back verbatim, and what the writer adds (a player or a
record the file did not have) goes after the lines of its kind. Pure Python, no Django.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from tournaments.formats.egd.layout import KNOWN_TAGS, TAG_LINE_PATTERN, TAG_PATTERN
from tournaments.formats.model import ResultsFile
from tournaments.formats.trf.layout import HEADER_RECORDS

KEPT_FORMATS = ("egd", "trf16", "trf26")
PLAYER = "player:"
PLAYER_LINE_TRF = re.compile(r"^001 ([ \d]{4})")


def family(fmt: str) -> str:
    return "trf" if fmt.startswith("trf") else fmt


def layout_of(results: ResultsFile, generated: str) -> dict[str, Any]:
    """The kept layout of a parsed file, against the writer's text of the saved tournament
    (players numbered 1, 2, … in the file's order)."""
    fmt = results.source_format
    text = results.source_text.lstrip("\ufeff")
    lines = text.splitlines()
    units = _original_units(lines, results, family(fmt))
    now = _generated_units(generated, family(fmt))
    used = {unit for line_units in units for unit in line_units}
    position = {p.key: f"{PLAYER}{at}" for at, p in enumerate(results.players, start=1)}
    return {
        "format": fmt,
        # The bytes' encoding (OpenGotha writes ISO-8859-15): the export is written in it.
        "encoding": results.encoding,
        "newline": "\r\n" if "\r\n" in text else "\n",
        "ending": next((end for end in ("\r\n", "\n", "\r") if text.endswith(end)), ""),
        "lines": [
            {"text": line, "units": list(line_units), "was": [now.get(u) for u in line_units]}
            for line, line_units in zip(lines, units, strict=True)
        ],
        # What the writer wrote that the file did not have: left out while unchanged.
        "added": {unit: line for unit, line in now.items() if unit not in used},
        # Pairings the database holds as two byes (a double forfeit, a result not
        # entered): a player's line is written anew only with his partner's.
        "links": [
            [position[g.white], position[g.black]] for g in results.games if g.result == "none"
        ],
        # Opponents in the file's lines name these numbers; the writer numbers 1, 2, ….
        "keys_are_positions": [p.key for p in results.players]
        == [str(at) for at in range(1, len(results.players) + 1)],
    }


def layout_apply(layout: Mapping[str, Any], generated: str) -> str:
    """The writer's text put back into the kept file's lines (see the module's doc)."""
    now = _generated_units(generated, family(layout["format"]))
    rewritten = _players_rewritten(layout, now)
    out: list[str] = []
    seen: set[str] = set()
    last_header = last_player = None
    for kept in layout["lines"]:
        units: list[str] = kept["units"]
        seen.update(units)
        current = [now.get(unit) for unit in units]
        unchanged = current == kept["was"] and not rewritten.intersection(units)
        if not units or unchanged:
            out.append(kept["text"])
        else:
            out += [line for line in current if line is not None]
        if units and units[0].startswith(PLAYER):
            last_player = len(out)
        elif units:
            last_header = len(out)
    added: Mapping[str, str] = layout["added"]
    new_headers, new_players = [], []
    for unit, line in now.items():
        if unit in seen or added.get(unit) == line:
            continue
        (new_players if unit.startswith(PLAYER) else new_headers).append(line)
    player_at = last_player if last_player is not None else len(out)
    out[player_at:player_at] = new_players
    header_at = last_header if last_header is not None else 0
    out[header_at:header_at] = new_headers
    text = layout["newline"].join(out)
    return text + layout["ending"] if out else text


def _players_rewritten(layout: Mapping[str, Any], now: Mapping[str, str]) -> set[str]:
    """The players whose kept lines cannot stand: those the writer now writes differently,
    with their partners in pairings the database does not hold; every player when the
    file's numbers are not the writer's (its lines' opponents would name others)."""
    players = {
        unit: was
        for kept in layout["lines"]
        for unit, was in zip(kept["units"], kept["was"], strict=True)
        if unit.startswith(PLAYER)
    }
    changed = {unit for unit, was in players.items() if now.get(unit) != was}
    if changed and not layout["keys_are_positions"]:
        return set(players)
    partners: dict[str, set[str]] = {}
    for first, second in layout["links"]:
        partners.setdefault(first, set()).add(second)
        partners.setdefault(second, set()).add(first)
    todo = list(changed)
    while todo:
        for partner in partners.get(todo.pop(), ()):
            if partner not in changed:
                changed.add(partner)
                todo.append(partner)
    return changed


def _original_units(lines: list[str], results: ResultsFile, kind: str) -> list[tuple[str, ...]]:
    players = {p.line: f"{PLAYER}{at}" for at, p in enumerate(results.players, start=1)}
    counts: Counter[str] = Counter()
    units: list[tuple[str, ...]] = []
    for number, line in enumerate(lines, start=1):
        if number in players:
            units.append((players[number],))
        elif kind == "trf":
            units.append(_trf_header_units(line, counts))
        else:
            units.append(_egd_header_units(line, counts))
    return units


def _generated_units(text: str, kind: str) -> dict[str, str]:
    """Each line the writer wrote, by its unit."""
    counts: Counter[str] = Counter()
    units: dict[str, str] = {}
    players = 0
    for line in text.splitlines():
        if kind == "trf" and (match := PLAYER_LINE_TRF.match(line)) and match.group(1).strip():
            found: tuple[str, ...] = (f"{PLAYER}{int(match.group(1))}",)
        elif kind == "trf":
            found = _trf_header_units(line, counts)
        elif not line.lstrip().startswith(";") and line.split():
            # The export numbers players 1, 2, … in order; a tie's place may be blank.
            players += 1
            found = (f"{PLAYER}{players}",)
        else:
            found = _egd_header_units(line, counts)
        # A line the writer makes that holds no unit is still its own (the banner, `;`).
        for unit in found or (f"line:{line}",):
            units[unit] = line
    return units


def _trf_header_units(line: str, counts: Counter[str]) -> tuple[str, ...]:
    code = line[:3]
    if code not in HEADER_RECORDS:
        return ()
    counts[code] += 1
    return (f"record:{code}#{counts[code]}",)


def _egd_header_units(line: str, counts: Counter[str]) -> tuple[str, ...]:
    content, _, comment = line.partition(";")
    if content.strip() or not TAG_LINE_PATTERN.match(comment):
        return ()
    units = []
    for code, _value in TAG_PATTERN.findall(comment):
        if code in KNOWN_TAGS:
            counts[code] += 1
            units.append(f"tag:{code}#{counts[code]}")
    return tuple(units)
