"""One action drawn uniformly from a list built only as far as the draw needs.

A bot that needs a single random action (the random bot, a random rollout) would
otherwise have the ruleset build every legal action, which on the open tables means
planning every candidate move of every figure, to keep one. A ruleset that can
build its list in parts gives it as groups (:meth:`~warbench.core.ruleset.Ruleset.
action_groups`): each an upper bound on how many actions it holds and a lazy
iterable of them, the groups' actions in order being exactly the legal list.

:func:`sample_uniform` draws a slot among the bounds; a slot past the end of its
group (found when the group runs out) is drawn again with that group's bound cut to
its true size. Every action has one slot and every slot is equally likely at each
draw, so the action returned is uniform over the whole list, exactly as an index
drawn on the list built in full, while only the groups the draws land in are built,
and each only as far as the slot drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

Group = tuple[int, Iterable[T]]
"""At most this many actions, and the actions (built lazily where that saves work)."""


def lazily(make: Callable[[], Iterable[T]]) -> Iterator[T]:
    """``make()``'s items, ``make`` called only when the first is asked for (a group's
    actions, built if a draw lands in it)."""
    yield from make()


_END = object()


class _Group:
    __slots__ = ("bound", "built", "rest")

    def __init__(self, bound: int, items: Iterable[object]) -> None:
        self.bound = max(0, bound)
        self.built: list[object] = []
        self.rest: Iterator[object] | None = iter(items)

    def item(self, index: int) -> object | None:
        """Item ``index`` (< bound), or None when the group holds fewer (its bound is
        then cut to its true size)."""
        built, rest = self.built, self.rest
        while len(built) <= index and rest is not None:
            item = next(rest, _END)
            if item is _END:
                self.rest = rest = None
                self.bound = len(built)
            else:
                built.append(item)
        return built[index] if index < len(built) else None


def sample_uniform(groups: Sequence[Group[T]], draw: Callable[[], float]) -> T | None:
    """One item drawn uniformly from the groups' items together (None if they hold
    none), building as little of them as it can. ``draw`` gives uniform floats in
    [0, 1) (a bot's own stream). Each group must hold at most its bound: an item past
    it would never be drawn."""
    parts = [_Group(bound, items) for bound, items in groups]
    while (total := sum(p.bound for p in parts)) > 0:
        slot = int(draw() * total)
        for part in parts:
            if slot < part.bound:
                found = part.item(slot)
                if found is not None:
                    return found  # type: ignore[return-value]
                break
            slot -= part.bound
    return None
