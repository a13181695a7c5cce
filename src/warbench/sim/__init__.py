"""warbench.sim."""
