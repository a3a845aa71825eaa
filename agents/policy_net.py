"""The shot-selection network (torch; imported only where a policy runs).

A DeepSets model over the tokens of ``policy_obs``: the balls and the
candidates are each embedded by a shared MLP and pooled (mean and max over
the present tokens), so permuting either set leaves the pooled context,
every candidate's score and the value unchanged. Each candidate's logit
is an MLP of its own embedding and the context; masked candidates get
``MASKED`` (not -inf: a row whose options are all masked, the terminal
observation, must still give finite numbers). The value is an MLP of the
context alone. ``training.module`` wraps this network as an RLlib module
and ``agents.policy`` runs it without Ray; both build it from the same
``net_config``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch
from torch import nn

from piramida.agents import model_file
from piramida.agents.policy_obs import BALL_F, CAND_F, GLOBAL_F

#: Added to a masked candidate's logit (float32's min would overflow in sums).
MASKED = -1e9

DEFAULT_NET: dict[str, int] = {"hidden": 64}


def net_config(given: Mapping[str, Any] | None = None) -> dict[str, int]:
    """The network's size, defaults filled in (only ``hidden`` so far)."""
    return model_file.net_config(given, DEFAULT_NET)


def _mlp(n_in: int, hidden: int, n_out: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, n_out))


def pool(x: torch.Tensor, present: torch.Tensor) -> torch.Tensor:
    """Mean and max of the tokens ``x`` (B, N, H) where ``present`` (B, N)."""
    w = present.unsqueeze(-1)
    count = w.sum(1)
    mean = (x * w).sum(1) / count.clamp(min=1.0)
    # A set with no tokens (the terminal observation's candidates) pools to 0.
    mx = torch.where(w > 0, x, torch.full_like(x, -1e4)).amax(1) * (count > 0)
    return torch.cat([mean, mx], -1)


class ShotPolicyNet(nn.Module):
    """Logits over the ``K`` candidate slots and a value, from the
    observation's ``balls``, ``candidates``, ``globals`` and the mask."""

    def __init__(self, hidden: int = 64) -> None:
        super().__init__()
        h = hidden
        self.ball_enc = _mlp(BALL_F, h, h)
        self.cand_enc = _mlp(CAND_F, h, h)
        self.context = nn.Sequential(nn.Linear(4 * h + GLOBAL_F, h), nn.ReLU())
        self.score = _mlp(2 * h, h, 1)
        self.value = _mlp(h, h, 1)

    def embed(self, obs: Mapping[str, torch.Tensor], mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(each candidate's embedding (B, K, H), the context (B, H))."""
        balls = obs["balls"]
        b = torch.relu(self.ball_enc(balls))
        c = torch.relu(self.cand_enc(obs["candidates"]))
        ctx = torch.cat([pool(b, balls[..., -1]), pool(c, mask), obs["globals"]], -1)
        return c, self.context(ctx)

    def logits(self, cands: torch.Tensor, ctx: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        k = cands.shape[1]
        s = self.score(torch.cat([cands, ctx.unsqueeze(1).expand(-1, k, -1)], -1)).squeeze(-1)
        return torch.where(mask > 0, s, torch.full_like(s, MASKED))

    def values(self, ctx: torch.Tensor) -> torch.Tensor:
        return self.value(ctx).squeeze(-1)

    def forward(
        self, obs: Mapping[str, torch.Tensor], mask: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        cands, ctx = self.embed(obs, mask)
        return self.logits(cands, ctx, mask), self.values(ctx)


def build_net(config: Mapping[str, Any] | None = None) -> ShotPolicyNet:
    return ShotPolicyNet(**net_config(config))


__all__ = ["DEFAULT_NET", "MASKED", "ShotPolicyNet", "build_net", "net_config", "pool"]
