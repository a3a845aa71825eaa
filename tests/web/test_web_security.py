"""What ``piramida serve`` refuses so that it can be reached by others
(piramida/web/guard.py): agent specs naming files, requests from other
sites' pages, bodies that are not JSON or too large, and more expensive
requests than the rate allows, each with one line."""

from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from piramida.web.guard import MAX_BODY_BYTES, RateLimit, TokenBuckets, shipped_models

ROOT = Path(__file__).resolve().parents[2]
MIDGAME = json.loads((ROOT / "docs" / "examples" / "combined_midgame.json").read_text())
SHOT = "ball=0 phi=70 v=1"


# ------------------------------------------------------------------ agent specs
@pytest.mark.parametrize(
    ("path", "body", "spec"),
    [
        ("/api/play/new", {}, "policy:path={file}"),
        ("/api/play/new", {}, "planner:sims=10:prior={file}"),
        ("/api/play/new", {}, "planner:sims=10:value={file}"),
        ("/api/play/new", {}, "greedy:noise={file}"),
        ("/api/suggest", {"position": MIDGAME, "sims": 10}, "planner:prior={file}"),
        ("/api/suggest", {"position": MIDGAME, "sims": 10}, "policy:path={file}"),
    ],
)
def test_a_spec_naming_a_file_is_refused_alike_whether_it_exists_or_not(
    client: Any, path: str, body: dict[str, Any], spec: str
) -> None:
    existing = str(ROOT / "pyproject.toml")
    missing = str(ROOT / "no_such_file.pt")
    shipped_elsewhere = str(ROOT / "models" / "free_policy.pt")  # a full path is still a path
    lines = {
        client.bad(path, body | {"agent": spec.format(file=f)})
        for f in (existing, missing, shipped_elsewhere, "../models/free_policy.pt", "pyproject.toml")
    }
    assert len(lines) == 1, lines
    line = lines.pop()
    assert line.startswith("agents on this server may use only the shipped models")
    assert "free_policy" in line and "pro" in line
    assert "no file" not in line and "pyproject" not in line


def test_a_noise_named_by_the_page_is_a_preset_whatever_file_has_that_name(client: Any) -> None:
    # A bare name that is a file in the server's folder and one that is not.
    lines = {client.bad("/api/suggest", {"position": MIDGAME, "sims": 10, "noise": n}).replace(repr(n), "NAME")
             for n in ("Makefile", "README.md", "nosuchpreset")}
    assert len(lines) == 1, lines
    assert "must be a preset name" in lines.pop()


def test_a_shipped_model_by_name_is_accepted(client: Any) -> None:
    names = {p.stem for p in shipped_models().values()}
    assert "free_policy" in names
    state = client.post("/api/play/new", {"variant": "free", "agent": "policy:path=free_policy"})["state"]
    assert state["agent"].startswith("policy:path=") and state["agent"].endswith("free_policy.pt")
    # The names models/README.md uses.
    assert client.post("/api/play/new", {"variant": "free", "agent": "policy:path=models/free_policy.pt"})["state"]


@pytest.mark.parametrize(
    ("path", "body", "spec", "says"),
    [
        ("/api/play/new", {}, "planner:sims=200001", "planner:sims must be at most 200000 on this server, got 200001"),
        ("/api/play/new", {}, "planner:rollouts=10000000", "planner:rollouts must be at most 200000 on this server"),
        ("/api/suggest", {"position": MIDGAME}, "planner:budget=61s", "planner:budget must be at most 60s on this server, got 61s"),
        ("/api/suggest", {"position": MIDGAME, "sims": 10}, "planner:rollouts=300000", "planner:rollouts must be at most"),
    ],
)
def test_a_spec_asking_past_the_pages_caps_is_refused(client: Any, path: str, body: dict[str, Any], spec: str, says: str) -> None:
    """A spec's own budget, sims or rollouts is held to the caps the
    request's own fields have, so no page holds a worker for hours."""
    assert says in client.bad(path, body | {"agent": spec})
    # At the caps the same specs are taken.
    assert client.post("/api/play/new", {"variant": "free", "agent": "planner:rollouts=200000"})["state"]


