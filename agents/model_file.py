"""Trained-model files: the policy files of ``agents.policy`` and the value
files of ``agents.value_net`` share one format.

A model file is a plain ``torch.save`` of a dict that
``torch.load(path, weights_only=True)`` reads: metadata (strings, numbers,
small dicts: the format, its version, the feature layouts, the code version
and config that made it), ``state_dict`` (the network's tensors) and
``digest``, a SHA-256 over the metadata as sorted JSON and every tensor's
name, shape, dtype and bytes. A file that is missing, truncated, edited or
made for other layouts is a one-line error of the caller's class.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from piramida.env.errors import PiramidaError


def net_config(given: Mapping[str, Any] | None, defaults: Mapping[str, int]) -> dict[str, int]:
    """A network's size keys: ``defaults`` with ``given`` over them; an
    unknown key is a ``ValueError`` naming the known ones."""
    out = dict(defaults)
    for k, v in dict(given or {}).items():
        if k not in defaults:
            raise ValueError(f"unknown network key {k!r}; known: {', '.join(defaults)}")
        out[k] = int(v)
    return out


def digest(meta: Mapping[str, Any], state: Mapping[str, Any], keys: Sequence[str]) -> str:
    """SHA-256 over ``meta``'s ``keys`` (as sorted JSON) and every tensor's
    name, shape, dtype and bytes."""
    h = hashlib.sha256(json.dumps({k: meta[k] for k in keys}, sort_keys=True).encode())
    for name in sorted(state):
        t = state[name].detach().cpu().contiguous()
        h.update(f"{name}:{tuple(t.shape)}:{t.dtype}".encode())
        h.update(t.numpy().tobytes())
    return h.hexdigest()


def save_model(path: str | Path, state: Mapping[str, Any], meta: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """Write ``meta``'s ``keys``, the weights ``state`` and their digest to
    ``path``; returns what was written."""
    import torch

    full = {k: meta[k] for k in keys}
    weights = {k: v.detach().cpu().clone() for k, v in state.items()}
    data = dict(full, state_dict=weights, digest=digest(full, weights, keys))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(data, path)
    return data


def load_model(
    path: str | Path,
    fmt: str,
    keys: Sequence[str],
    versions: Mapping[str, int],
    error: type[PiramidaError],
    what: str,
) -> dict[str, Any]:
    """A model file's contents, checked: its ``format`` is ``fmt``, it has
    every key of ``keys``, each of ``versions`` matches, its weights are a
    dict of tensors and its digest holds. ``error(...)`` with one line
    otherwise (``what`` names the kind of file in it)."""
    import torch

    p = Path(path)
    if not p.is_file():
        raise error(f"{what} file {str(p)!r} not found")
    try:
        data = torch.load(p, weights_only=True, map_location="cpu")
    except Exception as exc:  # noqa: BLE001 - a damaged zip or pickle fails in many ways
        raise error(f"{p} is not a readable {what} file (truncated or damaged?): {type(exc).__name__}") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise error(f"{p} is not a piramida {what} file")
    missing = [k for k in (*keys, "state_dict", "digest") if k not in data]
    if missing:
        raise error(f"{p} lacks {', '.join(missing)}")
    for key, want in versions.items():
        if data[key] != want:
            raise error(f"{p} was made for {key} {data[key]}, this code has {want}: re-export or retrain it")
    state = data["state_dict"]
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise error(f"{p}: its weights are not a dict of tensors")
    try:
        ok = digest(data, state, keys) == data["digest"]
    except (TypeError, ValueError, KeyError):
        ok = False
    if not ok:
        raise error(f"{p}: its digest does not match its contents (edited or damaged)")
    return data


__all__ = ["digest", "load_model", "net_config", "save_model"]
