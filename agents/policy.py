"""The ``policy`` agent: a trained shot-selection network, one forward pass
a decision, no search (docs/training.md).

``policy:path=models/free_policy.pt`` loads a policy file written by
``piramida export`` (``save_policy``): a plain ``torch.save`` of a dict
that ``torch.load(path, weights_only=True)`` reads - the network's
weights, its size, the feature layouts it was trained on
(``LAYOUT_VERSION`` of the candidates, ``obs_version`` of the
observation), the variant, noise preset and candidate search it trained
with, the code version and training config that made it, and a SHA-256
digest of all of it. A file that is missing, truncated, edited, or made
for other layouts is a one-line ``PolicyFileError``.

The agent lists the decision's options (``policy_obs.options``: the
candidates of the search it trained with, or of ``search=NAME``, or the
choices offered), runs
the network once and plays the highest-scoring option. Deterministic.
torch is imported when an agent is built, never by ``piramida.agents``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from piramida.agents import model_file
from piramida.agents.base import Action, GameView, NoLegalShotError, ruled_view, why_no_shot
from piramida.agents.planner_value import Valuation
from piramida.agents.plans import Plan, describe
from piramida.agents.policy_obs import (
    SEARCHES,
    K,
    Option,
    cand_row,
    obs_version,
    observe,
    options,
    select,
)
from piramida.agents.shots.candidates import LAYOUT_VERSION, Candidate
from piramida.agents.shots.context import Context
from piramida.agents.shots.probability import PotModel
from piramida.env.errors import PiramidaError

FORMAT = "piramida-policy"
FORMAT_VERSION = 1
#: The keys of a policy file besides the weights and the digest.
META_KEYS = (
    "format",
    "format_version",
    "layout_version",
    "obs_version",
    "code_version",
    "variant",
    "noise",
    "search",
    "net",
    "config",
)


class PolicyFileError(PiramidaError):
    """A policy file that cannot be used: missing, truncated, tampered with,
    or made for another feature layout."""


def digest(meta: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """SHA-256 over the metadata (as sorted JSON) and every tensor's name,
    shape, dtype and bytes (``model_file.digest``)."""
    return model_file.digest(meta, state, META_KEYS)


def save_policy(path: str | Path, state: Mapping[str, Any], meta: Mapping[str, Any]) -> dict[str, Any]:
    """Write a policy file: ``state`` (the network's state dict) and ``meta``
    (``variant``, ``noise``, ``search``, ``net``, ``config``,
    ``code_version``; the format and layout versions are filled in)."""
    full = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "layout_version": LAYOUT_VERSION,
        "obs_version": obs_version(meta["variant"]),
    } | {k: meta[k] for k in ("code_version", "variant", "noise", "search", "net", "config")}
    return model_file.save_model(path, state, full, META_KEYS)


def load_policy(path: str | Path) -> dict[str, Any]:
    """A policy file's contents, checked (``PolicyFileError`` otherwise)."""
    versions = {"format_version": FORMAT_VERSION, "layout_version": LAYOUT_VERSION}
    data = model_file.load_model(path, FORMAT, META_KEYS, versions, PolicyFileError, "policy")
    want = obs_version(str(data["variant"]))
    if data["obs_version"] != want:
        raise PolicyFileError(
            f"{path} was made for obs_version {data['obs_version']}, this code has {want} for {data['variant']}: re-export or retrain it"
        )
    if data["search"] not in SEARCHES:
        raise PolicyFileError(f"{path}: unknown candidate search {data['search']!r}")
    return data


def best_first(logits: Any, top: int) -> list[int]:
    """Indices of the ``top`` highest logits, best first; ties keep the
    options' order, as argmax does."""
    scores = [float(x) for x in logits]
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:top]