# ------------------------------------------------------------------ origin, type, size
def test_a_post_from_another_sites_page_is_403(client: Any) -> None:
    for origin in ("http://evil.example", "null", client.url.replace("127.0.0.1", "localhost")):
        line = client.bad("/api/suggest", {"position": MIDGAME, "sims": 10}, status=403,
                          headers={"Origin": origin})
        assert "cross-origin" in line and origin in line
    # The server's own page may.
    got = client.post("/api/position", {"position": MIDGAME}, headers={"Origin": client.url})
    assert got["position"]["variant"] == "combined"


@pytest.mark.parametrize(
    "ctype", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]
)
def test_a_body_that_is_not_json_is_415(client: Any, ctype: str) -> None:
    raw = json.dumps({"position": MIDGAME}).encode()
    line = client.bad("/api/position", raw=raw, status=415, headers={"Content-Type": ctype})
    assert "application/json" in line and ctype.split(";")[0] in line


def test_a_body_over_the_limit_is_413(client: Any) -> None:
    raw = b'{"position": "' + b"x" * MAX_BODY_BYTES + b'"}'
    line = client.bad("/api/position", raw=raw, status=413)
    assert "too large" in line and str(MAX_BODY_BYTES) in line


def test_a_chunked_body_that_grows_over_the_limit_is_413(client: Any) -> None:
    url = urllib.parse.urlsplit(client.url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    chunk = b" " * 65536
    try:
        body = iter([chunk] * (MAX_BODY_BYTES // len(chunk) + 2))
        conn.request("POST", "/api/position", body=body, headers={"Content-Type": "application/json"},
                     encode_chunked=True)
        r = conn.getresponse()
        answer = json.loads(r.read())
    finally:
        conn.close()
    assert r.status == 413 and "too large" in answer["error"]


def test_a_content_length_over_the_limit_is_413_before_the_body_is_read(client: Any) -> None:
    url = urllib.parse.urlsplit(client.url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        conn.putrequest("POST", "/api/suggest")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(10 * MAX_BODY_BYTES))
        conn.endheaders()
        r = conn.getresponse()
        answer = json.loads(r.read())
    finally:
        conn.close()
    assert r.status == 413 and "too large" in answer["error"]


# ------------------------------------------------------------------ rate limit
@pytest.fixture(scope="module")
def limited(client: Any) -> Iterator[Any]:
    """A server allowing one expensive request a minute, in bursts of 3,
    and its client."""
    from piramida.web.server import BackgroundServer

    s = BackgroundServer()
    s.app.state.guard.limit(RateLimit(per_minute=1, burst=3))
    with s:
        yield type(client)(s.url)


def test_past_the_burst_expensive_requests_are_429_with_retry_after(limited: Any) -> None:
    body = {"position": MIDGAME, "shot": SHOT}
    for _ in range(3):
        assert limited.post("/api/tolerance", body)
    line = limited.bad("/api/tolerance", body, status=429)
    assert "too many requests" in line and "1 a minute" in line
    wait = int(limited.last_headers["retry-after"])
    assert 1 <= wait <= 60 and f"{wait} s" in line
    assert limited.bad("/api/suggest", {"position": MIDGAME, "sims": 10}, status=429)
    # The cheap routes are not limited: a checked position, one noise-free
    # stroke (the page asks for one each time the aim changes).
    for _ in range(5):
        assert limited.post("/api/position", {"position": MIDGAME})["text"]
        assert limited.post("/api/simulate", body)["final"]


def test_token_buckets_refill_at_the_rate_and_keep_addresses_apart() -> None:
    now = [0.0]
    buckets = TokenBuckets(RateLimit(per_minute=6, burst=2), clock=lambda: now[0])
    assert buckets.take("a") is None and buckets.take("a") is None
    wait = buckets.take("a")
    assert wait == pytest.approx(10.0)  # one token every 10 s
    assert buckets.take("b") is None  # another address has its own bucket
    now[0] = 9.0
    assert buckets.take("a") == pytest.approx(1.0)
    now[0] = 10.0
    assert buckets.take("a") is None and buckets.take("a") is not None


def test_create_app_takes_the_limit() -> None:
    from piramida.web.app import create_app

    assert create_app(warm=False, rate=None).state.guard.buckets is None
    app = create_app(warm=False, rate=RateLimit(per_minute=5, burst=4))
    assert app.state.guard.buckets.rate == RateLimit(per_minute=5, burst=4)
