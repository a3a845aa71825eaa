"""The commands the README and docs show are real.

Every ``piramida ...`` and ``python -m bench...`` line in a code block of
README.md or docs/*.md names a command that exists and only options that
command has. The cheap ones shown with their output (``$ piramida ...``
followed by what it printed) are run, and each line of the output shown
must appear in what they print now, numbers masked (timings and
simulated values move; the shape of the output must not).
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PIRAMIDA = re.compile(r"^(?:\$ )?(?:\.venv/bin/)?piramida\s+(.*)$")
BENCH = re.compile(r"^(?:\$ )?(?:\.venv/bin/)?python3? -m (bench(?:\.\w+)?)\b(.*)$")
# Shown with output and cheap enough to run (seconds each): these commands,
# unless they name a searching agent or a time budget.
RUNNABLE = {"version", "show", "simulate", "referee", "agents", "play", "suggest", "match"}
COSTLY = re.compile(r"planner|policy:|--budget|--workers")
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def _blocks(path: Path) -> list[list[str]]:
    out: list[list[str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    inside = False
    for line in lines:
        if line.startswith("```"):
            if inside:
                inside = False
            else:
                inside = True
                out.append([])
            continue
        if inside:
            out[-1].append(line)
    return out


def _joined(block: list[str]) -> list[str]:
    """The block's lines with backslash continuations joined."""
    out: list[str] = []
    carry = ""
    for line in block:
        if line.rstrip().endswith("\\"):
            carry += line.rstrip()[:-1] + " "
            continue
        out.append(carry + line)
        carry = ""
    if carry:
        out.append(carry)
    return out


def _shown() -> list[tuple[str, int, str]]:
    found = []
    for path in DOCS:
        for bi, block in enumerate(_blocks(path)):
            for line in _joined(block):
                s = line.strip()
                if PIRAMIDA.match(s) or BENCH.match(s):
                    found.append((path.name, bi, s))
    return found


def _flags(args: str) -> list[str]:
    return sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", args)))


@functools.cache
def _cli_help(words: tuple[str, ...]) -> str:
    res = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "250", "TERMINAL_WIDTH": "250"})
    return res.output if res.exit_code == 0 else ""


def _cli_path(args: str) -> tuple[str, ...]:
    """The longest run of leading words that names a command."""
    words: list[str] = []
    for tok in args.split():
        if not re.fullmatch(r"[a-z][a-z0-9-]*", tok):
            break
        if not _cli_help((*words, tok)):
            break
        words.append(tok)
    return tuple(words)


@functools.cache
def _bench_help(module: str, sub: str = "") -> str:
    argv = [sys.executable, "-m", module, *([sub] if sub else []), "--help"]
    res = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
    return res.stdout if res.returncode == 0 else ""


SHOWN = _shown()


def test_docs_show_commands() -> None:
    assert len(SHOWN) > 20


@pytest.mark.parametrize("doc,block,line", SHOWN, ids=[f"{d}:{b}:{s[:60]}" for d, b, s in SHOWN])
def test_shown_command_exists_with_its_options(doc: str, block: int, line: str) -> None:
    m = PIRAMIDA.match(line)
    if m:
        args = m.group(1).split(" #")[0]
        path = _cli_path(args)
        assert path, f"{doc}: no such command: {line}"
        text = _cli_help(path)
        missing = [f for f in _flags(args) if f not in text]
        assert not missing, f"{doc}: `piramida {' '.join(path)}` has no option {missing}: {line}"
        return
    m = BENCH.match(line)
    assert m
    module, rest = m.group(1), m.group(2).split(" #")[0]
    text = _bench_help(module)
    assert text, f"{doc}: `python -m {module} --help` fails: {line}"
    first = rest.split()[0] if rest.split() else ""
    if re.fullmatch(r"[a-z][a-z0-9-]*", first) and _bench_help(module, first):
        text = _bench_help(module, first)
    missing = [f for f in _flags(rest) if f not in text]
    assert not missing, f"{doc}: `python -m {module}` has no option {missing}: {line}"


def _with_output() -> list[tuple[str, str, list[str]]]:
    """(doc, command, output lines shown) for the cheap commands shown with output."""
    found = []
    for path in DOCS:
        for block in _blocks(path):
            cmd: str | None = None
            shown: list[str] = []
            for line in _joined(block) + ["$ end"]:
                if line.startswith("$ "):
                    if cmd is not None and shown:
                        found.append((path.name, cmd, shown))
                    m = PIRAMIDA.match(line)
                    runnable = m and m.group(1).split()[0] in RUNNABLE and "$(" not in line
                    if runnable and m.group(1).split()[0] != "suggest" and COSTLY.search(line):
                        runnable = False
                    cmd = line[2:] if runnable else None
                    shown = []
                elif cmd is not None and line.strip() and "..." not in line:
                    shown.append(line)
    return found


def _mask(text: str) -> str:
    return " ".join(NUMBER.sub("#", text).split())


WITH_OUTPUT = _with_output()


@pytest.mark.parametrize("doc,cmd,shown", WITH_OUTPUT, ids=[f"{d}:{c[:60]}" for d, c, _ in WITH_OUTPUT])
def test_shown_output_matches(doc: str, cmd: str, shown: list[str], tmp_path: Path) -> None:
    argv = shlex.split(cmd)
    exe = Path(sys.executable).with_name("piramida")
    env = dict(os.environ, COLUMNS="80")
    res = subprocess.run([str(exe), *argv[1:]], cwd=ROOT, capture_output=True, text=True, timeout=180, env=env)
    got = _mask(res.stdout + res.stderr)
    missing = [line for line in shown if _mask(line) not in got]
    assert not missing, f"{doc}: `{cmd}` no longer prints {missing[:3]}"
