"""Imports run one way: ``ratings`` → ``tournaments`` → ``clubsite``.

Ratings may read tournaments and clubs; tournaments never import the ratings app, except
``tournaments/services.py`` asking ``ratings.services`` to queue a recompute; the club
domain imports neither. ``ratings.systems`` is a standalone standard-library package that
anyone may import. Only the project-level ``clubsite`` modules, which compose the whole
site, may import any app.

Every import counts, including the ones inside functions: a lazy import is still a
dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The project-level modules of clubsite: they compose the whole site.
CLUBSITE_COMPOSITION = {"urls.py", "site_urls.py", "settings.py", "celery.py", "wsgi.py", "asgi.py"}

# (file relative to the repository, module imported): the one sanctioned reach back.
ALLOWED = {("tournaments/services.py", "ratings.services")}


def _is_under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _imported_modules(tree: ast.AST, module_path: str) -> Iterator[tuple[int, str]]:
    """(line, dotted module) for every import in the tree, at any depth."""
    package = module_path.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                parts = package.split(".")
                base = parts[: len(parts) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # ``from ratings import models`` imports ``ratings.models``: check each name.
            for alias in node.names:
                if alias.name == "*":
                    yield node.lineno, stem
                else:
                    yield node.lineno, f"{stem}.{alias.name}" if stem else alias.name


def _python_files(package: str) -> Iterator[Path]:
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" not in path.relative_to(ROOT).parts:
            yield path


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.append("__init__")  # so the package part resolves to the package itself
    return ".".join(parts)


def _forbidden_ratings(module: str) -> bool:
    """The ratings app, but not its standalone engine ``ratings.systems``."""
    return _is_under(module, "ratings") and not _is_under(module, "ratings.systems")


def _violations(package: str, forbidden, skip=frozenset()) -> list[str]:  # noqa: ANN001
    found = []
    for path in _python_files(package):
        relative = path.relative_to(ROOT).as_posix()
        if relative in skip:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
        for line, module in _imported_modules(tree, _module_name(path)):
            if forbidden(module) and not any(
                relative == f and _is_under(module, m) for f, m in ALLOWED
            ):
                found.append((relative, line, module))
    return [f"{path}:{line}: imports {module}" for path, line, module in sorted(found)]


def test_tournaments_do_not_import_the_ratings_app() -> None:
    found = _violations("tournaments", _forbidden_ratings)
    assert not found, "tournaments must not import ratings:\n" + "\n".join(found)


def test_club_domain_imports_neither_tournaments_nor_ratings() -> None:
    skip = frozenset(f"clubsite/{name}" for name in CLUBSITE_COMPOSITION)
    found = _violations(
        "clubsite",
        lambda module: _is_under(module, "tournaments") or _forbidden_ratings(module),
        skip,
    )
    assert not found, "clubsite's club domain must not import the apps:\n" + "\n".join(found)


def test_the_checker_sees_lazy_relative_and_aliased_imports() -> None:
    source = (
        "import ratings.models as m\n"
        "from ratings import selectors\n"
        "from ratings.systems import grades\n"
        "def f():\n"
        "    from ratings.services import rating_list_request_recompute\n"
        "    from . import selectors\n"
    )
    modules = [m for _, m in _imported_modules(ast.parse(source), "tournaments.views.public")]
    assert [m for m in modules if _forbidden_ratings(m)] == [
        "ratings.models",
        "ratings.selectors",
        "ratings.services.rating_list_request_recompute",
    ]
    assert modules[-1] == "tournaments.selectors"  # relative imports resolve to the package
