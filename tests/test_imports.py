"""Dependency direction (docs/design.md §1): ``piramida.env`` never loads torch or
ray; ``env/physics`` and ``env/rules`` never import each other; ``env``
never imports agents, training or eval; ``bench/`` never imports the
command line."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = ROOT / "env"

_WALK = """
import pkgutil, sys
import piramida.env
for m in pkgutil.walk_packages(piramida.env.__path__, "piramida.env."):
    __import__(m.name)
print(sorted(m for m in ("torch", "ray") if m in sys.modules))
print(len([m for m in sys.modules if m.startswith("piramida.env")]))
"""


def test_env_does_not_load_torch_or_ray() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _WALK], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    heavy, count = out.stdout.split("\n")[:2]
    assert heavy == "[]", f"importing piramida.env loaded {heavy}"
    # Every module file under env/ was imported.
    files = [p for p in ENV.rglob("*.py") if "__pycache__" not in p.parts]
    assert int(count) >= len(files)


def module_name(path: Path) -> str:
    """``env/physics/events.py`` -> ``piramida.env.physics.events``."""
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["piramida", *parts])


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """Absolute names of every module a source file imports (relative
    imports resolved; ``from a import b`` counts both ``a`` and ``a.b``),
    wherever the import statement is, top level or inside a function."""
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts)
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            out.add(name)
            out.update(f"{name}.{alias.name}" for alias in node.names)
    return out


def _imports_of(folder: Path) -> dict[str, set[str]]:
    result = {}
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        result[str(path.relative_to(ROOT))] = imported_modules(
            path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py"
        )
    return result


def _offenders(folder: Path, forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path, mods in _imports_of(folder).items():
        for m in sorted(mods):
            if any(m == f or m.startswith(f + ".") for f in forbidden):
                bad.append(f"{path} imports {m}")
    return bad


def test_physics_does_not_import_rules() -> None:
    assert _offenders(ENV / "physics", ("piramida.env.rules",)) == []


def test_rules_do_not_import_physics() -> None:
    assert _offenders(ENV / "rules", ("piramida.env.physics",)) == []


def test_env_does_not_import_the_upper_layers() -> None:
    forbidden = ("piramida.agents", "piramida.training", "piramida.eval", "agents", "training")
    assert _offenders(ENV, forbidden) == []


def test_bench_uses_the_library_not_the_command_line() -> None:
    # The benchmarks build views (GameView.for_position), parse budgets
    # (agents.specs) and play frames (env.driver) with the library.
    assert _offenders(ROOT / "bench", ("piramida.commands", "piramida.cli")) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from ..rules import pyramid", "piramida.env.rules.pyramid"),
        ("from .. import rules", "piramida.env.rules"),
        ("from piramida.env.rules.free import Free", "piramida.env.rules.free"),
        ("def f():\n    import piramida.env.rules as r\n", "piramida.env.rules"),
        ("from . import roots", "piramida.env.physics.roots"),
    ],
)
def test_import_reader_resolves_every_form(source: str, expected: str) -> None:
    # The checks above are only as good as this reader.
    assert expected in imported_modules(source, "piramida.env.physics.simulate")


def test_import_reader_in_a_package_init() -> None:
    mods = imported_modules("from .events import Event", "piramida.env.physics", is_package=True)
    assert "piramida.env.physics.events" in mods


def _private_reaches(path: Path) -> list[str]:
    """``from m import _name`` and ``m._name`` (``m`` an imported module or
    name) in one source file: another module's underscore names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {node.module}.{alias.name}")
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name)
            and node.value.id in imported
        ):
            out.append(f"{path.relative_to(ROOT)}:{node.lineno} reads {node.value.id}.{node.attr}")
    return out


def test_nothing_reaches_into_another_modules_underscore_names() -> None:
    # A module's underscore names are its own: what another module needs is
    # public (named without the underscore) and documented where it lives.
    bad = []
    for folder in ("piramida", "env", "agents", "eval", "training", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts and ".venv" not in str(path):
                bad.extend(_private_reaches(path))
    assert bad == []
