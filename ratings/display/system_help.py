"""The "How is this rating computed?" pages (issue 12): which systems have one, the page's
prose template in the reader's language, its worked example and the tables it shows.

The prose lives in per-language templates (`templates/ratings/systems_help/<code>.<lang>.html`,
English when a language has none). Each page's worked example is data in the repository
(`ratings/system_help_examples/<code>.json`): the event as the engine takes it and the
engine's answer the page shows. The page never runs the engine; a test does, and fails when
the stored answer or any figure on the page differs from what the engine says now.
"""

from __future__ import annotations

import json
import math
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

from django.template import Template
from django.template.loader import select_template
from django.utils.translation import gettext as _

from ratings.display.formatting import number_format
from ratings.systems import egf, uscf
from ratings.systems.orr import rating as orr
from ratings.systems.ufgo import rating as ufgo

# The order the index and the pages' navigation show them in.
SYSTEM_CODES: tuple[str, ...] = ("egf", "ufgo", "rivne", "orr", "uscf")
EXAMPLES_DIR = Path(__file__).resolve().parent / "system_help_examples"
FALLBACK_LANGUAGE = "en"

# How a figure is shown when the page does not say: decimals by the field's name.
DEFAULT_PLACES = {"expected": 3, "change": 1, "before": 0, "after": 0, "score": 1}
SIGNED_FIELDS = frozenset({"change"})


def is_known(code: str) -> bool:
    return code in SYSTEM_CODES


def help_template(code: str, language: str | None) -> Template:
    """The page's prose in `language` (e.g. "uk", "ru-ru"), or in English when there is none."""
    names = []
    if language:
        names.append(f"ratings/systems_help/{code}.{language.split('-')[0]}.html")
    names.append(f"ratings/systems_help/{code}.{FALLBACK_LANGUAGE}.html")
    return select_template(names)


@cache
def example(code: str) -> dict[str, Any]:
    """The stored worked example: `input` (engine contract), `output` (what the engine
    answered, shown on the page), `rating_places` (decimals the page gives ratings)."""
    with (EXAMPLES_DIR / f"{code}.json").open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def figure_value(output: dict[str, Any], path: str) -> Any:
    """A figure of the engine's answer by path: `A.after`, `A.games.0.expected`, `notes.1`.

    The first part is a player id (or `notes`); the rest walks into that player's entry."""
    head, *rest = path.split(".")
    node: Any
    if head == "notes":
        node = output["notes"]
    else:
        matches = [p for p in output["players"] if p["id"] == head]
        if not matches:
            raise KeyError(f"no player {head!r} in the example")
        node = matches[0]
    for part in rest:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def format_figure(value: Any, path: str, places: int | None = None) -> str:
    """A figure as the page shows it: half up to `places` decimals (by default from the
    field's name), the locale's decimal separator, a sign on changes (−, not -)."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    field = path.rsplit(".", 1)[-1]
    if places is None:
        places = DEFAULT_PLACES.get(field, 0)
    if not math.isfinite(value):
        return str(value)
    number = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    text = number_format(abs(number) if field in SIGNED_FIELDS else number, places)
    if field in SIGNED_FIELDS and number != 0:
        return ("+" if number > 0 else "−") + text
    return text


def example_rows(code: str) -> list[dict[str, Any]]:
    """The example's players with their games, in the engine's order, for the table."""
    data = example(code)
    return [
        {
            "id": player["id"],
            "games": [
                {"path": f"{player['id']}.games.{i}", **game}
                for i, game in enumerate(player.get("games") or [])
            ],
            **{k: v for k, v in player.items() if k != "games"},
        }
        for player in data["output"]["players"]
    ]


def example_note_paths(code: str) -> list[str]:
    """`notes.0`, `notes.1`, …: the engine's notes of the example, as figure paths."""
    return [f"notes.{i}" for i in range(len(example(code)["output"]["notes"]))]


def _table(caption: str, head: list[str], rows: list[list[Any]], *, folded: bool) -> dict[str, Any]:
    return {"caption": caption, "head": head, "rows": rows, "folded": folded}


