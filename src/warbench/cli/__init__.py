"""warbench.cli."""
