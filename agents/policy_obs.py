"""A decision as a learner sees it: the options and the observation
(docs/training.md).

The learner does not aim: it chooses among the shot toolbox's candidates
(``shots.candidates``), whose geometry keeps the aim exact, and among the
choices the rules offer after a foul (``view.choices``: shoot or make the
offender shoot, the penalty ball, the ball removed after a свояк, ...).
``options(view, noise, search)`` lists them; ``observe(view, opts)`` turns
the decision into the arrays a network reads:

- ``balls`` (``MAX_BALLS``, ``BALL_F``): one token per ball on the table
  (x / width, y / length, the coloured ball, a ball the player may strike,
  present), padded with zero rows;
- ``candidates`` (``K``, ``CAND_F``): one token per option (``cand_row``),
  padded with zero rows;
- ``globals`` (``GLOBAL_F``): scores over the target, penalty balls owed,
  where the cue ball may be placed, the break, a choice;
- ``action_mask`` (``K``): 1 for a real option.

Nothing in a token names a slot: a candidate carries the positions of the
balls it strikes and aims at rather than their indices, so a network that
pools tokens (``policy_net``) sees the same decision whatever order the
balls and candidates come in. ``OBS_VERSION`` changes with this layout (and
the toolbox's ``LAYOUT_VERSION`` with the candidates' features).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from piramida.agents.base import Action, GameView
from piramida.agents.shots.candidates import (
    PLANNER,
    SEARCHES,
    Candidate,
    Offer,
    Search,
    candidates,
    column,
)
from piramida.agents.shots.ghost import pot_lines
from piramida.agents.shots.strokes import lag_shot
from piramida.env.position import COLOURED
from piramida.env.table import POCKETS

OBS_VERSION = 1
#: What a candidate's ``value`` is divided by before it is clipped to
#: [-3, 3]: five balls' caroms score 4 to 23 points (docs/game_rules.md
#: §5.7), eight on average, and classic 71's pots 1 to 15 (the ball's
#: number), where a pyramid's pot is about one.
VALUE_UNITS = {"five_ball": 8.0, "classic71": 5.0}
#: Variants whose candidate tokens have a layout of their own: the points
#: games scale their points (``VALUE_UNITS``), and five balls describes a
#: stroke that hands the table over by the pot it leaves the opponent's
#: white (``candidates.next_pot_ball``).
VARIANT_OBS_VERSIONS = {"five_ball": 2, "classic71": 2}


def obs_version(variant: str) -> int:
    """The observation layout a policy of ``variant`` reads."""
    return VARIANT_OBS_VERSIONS.get(variant, OBS_VERSION)


#: Options offered per decision (more are cut, see ``select``) and ball tokens.
K = 32
MAX_BALLS = 16
BALL_F = 5
GLOBAL_F = 11
#: Safeties kept when a decision has more than ``K`` candidates: the pots
#: and their position variants fill the rest.
KEEP_SAFETIES = 8
#: What a decision offers of its candidates (``Offer.select``); the search
#: is told, so that it makes no position variant the offer would cut.
OFFER = Offer(K, KEEP_SAFETIES)


KINDS = ("is_pot", "is_bank", "is_svoyak", "is_safety", "is_break")
#: Choices that leave the chooser at the table (the others hand it over).
SELF_SHOOTS = ("shoot", "accept_and_shoot", "break", "rerack_and_break", "ball_in_hand_anywhere")
#: Columns of a candidate token.
CAND_COLUMNS: tuple[str, ...] = (
    *KINDS,
    "is_choice",
    "choice_self",
    "choice_ball",
    "struck_x",
    "struck_y",
    "struck_coloured",
    "target_x",
    "target_y",
    "target_present",
    "target_coloured",
    *(f"pocket_{p}" for p in POCKETS),
    "cut",
    "cue_distance",
    "object_distance",
    "difficulty",
    "p_pot",
    "half_width",
    "v",
    "b",
    "from_hand",
    "rest_on_table",
    "rest_x",
    "rest_y",
    "next_open",
    "next_difficulty",
    "next_p",
    "legal",
    "value",
    "present",
)
CAND_F = len(CAND_COLUMNS)
_C = {name: i for i, name in enumerate(CAND_COLUMNS)}


@dataclass(frozen=True)
class Option:
    """One thing the player may do: a candidate shot or a choice name."""

    action: Action
    features: np.ndarray
    candidate: Candidate | None = None


def options(view: GameView, noise: Any = "pro", search: Search | str = PLANNER) -> list[Option]:
    """The options of ``view``'s decision (at most ``K``, at least one):
    the choices offered, the lag stroke, or the candidate shots of
    ``search`` for a player of skill ``noise``."""
    if isinstance(search, str):
        search = SEARCHES[search]
    if view.kind == "choice":
        return [Option(c, choice_row(view, c)) for c in view.choices[:K]]
    if view.kind == "lag":
        shot = lag_shot(view)
        row = np.zeros(CAND_F, np.float32)
        row[_C["present"]] = 1.0
        return [Option(shot, row)]
    cands = candidates(view, noise, search, offer=OFFER)
    return [Option(c.shot, cand_row(view, c), c) for c in cands]


def select(cands: Sequence[Candidate], k: int) -> list[Candidate]:
    """At most ``k`` candidates: up to ``KEEP_SAFETIES`` safeties, the rest
    pots (and breaks) in the toolbox's order, best first
    (``Offer.select``)."""
    return Offer(k, KEEP_SAFETIES).select(cands)


def _xy(view: GameView, ball: str | None) -> tuple[float, float] | None:
    pos = view.position
    if ball is None or ball not in pos:
        return None
    x, y = pos.xy(ball)
    return x / pos.table.width, y / pos.table.length


def _log_difficulty(d: float) -> float:
    return math.log1p(max(d, 0.0)) / 8.0


#: The feature columns ``cand_row`` reads (``candidates.column``), looked
#: up once: a decision makes a row per candidate.
_F = {
    name: column(name)
    for name in (
        *KINDS, "pocket", "cut", "cue_distance", "object_distance", "difficulty", "p_pot", "half_width", "v", "b",
        "from_hand", "rest_on_table", "next_open", "next_p", "legal", "rest_x", "rest_y", "next_difficulty", "value",
    )
}
#: Columns copied from the features as they are.
_SAME = tuple((_C[name], _F[name]) for name in (*KINDS, "p_pot", "b", "from_hand", "rest_on_table", "next_open",
                                                  "next_p", "legal"))


def cand_row(view: GameView, c: Candidate) -> np.ndarray:
    """The token of candidate ``c`` (``CAND_COLUMNS``). Filled as a list and
    made float32 once (the same rounding as cell by cell)."""
    f = c.features.tolist()
    t = view.position.table
    row = [0.0] * CAND_F
    for k, j in _SAME:
        row[k] = f[j]
    shot = c.shot
    struck = (shot.place[0] / t.width, shot.place[1] / t.length) if shot.place is not None else _xy(view, shot.ball)
    if struck is not None:
        row[_C["struck_x"]], row[_C["struck_y"]] = struck
    row[_C["struck_coloured"]] = float(shot.ball == COLOURED)
    target = _xy(view, c.target)
    if target is not None:
        row[_C["target_x"]], row[_C["target_y"]] = target
        row[_C["target_present"]] = 1.0
    row[_C["target_coloured"]] = float(c.target == COLOURED)
    pocket = int(f[_F["pocket"]])
    if pocket >= 0:
        row[_C[f"pocket_{POCKETS[pocket]}"]] = 1.0
    row[_C["cut"]] = f[_F["cut"]] / 90.0
    row[_C["cue_distance"]] = f[_F["cue_distance"]] / t.length
    row[_C["object_distance"]] = f[_F["object_distance"]] / t.length
    row[_C["difficulty"]] = _log_difficulty(f[_F["difficulty"]])
    row[_C["half_width"]] = min(f[_F["half_width"]], 5.0)
    row[_C["v"]] = f[_F["v"]] / 6.0
    row[_C["rest_x"]] = f[_F["rest_x"]] / t.width
    row[_C["rest_y"]] = f[_F["rest_y"]] / t.length
    row[_C["next_difficulty"]] = _log_difficulty(f[_F["next_difficulty"]])
    # min/max, not np.clip: the same float for a scalar, without a ufunc call.
    row[_C["value"]] = min(max(f[_F["value"]] / VALUE_UNITS.get(view.variant, 1.0), -3.0), 3.0)
    row[_C["present"]] = 1.0
    return np.array(row, dtype=np.float32)


def choice_row(view: GameView, choice: str) -> np.ndarray:
    """The token of a choice: whether the chooser shoots next, and for a
    ball choice (penalty ball, ball removed) where that ball is and how
    easily it pots."""
    row = np.zeros(CAND_F, np.float32)
    row[_C["is_choice"]] = 1.0
    row[_C["present"]] = 1.0
    row[_C["choice_self"]] = float(choice in SELF_SHOOTS)
    if ":" in choice:
        ball = choice.split(":", 1)[1]
        row[_C["choice_ball"]] = 1.0
        row[_C["target_coloured"]] = float(ball == COLOURED)
        xy = _xy(view, ball)
        if xy is not None:
            row[_C["target_x"]], row[_C["target_y"]] = xy
            row[_C["target_present"]] = 1.0
            pos = view.position
            best = min(
                (ln.difficulty for s in pos.ids if s != ball for ln in pot_lines(pos, s, [ball])),
                default=None,
            )
            if best is not None:
                row[_C["difficulty"]] = _log_difficulty(best)
    return row


def target_of(view: GameView) -> float:
    """The variant's target (balls or points to win), at least 1."""
    try:
        return max(1.0, float(view.referee.target()))
    except (AttributeError, KeyError, TypeError, ValueError):
        return 8.0


