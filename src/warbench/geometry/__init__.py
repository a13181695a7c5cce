"""Ruleset-independent geometry: hex grids and maps (``hexgrid``, ``hexmap``,
``fastpath``) and the free-form table measured in inches (``table``)."""
