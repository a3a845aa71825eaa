"""piramida.agents: the Agent protocol and the agents (DESIGN.md §6)."""
