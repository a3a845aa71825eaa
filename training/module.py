"""The RLlib module of the shot selector (RLlib 2.60, new API stack, torch).

A ``TorchRLModule`` with ``ValueFunctionAPI`` for PPO around
``agents.policy_net.ShotPolicyNet``: DeepSets over the ball tokens and the
candidate tokens, one logit per candidate, the value from the pooled
context. The mask is applied to the logits here, inside the module, in
every forward pass (RLlib's masking example can still pick masked actions
on the new stack, ray-project/ray#52290; docs/references.md). ``model_config``
is ``policy_net.net_config``'s dict, so ``piramida export`` copies the
weights of ``module.net`` into a policy file that ``agents.policy`` runs
without Ray.
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule

from piramida.agents.policy_net import DEFAULT_NET, build_net


class ShotSelectionModule(TorchRLModule, ValueFunctionAPI):
    """Scores the candidates of ``{"observations", "action_mask"}``."""

    def setup(self) -> None:
        # RLlib adds its default model keys to model_config; the network
        # takes only its own.
        cfg = dict(self.model_config or {})
        self.net = build_net({k: v for k, v in cfg.items() if k in DEFAULT_NET})

    def _split(self, batch: dict[str, Any]) -> tuple[Any, torch.Tensor]:
        obs = batch[Columns.OBS]
        return obs["observations"], obs["action_mask"].float()

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs, mask = self._split(batch)
        cands, ctx = self.net.embed(obs, mask)
        return {Columns.ACTION_DIST_INPUTS: self.net.logits(cands, ctx, mask)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs, mask = self._split(batch)
        cands, ctx = self.net.embed(obs, mask)
        # The context doubles as the value head's input (compute_values).
        return {Columns.ACTION_DIST_INPUTS: self.net.logits(cands, ctx, mask), Columns.EMBEDDINGS: ctx}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            obs, mask = self._split(batch)
            _, embeddings = self.net.embed(obs, mask)
        return self.net.values(embeddings)


def module_spec(net: dict[str, Any] | None = None) -> Any:
    """An ``RLModuleSpec`` of ``ShotSelectionModule`` with the shot env's
    spaces and network ``net``."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from piramida.agents.policy_net import net_config
    from piramida.training.shot_env import action_space, observation_space

    return RLModuleSpec(
        module_class=ShotSelectionModule,
        observation_space=observation_space(),
        action_space=action_space(),
        model_config=net_config(net),
    )


__all__ = ["ShotSelectionModule", "module_spec"]
