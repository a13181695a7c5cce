"""The open-table part of the ruleset kit: what VSGMR, MGV and Invisible Enemy share
about figures measured in inches (asking about a piece, the info lines, the move
language, the phrases a player types, the planner's clock and coordinated attacks)."""
