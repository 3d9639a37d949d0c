"""The Go grade scale shared by every Go system: 30k … 1k, 1d … 9d, 1p … 9p."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering
from typing import Literal

Kind = Literal["k", "d", "p"]
_LIMITS: dict[str, tuple[int, int]] = {"k": (1, 30), "d": (1, 9), "p": (1, 9)}
_PATTERN = re.compile(r"^\s*(\d{1,2})\s*(k|kyu|d|dan|p|pro)\s*$", re.IGNORECASE)


@total_ordering
@dataclass(frozen=True, slots=True)
class Grade:
    """A Go grade. Ordered weakest first: 30k < 1k < 1d < 9d < 1p < 9p."""

    kind: Kind
    level: int

    def __post_init__(self) -> None:
        low, high = _LIMITS[self.kind]
        if not low <= self.level <= high:
            raise ValueError(f"no such grade: {self.level}{self.kind}")

    @classmethod
    def parse(cls, text: str) -> Grade:
        """Read `5k`, `5 kyu`, `3d`, `3 dan`, `2p` (any case)."""
        match = _PATTERN.match(text)
        if not match:
            raise ValueError(f"not a grade: {text!r}")
        kind = match.group(2)[0].lower()
        assert kind in ("k", "d", "p")
        return cls(kind, int(match.group(1)))  # type: ignore[arg-type]

    @property
    def rank(self) -> int:
        """Position on one scale: 30k = -29 … 1k = 0, 1d = 1 … 9d = 9, 1p = 10 … 9p = 18."""
        if self.kind == "k":
            return 1 - self.level
        if self.kind == "d":
            return self.level
        return 9 + self.level

    @classmethod
    def from_rank(cls, rank: int) -> Grade:
        if rank <= 0:
            return cls("k", 1 - rank)
        if rank <= 9:
            return cls("d", rank)
        return cls("p", rank - 9)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Grade):
            return NotImplemented
        return self.rank < other.rank

    def __str__(self) -> str:
        return f"{self.level}{self.kind}"


ALL_GRADES: tuple[Grade, ...] = tuple(Grade.from_rank(r) for r in range(-29, 19))
