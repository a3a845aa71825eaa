"""What the analysis board says of a frame: the win-probability bar and
each shot's loss against the best suggestion (docs/ui.md, "The analysis
board").

``win_chance(game)``: player 1's (p0's) chance of winning the frame from
the state ``game`` is in, by the variant's shipped value network
(models/{variant}_value.pt, agents/value_net.py), read as the planner reads
it: the network scores the table for whoever shoots next; after a foul the
chooser takes whichever of shooting and handing the table over is better
for him; a frame decided is 1 or 0, a drawn one and the lag 0.5. A variant
without a value network has no bar (``why_no_value`` says why).

``analyse_shot``: the suggestion ``/api/suggest`` makes (the planner,
``agents.suggestions.suggestions_for``, at ``SEARCH_SIMS`` simulated strokes,
with the value network where there is one), then the best shot and the
shot played are each sampled ``EVAL_SAMPLES`` times under the board's
noise with the same noise draws, and valued as the planner values a sample.
The loss is the best shot's mean less the played one's (0 when the played
one does as well): the shooter's win probability where the variant has a
value network, else the planner's points and turn value in pots (its
``Valuation.unit``). ``LABELS`` name the losses as lichess does.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

MODELS = Path(__file__).resolve().parents[2] / "models"
#: Simulated strokes the suggestion's search may spend.
SEARCH_SIMS = 200
#: Noisy samples of the best shot and of the shot played, the same draws for both.
EVAL_SAMPLES = 64
#: Loss thresholds of each label, in win probability (lichess's cut-offs on
#: its winning-chances scale, 0.1 / 0.2 / 0.3 of [-1, 1], read on [0, 1])
#: and, without a value network, in pots.
THRESHOLDS: dict[str, tuple[float, float, float]] = {"win": (0.05, 0.10, 0.15), "pots": (0.25, 0.5, 1.0)}
LABELS = ("inaccuracy", "mistake", "blunder")
#: The skill whose pot-probability model feeds the network's prior inputs
#: (the self-play its training data came from played at ``pro`` noise).
PRIOR_SKILL = "pro"


def value_file(variant: str) -> Path | None:
    """The shipped value network of ``variant``, or None."""
    path = MODELS / f"{variant}_value.pt"
    return path if path.is_file() else None


def why_no_value(variant: str) -> str | None:
    """Why ``variant`` has no win-probability bar, or None when it has one."""
    if value_file(variant) is not None:
        return None
    shipped = sorted(p.name.removesuffix("_value.pt") for p in MODELS.glob("*_value.pt"))
    have = ", ".join(shipped) if shipped else "no variant"
    return f"no value network for {variant}: models/ has one for {have} only"


@lru_cache(maxsize=8)
def value_model(variant: str) -> Any:
    """The loaded value network of ``variant`` (agents.value_net.ValueModel), or None."""
    path = value_file(variant)
    if path is None:
        return None
    from piramida.agents.value_net import ValueModel

    return ValueModel(path)


def label(loss: float | None, unit: str) -> str | None:
    """The label of a loss in ``unit`` ("win" or "pots"), None below the first threshold."""
    if loss is None:
        return None
    out = None
    for name, cut in zip(LABELS, THRESHOLDS[unit], strict=True):
        if loss >= cut - 1e-12:
            out = name
    return out


def win_chance(game: Any) -> float | None:
    """p0's chance of winning the frame from ``game``'s state (module
    docstring); None without a value network."""
    st = game.state
    if st.over:
        return 0.5 if st.winner is None else (1.0 if st.winner == 0 else 0.0)
    model = value_model(game.variant)
    if model is None:
        return None
    if st.next.kind not in ("shot", "choice") or st.next.player is None:
        return 0.5
    import numpy as np

    from piramida.agents.planner_value import Valuation, next_shooter, prior_features
    from piramida.agents.shots.context import Context
    from piramida.agents.shots.probability import PotModel
    from piramida.agents.value_obs import encode, target_of
    from piramida.env.errors import PiramidaError
    from piramida.env.view import GameView

    view = GameView.of(game)
    pot_model = PotModel.of(PRIOR_SKILL)
    ctx = Context(view, None, pot_model)
    race = Valuation("race", pot_model)
    pos = st.position
    who, hand, choose = next_shooter(_Decision(st))
    owed = st.pending.balls_owed() if st.pending is not None else (0, 0)

    def row(seat: int) -> tuple[Any, Any]:
        try:
            cues = [c for c in game.referee.allowed_cue_balls(pos.replace(to_move=seat)) if c in pos]
        except PiramidaError:
            cues = []
        prior = prior_features(race, ctx, pos, seat, hand, owed)
        return encode(pos, seat, cues, target_of(game.referee), hand, owed, game.options, prior)

    seats = [who, 1 - who] if choose else [who]
    rows = [row(s) for s in seats]
    win = model.win(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]))
    w = float(win[0])
    if choose:
        w = max(w, 1.0 - float(win[1]))
    return round(w if who == 0 else 1.0 - w, 4)


class _Decision:
    """A game state read as the ruling that left it (``next``, ``state``),
    which is what ``planner_value.next_shooter`` reads."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.next = state.next


def ranking_spec(variant: str) -> str:
    """The suggestion's agent: the planner, valuing samples with the
    variant's value network where there is one."""
    path = value_file(variant)
    return "planner" if path is None else f"planner:value={path}"


def analyse_shot(game: Any, shot: Any, noise: str, seed: int) -> dict[str, Any]:
    """The loss of playing ``shot`` in ``game``'s state against the best
    suggestion there (module docstring): ``best`` (the shot's text),
    ``best_description``, ``best_value``, ``played_value``, ``loss``,
    ``unit`` ("win": the shooter's win probability; "pots"), ``label``,
    ``samples``. A ``PiramidaError`` where nothing can be suggested."""
    from piramida.agents.base import ruled_view
    from piramida.agents.planner import Allowance, Arm
    from piramida.agents.shots.candidates import Candidate
    from piramida.agents.shots.context import Context
    from piramida.agents.suggestions import ranking_agent, suggestions_for
    from piramida.env.view import GameView

    skill = PRIOR_SKILL if noise == "none" else noise
    ranker = ranking_agent(ranking_spec(game.variant), None, skill, seed, SEARCH_SIMS)
    best = suggestions_for(game.position, ranker, 1, game.variant).plans[0]
    view = ruled_view(GameView.of(game))
    ctx = Context(view, Allowance(None, 2 * EVAL_SAMPLES).start(), ranker.model)
    arms = [Arm(Candidate(best.shot, best.kind, best.line)), Arm(Candidate(shot, "played"))]
    ranker.evaluate(ctx, arms)
    best_value, played_value = arms[0].mean, arms[1].mean
    unit = "win" if ranker.valuation.win_chance(ctx) else "pots"
    scale = 1.0 if unit == "win" else ranker.valuation.unit(game.position, ctx)
    loss = max(0.0, (best_value - played_value) / scale)
    return {
        "best": best.shot.to_text(),
        "best_description": best.description,
        "best_value": round(best_value / scale, 4),
        "played_value": round(played_value / scale, 4),
        "loss": round(loss, 4),
        "unit": unit,
        "label": label(round(loss, 4), unit),
        "samples": arms[1].n,
        "sims": SEARCH_SIMS,
    }


__all__ = [
    "EVAL_SAMPLES",
    "LABELS",
    "SEARCH_SIMS",
    "THRESHOLDS",
    "analyse_shot",
    "label",
    "ranking_spec",
    "value_file",
    "value_model",
    "why_no_value",
    "win_chance",
]
