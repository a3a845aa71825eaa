"""Gymnasium, RLlib multi-agent and PettingZoo adapters (DESIGN.md §5)."""
