"""A board's move tree: the frame as every line played from its start, for
the analysis board (docs/ui.md, "The analysis board").

Node 0 is the start; every other node is one action (a shot, a lag shot
or a choice) played from its parent, with the history entry the game
records for it (``Game.to_dict``'s ``history`` items), its ruling's
summary, who played it, and the state it leaves (position, score, next
decision, p0's win chance). A node's first child is the line first played
from it; the others are variations. ``next`` is the child last visited, so
that stepping forward follows the line the cursor came from. The game at
any node is the saved game of ``base`` with the entries on its path
(``Game.from_dict``: the rules judge every entry again, no physics).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

ROOT = 0
#: The node fields the page gets (the history entry and position stay here).
PAGE_FIELDS = (
    "id", "parent", "children", "next", "ply", "seat", "who", "kind", "action", "brief", "summary",
    "foul", "refused", "reason", "score", "over", "winner", "wp", "analysis",
)


def brief_shot(shot: Any) -> str:
    """The shot in short, as ``piramida play`` prints it."""
    out = f"ball={shot.ball} phi={shot.phi:.1f} v={shot.v:.2f}"
    if shot.a or shot.b:
        out += f" a={shot.a:.2f} b={shot.b:.2f}"
    if shot.place is not None:
        out += f" place={shot.place[0]:.3f},{shot.place[1]:.3f}"
    if shot.call is not None:
        out += f" call={shot.call[0]}:{shot.call[1]}"
    return out


def seat_to_act(game: Any) -> int:
    """The seat of the player to act in ``game`` (the lag's shooter too)."""
    nxt = game.state.next
    return int(nxt.player) if nxt.player is not None else game.position.to_move


def state_fields(game: Any) -> dict[str, Any]:
    """What a node records of the state an action leaves."""
    st = game.state
    return {
        "score": list(st.position.score),
        "over": bool(st.over),
        "winner": st.winner,
        "to_act": None if st.over else seat_to_act(game),
        "decision": st.next.kind,
        "position": st.position.to_dict(),
    }


def action_fields(entry: Mapping[str, Any], ruling: Any, seat: int) -> dict[str, Any]:
    """What a node records of the action: ``kind`` (shot, lag or choice),
    the action's text and short form, the ruling's summary, a foul."""
    from piramida.env.shot import Shot

    if entry["type"] == "choice":
        choice = str(entry["choice"])
        return {"kind": "choice", "action": choice, "brief": choice, "summary": f"p{seat} chooses {choice}",
                "foul": False}
    shot = Shot.from_dict(entry["shot"])
    return {
        "kind": "lag" if ruling is None else "shot",
        "action": shot.to_text(),
        "brief": brief_shot(shot),
        "summary": "lag shot" if ruling is None else ruling.summary(),
        "foul": ruling is not None and not ruling.legal,
    }


def replay(saved: Mapping[str, Any]) -> Iterator[tuple[dict[str, Any], Any, int, Any]]:
    """Each action of a saved game (already checked by ``Game.from_dict``)
    in turn: ``(entry, ruling, seat, game)``, ``game`` the one game object
    after the action (changed by the next step)."""
    from piramida.env.events import events_from_list
    from piramida.env.game import Game
    from piramida.env.position import Position
    from piramida.env.shot import Shot

    game = Game.from_dict(dict(saved) | {"history": []})
    for entry in saved.get("history", []):
        seat = seat_to_act(game)
        ruling = None
        if entry["type"] == "choice":
            game.choose(str(entry["choice"]))
        else:
            ruling = game.play_recorded(
                Shot.from_dict(entry["shot"]),
                events_from_list(entry["events"]),
                Position.from_dict(entry["after"], game.referee.table),
                entry.get("think_s"),
                [str(k) for k in entry.get("reported", [])],
            )
        yield game.history[-1], ruling, seat, game


class Tree:
    """The move tree of one board (module docstring), as JSON-ready dicts."""

    def __init__(self, base: Mapping[str, Any], nodes: Sequence[dict[str, Any]], cursor: int = ROOT,
                 info: Mapping[str, Any] | None = None) -> None:
        self.base = dict(base) | {"history": []}
        self.nodes = [dict(n) for n in nodes]
        self.cursor = int(cursor)
        #: What the board is besides its moves: ``readonly`` (a stored
        #: game), ``names`` (who sat in each seat), ``source``.
        self.info = dict(info or {})

    @classmethod
    def start(cls, game: Any, wp: float | None, info: Mapping[str, Any] | None = None) -> Tree:
        """A tree whose root is ``game``'s start (its history not played)."""
        root = {"id": ROOT, "parent": None, "children": [], "next": None, "ply": 0, "entry": None,
                "seat": None, "who": None, "kind": "start", "action": None, "brief": None,
                "summary": "start", "foul": False, "refused": None, "reason": None, "wp": wp,
                "analysis": None} | state_fields(game)
        return cls(game.to_dict(), [root], ROOT, info)

    # ------------------------------------------------------------ reading
    def node(self, n: int) -> dict[str, Any]:
        return self.nodes[n]

    def __len__(self) -> int:
        return len(self.nodes)

    def path(self, n: int) -> list[int]:
        """The nodes from the start to ``n``, both included."""
        out = [n]
        while self.nodes[out[-1]]["parent"] is not None:
            out.append(self.nodes[out[-1]]["parent"])
        return out[::-1]

    def entries(self, n: int) -> list[dict[str, Any]]:
        """The history entries that lead to ``n``."""
        return [self.nodes[k]["entry"] for k in self.path(n)[1:]]

    def saved(self, n: int) -> dict[str, Any]:
        """The saved game (``Game.to_dict``) that ends at ``n``."""
        return self.base | {"history": self.entries(n)}

    def game_at(self, n: int, simulate: Any = None) -> Any:
        from piramida.env.game import Game

        return Game.from_dict(self.saved(n), simulate)

    def line(self) -> list[int]:
        """The line through the cursor: its path, then each node's ``next``
        (else its first child) to the line's end."""
        out = self.path(self.cursor)
        node = self.nodes[out[-1]]
        while node["children"]:
            k = node["next"] if node["next"] is not None else node["children"][0]
            out.append(k)
            node = self.nodes[k]
        return out

    # ------------------------------------------------------------ changing
    def add(self, parent: int, entry: Mapping[str, Any], fields: Mapping[str, Any]) -> int:
        """A node for ``entry`` played from ``parent`` (a choice already
        played there is that node, not a copy); the cursor moves to it."""
        p = self.nodes[parent]
        if entry["type"] == "choice":
            for k in p["children"]:
                if self.nodes[k]["entry"] == dict(entry):
                    self.goto(k)
                    return k
        k = len(self.nodes)
        self.nodes.append({"id": k, "parent": parent, "children": [], "next": None, "ply": p["ply"] + 1,
                           "entry": dict(entry), "refused": None, "reason": None, "analysis": None}
                          | dict(fields))
        p["children"].append(k)
        self.goto(k)
        return k

    def goto(self, n: int) -> None:
        """The cursor to ``n``; its ancestors' ``next`` lead to it."""
        path = self.path(n)
        for a, b in zip(path, path[1:], strict=False):
            self.nodes[a]["next"] = b
        self.cursor = n

    # ------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {"base": self.base, "nodes": self.nodes, "cursor": self.cursor, "info": self.info}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Tree:
        return cls(d["base"], d["nodes"], int(d["cursor"]), d.get("info"))

    def page(self, who: Any) -> dict[str, Any]:
        """The tree as the page reads it: every node's ``PAGE_FIELDS``
        (``who(seat)`` names the seat), the cursor and the line through it."""
        nodes = []
        for n in self.nodes:
            item = {k: n.get(k) for k in PAGE_FIELDS}
            item["who"] = None if n["seat"] is None else who(n["seat"])
            nodes.append(item)
        return {"nodes": nodes, "cursor": self.cursor, "line": self.line()}


__all__ = ["PAGE_FIELDS", "ROOT", "Tree", "action_fields", "brief_shot", "replay", "seat_to_act", "state_fields"]
