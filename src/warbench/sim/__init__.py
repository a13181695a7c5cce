"""Batch play: bot-vs-bot games by the thousand, in parallel, with statistics."""

from warbench.sim.runner import GameSummary, SimResult, game_seed, play_game, simulate

__all__ = ["GameSummary", "SimResult", "game_seed", "play_game", "simulate"]
