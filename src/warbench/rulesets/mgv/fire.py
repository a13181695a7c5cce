"""5.0-5.3 Direct fire: ranging, declaration, screens, missile dice, the rolls, placing hits.

A fire phase walks these steps (``State.step``):

1. ``range`` (guess option, when the firing side has a photon mount that can
   fire): the side writes its photon range guesses, a sealed choice the engine
   *holds* (5.3: written before targets are declared); the rules learn only
   that the guesses exist, and open them when the dice are rolled.
2. ``declare``: the target of every mount that fires (public).
3. ``screen`` (when the defender has unfired missile mounts and attacks were
   declared on its bases): each screening mount gives an attack its points
   (5.1 Modifiers; screening uses up that weapon's shot for the turn).
4. ``split`` (when a missile attack was declared): both sides split their dice
   among surface, core and heart, sealed and simultaneous (5.2 Missile Fire).
5. ``resolve``: every attack's dice, in declaration order; hits become groups.
6. ``place``: the target's owner places each group (5.2 Applying Damage);
   then the phase ends with the sudden-death rolls (1.6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from warbench.core.actions import Action
from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.rulesets.kit.rulings import cite, cite_ruling
from warbench.rulesets.mgv import combat, space
from warbench.rulesets.mgv.actions import FireOrder, Mark, Range, ScreenOrder, Split, mount
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.hitlog import (
    HitGroup,
    apply_placement,
    check_placement,
    default_placement,
    placements,
)
from warbench.rulesets.mgv.state import Attack, Base, Fire, Group, Screen, State

RULINGS = "warbench.rulesets.mgv"
"""Where ``data/rulings.toml`` lives: refusals caused by a ruling cite it from there."""


# -- who can do what ----------------------------------------------------------------------
def ready_mounts(state: State, side: str) -> list[tuple[Base, str]]:
    """Mounts of ``side`` that have not fired (or screened) this turn."""
    return [
        (b, m.slot)
        for b in state.active(side)
        for m in b.mounts.values()
        if m.weapon is not None and m.spent_turn != state.turn
    ]


def targets(state: State, base: Base, weapon: str) -> list[Base]:
    """Enemy bases this mount could fire at now (5.0)."""
    return [
        t
        for t in state.active(state.other(base.side))
        if space.line_of_fire(state, base, t, weapon).allowed
    ]


def has_target(state: State, base: Base, weapon: str) -> bool:
    """Whether this mount could fire at any enemy base now: :func:`targets`, stopping at
    the first (each line of fire looked at is remembered all the same)."""
    return any(
        space.line_of_fire(state, base, t, weapon).allowed
        for t in state.active(state.other(base.side))
    )


def photon_ready(state: State, side: str) -> list[tuple[Base, str]]:
    return [
        (b, slot)
        for b, slot in ready_mounts(state, side)
        if b.mounts[slot].weapon == "photon" and has_target(state, b, "photon")
    ]


def begin(state: State, res: Resolution) -> None:
    """Start a fire phase for ``state.actor``."""
    side = state.actor
    assert side is not None
    state.fire = Fire()
    if not any(has_target(state, b, str(b.mounts[s].weapon)) for b, s in ready_mounts(state, side)):
        res.emit("pass", f"{side} has no mount able to fire")
        state.step = "end_phase"
        return
    if state.setup.options.photon == "guess" and photon_ready(state, side):
        state.step = "range"
    else:
        state.step = "declare"


# -- 1. ranging -----------------------------------------------------------------------------
def check_range(state: State, side: str, action: Action) -> None:
    if not isinstance(action, Range):
        raise IllegalAction(
            action, "write your range guesses: range BASE>TARGET=INCHES ... or range none"
        )
    data = rules().data.ranging
    ready = {(b.id, s) for b, s in ready_mounts(state, side)}
    seen = set()
    for base, slot, target, guess in action.guesses:
        b = state.bases.get(base)
        if b is None or b.side != side or not b.active:
            raise IllegalAction(action, f"{base} is not one of your bases on the table")
        mount = b.mounts.get(slot)
        if mount is None or mount.weapon != "photon":
            raise IllegalAction(action, f"{base} {slot} is not a photon mount")
        if (base, slot) not in ready:
            raise IllegalAction(action, f"{base} {slot} has already fired this turn")
        if (base, slot) in seen:
            raise IllegalAction(action, f"{base} {slot} has two guesses")
        seen.add((base, slot))
        aim = state.bases.get(target)
        if aim is None or aim.side == side or not aim.active:
            raise IllegalAction(action, f"{target} is not an enemy base on the table")
        if guess is not None:
            if not 0.0 < guess <= data.max:
                raise IllegalAction(
                    action, f"a guess is more than 0 and at most {data.max:g} inches"
                )
            steps = guess / data.step
            if abs(steps - round(steps)) > 1e-9:
                raise IllegalAction(action, f"write guesses to {data.step:g} of an inch (5.3)")


def after_range(state: State, res: Resolution) -> None:
    """The guesses are written (held by the engine): targets are declared next, each
    guessed mount at the target its guess names.

    From now on distances may be measured again, so writing the guesses shows the
    side something it could measure with: it can never be taken back (else a
    player could look, undo and guess again).
    """
    res.reveal()
    state.fire.guesses_held = True
    res.emit("ranged", f"{state.actor} writes its photon range guesses (sealed until the dice)")
    state.step = "declare"


# -- 2. declaration -------------------------------------------------------------------------
def check_declare(
    state: State, side: str, action: Action, held: Action | None, *, guesses: bool = True
) -> list[Attack]:
    """The attacks ``action`` declares, or IllegalAction. ``held``: the side's own written
    range guesses (5.3), to which each photon shot must keep (``guesses=False``: not
    checked, for odds and bots weighing a declaration without the engine's secret)."""
    if isinstance(action, Range) and state.setup.options.photon == "estimate":
        raise IllegalAction(
            action,
            "nobody writes range guesses: each photon shot's guess is drawn from the error "
            f"model: {cite(RULINGS, 'photon', allow='guess')}",
        )
    if isinstance(action, Range) and state.fire.guesses_held:
        raise IllegalAction(
            action,
            f"the range guesses are written and cannot be taken back ({cite_ruling(RULINGS, 12)})",
        )
    if not isinstance(action, FireOrder):
        raise IllegalAction(action, "declare targets: fire BASE>TARGET ... or fire none")
    ready = {(b.id, s) for b, s in ready_mounts(state, side)}
    used: set[tuple[str, str]] = set()
    attacks = []
    for number, (shooters, slot, target_id) in enumerate(action.attacks, start=1):
        target = state.bases.get(target_id)
        if target is None or not target.active or target.side == side:
            raise IllegalAction(action, f"{target_id} is not an enemy base on the table")
        weapon = None
        off_line = False
        for shooter_id in shooters:
            b = state.bases.get(shooter_id)
            if b is None or b.side != side or not b.active:
                raise IllegalAction(action, f"{shooter_id} is not one of your bases on the table")
            mount = b.mounts.get(slot)
            if mount is None:
                raise IllegalAction(action, f"the {b.model.title} has no {slot} mount")
            if (b.id, slot) not in ready:
                raise IllegalAction(action, f"{b.id} {slot} has already fired this turn")
            if (b.id, slot) in used:
                raise IllegalAction(action, f"{b.id} {slot} fires only once a phase")
            used.add((b.id, slot))
            weapon = mount.weapon
            line = space.line_of_fire(state, b, target, str(weapon))
            if not line.allowed:
                raise IllegalAction(action, f"{b.id} cannot fire at {target.id}: {line.reason}")
            off_line = off_line or line.off_line
            if guesses and weapon == "photon" and state.fire.guesses_held:
                _check_guessed(action, held, b.id, slot, target.id)
        assert weapon is not None
        if len(shooters) == 2:
            a, c = (state.bases[s] for s in shooters)
            if a.wing is None or a.wing != c.wing or a.id == c.id:
                raise IllegalAction(action, f"{a.id} and {c.id} are not a wing pair (1.3)")
            if any(state.bases[s].mounts[slot].weapon != "missile" for s in shooters):
                raise IllegalAction(action, "only missile mounts of a wing combine fire (5.2)")
        elif len(shooters) != 1:
            raise IllegalAction(action, "one base fires, or the two bases of a wing combine")
        cover, _ = space.cover(state, state.bases[shooters[0]], target)
        attacks.append(Attack(number, tuple(shooters), slot, weapon, target_id, off_line, cover))
    return attacks


def _check_guessed(action: Action, held: Action | None, base: str, slot: str, target: str) -> None:
    """A photon shot fires at the target its written guess names (5.3)."""
    written = held.guess_for(base, slot) if isinstance(held, Range) else None
    name = mount(base, slot)
    if written is None:
        raise IllegalAction(
            action, f"{name} wrote no range guess: a photon shot needs one, written first (5.3)"
        )
    if written[0] != target:
        raise IllegalAction(
            action,
            f"{name}'s range guess is written for {written[0]}: it fires at {written[0]} "
            "or not at all (5.3)",
        )


def apply_declare(state: State, side: str, action: Action, res: Resolution) -> None:
    attacks = check_declare(state, side, action, res.own_held(side))
    state.fire.attacks = attacks
    for attack in attacks:
        for shooter in attack.shooters:
            state.bases[shooter].mounts[attack.slot].spent_turn = state.turn
            state.bases[shooter].fired_phase = state.phase_no
        res.emit(
            "declare",
            f"attack {attack.number}: {attack.label()} ({attack.weapon}) at {attack.target}"
            + (" off-line" if attack.off_line else ""),
            attack=attack.number,
            shooters=list(attack.shooters),
            target=attack.target,
            weapon=attack.weapon,
        )
    if not attacks:
        res.emit("pass", f"{side} fires nothing")
        state.step = "resolve"
        return
    state.step = "screen" if screeners(state) else _after_screen(state)


# -- 3. screens ------------------------------------------------------------------------------
def screeners(state: State) -> list[tuple[Base, str]]:
    """Defender missile mounts that may screen an attack now (5.1 Modifiers)."""
    actor = state.actor
    assert actor is not None
    defender = state.other(actor)
    if not any(state.bases[a.target].side == defender for a in state.fire.attacks):
        return []
    return [(b, s) for b, s in ready_mounts(state, defender) if b.mounts[s].weapon == "missile"]


def apply_screen(state: State, side: str, action: Action, res: Resolution) -> None:
    if not isinstance(action, ScreenOrder):
        raise IllegalAction(action, "screen attacks: screen BASE>ATTACK ... or screen none")
    ready = {(b.id, s) for b, s in screeners(state)}
    numbers = {a.number for a in state.fire.attacks}
    seen = set()
    screens = []
    for base, slot, number in action.screens:
        if (base, slot) not in ready:
            raise IllegalAction(action, f"{base} {slot} is not a missile mount able to screen now")
        if (base, slot) in seen:
            raise IllegalAction(action, f"{base} {slot} screens once")
        if number not in numbers:
            raise IllegalAction(action, f"there is no attack {number}")
        seen.add((base, slot))
        screens.append(Screen(base, slot, number, state.bases[base].mounts[slot].attack))
    for screen in screens:
        b = state.bases[screen.base]
        b.mounts[screen.slot].spent_turn = state.turn
        b.fired_phase = state.phase_no
        res.emit(
            "screen",
            f"{mount(screen.base, screen.slot)} screens attack {screen.attack} "
            f"({screen.points} interception points)",
            base=screen.base,
            attack=screen.attack,
        )
    state.fire.screens = screens
    state.step = _after_screen(state)


def _after_screen(state: State) -> Literal["split", "resolve"]:
    return "split" if any(a.weapon == "missile" for a in state.fire.attacks) else "resolve"


# -- 4. missile dice -----------------------------------------------------------------------
def missile_dice(state: State, attack: Attack) -> tuple[int, int]:
    """(attacker dice, defender dice) of a missile attack, modifiers applied."""
    shooter = state.bases[attack.shooters[0]]
    target = state.bases[attack.target]
    mods = modifiers(state, attack)
    wing = len(attack.shooters) == 2
    scoring = state.setup.options.missile_scoring
    own = combat.missile_dice(shooter.mounts[attack.slot].attack, mods.total(), wing, scoring)
    return own, combat.block_dice(target.defence, scoring)


def dice_counts(state: State) -> str:
    """Both sides' dice of every missile attack, which both know (5.2): ``attack 2 (B2 at
    R1): 6 dice against 4 block dice``."""
    parts = []
    for attack in (a for a in state.fire.attacks if a.weapon == "missile"):
        own, theirs = missile_dice(state, attack)
        head = f"attack {attack.number} ({attack.label()} at {attack.target})"
        parts.append(f"{head}: {own} dice against {theirs} block dice")
    return "; ".join(parts)


def check_split(state: State, side: str, action: Action) -> None:
    if not isinstance(action, Split):
        raise IllegalAction(
            action, "split your missile dice: split N=S/C/H ... (block for the defender)"
        )
    attacker = side == state.actor
    verb = "split" if attacker else "block"
    if action.verb != verb:
        raise IllegalAction(
            action, f"you {'attack' if attacker else 'defend'}: write {verb} N=S/C/H ..."
        )
    missiles = {a.number: a for a in state.fire.attacks if a.weapon == "missile"}
    given = {}
    for number, s, c, h in action.dice:
        attack = missiles.get(number)
        if attack is None:
            raise IllegalAction(action, f"attack {number} is not a missile attack")
        if number in given:
            raise IllegalAction(action, f"attack {number} is split twice")
        own, theirs = missile_dice(state, attack)
        dice = own if attacker else theirs
        if s + c + h != dice:
            raise IllegalAction(
                action, f"attack {number} has {dice} dice to split, not {s + c + h}"
            )
        given[number] = (s, c, h)
    missing = sorted(set(missiles) - set(given))
    if missing:
        raise IllegalAction(
            action, f"split the dice of every missile attack: {missing[0]} is missing"
        )


def apply_split(state: State, choices: Mapping[str, Action], res: Resolution) -> None:
    actor = state.actor
    for side, action in choices.items():
        assert isinstance(action, Split)
        target = state.fire.splits if side == actor else state.fire.blocks
        for number, s, c, h in action.dice:
            target[number] = (s, c, h)
    res.emit(
        "splits",
        "missile dice revealed: "
        + "; ".join(
            f"attack {n}: {'/'.join(map(str, state.fire.splits[n]))} against "
            f"{'/'.join(map(str, state.fire.blocks.get(n, (0, 0, 0))))}"
            for n in sorted(state.fire.splits)
        ),
        splits={str(k): list(v) for k, v in state.fire.splits.items()},
        blocks={str(k): list(v) for k, v in state.fire.blocks.items()},
    )
    state.step = "resolve"


# -- 5. the dice ------------------------------------------------------------------------------
def modifiers(state: State, attack: Attack, error: float | None = None) -> combat.Modifiers:
    """5.1 Modifiers of one attack as they stand now (its cover as found at the
    declaration)."""
    target = state.bases[attack.target]
    last = state.phase_no - 1
    if state.setup.options.last_phase == "within_turn" and state.phase == 0:
        last = 0  # X: the turn's first phase has no last phase of its own turn
    points = sum(s.points for s in state.fire.screens if _screens(state, s, attack))
    beacon = target.beacon_turn == state.turn
    return combat.Modifiers(
        weapon=attack.weapon,
        target_fired=last >= 1 and target.fired_phase == last,
        target_moved=last >= 1
        and target.moved_phase == last
        and target.moved_distance >= rules().data.moved_threshold,
        beacon=beacon,
        cover=attack.cover,
        ranging_error=error,
        interception=points,
        off_line=attack.off_line,
    )


def _screens(state: State, screen: Screen, attack: Attack) -> bool:
    """Whether ``screen`` (written against one declared attack) defends ``attack``: 5.1
    spends the points "in defence of a friendly MGV base", so by default it defends the
    screened attack's target against every attack on it (ruling 16); with option
    ``screen = "attack"`` the one attack only."""
    if state.setup.options.screen == "attack":
        return screen.attack == attack.number
    screened = next((a for a in state.fire.attacks if a.number == screen.attack), None)
    return screened is not None and screened.target == attack.target


def resolve(state: State, res: Resolution) -> None:
    """Roll every declared attack in order; hits become groups for their targets' owners."""
    actor = state.actor
    assert actor is not None
    fire = state.fire
    guesses: dict[tuple[str, str], float | None] = {}
    if fire.guesses_held:
        held = res.open_held(actor)
        if isinstance(held, Range):
            guesses = {(b, s): g for b, s, _, g in held.guesses}
            shown = ", ".join(
                f"{mount(b, s)} at {t} {'estimate' if g is None else f'{g:g}in'}"
                for b, s, t, g in held.guesses
            )
            res.emit("guesses", f"{actor}'s range guesses revealed: {shown or 'none'}")
    groups: list[Group] = []
    for attack in fire.attacks:
        groups.extend(_resolve_attack(state, attack, guesses, res))
    fire.groups = groups
    _auto_place(state, res)


def _resolve_attack(
    state: State,
    attack: Attack,
    guesses: Mapping[tuple[str, str], float | None],
    res: Resolution,
) -> list[Group]:
    actor = state.actor
    assert actor is not None
    shooter = state.bases[attack.shooters[0]]
    target = state.bases[attack.target]
    bearing = space.attacker_bearing(target, shooter)
    rear = space.from_rear(target, shooter)
    counting = state.setup.options.missile_scoring == "successes"
    roll = _roller(res, actor, attack, target.side, counting)
    attack_value = shooter.mounts[attack.slot].attack
    head = f"attack {attack.number} ({attack.label()} {attack.weapon} at {target.id})"
    out: list[Group] = []
    if attack.weapon == "kinetic":
        mods = modifiers(state, attack)
        distance = space.range_to(shooter, target)
        hits = combat.resolve_kinetic(attack_value, target.defence, roll, mods.total(), distance)
        res.emit("attack", f"{head}: {hits} hit(s){_why(mods)}", attack=attack.number, hits=hits)
        group = HitGroup.direct("kinetic", hits, bearing=bearing, rear=rear)
    elif attack.weapon == "missile":
        mods = modifiers(state, attack)
        split = state.fire.splits.get(attack.number, (0, 0, 0))
        block = state.fire.blocks.get(attack.number, (0, 0, 0))
        s, c, h = combat.resolve_missile(split, block, roll, state.setup.options.missile_scoring)
        res.emit(
            "attack",
            f"{head}: {s} surface, {c} core, {h} heart hit(s){_why(mods)}",
            attack=attack.number,
            layers=[s, c, h],
        )
        group = HitGroup.missile(
            s, c, h, bearing=bearing, rear=rear, core_rule=state.setup.options.core_rule
        )
    else:
        true_range = space.range_to(shooter, target)
        key = (shooter.id, attack.slot)
        # The declaration kept every photon shot to a guess written for its target (5.3);
        # a guess written as "estimate", and every guess under that option, is drawn.
        written = guesses.get(key)
        if state.setup.options.photon == "estimate" or written is None:
            guess = estimate(true_range, res, actor, shooter.id)
        else:
            guess = written
        error = abs(guess - true_range)
        mods = modifiers(state, attack, error)
        result = combat.resolve_photon(attack_value, error, roll, mods.total(ranging=False))
        res.emit(
            "attack",
            f"{head}: range {true_range:.2f}in, error {error:.2f}in, {result.hits} hit(s)"
            + (" - disaster: the beam's feedback hits the firer" if result.disaster else "")
            + _why(mods),
            attack=attack.number,
            hits=result.hits,
            error=round(error, 4),
        )
        group = HitGroup.direct("photon", result.hits, bearing=bearing, rear=rear)
        if result.disaster and result.feedback_hits:
            feedback = HitGroup.direct("photon", result.feedback_hits, bearing=0.0)
            out.append(Group(attack.number, shooter.id, feedback, shooter.id))
    if group.total > 0:
        out.insert(0, Group(attack.number, target.id, group, shooter.id))
    return out


def _why(mods: combat.Modifiers) -> str:
    terms = mods.explanation()
    return f" [{'; '.join(terms)}]" if terms else ""


ESTIMATE_DICE = 4
"""The estimate model is sampled with 4D6 read as the digits of a base-6 number (1,296
equally likely values, a uniform draw fine enough for the model's inverse CDF)."""


def estimate(true_range: float, res: Resolution, side: str, base: str) -> float:
    """A guess drawn from the estimate model (5.3 stand-in) with the game's own dice."""
    dice = res.roll(f"range estimate for {base}", ESTIMATE_DICE, side)
    index = 0
    for die in dice:
        index = index * 6 + (die - 1)
    u = (index + 0.5) / 6**ESTIMATE_DICE
    total = 0.0
    chances = combat.estimate_distribution(true_range)
    for guess, chance in chances:
        total += chance
        if u <= total:
            res.emit("estimate", f"{base} estimates the range at {guess:g}in")
            return guess
    return chances[-1][0]


def _roller(
    res: Resolution, side: str, attack: Attack, defender: str, counting: bool
) -> combat.Roll:
    """The attack's dice, each logged as its roller's: the defender throws the blocks (5.2).
    ``counting``: missile dice each score or not (no sum is shown for them)."""

    def roll(purpose: str, n: int) -> tuple[int, ...]:
        who = defender if "block" in purpose else side
        total = not (counting and purpose.startswith("missile"))  # each die scores or not
        return res.roll(f"attack {attack.number}: {purpose}", n, who, total=total)

    return roll


# -- 6. placing hits --------------------------------------------------------------------------
def placing_prompt(state: State) -> str:
    """What the owner is asked: which hits, from where, on which hull (5.2 Applying Damage)."""
    group = state.fire.groups[0]
    base = state.bases[group.target]
    hits = group.hits
    if hits.weapon == "missile":
        what = f"{hits.surface} surface, {hits.core} core, {hits.heart} heart missile hit(s)"
    else:
        what = f"{hits.total} {hits.weapon} hit(s)"
    source = "feedback of its own beam" if group.shooter == base.id else f"from {group.shooter}"
    rear = "; from the rear arc: surface hits count as P" if hits.rear else ""
    marked = " ".join(f"{c}={k}" for c, k in base.log.marks) or "none"
    return (
        f"place {what} on {base.id} (attack {group.attack}, {source}{rear}; 5.2): "
        f"its hull is {base.layout.span()}, s1 dead ahead and numbered counter-clockwise; "
        f"marked: {marked}. Type mark CIRCLE ... or mark auto"
    )


def _auto_place(state: State, res: Resolution) -> None:
    """Place groups that leave their owner no choice; stop at the first real choice."""
    while state.fire.groups:
        group = state.fire.groups[0]
        base = state.bases[group.target]
        if base.log.destroyed(base.layout):  # destroyed by an earlier group: nothing to mark
            _place(state, group, (), res)
            continue
        options = placements(base.layout, base.log, group.hits, limit=2)
        if len(options) > 1:
            state.step = "place"
            return
        _place(state, group, options[0] if options else (), res)
    state.step = "end_phase"


def apply_mark(state: State, action: Mark, res: Resolution) -> None:
    group = state.fire.groups[0]
    base = state.bases[group.target]
    if action.auto:
        circles = default_placement(base.layout, base.log, group.hits)
    else:
        circles = action.circles
        problem = check_placement(base.layout, base.log, group.hits, circles)
        if problem is not None:
            raise IllegalAction(action, problem)
    _place(state, group, circles, res)
    _auto_place(state, res)


def _place(
    state: State, group: Group, circles: tuple[str, ...] | list[str], res: Resolution
) -> None:
    base = state.bases[group.target]
    before = base.log
    state.fire.groups.pop(0)
    # which attack's hits these are, and of what (a disaster's feedback hits the firer)
    whose = {
        "attack": group.attack,
        "weapon": "feedback" if group.target == group.shooter else group.hits.weapon,
    }
    if before.destroyed(base.layout):
        # an earlier group of this fire destroyed it: these hits strike a wreck
        res.emit(
            "hits",
            f"{base.id} is already destroyed: {group.hits.total} hit(s) strike the wreck",
            base=base.id,
            circles=[],
            lost=0,
            wreck=group.hits.total,
            **whose,
        )
        return
    base.log = apply_placement(base.log, group.hits, circles, base.layout)
    left = max(0, group.hits.total - len(circles))
    base.damaged_phase = state.phase_no
    # once the heart is gone, what is left strikes the wreck; else it is lost (5.2)
    dead = base.log.destroyed(base.layout)
    rest = ""
    if left:
        rest = (
            f" ({left} more hit(s) strike the wreck)"
            if dead
            else (f" ({left} hit(s) find no circle and are lost)")
        )
    res.emit(
        "hits",
        f"{base.id} marks {' '.join(circles) or 'nothing'}{rest}",
        base=base.id,
        circles=list(circles),
        lost=0 if dead else left,
        **({"wreck": left} if dead and left else {}),
        **whose,
    )
    if base.log.destroyed(base.layout) and not before.destroyed(base.layout):
        cause = "feedback" if group.target == group.shooter else group.hits.weapon
        _destroy(state, base, "its heart is gone", res, cause, credit=group.shooter)


def _destroy(
    state: State, base: Base, why: str, res: Resolution, cause: str, credit: str | None = None
) -> None:
    """``base`` is gone; ``cause``: the weapon whose hits finished it (``feedback``: a
    photon disaster's own beam), or ``sudden death``; ``credit``: the shooter whose
    hits finished it (none for a sudden death roll)."""
    base.destroyed = True
    state.touched()
    res.emit(
        "destroyed", f"{base.id} is destroyed: {why}", base=base.id, credit=credit, cause=cause
    )


def sudden_death(state: State, res: Resolution) -> None:
    """1.6: a base with B hits that took damage this phase rolls for sudden death."""
    for base in list(state.active()):
        if base.damaged_phase == state.phase_no and base.log.b_hits > 0:
            side = base.side

            def roll(purpose: str, n: int, who: str = side, name: str = base.id) -> tuple[int, ...]:
                return res.roll(f"{name}: {purpose} (1.6)", n, who)

            if combat.sudden_death(base.log.b_hits, roll):
                _destroy(state, base, "sudden death (1.6)", res, "sudden death")
