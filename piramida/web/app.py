"""The Starlette application of ``piramida serve``: the page and the JSON API.

Routes (docs/ui.md has the request and answer of each):

    GET  /                       the page (static/index.html)
    GET  /static/...             its style and script modules (static/js/)
    GET  /api/health             {"ok": true, "warm": bool}
    GET  /api/meta               variants, noise presets, agents, ball ids and styles
    GET  /api/table              the table's geometry (env/render/web.py table_geometry)
    POST /api/position           a position checked: its JSON, text form, missing balls
    POST /api/start              a variant's start position
    POST /api/suggest            piramida suggest --json, plus what the page draws
    POST /api/cloud              where a shot's balls come to rest under noise
    POST /api/simulate           piramida simulate --json, plus trajectories
    POST /api/referee            piramida referee --json
    POST /api/tolerance          how much error in aim, pace and spin a shot tolerates
    POST /api/play/new           a frame against an agent
    POST /api/play/load          go on with a saved game (piramida play --save)
    GET  /api/play/{id}          the frame's state and move tree (a board in the games file)
    POST /api/play/{id}/goto     the cursor to a node of the move tree
    POST /api/play/{id}/analyse  shots' losses against the best suggestion
    POST /api/play/{id}/hint     suggestions for the player's shot at the cursor
    POST /api/play/{id}/shot     the player's shot
    POST /api/play/{id}/choose   the player's choice
    POST /api/play/{id}/agent    the agent's next action
    POST /api/play/{id}/undo     take back the player's last action
    GET  /api/play/{id}/save     the saved game (Game.to_dict)
    GET  /api/games              the games of the served results files (?db=, ?variant=)
    GET  /api/games/{id}         one rebuilt, as piramida replay --save writes it (?db=)
    POST /api/games/{id}/board   one as a read-only board (?db=)

Bad input is HTTP 400 with ``{"error": LINE}``, LINE the one line the
command line prints after ``error:`` (404 for a game or results file that
is not there or not served); a bug is 500 with ``{"error":
"internal error (...)"}``. web/guard.py answers first: 403 for a
request from another site's page, 413 for a body too large, 415 for one
that is not JSON, 429 past the rate of expensive requests. Everything that simulates or plans runs in a
thread pool off the event loop, so the server keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import mimetypes
import os
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from piramida.env.errors import NotFoundError, PiramidaError
from piramida.env.inputs import one_line
from piramida.web import api, guard

STATIC = Path(__file__).resolve().parent / "static"
# The page's script modules load only when served as JavaScript, whatever
# the host's own MIME table says about .js.
mimetypes.add_type("text/javascript", ".js")
log = logging.getLogger("piramida.web")


def worker_count() -> int:
    """Threads for simulations and suggestions: one per core, 2 to 4."""
    return max(2, min(4, os.cpu_count() or 2))


def _warm_up() -> None:
    """Load the compiled physics (one shot, one small batch) and a referee,
    so that the first request does not pay for it."""
    from piramida.env.physics import simulate, simulate_batch
    from piramida.env.position import Position
    from piramida.env.rules import get_referee
    from piramida.env.shot import Shot

    pos = Position.from_balls("free", {"0": (0.8875, 0.9), "1": (0.8875, 2.0)})
    shot = Shot("0", 90.0, 1.0)
    simulate(pos, shot)
    simulate_batch(pos, [shot, shot], noise="pro", seeds=[0, 1])
    get_referee("free")


class Pool:
    """The thread pool that runs the API's work. Numba's ``workqueue``
    threading layer cannot run two parallel kernels at once, so with it the
    pool has one thread."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or worker_count()
        self.executor = ThreadPoolExecutor(self.workers, thread_name_prefix="piramida-web")
        self.warm = False

    def warm_up(self) -> None:
        _warm_up()
        try:
            from numba.np.ufunc.parallel import threading_layer

            if threading_layer() == "workqueue" and self.workers > 1:
                old = self.executor
                self.executor = ThreadPoolExecutor(1, thread_name_prefix="piramida-web")
                self.workers = 1
                old.shutdown(wait=False)
        except (ImportError, ValueError):  # no parallel kernel has run
            pass
        self.warm = True

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, partial(fn, *args))

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


async def read_body(request: Request) -> dict[str, Any]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > guard.MAX_BODY_BYTES:
            raise guard.BodyTooLargeError(f"request body is too large (at most {guard.MAX_BODY_BYTES} bytes)")
    return api.parse_body(body)


