"""A short random-policy loop through warbench's reinforcement-learning environments.

Trains nothing: it shows the two ways in. The PettingZoo AEC environment plays every
side of a scenario (here each side picks uniformly among its legal actions, read from
the action mask); the Gymnasium environment puts one learner on a side against a bot.

    python examples/rl_random.py mgv/clear
"""

from __future__ import annotations

import sys

import numpy as np

from warbench.env import WarbenchEnv, WarbenchSingleEnv, random_policy


def multi_agent(scenario: str, seed: int, limit: int = 2_000) -> dict[str, float]:
    """Every side random through the AEC loop; each side's total reward."""
    env = WarbenchEnv(scenario)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=limit):
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        action = None if terminated or truncated else random_policy(observation["action_mask"], rng)
        env.step(action)
    env.close()
    return totals


def one_side(scenario: str, side: str, seed: int, limit: int = 2_000) -> tuple[float, int]:
    """One random learner against the greedy bot; its return and steps."""
    env = WarbenchSingleEnv(scenario, side=side, opponents="greedy")
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while steps < limit:
        action = random_policy(observation["action_mask"], rng)
        observation, reward, terminated, truncated, _ = env.step(action)
        total += reward
        steps += 1
        if terminated or truncated:
            break
    env.close()
    return total, steps


def main() -> None:
    scenario = sys.argv[1] if len(sys.argv) > 1 else "miniwars/bridge"
    print("every side random:", multi_agent(scenario, seed=1))
    side = WarbenchEnv(scenario).possible_agents[0]
    total, steps = one_side(scenario, side, seed=1)
    print(f"{side} random against greedy: return {total:+.0f} after {steps} steps")


if __name__ == "__main__":
    main()
