"""The match runner: duplicate games between two agents (docs/design.md §7).

Games come in duplicate pairs (docs/references.md, "Evaluation"): games 2k and
2k+1 are frames of the frame driver (env/driver.py) with the same seed and
pair number ``k``, the agents' seats swapped. So they use the same rack (the
same ``Game.new`` seed, so the same seat breaks) and the same execution-noise
streams: a noise stream is keyed by (match seed, pair, seat, shot number of
that seat in the frame), so the agent in seat s gets the same stroke errors
in both games of a pair, and no stream is reused by another match seed or
pair. An agent's illegal action is replaced as the driver documents (the
first choice offered, or a random legal stroke) and counted in
``refused_actions``.

Frames that reach ``max_shots`` without a winner, and frames the rules end
without one (a drawn frame: ``Game.over`` with ``winner`` None - an empty
table at equal scores, or ``MAX_SHOTS_PER_FRAME``), are draws: half a win
each, reported separately. With the option ``lag`` the lag shots count as
shots of the frame.

Statistics per agent: wins with a 95% Wilson interval (``eval.stats``),
balls per visit (balls scored on its own legal shots over its visits to the
table), fouls per frame, break success (legal breaks; breaks that pot;
the share of the frames it broke that it won), and the mean number of
shots per frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from piramida.agents.specs import parse_spec
from piramida.env.driver import FrameDriver, Step
from piramida.env.errors import PiramidaError
from piramida.env.inputs import brief
from piramida.env.physics import Noise, load_noise
from piramida.env.position import VARIANTS, Position
from piramida.eval.pairs import PairStats, pair_score, pair_stats, pentanomial
from piramida.eval.stats import wilson_interval
from piramida.eval.version import code_version

DEFAULT_MAX_SHOTS = 300


class MatchError(PiramidaError):
    """Bad match parameters (unknown variant or agent, no games)."""


@dataclass
class FrameRecord:
    """One frame. Per-agent lists are in the order the agents were named
    (not by seat)."""

    game: int
    pair: int
    seats: tuple[int, int]  # seats[i]: the seat of agent i
    winner: int | None  # index of the winning agent, None for a draw
    shots: int
    score: tuple[int, int]  # by agent
    balls: list[int] = field(default_factory=lambda: [0, 0])
    visits: list[int] = field(default_factory=lambda: [0, 0])
    fouls: list[int] = field(default_factory=lambda: [0, 0])
    breaks: list[int] = field(default_factory=lambda: [0, 0])
    breaks_legal: list[int] = field(default_factory=lambda: [0, 0])
    breaks_potting: list[int] = field(default_factory=lambda: [0, 0])
    refused: list[int] = field(default_factory=lambda: [0, 0])
    pot_attempts: list[int] = field(default_factory=lambda: [0, 0])
    pots_made: list[int] = field(default_factory=lambda: [0, 0])
    capped: bool = False
    breaker: int | None = None  # the agent who made the frame's first break
    rack: str = ""  # the start position's text form (shared within a pair)
    #: The agent who acted first: the breaker of a rack, the player to move
    #: of a start position given (a book's, eval/book.py).
    opener: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "pair": self.pair,
            "seats": list(self.seats),
            "winner": self.winner,
            "shots": self.shots,
            "score": list(self.score),
            "balls": self.balls,
            "visits": self.visits,
            "fouls": self.fouls,
            "capped": self.capped,
            "breaker": self.breaker,
            "opener": self.opener,
        }


@dataclass
class MatchResult:
    variant: str
    agents: tuple[str, str]
    seed: int
    noise: str | None
    max_shots: int
    frames: list[FrameRecord]

    @property
    def games(self) -> int:
        return len(self.frames)

    @property
    def draws(self) -> int:
        return sum(1 for f in self.frames if f.winner is None)

    @property
    def wins(self) -> list[float]:
        w = [0.0, 0.0]
        for f in self.frames:
            if f.winner is None:
                w[0] += 0.5
                w[1] += 0.5
            else:
                w[f.winner] += 1.0
        return w

    def _total(self, name: str, i: int) -> int:
        return sum(getattr(f, name)[i] for f in self.frames)

    def _ratio(self, num: str, den: str, i: int) -> float | None:
        d = self._total(den, i)
        return self._total(num, i) / d if d else None

    def won_breaking(self, i: int) -> float | None:
        """Share of the frames agent ``i`` broke that it won (a draw half)."""
        broke = [f for f in self.frames if f.breaker == i]
        if not broke:
            return None
        return sum(1.0 if f.winner == i else 0.5 if f.winner is None else 0.0 for f in broke) / len(broke)

    def pair_stats(self) -> PairStats:
        """Agent 0's statistics with the duplicate pair as the unit
        (eval/pairs.py); an unfinished pair does not count."""
        by_pair: dict[int, list[float]] = {}
        for f in self.frames:
            by_pair.setdefault(f.pair, []).append(1.0 if f.winner == 0 else 0.5 if f.winner is None else 0.0)
        return pair_stats(pentanomial(pair_score(*g) for g in by_pair.values() if len(g) == 2))

    def to_dict(self, frames: bool = False) -> dict[str, Any]:
        """The summary; with ``frames``, every frame's record too."""
        n = self.games
        wins = self.wins
        return {
            "variant": self.variant,
            "agents": list(self.agents),
            "seed": self.seed,
            "noise": self.noise,
            "games": n,
            "wins": wins,
            "draws": self.draws,
            "win_rate": [w / n if n else 0.0 for w in wins],
            "ci95": [list(wilson_interval(w, n)) for w in wins],
            "balls_per_visit": [self._ratio("balls", "visits", i) for i in (0, 1)],
            "fouls_per_frame": [self._total("fouls", i) / n if n else 0.0 for i in (0, 1)],
            "break_legal": [self._ratio("breaks_legal", "breaks", i) for i in (0, 1)],
            "break_pots": [self._ratio("breaks_potting", "breaks", i) for i in (0, 1)],
            "won_breaking": [self.won_breaking(i) for i in (0, 1)],
            "pot_rate": [self._ratio("pots_made", "pot_attempts", i) for i in (0, 1)],
            "mean_shots": (sum(f.shots for f in self.frames) / n) if n else 0.0,
            "refused_actions": [self._total("refused", i) for i in (0, 1)],
            "max_shots": self.max_shots,
            "pairs": self.pair_stats().to_dict(),
            "version": code_version(),
        } | ({"frames": [f.to_dict() for f in self.frames]} if frames else {})

    def summary(self) -> str:
        d = self.to_dict()

        def fmt(x: float | None, spec: str = ".2f") -> str:
            return "-" if x is None else format(x, spec)

        a, b = self.agents
        w = max(len(a), len(b), 6)
        lines = [
            f"{self.variant}: {a} vs {b}, {d['games']} games ({d['games'] // 2} duplicate pairs), "
            f"seed {self.seed}, noise {self.noise or 'none'}",
            f"  {'agent':<{w}}  {'wins':>6}  {'rate':>6}  {'95% CI':>15}  {'balls/visit':>11}  "
            f"{'fouls/frame':>11}  {'break legal':>11}  {'break pots':>10}  {'won breaking':>12}  {'pot rate':>8}",
        ]
        for i, name in enumerate(self.agents):
            lo, hi = d["ci95"][i]
            lines.append(
                f"  {name:<{w}}  {d['wins'][i]:>6g}  {d['win_rate'][i]:>6.3f}  "
                f"{f'[{lo:.3f}, {hi:.3f}]':>15}  {fmt(d['balls_per_visit'][i]):>11}  "
                f"{d['fouls_per_frame'][i]:>11.2f}  {fmt(d['break_legal'][i]):>11}  "
                f"{fmt(d['break_pots'][i]):>10}  {fmt(d['won_breaking'][i]):>12}  {fmt(d['pot_rate'][i]):>8}"
            )
        lines.append(
            f"  draws (no winner within {self.max_shots} shots): {d['draws']}; "
            f"mean shots per frame: {d['mean_shots']:.1f}"
        )
        ps = self.pair_stats()
        if ps.pairs:
            elo_lo, elo_hi = (fmt(x, "+.0f") for x in (d["pairs"]["elo_ci95"]))
            lines.append(
                f"  pairs (the statistical unit): {ps.pairs}, pentanomial {list(ps.counts)}; {a} scores "
                f"{ps.score:.3f} a pair [{ps.score_ci[0]:.3f}, {ps.score_ci[1]:.3f}], "
                f"Elo {fmt(d['pairs']['elo'], '+.0f')} [{elo_lo}, {elo_hi}], LOS {ps.los:.3f}"
            )
        if any(d["refused_actions"]):
            lines.append(
                f"  actions the referee refused (replaced by the first choice or a random legal stroke): "
            f"{d['refused_actions']}"
            )
        return "\n".join(lines)


