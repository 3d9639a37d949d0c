"""Command line: `python -m ratings.systems list | rate FILE | rate - | bench ...`."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ratings.systems import rate_json
from ratings.systems.io import dumps, loads
from ratings.systems.model import BadInput
from ratings.systems.registry import SYSTEMS

USAGE = "usage: python -m ratings.systems (list | rate FILE | rate - | bench [options])"
EXIT_BAD_INPUT = 2


def _read(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        with open(source, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise BadInput("input", f"cannot read {source!r}: {error.strerror}") from None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["list"]:
        for code, system in SYSTEMS.items():
            print(f"{code}\t{system.title}")
        return 0
    if len(args) == 2 and args[0] == "rate":
        try:
            result = rate_json(loads(_read(args[1])))
        except BadInput as error:
            print(" ".join(str(error).split()), file=sys.stderr)
            return EXIT_BAD_INPUT
        sys.stdout.write(dumps(result) + "\n")
        return 0
    if args and args[0] == "bench":
        from ratings.systems.bench import main as bench_main

        return bench_main(args[1:])
    print(USAGE, file=sys.stderr)
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
