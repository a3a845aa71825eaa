"""piramida.training: RLlib self-play (docs/design.md §7). Imports ray lazily."""
