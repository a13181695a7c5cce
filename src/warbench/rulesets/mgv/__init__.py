"""MGV (Miniature Ground Vehicles, WTJ): hunter-killer micro-vehicle combat.

Played on a free-form table measured in inches (``warbench.geometry.table``).
"""