class PolicyAgent:
    """Plays the best option by a trained network (see the module docstring)."""

    name = "policy"

    def __init__(
        self, path: str | Path, noise: str | None = None, seed: int | None = None, search: str | None = None
    ) -> None:
        from piramida.agents.policy_net import build_net

        self.path = Path(path)
        self.data = load_policy(self.path)
        self.variant: str = self.data["variant"]
        #: The candidates' skill: the file's noise preset unless told otherwise.
        self.noise = noise if noise is not None else self.data["noise"]
        #: Its options' search: the file's (what it was trained on) unless
        #: told otherwise (``policy:...:search=lean``: the network scores
        #: any search's options from their features).
        self.search = SEARCHES[search if search is not None else self.data["search"]]
        try:
            self.net = build_net(self.data["net"])
            self.net.load_state_dict(self.data["state_dict"], strict=True)
        except (RuntimeError, ValueError, TypeError) as exc:
            raise PolicyFileError(f"{self.path}: its weights do not fit its network: {str(exc).splitlines()[0]}") from None
        self.net.eval()
        self.seed = seed
        self.last_option: Option | None = None
        self.last_intent: tuple[str, ...] = ()

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed

    def check_variant(self, view: GameView) -> None:
        """Refuse a decision of another variant: the observation fits any
        variant, so the network would play on with choices learned for
        another game."""
        if view.variant != self.variant:
            raise PiramidaError(f"policy: {self.path} was trained for {self.variant}, not {view.variant}")

    def logits(self, view: GameView, opts: Sequence[Option]) -> Any:
        """The network's logits for the options ``opts`` of ``view``'s
        decision (one forward pass)."""
        import torch

        obs = observe(view, opts)
        with torch.no_grad():
            batch = {k: torch.as_tensor(v).unsqueeze(0) for k, v in obs["observations"].items()}
            logits, _ = self.net(batch, torch.as_tensor(obs["action_mask"]).unsqueeze(0))
        return logits[0, : len(opts)]

    def scores(self, view: GameView) -> tuple[list[Option], Any]:
        """The decision's options and the network's logits for them."""
        self.check_variant(view)
        view = ruled_view(view)
        opts = options(view, self.noise, self.search)
        return opts, self.logits(view, opts)

    def ranked(
        self, view: GameView, cands: Sequence[Candidate], top: int, rng: np.random.Generator | None = None
    ) -> list[tuple[int, float]]:
        """(index into ``cands``, logit) of the ``top`` candidates the
        network likes best, best first: the prior a planner samples
        (``planner:prior=...``), ``cands`` being a shot decision's
        candidates made by someone else for a player of the file's skill.
        Only the ``K`` that ``policy_obs.select`` keeps can be chosen. With
        ``rng`` the ``top`` are drawn from the network's distribution
        without replacement instead (Gumbel-top-k: the logits plus Gumbel
        noise, best first, and the logits given with their noise), so that
        self-play samples the candidates the network does not favour yet."""
        self.check_variant(view)
        kept = select(cands, K)
        where = {id(c): i for i, c in enumerate(cands)}
        logits = np.asarray(self.logits(view, [Option(c.shot, cand_row(view, c), c) for c in kept]), np.float64)
        if rng is not None:
            logits = logits + rng.gumbel(size=logits.shape)
        return [(where[id(kept[i])], float(logits[i])) for i in best_first(logits, max(int(top), 1))]

    def act(self, view: GameView) -> Action:
        opts, logits = self.scores(view)
        best = opts[int(logits.argmax())]
        self.last_option = best
        c = best.candidate
        if c is not None and c.kind == "pot" and c.line is not None:
            self.last_intent = ("pot", c.line.target, c.line.pocket)
        elif c is not None:
            self.last_intent = (c.kind,)
        return best.action

    def plan(self, view: GameView, top: int = 3) -> list[Plan]:
        """The ``top`` options of a shot decision by the network's
        probability of choosing them, best first (the first is what ``act``
        plays), as the planner's ``Plan``s with ``basis`` "policy": what a
        policy knows without sampling - ``value`` the probability,
        ``p_pot`` the candidate's pot-probability estimate, ``p_foul`` (0
        or 1) and ``expected_points`` from its noise-free stroke, ``samples``
        0, the planner's description. ``piramida suggest --agent policy:...``.

        Refuses a decision that is not a shot (``PiramidaError``) and a
        position without a legal shot (``NoLegalShotError``), as the
        planner does."""
        import torch

        view = ruled_view(view)
        if view.kind != "shot":
            raise PiramidaError(f"policy: a {view.kind} is pending, not a shot (position: {view.position.to_text()})")
        why = why_no_shot(view)
        if why is not None:
            raise NoLegalShotError(f"{why} (position: {view.position.to_text()})")
        opts, logits = self.scores(view)
        probs = torch.softmax(logits.double(), dim=0).tolist()
        order = best_first(logits, max(int(top), 0))
        model = PotModel.of(self.noise)
        ctx = Context(view, None, model)
        points = Valuation("auto", model)
        plans: list[Plan] = []
        for i in order:
            c = opts[i].candidate
            if c is None:  # a shot decision's options are candidates
                continue
            ruling = c.trial.ruling if c.trial is not None else None
            plans.append(
                Plan(
                    shot=c.shot,
                    kind=c.kind,
                    p_pot=float(c.p),
                    p_foul=0.0 if ruling is not None and ruling.legal else 1.0,
                    expected_points=points.immediate(ctx, ruling)[0] if ruling is not None else 0.0,
                    value=float(probs[i]),
                    samples=0,
                    description=describe(ctx, c),
                    line=c.line,
                    basis="policy",
                )
            )
        return plans


__all__ = ["FORMAT", "FORMAT_VERSION", "PolicyAgent", "PolicyFileError", "digest", "load_policy", "save_policy"]
