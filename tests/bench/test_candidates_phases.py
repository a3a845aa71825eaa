"""bench.candidates_phases: the phases and kernels it reports add up and
its wrappers are taken off after the run."""

from __future__ import annotations

import importlib

from bench.candidates_phases import KERNELS, PHASES, measure


def test_phases_and_kernels_of_a_few_positions() -> None:
    before = {(m, n): getattr(importlib.import_module(m), n) for _, m, n in PHASES}
    before.update({(m, n): getattr(importlib.import_module(m), n) for m, n in KERNELS})
    out = measure(limit=4)
    assert out["positions"] == 4 and out["mean_ms"] > 0
    phases = out["phases"]
    top = sum(v["ms"] for k, v in phases.items() if "part_of" not in v)
    assert abs(top - out["mean_ms"]) < 0.01 * out["mean_ms"] + 0.01
    assert phases["pots"]["ms"] >= phases["refine"]["ms"] > 0
    k = out["kernels"]
    assert k["secant_search"]["calls"] > 0 and k["secant_search"]["us_per_call"] > 0
    assert 0 < out["kernels_share"] < 1 and 0 < out["referee_share"] < 1
    assert out["referee_ms"]["rulings"] > 0 and out["referee_ms"]["keys"] > 0
    assert sum(v["ms"] for v in k.values()) <= out["mean_ms"]
    # The rest is the total less the kernels and the referee.
    rest = out["mean_ms"] * (1 - out["kernels_share"] - out["referee_share"])
    assert 0 < out["python_ms"] < out["mean_ms"]
    assert abs(out["python_ms"] - rest) < 0.01 * out["mean_ms"] + 0.01
    after = {key: getattr(importlib.import_module(key[0]), key[1]) for key in before}
    assert all(after[key] is before[key] for key in before)
