"""warbench.rulesets."""