IN_HAND = (None, "house", "rear_house", "anywhere")


def observe(view: GameView, opts: Sequence[Option]) -> dict[str, Any]:
    """The observation of ``view``'s decision with options ``opts`` (the
    module docstring): ``{"observations": {"balls", "candidates",
    "globals"}, "action_mask"}``, RLlib's action-masking layout."""
    pos = view.position
    t = pos.table
    balls = np.zeros((MAX_BALLS, BALL_F), np.float32)
    cue = set(view.cue_balls)
    for i, b in enumerate(pos.ids[:MAX_BALLS]):
        x, y = pos.xy(b)
        balls[i] = (x / t.width, y / t.length, float(b == COLOURED), float(b in cue), 1.0)
    cands = np.zeros((K, CAND_F), np.float32)
    mask = np.zeros(K, np.float32)
    for i, o in enumerate(opts[:K]):
        cands[i] = o.features
        mask[i] = 1.0
    me = view.player
    target = target_of(view)
    g = np.zeros(GLOBAL_F, np.float32)
    g[0] = min(max(pos.score[me] / target, -4.0), 4.0)
    g[1] = min(max(pos.score[1 - me] / target, -4.0), 4.0)
    g[2] = min(pos.owed[me] / 15.0, 1.0)
    g[3] = min(pos.owed[1 - me] / 15.0, 1.0)
    in_hand = view.in_hand if view.kind != "choice" else None
    g[4 + (IN_HAND.index(in_hand) if in_hand in IN_HAND else 0)] = 1.0
    g[8] = float(pos.is_break)
    g[9] = float(view.kind == "choice")
    g[10] = len(pos.ids) / MAX_BALLS
    return {"observations": {"balls": balls, "candidates": cands, "globals": g}, "action_mask": mask}


def empty_observation() -> dict[str, Any]:
    """An all-zero observation (a player who has nothing to decide)."""
    return {
        "observations": {
            "balls": np.zeros((MAX_BALLS, BALL_F), np.float32),
            "candidates": np.zeros((K, CAND_F), np.float32),
            "globals": np.zeros(GLOBAL_F, np.float32),
        },
        "action_mask": np.zeros(K, np.float32),
    }


__all__ = [
    "BALL_F",
    "CAND_COLUMNS",
    "CAND_F",
    "GLOBAL_F",
    "K",
    "MAX_BALLS",
    "OBS_VERSION",
    "VALUE_UNITS",
    "VARIANT_OBS_VERSIONS",
    "SEARCHES",
    "Option",
    "cand_row",
    "choice_row",
    "empty_observation",
    "obs_version",
    "observe",
    "options",
    "select",
]