def endpoint(
    fn: Callable[..., Any], *, body: bool = True, query: bool = False, pooled: bool = True, **fixed: Any
) -> Callable[..., Any]:
    """A route handler around an API function: the request's JSON body (or,
    with ``query``, its query parameters) and path parameters in, JSON out,
    a ``PiramidaError`` as 400 (a ``NotFoundError`` as 404)."""

    async def handle(request: Request) -> Response:
        pool: Pool = request.app.state.pool
        try:
            args: list[Any] = []
            if query:
                args.append(dict(request.query_params))
            elif body:
                args.append(await read_body(request))
            kwargs = dict(fixed) | dict(request.path_params)
            call = partial(fn, **kwargs)
            result = await pool.run(call, *args) if pooled else call(*args)
            return JSONResponse(result)
        except PiramidaError as exc:
            status = 404 if isinstance(exc, NotFoundError) else 413 if isinstance(exc, guard.BodyTooLargeError) else 400
            return error(status, str(exc) or type(exc).__name__)
        except RecursionError:
            return error(400, "the input is nested too deeply")
        except Exception as exc:  # a bug: one line for the page, the trace in the log
            log.exception("internal error in %s", request.url.path)
            return error(500, f"internal error ({type(exc).__name__}: {exc})")

    return handle


def _session_call(method: str) -> Callable[..., Any]:
    def call(*args: Any, sessions: api.Sessions, game_id: str) -> Any:
        s = sessions.get(game_id)
        with s.lock:
            return getattr(s, method)(*args)

    return call


def create_app(
    workers: int | None = None, warm: bool = True, dbs: Iterable[str | Path] = (), games: str | Path | None = None,
    rate: guard.RateLimit | None = guard.DEFAULT_RATE,
) -> Starlette:
    """The application. ``warm``: load the physics in the background at
    start-up; ``dbs``: the results files whose games the page may open;
    ``games``: the file that keeps the boards (web/board_store.py; None:
    in memory, for as long as the application runs); ``rate``: the limit
    on each client address's expensive requests (web/guard.py; None: no
    limit)."""
    from piramida.web.board_store import BoardStore

    sessions = api.Sessions(BoardStore(games))
    results = api.Results(dbs)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool = Pool(workers)
        app.state.pool = pool
        if warm:
            asyncio.get_running_loop().run_in_executor(pool.executor, pool.warm_up)
        try:
            yield
        finally:
            pool.shutdown()
            sessions.store.close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "warm": request.app.state.pool.warm})

    s = sessions
    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/meta", endpoint(api.meta, body=False, pooled=False)),
        Route("/api/table", endpoint(api.table, body=False, pooled=False)),
        Route("/api/position", endpoint(api.position), methods=["POST"]),
        Route("/api/start", endpoint(api.start), methods=["POST"]),
        Route("/api/suggest", endpoint(api.suggest), methods=["POST"]),
        Route("/api/cloud", endpoint(api.cloud), methods=["POST"]),
        Route("/api/simulate", endpoint(api.simulate), methods=["POST"]),
        Route("/api/referee", endpoint(api.referee), methods=["POST"]),
        Route("/api/tolerance", endpoint(api.tolerance), methods=["POST"]),
        Route("/api/play/new", endpoint(partial(api.new_game, s)), methods=["POST"]),
        Route("/api/play/load", endpoint(partial(api.load_game, s)), methods=["POST"]),
        Route("/api/play/{game_id}", endpoint(_session_call("view"), body=False, sessions=s)),
        Route("/api/play/{game_id}/goto", endpoint(_session_call("goto"), sessions=s), methods=["POST"]),
        Route("/api/play/{game_id}/analyse", endpoint(_session_call("analyse"), sessions=s), methods=["POST"]),
        Route("/api/play/{game_id}/hint", endpoint(_session_call("hint"), sessions=s), methods=["POST"]),
        Route("/api/play/{game_id}/shot", endpoint(_session_call("shot"), sessions=s), methods=["POST"]),
        Route("/api/play/{game_id}/choose", endpoint(_session_call("choose"), sessions=s), methods=["POST"]),
        Route("/api/play/{game_id}/agent", endpoint(_session_call("agent_acts"), body=False, sessions=s),
              methods=["POST"]),
        Route("/api/play/{game_id}/undo", endpoint(_session_call("undo"), body=False, sessions=s),
              methods=["POST"]),
        Route("/api/play/{game_id}/save", endpoint(_session_call("save"), body=False, sessions=s)),
        Route("/api/games", endpoint(partial(api.list_games, results), query=True)),
        Route("/api/games/{game_id}", endpoint(partial(api.stored_game, results), query=True)),
        Route("/api/games/{game_id}/board", endpoint(partial(api.stored_board, results, s), query=True),
              methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        return error(404, f"no such page or API route: {request.url.path}")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return error(405, f"{request.method} is not allowed on {request.url.path}")

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found, 405: not_allowed})
    app.state.sessions = sessions
    app.state.results = results
    guard.protect(app, rate)
    return app
