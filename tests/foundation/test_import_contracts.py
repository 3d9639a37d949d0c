"""The house's import rules hold: the import-linter contracts in pyproject.toml.

`layers`: web (pages, commands, admin, template tags) above the domain, and the domain
running ratings → tournaments → clubsite → engine; `engine`: `ratings.systems` imports
no Django, no Celery and none of the apps; `acyclic`: no import cycles between the
modules of a package. A failure prints import-linter's report: the broken contract and
the import, by file and line.
"""

from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
LINT_IMPORTS = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")


def _lint_imports(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
    )


def test_the_import_contracts_are_kept() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_module_of_the_apps_is_in_a_layer() -> None:
    """A layer names its modules; a new module outside every layer would go unchecked."""
    layers = next(c for c in CONFIG["contracts"] if c["id"] == "layers")["layers"]
    named = {m.strip() for layer in layers for m in layer.replace("|", ":").split(":")}
    unplaced = []
    for package in CONFIG["root_packages"]:
        path = [str(ROOT / package)]
        for info in pkgutil.walk_packages(path, prefix=f"{package}."):
            parts = info.name.split(".")
            if not any(".".join(parts[:n]) in named for n in range(1, len(parts) + 1)):
                unplaced.append(info.name)
    assert unplaced == [], "modules in no layer of pyproject's import-linter contract"


@pytest.mark.parametrize(
    "line",
    [
        "    from ratings.services import request  # inside a function",
        "    import ratings.services as s",
        "    from ratings import services",
    ],
)
def test_the_contracts_see_lazy_and_aliased_imports(tmp_path: Path, line: str) -> None:
    """The old hand-written checker's promise, now asked of import-linter itself."""
    (tmp_path / "ratings").mkdir()
    (tmp_path / "ratings" / "__init__.py").write_text("")
    (tmp_path / "ratings" / "services.py").write_text("def request():\n    pass\n")
    (tmp_path / "tournaments").mkdir()
    (tmp_path / "tournaments" / "__init__.py").write_text("")
    (tmp_path / "tournaments" / "services.py").write_text(f"def approve():\n{line}\n")
    (tmp_path / ".importlinter").write_text(
        "[importlinter]\nroot_packages =\n    ratings\n    tournaments\n"
        "[importlinter:contract:layers]\nname = domain order\ntype = layers\n"
        "layers =\n    ratings\n    tournaments\n"
    )
    result = _lint_imports(tmp_path, "--config", ".importlinter")
    assert result.returncode == 1, result.stdout
    assert "tournaments.services -> ratings.services (l.2)" in result.stdout
