"""The value network (torch; imported only where a value file is used):
V(position) for the player about to shoot (docs/training.md, "The learned value").

A DeepSets model over ``value_obs``'s ball tokens: each ball is embedded by
a shared MLP and the embeddings are pooled (mean and max over the present
balls), so the order the balls are listed in changes nothing. The pooled
table and the globals go through an MLP to two outputs: the logit of the
chance that the shooter wins the frame, and (trained in the points games
only) his expected final margin over the target.

A value file (``save_value`` / ``load_value``, the ``model_file`` format)
holds the weights, the network's size, the variant it was trained for, the
observation layout, and the code version, data and training config that
made it; ``torch.load(..., weights_only=True)`` reads it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from piramida.agents import model_file
from piramida.agents.policy_net import pool
from piramida.agents.value_obs import BALL_F, GLOBAL_F, VALUE_OBS_VERSION, mirror
from piramida.env.errors import PiramidaError

FORMAT = "piramida-value"
FORMAT_VERSION = 1
META_KEYS = ("format", "format_version", "obs_version", "code_version", "variant", "net", "config")
DEFAULT_NET: dict[str, int] = {"hidden": 64}


class ValueFileError(PiramidaError):
    """A value file that cannot be used: missing, truncated, tampered with,
    or made for another observation layout."""


def net_config(given: Mapping[str, Any] | None = None) -> dict[str, int]:
    """The network's size, defaults filled in (only ``hidden`` so far)."""
    return model_file.net_config(given, DEFAULT_NET)


class ValueNet(nn.Module):
    """``(win logit, margin)`` of each table in a batch of ``balls`` (B, N,
    BALL_F) and ``globals`` (B, GLOBAL_F)."""

    def __init__(self, hidden: int = 64) -> None:
        super().__init__()
        h = hidden
        self.ball_enc = nn.Sequential(nn.Linear(BALL_F, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(2 * h + GLOBAL_F, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 2))

    def forward(self, balls: torch.Tensor, globals_: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.head(torch.cat([pool(self.ball_enc(balls), balls[..., -1]), globals_], -1))
        return out[:, 0], out[:, 1]


def mirrored(net: ValueNet, balls: np.ndarray, globals_: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """(win chance, margin) of each table: the mean over the table and its
    mirror image, which are worth the same (value_obs). No gradients."""
    b = torch.as_tensor(balls)
    g = torch.as_tensor(globals_)
    with torch.no_grad():
        logit, margin = net(torch.cat([b, torch.as_tensor(mirror(balls))]), torch.cat([g, g]))
    n = len(b)
    return 0.5 * (torch.sigmoid(logit[:n]) + torch.sigmoid(logit[n:])), 0.5 * (margin[:n] + margin[n:])


def build_net(config: Mapping[str, Any] | None = None) -> ValueNet:
    return ValueNet(**net_config(config))


def save_value(path: str | Path, net: ValueNet, meta: Mapping[str, Any]) -> dict[str, Any]:
    """Write a value file: the weights of ``net`` and ``meta`` (``variant``,
    ``net``, ``config``, ``code_version``; format and layout filled in)."""
    full = {"format": FORMAT, "format_version": FORMAT_VERSION, "obs_version": VALUE_OBS_VERSION} | {
        k: meta[k] for k in ("code_version", "variant", "net", "config")
    }
    return model_file.save_model(path, net.state_dict(), full, META_KEYS)


def load_value(path: str | Path) -> dict[str, Any]:
    """A value file's contents, checked (``ValueFileError`` otherwise)."""
    versions = {"format_version": FORMAT_VERSION, "obs_version": VALUE_OBS_VERSION}
    return model_file.load_model(path, FORMAT, META_KEYS, versions, ValueFileError, "value")


class ValueModel:
    """A loaded value file, ready to score tables: ``win(balls, globals)``
    -> the shooter's chance of winning each table of the batch."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.data = load_value(self.path)
        self.variant: str = self.data["variant"]
        try:
            self.net = build_net(self.data["net"])
            self.net.load_state_dict(self.data["state_dict"], strict=True)
        except (RuntimeError, ValueError, TypeError) as exc:
            raise ValueFileError(f"{self.path}: its weights do not fit its network: {str(exc).splitlines()[0]}") from None
        self.net.eval()
        # A round's batch is a few hundred small tables: more threads only
        # contend with the physics and with the other game workers.
        torch.set_num_threads(1)
        #: Inference calls made (one per halving round in the planner) and
        #: the wall and CPU seconds they took (bench/value_cost.py).
        self.calls = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    def predict(self, balls: np.ndarray, globals_: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(win chance, margin) for each table of the batch."""
        t0, c0 = time.perf_counter(), time.thread_time()
        self.calls += 1
        win, margin = mirrored(self.net, balls, globals_)
        out = win.numpy().astype(float), margin.numpy().astype(float)
        self.seconds += time.perf_counter() - t0
        self.cpu_seconds += time.thread_time() - c0
        return out

    def win(self, balls: np.ndarray, globals_: np.ndarray) -> np.ndarray:
        return self.predict(balls, globals_)[0]


__all__ = [
    "DEFAULT_NET",
    "FORMAT",
    "ValueFileError",
    "ValueModel",
    "ValueNet",
    "build_net",
    "load_value",
    "mirrored",
    "net_config",
    "save_value",
]
