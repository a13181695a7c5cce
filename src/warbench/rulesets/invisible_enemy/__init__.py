"""Invisible Enemy (Micromachines at War, WTJ, the 2010-12 edition): being built.

Only the charts exist so far (``charts.py``, ``data/charts.toml``, ``odds.py``):
the stand-ins for the printed charts the text refers to but does not contain.
The ruleset is NOT registered yet: importing this package registers nothing.
"""
