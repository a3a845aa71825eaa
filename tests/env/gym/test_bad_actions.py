"""Out-of-space actions, for every env flavour (decode.py's contract).

Hypothesis throws garbage at the single-agent env, ``FlatActionWrapper``,
``MultiAgentPyramidCore`` (the logic of RLlib's ``MultiAgentPyramid``; the
ray class itself is checked in ``test_rllib``) and ``PyramidAEC``, Dict and
flat: numbers at the edges, NaN and infinity, 10**400, negative indices,
bools, None, strings, nested lists, wrong shapes and dtypes, dicts with
missing or unknown keys. Each action is labelled by an oracle written from
decode.py's docstring (independent of its code), and the env must either
refuse it with a one-line ``InvalidActionError`` and change nothing, or
play it exactly as the documented correction of it; either way a valid
action can be taken afterwards.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import piramida.env.gym as pg
from piramida.env.gym.aec import PyramidAEC
from piramida.env.gym.decode import InvalidActionError, check_action, decode
from piramida.env.gym.encode import action_mask, legal
from piramida.env.gym.multi import MultiAgentPyramidCore
from piramida.env.gym.opponents import random_action
from piramida.env.gym.spaces import N_CHOICES, N_POCKETS, N_SHOT, N_SLOTS
from piramida.env.gym.wrappers import FLAT_SIZE, unflatten_action

SIZES = {"ball": N_SLOTS, "call_ball": N_SLOTS, "call_pocket": N_POCKETS, "choice": N_CHOICES}
KEYS = (*SIZES, "shot")
FLAVOURS = ("single", "flat", "multi", "multi_flat", "aec", "aec_flat")
VARIANTS = ("free", "five_ball", "classic71", "nevskaya")
DOCUMENTED = {"ball", "call_ball", "choice", "place"}  # decode.py's named corrections


@dataclass(frozen=True)
class G:
    """A generated value, whether the docstring says it is accepted, and
    what it is read as when it is (an index, or the clipped numbers)."""

    value: Any
    ok: bool
    canon: Any = None


# ------------------------------------------------------------------ oracle
HUGE = (10**400, -(10**400), 2**63, 2**64, -(2**63) - 1)
JUNK = (None, "fast", "", "3", b"1", complex(1, 0), {}, object(), Ellipsis)


def _weighted(*branches: tuple[int, st.SearchStrategy[G]]) -> st.SearchStrategy[G]:
    """One of the strategies, each ``weight`` times as likely (one_of draws
    its branches about uniformly, whatever the repetitions)."""
    pick = [s for w, s in branches for _ in range(w)]
    return st.integers(0, len(pick) - 1).flatmap(lambda i: pick[i])


def discrete(n: int) -> st.SearchStrategy[G]:
    ok = st.integers(0, n - 1)
    forms = [
        lambda k: k,
        np.int64,
        np.uint8,
        float,
        np.float32,
        np.array,
        lambda k: np.array([k]),
        lambda k: np.array([[k]], np.float64),
        lambda k: [k],
        lambda k: (k,),
    ]
    good = st.tuples(ok, st.sampled_from(forms)).map(lambda t: G(t[1](t[0]), True, t[0]))

    def of_float(f: float) -> G:
        fine = math.isfinite(f) and f.is_integer() and 0 <= f < n
        return G(f, fine, int(f) if fine else None)

    bad = st.one_of(
        st.integers(max_value=-1).map(lambda k: G(k, False)),
        st.integers(min_value=n).map(lambda k: G(k, False)),
        st.sampled_from(HUGE).map(lambda k: G(k, False)),
        st.sampled_from([-1, n, 2**40]).map(lambda k: G(np.int64(k), False)),
        st.sampled_from([True, False, np.bool_(True), np.array(True), [True]]).map(
            lambda v: G(v, False)
        ),
        st.sampled_from(JUNK).map(lambda v: G(v, False)),
        st.sampled_from(
            [[], [0, 1], np.zeros(2, int), [None], [np.nan], [10**400], [[0], [1]]]
        ).map(lambda v: G(v, False)),
        st.sampled_from([np.nan, np.inf, -np.inf, 0.5, n - 0.5, 1e308, -1e-300]).map(
            lambda f: G(f, False)
        ),
    )
    return _weighted((8, good), (1, st.floats().map(of_float)), (1, bad))


def _canon(xs: list[float]) -> np.ndarray:
    return np.clip(np.array(xs, np.float64), -1.0, 1.0)


FIN = st.floats(allow_nan=False, allow_infinity=False)
EDGE = st.sampled_from([-1.0, 1.0, 0.0, -0.0, 1.0000001, -1e308, 1e308, 5e-324, 3e38, -3e38])
NUM = st.one_of(FIN, EDGE, st.integers(-(10**20), 10**20))  # Python numbers: all real
POISON = st.sampled_from(
    [np.nan, np.inf, -np.inf, 10**400, True, np.bool_(False), None, "fast", complex(1, 1), [0.1]]
)
FORMS = ("list", "tuple", "float64", "float32", "int64")


@st.composite
def _good_reals(draw: st.DrawFn, n: int) -> G:
    """``n`` real numbers: a random vector with a few drawn values (edges
    included) in it, as a list, a tuple or an int or float array."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([1.0, 1.5, 1e6]))
    xs: list[Any] = rng.uniform(-scale, scale, n).tolist()
    form = draw(st.sampled_from(FORMS))
    for i in draw(st.lists(st.integers(0, n - 1), max_size=min(n, 7))):
        xs[i] = draw(NUM if form in ("list", "tuple") else FIN)
    if form == "list":
        return G(xs, True, _canon([float(x) for x in xs]))
    if form == "tuple":
        return G(tuple(xs), True, _canon([float(x) for x in xs]))
    if form == "int64":
        arr = np.clip(np.round(np.array(xs, np.float64)), -(2**62), 2**62).astype(np.int64)
        return G(arr, True, _canon(arr.tolist()))
    dtype = np.float64 if form == "float64" else np.float32
    with np.errstate(over="ignore"):
        arr = np.array(xs, dtype)
    if not np.isfinite(arr).all():  # a float beyond float32's range
        return G(arr, False)
    return G(arr, True, _canon(arr.astype(np.float64).tolist()))


