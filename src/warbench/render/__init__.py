"""warbench.render."""
