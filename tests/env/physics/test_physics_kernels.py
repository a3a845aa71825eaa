"""Impact kernels on random incoming states: they only ever dissipate."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from piramida.env.physics.arrays import table_arrays
from piramida.env.physics.codes import P_MODEL
from piramida.env.physics.models import BALL_BALL_MODELS, CUSHION_MODELS
from piramida.env.table import Table

TABLE = Table.default()
P = table_arrays(TABLE).P
R, M = TABLE.ball_radius, TABLE.ball_mass


def _energy(s):
    return 0.5 * M * (s[2] ** 2 + s[3] ** 2) + 0.2 * M * R * R * float(s[4:7] @ s[4:7])


speeds = st.floats(-6, 6)
spins = st.floats(-300, 300)


@settings(max_examples=150)
@given(st.sampled_from(sorted(CUSHION_MODELS)), st.floats(0.01, 6), speeds, spins, spins, spins, st.floats(0, 6.283))
def test_cushion_models_rebound_and_dissipate(name, vin, vt, wx, wy, wz, ang):
    code, kernel = CUSHION_MODELS[name]
    nx, ny = float(np.cos(ang)), float(np.sin(ang))
    # Moving into the cushion at vin, along it at vt.
    s = np.array([0.5, 0.5, -vin * nx - vt * ny, -vin * ny + vt * nx, wx, wy, wz])
    e0 = _energy(s)
    kernel(s, nx, ny, P)
    assert s[2] * nx + s[3] * ny >= -1e-12  # leaves (or slides along) the cushion
    assert _energy(s) <= e0 * (1 + 1e-9) + 1e-12


@settings(max_examples=150)
@given(speeds, speeds, speeds, speeds, spins, spins, spins, spins, spins, spins, st.floats(0, 6.283))
def test_ball_ball_conserves_momentum_and_dissipates(v1, v2, v3, v4, a, b, c, d, e, f, ang):
    n = np.array([np.cos(ang), np.sin(ang)])
    si = np.array([0.5, 0.5, v1, v2, a, b, c])
    sj = np.array([0.5 + 2 * R * n[0], 0.5 + 2 * R * n[1], v3, v4, d, e, f])
    closing = (si[2:4] - sj[2:4]) @ n
    p0 = si[2:4] + sj[2:4]
    e0 = _energy(si) + _energy(sj)
    BALL_BALL_MODELS["frictional_inelastic"](si, sj, P)
    assert np.allclose(si[2:4] + sj[2:4], p0, atol=1e-12)
    assert (sj[2:4] - si[2:4]) @ n >= 2e-3 - 1e-12  # they separate
    if closing > 0.01:
        # A real impact only loses energy (the resting-contact push aside).
        assert _energy(si) + _energy(sj) <= e0 * (1 + 1e-9)


def test_models_are_chosen_by_config():
    for name, (code, _) in CUSHION_MODELS.items():
        t = dataclasses.replace(TABLE, physics=dataclasses.replace(TABLE.physics, cushion_model=name))
        assert table_arrays(t).P[P_MODEL] == code