@st.composite
def _poisoned(draw: st.DrawFn, n: int) -> G:
    """``n`` numbers with one that is not a finite real number."""
    good = draw(_good_reals(n))
    xs = list(np.asarray(good.value).tolist())
    p = draw(POISON)
    xs[draw(st.integers(0, n - 1))] = p
    if draw(st.booleans()) and isinstance(p, float):  # NaN or infinity in an array
        return G(np.array(xs, draw(st.sampled_from([np.float32, np.float64]))), False)
    return G(xs, False)


def reals(n: int) -> st.SearchStrategy[G]:
    """``n`` numbers (the shot, or a flat action), good and bad."""
    bad = st.one_of(
        _poisoned(n),
        st.integers(0, n + 3).filter(lambda m: m != n).map(lambda m: G([0.0] * m, False)),
        st.sampled_from([(1, n), (n, 1), (n - 1,), (n + 1,), (), (0,)]).map(
            lambda s: G(np.zeros(s, np.float32), False)
        ),
        st.sampled_from([bool, complex, str, object]).map(lambda t: G(np.zeros(n, t), False)),
        st.sampled_from([*JUNK, 0.5, 3, True, np.float32(0.5)]).map(lambda v: G(v, False)),
        st.just(G([[0.0] * n], False)),
        st.just(G([[0.0], [0.0, 0.0]] + [0.0] * (n - 2), False)),
    )
    return _weighted((5, _good_reals(n)), (2, bad))


@st.composite
def dict_actions(draw: st.DrawFn) -> G:
    parts = {k: draw(discrete(n)) for k, n in SIZES.items()} | {"shot": draw(reals(N_SHOT))}
    action: Any = {k: g.value for k, g in parts.items()}
    ok = all(g.ok for g in parts.values())
    how = draw(st.sampled_from(["dict"] * 6 + ["ordered", "proxy", "drop", "extra", "nondict"]))
    if how == "ordered":
        action = OrderedDict(action)
    elif how == "proxy":
        action = MappingProxyType(action)
    elif how == "drop":
        for k in draw(st.lists(st.sampled_from(KEYS), min_size=1, unique=True)):
            del action[k]
        ok = False
    elif how == "extra":
        key = draw(st.one_of(st.text(max_size=4), st.integers(), st.sampled_from(["Ball", "mask"])))
        if key in KEYS:
            return G(action, ok, {k: g.canon for k, g in parts.items()})
        action[key] = draw(st.sampled_from([0, None, "x"]))
        ok = False
    elif how == "nondict":
        action = draw(
            st.sampled_from(
                [None, 0, "shoot", list(action.values()), tuple(action.items()), np.zeros(5)]
            )
        )
        ok = False
    return G(action, ok, {k: g.canon for k, g in parts.items()} if ok else None)


