"""Reinforcement-learning environments of every warbench scenario (issue 14, part 4).

- :class:`WarbenchEnv` (``warbench.env.aec``): a PettingZoo AEC environment, the
  scenario's sides as agents; it passes PettingZoo's own ``api_test``.
- :class:`WarbenchSingleEnv` (``warbench.env.single``): a Gymnasium environment of
  one side against a bot.

Observations come from each side's view only (:mod:`warbench.env.encode`), so nothing
hidden reaches an agent; actions are numbers into the legal-action list, with a mask.
Needs the ``rl`` extra (``pip install warbench[rl]``: PettingZoo and Gymnasium).
"""

from __future__ import annotations

from warbench.env.aec import MAX_ACTIONS, WarbenchEnv
from warbench.env.encode import SIZE, encode
from warbench.env.single import WarbenchSingleEnv, random_policy

__all__ = ["MAX_ACTIONS", "SIZE", "WarbenchEnv", "WarbenchSingleEnv", "encode", "random_policy"]
