"""Throughput benchmark (work in progress)."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str]) -> int:
    print("bench: not written yet")
    return 0
