"""A PettingZoo AEC environment of any warbench scenario (issue 14, part 4).

Agents are the scenario's sides. The game says who acts: ``agent_selection`` is the
first side the game waits for (in a sealed round each asked side chooses in turn,
and none sees another's choice: its observation is its own view). An action is a
number into the side's legal actions as :meth:`Game.legal_actions` lists them
(candidates on an open table), cut to :data:`MAX_ACTIONS`; the observation is a dict
of ``observation`` (:func:`warbench.env.encode.encode` of the side's view: nothing
hidden) and ``action_mask`` (1 for each number that is a legal action now, only for
the agent asked). The reward is +1 to the winner and -1 to the others when the game
ends, 0 for a draw; a game still going after ``max_actions`` actions is truncated.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.env.encode import SIZE, encode, map_text

MAX_ACTIONS = 512
"""The size of every agent's action space (a list longer than this is cut)."""


class WarbenchEnv(AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]
    """``WarbenchEnv("vsgmr/street")``: the scenario as a turn-based multi-agent game."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "warbench_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, scenario: str, render_mode: str | None = None, max_actions: int = 20_000
    ) -> None:
        super().__init__()
        self.scenario = load_scenario(scenario)
        self.scenario_ref = scenario
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.possible_agents = list(self.scenario.sides)
        self.agents = list(self.possible_agents)
        box = spaces.Box(low=-1.0, high=2.0, shape=(SIZE,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(MAX_ACTIONS,), dtype=np.int8)
        self._observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.agents
        }
        self._action_spaces = {a: spaces.Discrete(MAX_ACTIONS) for a in self.agents}
        self.game: Game | None = None
        self._legal: list[Action] = []
        self.reset()

    # -- spaces ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- the game -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = Game(self.scenario, int(seed) if seed is not None else 0)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """The next agent: the first side the game waits for (the game's own order)."""
        assert self.game is not None
        waiting = self.game.waiting_for()
        self.agent_selection = waiting[0] if waiting else self.agents[0]
        self._legal = list(self.game.legal_actions(self.agent_selection))[:MAX_ACTIONS]
        for agent in self.agents:
            self.infos[agent] = {"asked": agent in waiting}

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        assert self.game is not None
        asked = tuple(self.game.waiting_for())
        observation = np.clip(encode(self.game.view(agent), asked), -1.0, 2.0)
        mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
        if agent == self.agent_selection and not self.game.is_over:
            mask[: len(self._legal)] = 1
        return {"observation": observation.astype(np.float32), "action_mask": mask}

    def legal_actions(self) -> list[Action]:
        """The actions the numbers of the current agent's mask stand for."""
        return list(self._legal)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        if action is None or not 0 <= int(action) < len(self._legal):
            raise ValueError(
                f"{agent} chose {action}: not one of its {len(self._legal)} legal actions"
            )
        self.act(self._legal[int(action)])

    def act(self, action: Action) -> None:
        """Apply ``action`` for the current agent by itself rather than by its number (a
        bot's choice, which on an open table or in a sealed split may be one the
        numbered list does not hold); refused like :meth:`Game.apply` refuses it."""
        agent = self.agent_selection
        assert self.game is not None
        self.game.apply(action, agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        outcome = self.game.outcome
        if outcome is not None:
            for side in self.agents:
                if outcome.winner is not None:
                    self.rewards[side] = 1.0 if side == outcome.winner else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        elif len(self.game.actions) >= self.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    # -- showing it -----------------------------------------------------------------
    def render(self) -> str | None:
        """``ansi``: the text map of the current agent's view."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return map_text(self.game.view(self.agent_selection))

    def close(self) -> None:
        self.game = None