def check_match(variant: str, agents: Sequence[str], games: int) -> None:
    if variant not in VARIANTS:
        raise MatchError(f"unknown variant {brief(variant, 40)}; known: {', '.join(VARIANTS)}")
    if len(agents) != 2:
        raise MatchError(f"a match needs two agents, got {len(agents)}: {brief(','.join(agents), 60)}")
    for a in agents:
        parse_spec(a)  # unknown agents and keys: one line listing the known ones
    if games < 1:
        raise MatchError(f"--games must be at least 1, got {games}")


def play_frame(
    variant: str,
    agents: Sequence[Any],
    *,
    seed: int,
    pair: int,
    swap: bool,
    noise: Noise | str | None,
    max_shots: int = DEFAULT_MAX_SHOTS,
    options: dict[str, Any] | None = None,
    game_index: int = 0,
    on_step: Callable[[Step, int], None] | None = None,
    driver: FrameDriver | None = None,
    start: Position | None = None,
) -> FrameRecord:
    """Play one frame through the frame driver (env/driver.py: the rack,
    the noise streams keyed by (seed, pair, seat, shot), an agent's illegal
    action replaced and counted as refused), from the rack of (seed, pair)
    or from ``start`` (a book's position). ``agents[i]`` sits in seat
    ``i ^ swap``; ``on_step(step, i)`` is called after every action of
    agent ``i``."""
    seat_of = (1, 0) if swap else (0, 1)
    agent_in = {seat_of[i]: i for i in (0, 1)}
    drv = driver if driver is not None else FrameDriver(variant, noise, options)
    game = drv.reset(seed, pair, start)
    rec = FrameRecord(game_index, pair, seat_of, None, 0, (0, 0), rack=game.initial.to_text())
    if not game.over:
        rec.opener = agent_in[drv.seat_to_act()]
    last_shooter: list[int | None] = [None]

    def record(step: Step) -> None:
        seat = step.seat
        who = agent_in[seat]
        rec.shots = game.shots
        rec.refused[who] += int(step.refused is not None)
        ruling = step.ruling
        if ruling is not None:  # not a choice, not a lag shot (not a visit to the table)
            if seat != last_shooter[0]:
                rec.visits[who] += 1
                last_shooter[0] = seat
            scored = len(ruling.scored.get(seat, ())) if ruling.legal else 0
            pend = getattr(ruling.state, "pending", None)
            if ruling.legal and pend is not None:
                # The ball a свояк earns in the one-cue-ball pyramids is taken
                # from the table after the shot (docs/game_rules.md §5.2): it is the
                # shot's ball all the same.
                scored += pend.balls_owed()[seat]
            rec.balls[who] += scored
            if not ruling.legal:
                rec.fouls[who] += 1
            intent = getattr(agents[who], "last_intent", ())
            if intent and intent[0] == "pot":
                # Agents that say what they meant (greedy): did the ball score?
                rec.pot_attempts[who] += 1
                rec.pots_made[who] += int(intent[1] in ruling.scored.get(seat, ()))
            if step.is_break:
                if rec.breaker is None:
                    rec.breaker = who
                rec.breaks[who] += 1
                rec.breaks_legal[who] += int(ruling.legal)
                rec.breaks_potting[who] += int(ruling.legal and scored > 0)
        if on_step is not None:
            on_step(step, who)

    drv.play([agents[agent_in[0]], agents[agent_in[1]]], max_shots=max_shots, on_step=record)
    rec.shots = game.shots
    rec.capped = not game.over
    w = game.winner if game.over else None
    rec.winner = None if w is None else agent_in[w]
    sc = game.score
    rec.score = (sc[seat_of[0]], sc[seat_of[1]])
    return rec


