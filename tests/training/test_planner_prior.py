"""The planner with a policy prior (``planner:prior=FILE:top=K``): the
policy's forward pass picks which of the decision's candidates get the
noisy samples. The policy file is a freshly initialised network, saved as
``piramida export`` saves one."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from piramida.agents.shots import PLANNER, candidates
from piramida.agents.specs import AgentSpecError, parse_spec
from piramida.env.position import Position
from piramida.env.view import GameView

POS = Position.from_balls(
    "free", {"1": (0.5, 1.0), "2": (0.9, 2.6), "3": (0.3, 2.2), "4": (1.2, 0.8), "5": (0.7, 1.8), "6": (0.4, 3.0)}
)


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from piramida.agents.policy import save_policy
    from piramida.agents.policy_net import build_net, net_config

    torch.manual_seed(5)
    net = build_net({"hidden": 8})
    meta = {"code_version": "test", "variant": "free", "noise": "pro", "search": "planner",
            "net": net_config({"hidden": 8}), "config": ""}
    path = tmp_path_factory.mktemp("prior") / "p.pt"
    save_policy(path, net.state_dict(), meta)
    return path


def test_ranked_is_the_policys_own_ranking_of_the_candidates_with_its_logits(policy_file: Path) -> None:
    from piramida.agents.policy import PolicyAgent

    view = GameView.for_position(POS)
    agent = PolicyAgent(policy_file)
    opts, logits = agent.scores(view)
    assert len(opts) > 4
    by_policy = [opts[i].action.to_text() for i in sorted(range(len(opts)), key=lambda i: (-float(logits[i]), i))]
    cands = candidates(view, "pro", PLANNER)
    got = agent.ranked(view, cands, 4)
    picked = [i for i, _ in got]
    assert len(picked) == 4 == len(set(picked))
    assert [cands[i].shot.to_text() for i in picked] == by_policy[:4]
    # Each comes with the network's own logit for that option.
    logit_of = {o.action.to_text(): float(x) for o, x in zip(opts, logits, strict=False)}
    assert [x for _, x in got] == pytest.approx([logit_of[cands[i].shot.to_text()] for i in picked], abs=1e-6)


def test_planner_samples_only_the_shortlist_and_top_one_plays_the_policys_shot(policy_file: Path) -> None:
    from piramida.agents.policy import PolicyAgent

    view = GameView.for_position(POS)
    policy = PolicyAgent(policy_file)
    cands = candidates(view, "pro", PLANNER)
    short = {cands[i].shot.to_text() for i, _ in policy.ranked(view, cands, 3)}
    # Enough strokes that the candidate search is not cut short: the planner
    # sees the same candidates as the policy.
    planner = parse_spec(f"planner:sims=1500:prior={policy_file}:top=3").build()
    plans = planner.plan(view, top=5)
    assert len(plans) == 3 and {p.shot.to_text() for p in plans} == short
    again = parse_spec(f"planner:sims=1500:prior={policy_file}:top=3").build()
    assert again.act(view).to_text() == planner.act(view).to_text()  # deterministic for a seed
    one = parse_spec(f"planner:sims=1500:prior={policy_file}:top=1").build()
    assert one.act(view).to_text() == policy.act(view).to_text()


def test_blend_lets_the_prior_decide_where_the_samples_cannot() -> None:
    from piramida.agents.planner import Arm, rank

    cands = candidates(GameView.for_position(POS), "pro", PLANNER)
    liked = Arm(cands[0], values=[0.60] * 5, rounds=1, logit=3.0)
    better = Arm(cands[1], values=[0.62] * 5, rounds=1, logit=0.0)
    assert rank([liked, better])[0] is better  # no blend: the samples' means
    # Five samples each: 3 + 55 * 0.60 = 36 against 55 * 0.62 = 34.1.
    assert rank([liked, better], blend=1.0)[0] is liked
    # Five hundred: the samples outweigh the logits (333 against 341).
    liked.values, better.values = [0.60] * 500, [0.62] * 500
    assert rank([liked, better], blend=1.0)[0] is better


def test_a_slight_blend_plays_the_policys_favourite(policy_file: Path) -> None:
    from piramida.agents.policy import PolicyAgent

    view = GameView.for_position(POS)
    favourite = PolicyAgent(policy_file).act(view).to_text()
    # At a tiny weight the samples only break the prior's ties: its
    # favourite survives every halving and is played.
    planner = parse_spec(f"planner:sims=1500:prior={policy_file}:top=3:blend=0.00001").build()
    plans = planner.plan(view, top=3)
    assert plans[0].shot.to_text() == favourite and plans[0].samples > plans[-1].samples


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("planner:prior=no/such/file.pt", "no file"),
        ("planner:top=0", "whole number"),
        ("planner:gen=1.5", "at most 1"),
        ("planner:gen=abc", "at most 1"),
    ],
)
def test_bad_prior_keys_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message) as err:
        parse_spec(spec).build()
    assert "\n" not in str(err.value)


def test_a_prior_for_another_variant_is_refused(policy_file: Path) -> None:
    from piramida.env.errors import PiramidaError

    combined = GameView.for_position(Position.from_balls("combined", {"0": (0.5, 1.0), "1": (0.9, 2.6), "2": (0.3, 2.2)}))
    planner = parse_spec(f"planner:sims=300:prior={policy_file}:top=1").build()
    with pytest.raises(PiramidaError, match="trained for free"):
        planner.act(combined)


def test_a_five_ball_policy_of_the_first_candidate_layout_is_refused(tmp_path: Path) -> None:
    # Five balls' candidate tokens have their own layout (policy_obs.VARIANT_OBS_VERSIONS):
    # a file made before it would read them wrongly, so it is refused in one line.
    from piramida.agents import model_file
    from piramida.agents.policy import FORMAT, META_KEYS, PolicyFileError, load_policy, save_policy
    from piramida.agents.policy_net import build_net, net_config

    net = build_net({"hidden": 8})
    meta = {"code_version": "test", "variant": "five_ball", "noise": "pro", "search": "planner",
            "net": net_config({"hidden": 8}), "config": ""}
    new = tmp_path / "new.pt"
    save_policy(new, net.state_dict(), meta)
    assert load_policy(new)["obs_version"] == 2
    old = tmp_path / "old.pt"
    full = torch.load(new, weights_only=True) | {"obs_version": 1}
    model_file.save_model(old, full["state_dict"], {k: full[k] for k in META_KEYS if k != "digest"}, META_KEYS)
    assert torch.load(old, weights_only=True)["format"] == FORMAT
    with pytest.raises(PolicyFileError, match="obs_version 1, this code has 2 for five_ball"):
        load_policy(old)
