"""Embedded TOML configuration: tables/, variants/, noise/, agents/, training/, tournaments/."""

from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parent
