"""The European Go Database tournament table (`.h9`, `.h2`, …, `.txt`).

Layout and rules: `shared/spec/formats.md` §1 (restating the EGF GoR
document's "Tournament table format"). One player per line:

    place  Family Given  grade  country  club  [score columns]  entries…  [|PIN]

with one entry per round, `<opponent place><+|-|=>[!][/<b|w>[<handicap>]]`,
or `0+`, `0-`, `0=` for a round without an opponent.
"""

from tournaments.formats.egd.pairing import rule_handicap
from tournaments.formats.egd.reading import parse
from tournaments.formats.egd.writing import write

__all__ = ["parse", "rule_handicap", "write"]