# ------------------------------------------------------------------ envs
_ENVS: dict[tuple[str, str], Any] = {}


def _env(flavour: str, variant: str) -> Any:
    key = (flavour, variant)
    if key not in _ENVS:
        flat = flavour.endswith("flat")
        kw = {"variant": variant, "max_shots": 60}
        if flavour in ("single", "flat"):
            env: Any = pg.PyramidEnv(**kw)
            _ENVS[key] = pg.FlatActionWrapper(env) if flat else env
        elif flavour.startswith("multi"):
            _ENVS[key] = MultiAgentPyramidCore(kw | {"flat": flat})
        else:
            _ENVS[key] = PyramidAEC(**kw, flat=flat)
    return _ENVS[key]


def _frame(env: Any) -> Any:
    if isinstance(env, PyramidAEC):
        return env.core.frame
    return env.unwrapped.frame if hasattr(env, "unwrapped") else env.frame


def _reset(env: Any, seed: int) -> None:
    env.reset(seed=seed)


def _done(env: Any) -> bool:
    if isinstance(env, PyramidAEC):
        a = env.agent_selection
        return env.terminations[a] or env.truncations[a]
    if isinstance(env, MultiAgentPyramidCore):
        return env._done
    return env.unwrapped._done


def _step(env: Any, action: Any) -> tuple[str, ...]:
    """Step with ``action``; the corrections the env reported for it."""
    if isinstance(env, PyramidAEC):
        agent = env.agent_selection
        env.step(action)
        return tuple(env.infos[agent].get("corrections", ()))
    if isinstance(env, MultiAgentPyramidCore):
        *_, infos = env.step({env.actor(): action})
        return tuple(c for info in infos.values() for c in info["corrections"])
    *_, info = env.step(action)
    return tuple(info["corrections"])


def _valid(env: Any, rng: np.random.Generator) -> Any:
    g = _frame(env).g
    mask = action_mask(g, legal(g).player)
    if _is_flat(env):
        return rng.uniform(-1, 1, FLAT_SIZE).astype(np.float32)
    return random_action(mask, rng)


def _is_flat(env: Any) -> bool:
    if isinstance(env, PyramidAEC):
        return env.core.flat_action
    if isinstance(env, MultiAgentPyramidCore):
        return env.flat_action
    return isinstance(env, pg.FlatActionWrapper)


def _snapshot(env: Any) -> tuple:
    f = _frame(env)
    g = f.g
    out: tuple = (
        len(g.history),
        f.shots,
        g.state.position.to_text(),
        legal(g),
        tuple(f.driver.strokes),
    )
    if isinstance(env, PyramidAEC):
        out += (
            env.agent_selection,
            dict(env._cumulative_rewards),
            dict(env.rewards),
            dict(env.terminations),
            dict(env.truncations),
        )
    return out


# ------------------------------------------------------------------ the property
@pytest.mark.parametrize("flavour", FLAVOURS)
@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant=st.sampled_from(VARIANTS), seed=st.integers(0, 50))
def test_garbage_is_refused_in_one_line_or_played_as_documented(
    flavour: str, data: st.DataObject, variant: str, seed: int
) -> None:
    env = _env(flavour, variant)
    rng = np.random.default_rng(seed)
    _reset(env, seed)
    for _ in range(data.draw(st.integers(0, 3), label="warm-up actions")):
        if _done(env):
            _reset(env, seed + 1)
            break
        _step(env, _valid(env, rng))
    if _done(env):
        _reset(env, seed + 2)
    g = _frame(env).g
    bad = data.draw(reals(FLAT_SIZE) if _is_flat(env) else dict_actions(), label="action")
    before = _snapshot(env)
    lg = before[3]
    event(f"{lg.kind}{' with a call' if lg.call_balls else ''}")
    expected = None
    if bad.ok and not _is_flat(env):
        expected = decode(g, bad.canon)
    try:
        corrections = _step(env, bad.value)
    except InvalidActionError as exc:
        msg = str(exc)
        event("refused")
        assert not bad.ok, f"a valid action was refused: {msg}"
        assert msg and "\n" not in msg and len(msg) < 300, msg
        assert _snapshot(env) == before, "a refused action changed the env"
    else:
        event("accepted")
        assert bad.ok, f"accepted an out-of-space action {bad.value!r}"
        assert set(corrections) <= DOCUMENTED
        if expected is not None:
            # The multi-agent envs report corrections only to an agent that
            # observes next (RLlib's infos follow the observations).
            reported_all = flavour == "single"
            assert (set(corrections) == set(expected.corrections)) or (
                not reported_all and set(corrections) <= set(expected.corrections)
            )
            played = g.history[before[0]]
            if isinstance(expected.action, str):
                assert played["type"] == "choice" and played["choice"] == expected.action
            else:
                assert played["type"] == "shot"
                assert played["shot"] == expected.action.to_dict()
        else:  # flat: the masked argmax never proposes a masked-out option
            assert set(corrections) <= {"place"}
    # Either way the env goes on: a valid action is taken.
    if _done(env):
        _reset(env, seed + 3)
    _step(env, _valid(env, rng))


