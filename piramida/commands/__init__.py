"""CLI commands, one module each; ``register_all`` adds them to the app."""

from __future__ import annotations

import importlib

import typer

# Module names under piramida.commands; each defines ``register(app)``.
COMMANDS: tuple[str, ...] = (
    "version", "agents", "show", "simulate", "referee", "play", "demo", "bench", "match", "suggest", "tournament", "serve", "train", "value", "imitate", "iterate", "calibrate", "study",
)


def register_all(app: typer.Typer) -> None:
    for name in COMMANDS:
        importlib.import_module(f"piramida.commands.{name}").register(app)