def _band(low: float | None, high: float | None) -> str:
    """`600–1099`, `< 600`, `≥ 2000`: a band of whole ratings."""
    if low is None:
        return f"< {high + 1:g}" if high is not None else ""
    if high is None:
        return f"≥ {low:g}"
    return f"{low:g}–{high:g}"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def _hundredths(value: int) -> str:
    return number_format(Decimal(value) / 100, 2)


def tables(code: str) -> dict[str, dict[str, Any]]:
    """The system's tables as the engine holds them (never typed twice), ready to show:
    a caption, column heads and rows of text. Built per request: heads are translated."""
    if code in ("egf", "rivne"):
        con = "K1" if code == "rivne" else "con"
        return {
            "con": _table(
                _("The table: %(con)s and a by rating (straight lines between the rows)")
                % {"con": con},
                [_("Rating"), con, "a"],
                [[f"{gor:g}", f"{value:g}", f"{205 - gor / 20:g}"] for gor, value in egf.CON_TABLE],
                folded=True,
            )
        }
    if code == "ufgo":
        bands, low = [], 0
        for high, hundredths in ufgo.TABLE2:
            bands.append([_band(low, high), _hundredths(hundredths), _hundredths(100 - hundredths)])
            low = high + 1
        bands.append([f"> {low - 1}", "0", "1"])
        k2k3 = []
        below_previous: int | None = None
        for below, k2, k3 in ufgo.TABLE3:
            band = _band(below_previous, below - 1 if below is not None else None)
            k2k3.append([band, k2, k3])
            below_previous = below
        boards = ["9×9", "13×13", "19×19"]
        table4 = []
        starts = [start for start, _cells in ufgo.TABLE4]
        for index, (start, cells) in enumerate(ufgo.TABLE4):
            end = starts[index + 1] - 1 if index + 1 < len(starts) else None
            table4.append(
                [_band(start, end)]
                + [f"{_signed(w)} / {_signed(lo)} / {k3}" for w, lo, k3 in cells]
            )
        table5 = []
        starts5 = [start for start, _cells in ufgo.TABLE5]
        for index, (start, cells) in enumerate(ufgo.TABLE5):
            end = starts5[index + 1] - 1 if index + 1 < len(starts5) else None
            table5.append([_band(start, end), *cells])
        return {
            "k1": _table(
                _("Table 2: K1, the expected score, by the rating difference"),
                [_("Difference"), _("Lower-rated player"), _("Higher-rated player")],
                bands,
                folded=True,
            ),
            "k2k3": _table(
                _("Table 3: K2 and K3 by the player's own rating"),
                [_("Rating"), "K2", "K3"],
                k2k3,
                folded=False,
            ),
            "table4": _table(
                _("Table 4: a player at 100 or more against one below 100 (win / loss / k3)"),
                [_("Rating"), *boards],
                table4,
                folded=True,
            ),
            "table5": _table(
                _(
                    "Table 5: extra points for a win of a player below 100, by the opponent's rating"
                ),
                [_("Opponent's rating"), *boards],
                table5,
                folded=True,
            ),
        }
    if code == "orr":
        rows = []
        for index, (start, k_plus, k_minus) in enumerate(orr.K_TABLE):
            end = orr.K_TABLE[index + 1][0] - 1 if index + 1 < len(orr.K_TABLE) else None
            rows.append([_band(None, end) if index == 0 else _band(start, end), k_plus, k_minus])
        return {
            "k": _table(
                _("K by the rating at the start of the tournament"),
                [_("Rating"), _("K when SR ≥ 0"), _("K when SR < 0")],
                rows,
                folded=False,
            )
        }
    if code == "uscf":
        low, high = uscf.CATEGORY_BOUNDS
        k0, k1, k2 = uscf.K_BY_CATEGORY
        return {
            "k": _table(
                _("K by the rating before the game"),
                [_("Rating"), "K"],
                [[_band(None, low - 1), k0], [_band(low, high - 1), k1], [_band(high, None), k2]],
                folded=False,
            )
        }
    return {}
