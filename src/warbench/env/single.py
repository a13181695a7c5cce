"""A Gymnasium environment of one side against bots (issue 14, part 4).

``WarbenchSingleEnv("mgv/clear", side="blue", opponents="greedy")``: the learner plays
``side``; every other side is played by the named bot (with its options), which
decides from its own seat as in ``play``. ``step`` applies the learner's action and lets
the bots play until the learner is asked again or the game ends. Observations, masks
and rewards are those of :class:`warbench.env.aec.WarbenchEnv` (the mask also in
``info["action_mask"]``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from warbench.bots import Bot, check_bot, make_bot
from warbench.core import registry
from warbench.env.aec import WarbenchEnv
from warbench.errors import WarbenchError

Observation = dict[str, npt.NDArray[Any]]


class WarbenchSingleEnv(gymnasium.Env[Observation, int]):
    """One side of a scenario for a single learning agent, the others played by a bot."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium's)

    def __init__(
        self,
        scenario: str,
        side: str,
        opponents: str = "random",
        render_mode: str | None = None,
        max_actions: int = 20_000,
    ) -> None:
        self.multi = WarbenchEnv(scenario, render_mode=render_mode, max_actions=max_actions)
        if side not in self.multi.possible_agents:
            raise WarbenchError(
                f"no side {side!r} in {scenario}; sides: {', '.join(self.multi.possible_agents)}"
            )
        make_bot(opponents, 0)
        check_bot(opponents, registry.get(self.multi.scenario.ruleset).info)
        self.side = side
        self.opponents = opponents
        self.render_mode = render_mode
        self.observation_space = self.multi.observation_space(side)
        self.action_space = self.multi.action_space(side)
        self._bots: dict[str, Bot] = {}

    def _play_others(self) -> None:
        """The bots play until the learner is asked or the game is over."""
        multi = self.multi
        game = multi.game
        assert game is not None
        while not game.is_over and multi.agent_selection != self.side:
            other = multi.agent_selection
            if multi.truncations[other]:
                return
            multi.act(self._bots[other].choose(game.seat(other), other))

    def _answer(self) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        multi = self.multi
        observation = multi.observe(self.side)
        reward = float(multi.rewards.get(self.side, 0.0))
        terminated = bool(multi.terminations.get(self.side, False))
        truncated = bool(multi.truncations.get(self.side, False))
        info = {"action_mask": observation["action_mask"]}
        return observation, reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62)) if seed is None else int(seed)
        self.multi.reset(seed=game_seed)
        self._bots = {
            s: make_bot(self.opponents, game_seed * 10 + i)
            for i, s in enumerate(self.multi.possible_agents)
            if s != self.side
        }
        self._play_others()
        observation, _, _, _, info = self._answer()
        return observation, info

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        self.multi.step(int(action))
        self._play_others()
        return self._answer()

    def render(self) -> str | None:
        return self.multi.render()

    def close(self) -> None:
        self.multi.close()


def random_policy(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> int:
    """A legal action number picked uniformly from ``mask``."""
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal))
