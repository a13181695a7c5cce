"""warbench.core."""
