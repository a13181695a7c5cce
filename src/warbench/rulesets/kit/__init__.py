"""The ruleset kit: the scaffolding every ruleset shares, written once.

A ruleset package is its data, its rules and the hooks that serve bots, odds and
tools. What is the same from one ruleset to the next (action classes named by a
verb and ids, the lazily built list of moves, the hooks that hand the engine's
questions to a ruleset's own modules, the glue around a compiled playout, the
shared text of hex answers, the planner's stakes) lives here and is specialised
by data (class attributes) and small overrides. The kit registers no ruleset.
"""
