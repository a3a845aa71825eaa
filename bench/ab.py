"""Two versions of the code, side by side: a benchmark run from an older
commit and from the working tree at the same time, one per CPU, the CPUs
swapped every round.

Run from the repository root::

    .venv/bin/python -m bench.ab OLD [--rounds N] [--field mean_ms] [--json] [-- MODULE ARGS...]

The benchmark (``bench.candidates --json --repeats 2`` unless given after
``--``) must print one JSON object; ``--field`` names the number compared,
a dotted path (``results.0.steps_per_cpu_s``); smaller is better (a time)
unless ``--higher-is-better`` (a rate). Each round runs it from ``OLD`` (a commit,
unpacked with ``git archive`` into a temporary folder and imported from
there, laid out as ``pyproject.toml``'s ``package-dir`` says) and from the
working tree, concurrently, each pinned to its own CPU; the next round
swaps the CPUs. One warm-up run of each, untimed, compiles the old tree's
numba kernels first.

Why this way: a shared machine's speed can drift by 20-40% over minutes,
so runs one after the other compare windows as much as code; two runs at
the same time share the window, and swapping CPUs cancels a difference
between them. One round's ratio can still move by about +-10%: take ten
rounds and read the geometric mean with the spread.

Prints per round the two values and their ratio (old / new, or new / old
for a rate: above 1 the working tree is faster), then the geometric mean, median and range of the
ratios; ``--json`` prints all of it as one object with both code versions
and the command.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BENCH = ["bench.candidates", "--json", "--repeats", "2"]


class ABError(Exception):
    """What stops a comparison, in one line."""


def unpack(commit: str, into: Path) -> str:
    """``commit``'s tree unpacked into ``into``; its full hash."""
    try:
        full = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise ABError(f"{commit!r} is not a commit of this repository") from None
    archive = subprocess.run(["git", "archive", full], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return full


def import_layout(tree: Path, into: Path) -> Path:
    """A folder from which ``import piramida`` finds ``tree``'s code: links
    laid out as ``tree``'s ``pyproject.toml`` maps import names to folders
    (``piramida.env`` is the folder ``env``, and so on)."""
    data = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))
    dirs = data.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    top = dirs.get("piramida")
    if not isinstance(top, str) or not (tree / top).is_dir():
        raise ABError(f"{tree / 'pyproject.toml'}: no package-dir for 'piramida'")
    pkg = into / "piramida"
    pkg.mkdir(parents=True)
    for item in (tree / top).iterdir():
        (pkg / item.name).symlink_to(item)
    for name, folder in dirs.items():
        parts = name.split(".")
        if len(parts) != 2 or parts[0] != "piramida":
            continue
        link = pkg / parts[1]
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(tree / folder)
    return into


def summary(ratios: list[float]) -> dict[str, float]:
    """Geometric mean, median and range of the rounds' ratios."""
    if not ratios:
        raise ABError("no round was run")
    return {
        "geomean_ratio": math.exp(statistics.fmean(math.log(r) for r in ratios)),
        "median_ratio": statistics.median(ratios),
        "min_ratio": min(ratios),
        "max_ratio": max(ratios),
    }


def _pinned(cpu: int | None) -> Any:
    if cpu is None or not hasattr(os, "sched_setaffinity"):
        return None
    return lambda: os.sched_setaffinity(0, {cpu})


def _start(cmd: list[str], env: dict[str, str], cwd: Path, cpu: int | None) -> subprocess.Popen[str]:
    return subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_pinned(cpu))


def _values(procs: list[subprocess.Popen[str]], field: str) -> list[tuple[float, dict[str, Any]]]:
    """Each run's ``field`` and JSON object, old then new; both runs end
    before an error is raised."""
    done = [(p.communicate(), p.returncode) for p in procs]
    out = []
    for ((stdout, stderr), code), which in zip(done, ("old", "new"), strict=True):
        if code != 0:
            tail = (stderr.strip().splitlines() or ["(no output)"])[-1]
            raise ABError(f"the {which} run failed (exit {code}): {tail}")
        try:
            obj = _json_of(stdout)
            out.append((float(field_of(obj, field)), obj))
        except (IndexError, ValueError, KeyError, TypeError):
            raise ABError(f"the {which} run printed no JSON object with a number {field!r}") from None
    return out


def _json_of(stdout: str) -> Any:
    """The JSON object a benchmark printed: all of its output, or (after
    lines of its own) the last line."""
    try:
        return json.loads(stdout)
    except ValueError:
        return json.loads(stdout.strip().splitlines()[-1])


