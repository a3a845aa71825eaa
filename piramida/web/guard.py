"""What ``piramida serve`` refuses so that it can be reached by others
(docs/ui.md, "Serving safely").

- Agents named by the page (``agent_spec``) use only the shipped models,
  by name (``policy:path=free_policy``, or ``models/free_policy.pt`` as
  models/README.md writes it) and the noise presets by name: a spec that
  names any other file is refused with one message whatever the file, so
  the answers tell nothing of the server's files. A spec's own limit
  (``budget``, ``sims``, ``rollouts``) is held to the page's caps
  (``MAX_BUDGET_S``, ``MAX_SIMS``), as the request's own fields are.
- ``GuardMiddleware``, before any route runs:
  - a request that changes something (any method but GET and HEAD) whose
    ``Origin`` header is not the server's own origin is 403: another web
    site's page cannot make a visitor's browser start work here;
  - a body announced larger than ``MAX_BODY_BYTES`` is 413 (one that
    grows past it while read is 413 too: ``BodyTooLargeError``, raised by
    app.read_body);
  - a body that is not ``application/json`` is 415 (a browser sends a
    form or ``text/plain`` across origins without asking first);
  - the expensive routes (``EXPENSIVE``: suggestions, clouds,
    tolerances, the agent's moves, analyses) are limited per client
    address by a token bucket (``RateLimit``): 429 with ``Retry-After``.

Every refusal is ``{"error": LINE}``, as the API's others. Not covered:
who the client is (no authentication) and the wire (no TLS); a reverse
proxy in front gives both, and then every client shares the proxy's
address for the limit.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from piramida.env.inputs import MAX_TEXT_CHARS, InvalidInputError, brief, one_line

#: The shipped models (models/README.md): the only files a page's agent may read.
MODELS = Path(__file__).resolve().parents[2] / "models"
#: The largest request body read.
MAX_BODY_BYTES = 4 * MAX_TEXT_CHARS
#: The most of a refused request's body read (and dropped) before answering.
DRAIN_BYTES = 2 * MAX_BODY_BYTES
#: Routes that sample or search: a request may hold a worker for seconds
#: (one noise-free stroke, /api/simulate, takes milliseconds).
EXPENSIVE = re.compile(
    r"^/api/(suggest|cloud|tolerance|analy[sz]e|play/[^/]+/(agent|analy[sz]e|hint))/?$"
)
#: Spec keys whose value may name a file (agents/specs.py): the policy's
#: network, the planner's prior and value network, and a noise file.
FILE_KEYS = ("path", "prior", "value")
PLANNER_VALUES = ("auto", "race", "turn")
#: A page's simulation or rollout count at most (the CLI allows more; a
#: page's request should not hold a worker for hours).
MAX_SIMS = 200_000
#: The longest thinking budget a page may ask for.
MAX_BUDGET_S = 60.0


class BodyTooLargeError(InvalidInputError):
    """A request body longer than ``MAX_BODY_BYTES`` (HTTP 413)."""


class ForbiddenAgentError(InvalidInputError):
    """An agent spec from the page that names a file other than a shipped
    model, or a noise file (HTTP 400)."""


# ------------------------------------------------------------------ agent specs
def shipped_models() -> dict[str, Path]:
    """Each shipped model by the names a spec may give it: its stem, its
    file name and ``models/FILE`` (models/README.md)."""
    out: dict[str, Path] = {}
    if MODELS.is_dir():
        for p in sorted(MODELS.glob("*.pt")):
            for name in (p.stem, p.name, f"models/{p.name}"):
                out[name] = p.resolve()
    return out


def noise_presets() -> list[str]:
    from piramida.env.physics.noise import presets

    order = {"none": 0, "pro": 1, "amateur": 2, "novice": 3}
    return sorted(presets(), key=lambda n: (order.get(n, 9), n))


def refusal() -> ForbiddenAgentError:
    """The one message for every file a spec names: the same whether the
    file exists or not."""
    names = sorted({p.stem for p in shipped_models().values()}) or ["none here"]
    return ForbiddenAgentError(
        "agents on this server may use only the shipped models, by name "
        f"({', '.join(names)}), and the noise presets ({', '.join(noise_presets())})"
    )


def spec_text(text: Any) -> str:
    """``text``, an agent spec from the page, with each shipped model's
    name replaced by its file; ``ForbiddenAgentError`` where a value names
    any other file (or a noise file). Malformed specs pass through to
    ``parse_spec``, which refuses them without reading a file."""
    if not isinstance(text, str):
        return text
    models = shipped_models()
    name, *parts = text.strip().split(":")
    out = [name]
    for part in parts:
        key, eq, value = part.partition("=")
        if eq and key == "noise" and value not in noise_presets():
            raise refusal()
        if eq and key in FILE_KEYS and not (key == "value" and value in PLANNER_VALUES):
            model = models.get(value.strip())
            if model is None:
                raise refusal()
            part = f"{key}={shown_path(model)}"
        out.append(part)
    return ":".join(out)


def shown_path(model: Path) -> str:
    """A shipped model's file as a spec names it: ``models/FILE`` where that
    is the file from the server's working folder, else its full path."""
    rel = Path("models") / model.name
    try:
        if rel.resolve() == model:
            return rel.as_posix()
    except OSError:
        pass
    return str(model)


