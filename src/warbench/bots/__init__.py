"""warbench.bots."""