def field_of(obj: Any, path: str) -> Any:
    """``obj``'s value at a dotted ``path`` of keys and list indices
    (``results.0.steps_per_cpu_s``)."""
    for part in path.split("."):
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def compare(
    old: str, bench: list[str], rounds: int, field: str, progress: bool = True, higher_is_better: bool = False
) -> dict[str, Any]:
    if rounds < 1:
        raise ABError(f"--rounds must be at least 1, got {rounds}")
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    pair = (cpus[0], cpus[1]) if len(cpus) >= 2 else (None, None)
    with tempfile.TemporaryDirectory(prefix="piramida-ab-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        full = unpack(old, tree)
        layout = import_layout(tree, Path(tmp) / "import")
        # The compared runs leave the result files as they are (bench/record.py).
        base = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "PIRAMIDA_BENCH_NO_RECORD": "1"}
        old_env = {**base, "PYTHONPATH": f"{layout}{os.pathsep}{tree}"}
        new_env = {**base, "PYTHONPATH": str(ROOT)}
        cmd = [sys.executable, "-m", *bench]
        # Run from the layout's folder: from the tree's own, its folder
        # ``piramida`` (the top package alone) would be imported first.
        check = subprocess.run([sys.executable, "-c", "import piramida.env; print(piramida.env.__file__)"],
                               cwd=layout, env=old_env, capture_output=True, text=True)
        if not check.stdout.strip().startswith(str(layout)):
            raise ABError(f"the old tree's code is not the one imported ({check.stdout.strip() or check.stderr})")
        if progress:
            print("warm-up (the old tree's kernels compile)...", file=sys.stderr, flush=True)
        _values([_start(cmd, old_env, layout, pair[0]), _start(cmd, new_env, ROOT, pair[1])], field)
        rows = []
        for k in range(rounds):
            c_old, c_new = pair if k % 2 == 0 else (pair[1], pair[0])
            (v_old, o), (v_new, n) = _values(
                [_start(cmd, old_env, layout, c_old), _start(cmd, new_env, ROOT, c_new)], field
            )
            num, den = (v_new, v_old) if higher_is_better else (v_old, v_new)
            row = {"round": k, "old_cpu": c_old, "new_cpu": c_new, "old": v_old, "new": v_new,
                   "ratio": num / den if den else math.inf,
                   "old_version": o.get("version"), "new_version": n.get("version")}
            rows.append(row)
            if progress:
                print(f"round {k + 1}/{rounds}: old {v_old:g}  new {v_new:g}  ratio {row['ratio']:.3f}",
                      file=sys.stderr, flush=True)
    return {"old_commit": full, "bench": bench, "field": field, "higher_is_better": higher_is_better, "rounds": rows,
            **summary([r["ratio"] for r in rows])}


def signed(out: dict[str, Any], module: str, given: list[str], as_json: bool) -> bool:
    """``out`` with the code version and the command that made it; printed
    as one JSON object, and True, where ``as_json`` (a results file's
    line), else left to the caller to print as text."""
    from piramida.eval.version import code_version

    out["version"] = code_version()
    out["command"] = shlex.join(["python", "-m", module, *given])
    if as_json:
        print(json.dumps(out))
    return as_json


def main(argv: list[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    argv = list(given)
    bench = DEFAULT_BENCH
    if "--" in argv:
        cut = argv.index("--")
        argv, bench = argv[:cut], argv[cut + 1:] or DEFAULT_BENCH
    ap = argparse.ArgumentParser(prog="python -m bench.ab", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("old", help="the commit to compare the working tree with")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--field", default="mean_ms",
                    help="the JSON field compared, a dotted path of keys and list indices (results.0.rate)")
    ap.add_argument("--higher-is-better", action="store_true",
                    help="the field is a rate, not a time: the ratio is new / old")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    a = ap.parse_args(argv)
    if shutil.which("git") is None or shutil.which("tar") is None:
        print("bench.ab: needs git and tar on the PATH", file=sys.stderr)
        return 2
    try:
        out = compare(a.old, bench, a.rounds, a.field, progress=True, higher_is_better=a.higher_is_better)
    except ABError as exc:
        print(f"bench.ab: {exc}", file=sys.stderr)
        return 2
    if signed(out, "bench.ab", given, a.json):
        return 0
    for r in out["rounds"]:
        print(f"{r['round'] + 1:3d}  old {r['old']:10g}  new {r['new']:10g}  ratio {r['ratio']:.3f}")
    what = "new / old" if a.higher_is_better else "old / new"
    print(f"{what}: geometric mean {out['geomean_ratio']:.3f}, median {out['median_ratio']:.3f}, "
          f"range {out['min_ratio']:.3f}-{out['max_ratio']:.3f} over {len(out['rounds'])} rounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
