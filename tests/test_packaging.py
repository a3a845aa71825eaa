"""Packaging (docs/design.md §1): the four subpackages import from any
directory, the wheel ships the code, configs and py.typed, and a plain
``pip install`` of it works."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    "pyproject.toml",
    "README.md",
    "piramida",
    "env",
    "agents",
    "training",
    "eval",
    "configs",
)

_IMPORTS = """
import importlib.resources, json, piramida, piramida.env, piramida.agents, piramida.training, piramida.eval
toml = importlib.resources.files("piramida.configs") / "tables" / "russian_12ft.toml"
typed = importlib.resources.files("piramida") / "py.typed"
print(json.dumps([piramida.__file__, toml.is_file(), typed.is_file(), piramida.env.Table.default().width]))
"""


def _clean_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def _run(python: str | Path, code: str, cwd: Path) -> list[object]:
    import json

    out = subprocess.run(
        [str(python), "-c", code],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_clean_env(),
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_imports_from_any_directory(tmp_path: Path) -> None:
    # cwd is not the repository, so only the installed package can answer.
    _, toml, typed, width = _run(sys.executable, _IMPORTS, tmp_path)
    assert toml is True and typed is True
    assert width == 1.775


def test_the_package_folder_links_to_the_top_level_folders() -> None:
    # Tools that read piramida/ as the import name sees it (pyright,
    # lint-imports, editors) reach the subpackages through these links;
    # setuptools maps the same folders with package-dir.
    import piramida.env

    for name in ("env", "agents", "training", "eval", "configs"):
        link = ROOT / "piramida" / name
        assert link.is_symlink() and link.resolve() == ROOT / name, link
    assert Path(piramida.env.__file__).resolve() == ROOT / "env" / "__init__.py"


def _copy_sources(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.nbi", "*.nbc")
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            # piramida/env and the like stay links, as in the checkout.
            shutil.copytree(src, dest / name, ignore=ignore, symlinks=True)
        else:
            shutil.copy2(src, dest / name)
    return dest


def _build_wheel(tmp_path: Path) -> Path:
    # Build from a copy so that the checkout gets no build/ or egg-info.
    (tmp_path / "src").mkdir()
    src = _copy_sources(tmp_path / "src")
    dist = tmp_path / "dist"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(src),
        ],
        capture_output=True,
        text=True,
        env=_clean_env(),
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    (wheel,) = dist.glob("piramida-*.whl")
    return wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build_wheel(tmp_path_factory.mktemp("wheel"))


def test_wheel_contents(wheel: Path) -> None:
    listed = zipfile.ZipFile(wheel).namelist()
    names = set(listed)
    assert len(names) == len(listed), "a file is in the wheel twice"
    for need in (
        "piramida/__init__.py",
        "piramida/cli.py",
        "piramida/py.typed",
        "piramida/env/table.py",
        "piramida/env/position.py",
        "piramida/env/render/__init__.py",
        "piramida/env/physics/__init__.py",
        "piramida/env/rules/__init__.py",
        "piramida/agents/__init__.py",
        "piramida/training/__init__.py",
        "piramida/eval/__init__.py",
        "piramida/configs/tables/russian_12ft.toml",
        "piramida/web/app.py",
        "piramida/web/static/index.html",
        "piramida/web/static/js/main.js",
        "piramida/web/static/style.css",
    ):
        assert need in names, f"{need} missing from {wheel.name}"
    # Every module file in the source folders is in the wheel.
    for folder in ("env", "agents", "training", "eval"):
        for path in (ROOT / folder).rglob("*.py"):
            if "__pycache__" not in path.parts:
                assert f"piramida/{path.relative_to(ROOT).as_posix()}" in names
    for path in (ROOT / "piramida").rglob("*.py"):
        if "__pycache__" not in path.parts:
            assert path.relative_to(ROOT).as_posix() in names, f"{path} missing from the wheel"
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "piramida = piramida.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_pip_install_into_a_fresh_venv(tmp_path: Path, wheel: Path) -> None:
    """``pip install`` (not editable) into a new venv, then import from a
    temporary directory and run the console script (a few seconds).
    Dependencies come from this venv through a .pth file, so the test needs
    no network; the package itself must come from the fresh venv."""
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300
    )
    py = venv / "bin" / "python"
    where = _run(
        py,
        "import json, sysconfig; print(json.dumps([sysconfig.get_paths()['purelib']]))",
        tmp_path,
    )
    site = Path(str(where[0]))
    (site / "_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    where, toml, typed, _ = _run(py, _IMPORTS, tmp_path)
    assert str(where).startswith(str(venv)), where
    assert toml is True and typed is True
    version = subprocess.run(
        [str(venv / "bin" / "piramida"), "version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert version.returncode == 0 and version.stdout.strip() == "0.1.0", version.stderr
    # `piramida bench` belongs to a source checkout (bench/ is not in the
    # wheel): an installed package says so in one line.
    bench = subprocess.run(
        [str(venv / "bin" / "piramida"), "bench", "physics", "--quick"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert bench.returncode == 2 and "benchmarks need a source checkout" in bench.stderr, bench.stderr
    assert len(bench.stderr.strip().splitlines()) == 1
