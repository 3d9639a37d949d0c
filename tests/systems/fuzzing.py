"""Hypothesis helpers shared by the fuzz tests of the rating systems' JSON boundary."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

# Words and keys the contract gives meaning to: plain random text almost never hits them, and
# a fuzzer that never reaches the code behind a valid-looking field tests little.
CONTRACT_WORDS = (
    *("egf", "orr", "rivne", "ufgo", "uscf"),
    *("white", "black", "draw", "above_100"),
    *("", "A", "p0", "p1", "5k", "3d", "2p", "2017-06-10"),
)
CONTRACT_KEYS = ("id", "rating", "grade", "history", "round", "above_100", "board")

SCALARS: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),  # far beyond any float's exact range
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(CONTRACT_WORDS),
)

JSON_VALUES: st.SearchStrategy[Any] = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(CONTRACT_KEYS) | st.text(max_size=8), children, max_size=4
        )
    ),
    max_leaves=12,
)
"""Any JSON value, and some that JSON cannot spell (NaN, infinities)."""

Draw = Callable[[st.SearchStrategy[Any]], Any]
"""`draw` of an `@st.composite` function, or `data.draw` of `st.data()`."""


def json_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path (keys and list indexes) to every value inside `node`, the root `()` first."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += json_paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += json_paths(value, (*prefix, index))
    return found


def mutated_copy(draw: Draw, document: Any) -> Any:
    """A deep copy of `document` with one to three values below the root each replaced by
    a random JSON value or deleted (from a dict or a list)."""
    document = copy.deepcopy(document)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = json_paths(document)[1:]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            parent[path[-1]] = draw(JSON_VALUES)
        else:
            del parent[path[-1]]
    return document
