"""The rating engine: pure Python, standard library only (see `spec/engine-contract.md`).

`rate_json(event)` rates one event given as the contract's JSON object and
returns the contract's output object; bad input raises `BadInput` only.
"""

from __future__ import annotations

from collections.abc import Mapping

from ratings.systems.model import JSON, BadInput

__all__ = ["BadInput", "rate_json"]


def rate_json(event: Mapping[str, object] | object) -> dict[str, JSON]:
    """Rate one event: contract input dict in, contract output dict out."""
    from ratings.systems.io import parse_event
    from ratings.systems.output import output_to_json
    from ratings.systems.registry import SYSTEMS

    try:
        system, event_input = parse_event(event, SYSTEMS)
        if system.rate_json is not None:
            return system.rate_json(event_input)
        return output_to_json(system.rate(event_input))
    except BadInput:
        raise
    except RecursionError:
        raise BadInput("input", "nested too deeply") from None