def agent_spec(text: Any) -> Any:
    """An agent spec from the page, parsed (``specs.AgentSpec``) once it
    names only shipped models and noise presets (``spec_text``) and asks
    for no more than the page's caps."""
    from piramida.agents.specs import parse_spec

    spec = parse_spec(spec_text(text))
    options = dict(spec.options)
    for arg, key in (("n_sims", "sims"), ("n_rollouts", "rollouts")):
        if options.get(arg, 0) > MAX_SIMS:
            raise ForbiddenAgentError(f"{spec.name}:{key} must be at most {MAX_SIMS} on this server, got {options[arg]}")
    if options.get("budget_s", 0.0) > MAX_BUDGET_S:
        raise ForbiddenAgentError(
            f"{spec.name}:budget must be at most {MAX_BUDGET_S:g}s on this server, got {options['budget_s']:g}s"
        )
    return spec


# ------------------------------------------------------------------ rate limit
@dataclass(frozen=True)
class RateLimit:
    """``per_minute`` expensive requests a client address may make, in
    bursts of up to ``burst``."""

    per_minute: float = 30.0
    burst: int = 10


DEFAULT_RATE = RateLimit()
#: Client addresses remembered at most; full buckets are forgotten first.
MAX_CLIENTS = 10_000


class TokenBuckets:
    """One token bucket per client address: ``take`` spends a token or
    says how long until the next one."""

    def __init__(self, rate: RateLimit, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, who: str) -> float | None:
        """None when ``who`` may go on (a token spent), else the seconds
        until he may."""
        now = self.clock()
        per_s = self.rate.per_minute / 60.0
        tokens, then = self.buckets.get(who, (float(self.rate.burst), now))
        tokens = min(float(self.rate.burst), tokens + (now - then) * per_s)
        if tokens >= 1.0:
            self.buckets[who] = (tokens - 1.0, now)
            self.forget()
            return None
        self.buckets[who] = (tokens, now)
        return (1.0 - tokens) / per_s if per_s > 0 else math.inf

    def forget(self) -> None:
        if len(self.buckets) <= MAX_CLIENTS:
            return
        now = self.clock()
        per_s = self.rate.per_minute / 60.0
        full = [k for k, (t, w) in self.buckets.items() if t + (now - w) * per_s >= self.rate.burst]
        for k in full or list(self.buckets)[: len(self.buckets) // 2]:
            del self.buckets[k]


class Guard:
    """The server's limits: the rate of expensive requests (None: no limit)."""

    def __init__(self, rate: RateLimit | None = DEFAULT_RATE) -> None:
        self.buckets: TokenBuckets | None = None
        self.limit(rate)

    def limit(self, rate: RateLimit | None) -> None:
        """Set the rate limit (None: none); every bucket starts full."""
        self.buckets = None if rate is None else TokenBuckets(replace(rate, burst=max(1, int(rate.burst))))


# ------------------------------------------------------------------ middleware
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
SAFE_METHODS = ("GET", "HEAD")


def _netloc(text: str, scheme: str | None = None) -> str:
    """host[:port] in lower case, without the scheme's default port."""
    text = text.strip().lower()
    if scheme is None and "://" in text:
        scheme, text = text.split("://", 1)
    text = text.split("/", 1)[0]
    for default, port in (("http", ":80"), ("https", ":443"), ("ws", ":80"), ("wss", ":443")):
        if scheme == default and text.endswith(port):
            return text[: -len(port)]
    return text


def foreign_origin(headers: dict[str, str], scheme: str) -> str | None:
    """The request's ``Origin`` where it is not this server's own (the
    host the request was sent to), else None. Only the host and port are
    compared: behind a proxy that ends TLS the scheme differs."""
    origin = headers.get("origin")
    if origin is None:
        return None
    host = headers.get("host")
    if host is None or _netloc(origin) != _netloc(host, scheme):
        return origin
    return None


def is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


class GuardMiddleware:
    """The checks of the module docstring, in that order, on every HTTP
    request before it reaches a route."""

    def __init__(self, app: Callable[..., Awaitable[None]], guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.check(scope)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, line, extra = refused
        if announced(scope) <= DRAIN_BYTES:
            await drain(receive)
        await respond(send, status, line, extra)

    def check(self, scope: Scope) -> tuple[int, str, dict[str, str]] | None:
        """(status, line, headers) of a refusal, or None."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        method = scope.get("method", "GET")
        path = scope.get("path", "")
        if method not in SAFE_METHODS:
            origin = foreign_origin(headers, scope.get("scheme", "http"))
            if origin is not None:
                return 403, (f"cross-origin request refused: this server answers its own page only "
                             f"(Origin {brief(origin, 60)})"), {}
            length = headers.get("content-length")
            if length is not None and (not length.strip().isdigit() or int(length) > MAX_BODY_BYTES):
                return 413, f"request body is too large (at most {MAX_BODY_BYTES} bytes)", {}
            has_body = (length is not None and int(length) > 0) or "transfer-encoding" in headers
            ctype = headers.get("content-type")
            if (has_body or ctype is not None) and not is_json(ctype or ""):
                return 415, (f"a request body must be JSON (Content-Type: application/json), "
                             f"got {brief(ctype or 'none', 40)}"), {}
        buckets = self.guard.buckets
        if buckets is not None and EXPENSIVE.match(path):
            client = scope.get("client")
            wait = buckets.take(str(client[0]) if client else "unknown")
            if wait is not None:
                after = max(1, math.ceil(wait))
                per = buckets.rate
                return 429, (f"too many requests: at most {per.per_minute:g} a minute "
                             f"(bursts of {per.burst}) from one address; try again in {after} s"), \
                    {"retry-after": str(after)}
        return None


def announced(scope: Scope) -> int:
    """The body length a request's Content-Length announces (0 without
    one, a chunked body's 0 too; more than any limit when unreadable)."""
    for k, v in scope.get("headers", []):
        if k.lower() == b"content-length":
            text = v.decode("latin-1").strip()
            return int(text) if text.isdigit() else 2**63
    return 0


async def drain(receive: Receive, most: int = DRAIN_BYTES) -> None:
    """Read and drop a refused request's body, up to ``most`` bytes: a
    client still sending it would otherwise see the connection reset
    instead of the answer. A longer one is left unread."""
    seen = 0
    while seen <= most:
        message = await receive()
        if message.get("type") != "http.request":
            return
        seen += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


async def respond(send: Send, status: int, line: str, extra: dict[str, str]) -> None:
    import json

    body = json.dumps({"error": one_line(line)}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in extra.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def protect(app: Any, rate: RateLimit | None = DEFAULT_RATE) -> Guard:
    """Put the guard in front of the application's routes; its limits are
    ``app.state.guard`` (``Guard.limit`` changes the rate)."""
    guard = Guard(rate)
    app.state.guard = guard
    app.add_middleware(GuardMiddleware, guard=guard)
    return guard


__all__ = [
    "DEFAULT_RATE",
    "EXPENSIVE",
    "MAX_BODY_BYTES",
    "MAX_BUDGET_S",
    "MAX_SIMS",
    "BodyTooLargeError",
    "ForbiddenAgentError",
    "Guard",
    "GuardMiddleware",
    "RateLimit",
    "TokenBuckets",
    "agent_spec",
    "protect",
    "shipped_models",
    "spec_text",
]
