"""Ruleset-independent geometry: hex grids now, the free-form table later."""