def run_match(
    variant: str,
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    noise: str | None = None,
    max_shots: int = DEFAULT_MAX_SHOTS,
    options: dict[str, Any] | None = None,
    progress: bool = False,
    agent_kwargs: Sequence[dict[str, Any]] | None = None,
) -> MatchResult:
    """Play ``games`` frames of ``variant`` between two named agents in
    duplicate pairs; reproducible for a seed."""
    check_match(variant, agents, games)
    nz = None if noise in (None, "none") else load_noise(noise)
    kws = list(agent_kwargs or ({}, {}))
    players = [parse_spec(a).build(kws[i]) for i, a in enumerate(agents)]
    driver = FrameDriver(variant, nz, options)
    frames: list[FrameRecord] = []
    bar: Any = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, desc=f"{agents[0]} vs {agents[1]}", unit="game", leave=False)
    try:
        for g in range(games):
            rec = play_frame(
                variant,
                players,
                seed=seed,
                pair=g // 2,
                swap=bool(g % 2),
                noise=nz,
                max_shots=max_shots,
                options=options,
                game_index=g,
                driver=driver,
            )
            frames.append(rec)
            if bar is not None:
                w = [sum(1 for f in frames if f.winner == i) for i in (0, 1)]
                bar.set_postfix_str(f"{w[0]}-{w[1]}")
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return MatchResult(
        variant, (agents[0], agents[1]), seed, None if nz is None else nz.name, max_shots, frames
    )
