"""warbench.scenario."""
