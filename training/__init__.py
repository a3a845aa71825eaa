"""piramida.training: RLlib self-play (DESIGN.md §7). Imports ray lazily."""
