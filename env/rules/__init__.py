"""Referees: shared pyramid rules and one module per variant (DESIGN.md §4). Reads events; never imports physics."""
