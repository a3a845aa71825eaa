"""What the import contracts (``lint-imports``, [tool.importlinter] in
pyproject.toml; docs/design.md §1) cannot see: what importing
``piramida.env`` loads at run time, and names reached across modules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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