# ------------------------------------------------------------------ examples
def _pending(variant: str = "free") -> Any:
    env = pg.PyramidEnv(variant, noise="none")
    env.reset(seed=0)
    return env


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        ("ball", np.inf, r"action\['ball'\] must be an integer in \[0, 16\), got inf"),
        ("choice", np.inf, r"action\['choice'\] must be an integer in \[0, 51\)"),
        ("call_pocket", np.inf, r"action\['call_pocket'\] must be an integer in \[0, 6\)"),
        ("call_pocket", np.nan, r"call_pocket"),
        ("ball", 10**400, r"an integer of 1329 bits"),
        ("ball", -1, r"got -1"),
        ("ball", True, r"got True"),
        ("choice", None, r"got None"),
        ("shot", "fast", r"shot parameters must be 7 real numbers, got 'fast'"),
        ("shot", np.zeros((1, 7)), r"7 numbers, got shape \(1, 7\)"),
        ("shot", [0.0] * 6, r"7 numbers, got 6"),
        ("shot", [0.0] * 6 + [np.nan], r"finite"),
        ("shot", [0.0] * 6 + [10**400], r"7 real numbers"),
    ],
)
def test_the_issue_examples_are_clear_errors(key: str, value: Any, match: str) -> None:
    env = _pending()
    act = env.action_space.sample() | {key: value}
    with pytest.raises(InvalidActionError, match=match):
        env.step(act)


def test_integral_floats_and_one_element_arrays_count_as_indices() -> None:
    base = {"ball": 3, "call_ball": 0, "call_pocket": 5, "choice": 2, "shot": np.zeros(7)}
    for ball in (3.0, np.float32(3), np.array(3), np.array([3]), [[3]], (3,), np.uint8(3)):
        assert check_action(base | {"ball": ball}).ball == 3
    shot = check_action(base | {"shot": [5, -5, 0.5, 1e308, -1e308, 0, 2**70]}).shot
    assert shot.tolist() == [5, -5, 0.5, 1e308, -1e308, 0, 2.0**70]  # clipped when decoded


def test_flat_actions_are_checked() -> None:
    env = pg.FlatActionWrapper(pg.PyramidEnv("free", noise="none"))
    env.reset(seed=0)
    for bad in (np.zeros(95), np.full(96, np.nan), np.zeros(96, bool), None, "fast", [0.0] * 97):
        with pytest.raises(InvalidActionError, match="a flat action"):
            env.step(bad)
    v = np.zeros(96)
    v[0] = np.inf
    with pytest.raises(InvalidActionError, match="finite"):
        env.step(v)
    with pytest.raises(InvalidActionError, match="96"):
        unflatten_action(np.zeros((2, 48)))
    env.step(np.full(96, 7.0))  # out of the Box but finite: scores as given, shot clipped


def test_multi_agent_step_needs_a_dict_of_agents() -> None:
    core = MultiAgentPyramidCore({"noise": "none"})
    core.reset(seed=0)
    for bad in (None, [1, 2], "player_0"):
        with pytest.raises(InvalidActionError, match="dict"):
            core.step(bad)  # type: ignore[arg-type]


def test_aec_refusal_keeps_the_rewards() -> None:
    env = PyramidAEC(noise="none")
    env.reset(seed=0)
    env._cumulative_rewards[env.agent_selection] = 0.25  # as if owed from before
    with pytest.raises(InvalidActionError):
        env.step({"ball": np.inf})
    assert env._cumulative_rewards[env.agent_selection] == 0.25
