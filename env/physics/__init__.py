"""Event-based simulation of the table (DESIGN.md §3). Knows nothing of rules."""
