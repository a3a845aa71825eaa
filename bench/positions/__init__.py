"""Reference positions for the planner benchmark (bench/planner.py)."""
