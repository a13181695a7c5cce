/* A whole game of a CGME world (cgme, V.E.G.) with built-in bots, in C.
 *
 * Optional, like geometry/_reach.c and the MiniWars kernel: setup.py builds it
 * when a C compiler is present, and warbench.rulesets.cgme.playout returns
 * None (the engine then plays action by action in Python) when it is missing.
 * The Python rules (rules.py, movement.py, evaluate.py, bots/) stay the
 * reference: this kernel must play the very game play_game() plays with the
 * same seeds, and tests/rulesets/cgme/test_playout_kernel.py holds it to that.
 *
 * How the game stays the same game:
 * - every random number comes from the Python objects the engine would use:
 *   the game's dice are the bound `random` method of random.Random(seed) (a
 *   die is int(random() * 6) + 1, core/dice.py; the attack dice, then the
 *   defence dice) and each bot's stream is random.Random(bot_seed).random;
 * - legal actions are listed in the Python order (rules._move_options: one
 *   move per mover and destination in hex-index order, single units in unit
 *   order, then the stacks; loads, unloads, attacks during movement; end;
 *   rules._attack_options; rules._joiners then roll), since the random bot
 *   picks actions[int(r * len)] and the greedy bot breaks ties by index;
 * - a leg's destinations and path come from movement.search: the least-cost
 *   search where no hazard and no road bonus can be met (its costs are all
 *   that matter), else the same layered search over (hex, regular MP, bonus
 *   MP, road MP) expanding states in the same order, so that every state has
 *   the same predecessor and the same path (hence the same hazards, in the
 *   same order) is taken; destinations are listed in hex-index order;
 * - the greedy bot's scores are the same double operations in the same order
 *   as evaluate.py, on odds computed by combat.float_chances.
 * Every cache here (a unit's reach with its paths, the greedy context, hex
 * worths) is a pure function of what it is keyed by, as the Python caches
 * are; nothing is kept between calls but the read-only tables.
 *
 * Game state (state.py): per unit pos (-1: destroyed), wnd, mp, bonus, road,
 * moved, attacked, carrier (-1); each hex's stack and each carrier's riders
 * are doubly linked lists in arrival order (spillover and the greedy bot's
 * sums run over a stack in that order); parts per hex; buildings' SP; turn,
 * player, phase; the open attack (target, attackers, during movement); lost
 * value per side; the outcome.
 *
 * prepare(dict) -> capsule "warbench.cgme.playout.tables"
 *   Copies the tables below out of the dict (playout.export builds it once per
 *   scenario). Arrays are array('i') (int32) or array('d') (double). Hexes are
 *   board indices 0..H-1 (Board.index), units placement indices 0..U-1
 *   (State.units order), buildings 0..B-1; a target "ref" is a unit index or
 *   U + a building index; sides 0/1 in Setup.sides order; classes 0..C-1 in
 *   World.classes order.
 *
 *   The core (cgme/data/core.toml, with the world's [core] overrides):
 *     phases[nphases]        phase kinds of a player turn: 0 hazard, 1 move, 2 attack
 *     attack_dice, defence_dice, margin
 *     res_at, res_kind[nres] the result table: the first row whose at_least the
 *                            (difference - margin) reaches gives its result
 *                            (0 destroy, 1 wound, 2 none); below all: none
 *     wound_att, wound_def, wound_mov, twice (a second wound destroys)
 *     L, p_destroy, p_wound[2L+1]   float_chances by ATT - DEF in -L..L; the
 *                            chances are constant beyond, so deltas are clamped
 *   The world and the options:
 *     every (road_bonus_every; 0: none), spill, spill_att, r0_class (-1: none),
 *     r0_att, rider_class (-1: no transport), load_cost, unload_cost,
 *     wound_divisor (buildings), combined, parts_limit (-1: no stacking limit),
 *     adm (attacks during movement), bdmg_margin, mos (move or shoot),
 *     spill_enemies, spill_spare (spillover spares the units of the attack),
 *     turn_limit, at_limit (-2 points, -1 draw, 0/1 that side),
 *     maxmp (the largest MOV a unit can have: bounds the search tables)
 *   The board:
 *     q, r[H]                axial coordinates (hex distance)
 *     nb[H*6]                on-map neighbours in direction order, -1 after the last
 *     st_to, st_cost, st_road[NMK*H*6]  steps of movement kind m (a class, and
 *                            whether road-bound) out of hex h at (m*H + h)*6 ..:
 *                            Board.steps / road_steps in their order, -1 ends a row
 *     hz_has, hz_base, hz_minus[H]      the hazard of a hex (Hazard.strength),
 *     hz_first               the first hazard hex (evaluate._path_hazard)
 *     to_road, to_hazard[H]  Board.to_road / to_hazard
 *     dfn_mod, att_mod[C*H]  Board.dfn_mod / att_mod of class c at c*H + h
 *   Units, buildings, objectives:
 *     u_side, u_att (-1: ATT x), u_rng, u_dfn, u_mov, u_class, u_value, u_parts,
 *     u_cap, u_riders_attack, u_road_bonus, u_mos, u_mk (movement kind),
 *     u_start (hex; a rider's is its carrier's), u_wounded, u_riding (-1)[U]
 *     b_side, b_pos, b_dfn, b_sp, b_value[B]
 *     o_side, o_kind (0 destroy, 1 reach), o_count[NO], o_toff[NO+1] and
 *     o_targets (refs of objective o at o_toff[o] ..), o_zone[NO*H]
 *   The greedy bot's weights (evaluate.py): wound_share, approach, opportunity,
 *     exposure, cover, urgency, boldness, zone_w, hold_back (doubles), deliver,
 *     far (board.FAR)
 *
 *   prepare derives the distinct stacking weights, which refs are objective
 *   targets of each side, and the leg-search dimensions: regular and bonus MP
 *   0..maxmp, road MP 0..every-1 (a search state outside them is a bug).
 *
 * play(tables, dice_random, random_0, random_1, kind_0, kind_1) -> tuple | None
 *   kind: 0 random bot, 1 greedy bot. None: the game came to something the
 *   kernel declines (a decision with more than MAX_OPTIONS actions: loads of
 *   every subset of a crowd); the caller then plays it in Python. Otherwise
 *   (codes, winner, reason, turn, final): codes a list of ints, one per action,
 *   kind | side << 3 | a << 4 | b << 20 | units << 36, kind 0 move (a: hex,
 *   units: the movers), 1 load (a: carrier, units: riders), 2 unload (a),
 *   3 attack (a: unit, b: target ref), 4 join (a), 5 roll, 6 end; units a bit
 *   mask of unit indices; winner a side or -1; reason 0 both wiped out, 1 a
 *   side has no units left, 2 destroy objective, 3 reach objective, 4 equal
 *   losses, 5 more enemy value, 6 turn limit draw, 7 a side holds; final the
 *   end state (see final_state()).
 *
 * play_from(tables, state, dice_random, random_0, random_1, kind_0, kind_1) -> tuple | None
 *   As play(), from where a live Python State stands rather than the start
 *   (Ruleset.play_from: a search bot's rollouts); the random methods are the
 *   game's dice generator's and the bots' streams', drawn on where they stand.
 *   state is the dict playout.export_state makes, in the index spaces above:
 *     pos, wounded, mp, bonus, road, moved, attacked, carrier (-1)[U]
 *                            the units (pos -1: destroyed; a rider's is its
 *                            carrier's; MP within 0..maxmp, road MP 0..E-1)
 *     stacked[NS]            the standing units, each hex's stack in its order
 *                            (hexes in any order)
 *     riders[NR]             the riding units, each carrier's in its order
 *     sp[B]                  buildings' structural points
 *     turn, player, phase    where the turn sequence stands
 *     open, a_target, a_during, attackers[NA]   the open attack, if open
 *     lost_0, lost_1         value each side has lost
 *   game_load() checks that it holds together (every unit on the board in one
 *   stack or aboard one carrier of its side, in its hex; attackers of the side
 *   whose turn it is) and raises ValueError if not. The game then runs as in
 *   play(): settle() first makes any automatic steps the state waits on, as
 *   Game._advance would; every cache starts empty (they are pure functions of
 *   their keys, so the play is the engine's on a copy of the state).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../_playout_common.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* no fused multiply-add: scores must match Python's */
#endif

#define CAPSULE "warbench.cgme.playout.tables"
#define MAX_OPTIONS 2000000 /* more legal actions in one decision: declined */
#define BUG "playout: the kernel's state went wrong (a bug)"
#define DECLINED(g) ((g)->decline)
#define BIG (1L << 20)

enum { PK_HAZARD, PK_MOVE, PK_ATTACK };
enum { A_MOVE, A_LOAD, A_UNLOAD, A_ATTACK, A_JOIN, A_ROLL, A_END };
enum { RES_DESTROY, RES_WOUND, RES_NONE };
enum { R_WIPED, R_NO_UNITS, R_OBJ_DESTROYED, R_OBJ_REACHED, R_EQUAL, R_MORE, R_DRAW, R_HOLDS };

typedef struct {
    int H, U, B, C, NMK, NO, nphases, nres, L;
    int attack_dice, defence_dice, margin, wound_att, wound_def, wound_mov, twice;
    int every, spill, spill_att, r0_class, r0_att, rider_class, load_cost, unload_cost;
    int wound_divisor, combined, parts_limit, adm, bdmg_margin, mos, spill_enemies, spill_spare;
    int turn_limit, at_limit, maxmp, hz_first, deliver, far;
    double wound_share, approach, opportunity, exposure, cover, urgency, boldness, zone_w,
        hold_back;
    int *phases, *res_at, *res_kind;
    double *p_destroy, *p_wound;
    int *q, *r, *nb, *st_to, *st_cost, *st_road;
    int *hz_has, *hz_base, *hz_minus, *to_road, *to_hazard, *dfn_mod, *att_mod;
    int *u_side, *u_att, *u_rng, *u_dfn, *u_mov, *u_class, *u_value, *u_parts, *u_cap;
    int *u_riders_attack, *u_road_bonus, *u_mos, *u_mk, *u_start, *u_wounded, *u_riding;
    int *b_side, *b_pos, *b_dfn, *b_sp, *b_value;
    int *o_side, *o_kind, *o_count, *o_toff, *o_targets, *o_zone;
    /* derived by prepare() */
    int R1, B1, E;       /* dimensions of a leg-search state (regular MP, bonus MP, road MP) */
    int nweights;        /* distinct stacking weights (u_parts) */
    int *weights, *u_widx;
    int has_obj[2];
    unsigned char *obj_target; /* [s*(U+B) + ref]: ref is a target of an objective of s */
} Tables;

/* -- tables ------------------------------------------------------------------------ */

static void tables_free(Tables *t) {
    if (!t) return;
    void *blocks[] = {
        t->phases, t->res_at, t->res_kind, t->p_destroy, t->p_wound, t->q, t->r, t->nb,
        t->st_to, t->st_cost, t->st_road, t->hz_has, t->hz_base, t->hz_minus, t->to_road,
        t->to_hazard, t->dfn_mod, t->att_mod, t->u_side, t->u_att, t->u_rng, t->u_dfn,
        t->u_mov, t->u_class, t->u_value, t->u_parts, t->u_cap, t->u_riders_attack,
        t->u_road_bonus, t->u_mos, t->u_mk, t->u_start, t->u_wounded, t->u_riding, t->b_side,
        t->b_pos, t->b_dfn, t->b_sp, t->b_value, t->o_side, t->o_kind, t->o_count, t->o_toff,
        t->o_targets, t->o_zone, t->weights, t->u_widx, t->obj_target};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) PyMem_Free(blocks[i]);
    PyMem_Free(t);
}

static int rows_packed(const int *rows, Py_ssize_t nrows) {
    for (Py_ssize_t h = 0; h < nrows; h++)
        for (int k = 1; k < 6; k++)
            if (rows[h * 6 + k - 1] < 0 && rows[h * 6 + k] >= 0) return 0;
    return 1;
}

/* prepare(): the tables out of the exported dict into t (zeroed); -1 with an
 * exception set if they are missing or out of range (the caller frees t). */
static int load_tables(Tables *t, PyObject *d) {
    if (get_int(d, "H", 1, 65535, &t->H) < 0 || get_int(d, "U", 1, 65535, &t->U) < 0 ||
        get_int(d, "B", 0, 65535, &t->B) < 0 || get_int(d, "C", 1, 64, &t->C) < 0 ||
        get_int(d, "NMK", 1, 128, &t->NMK) < 0 || get_int(d, "NO", 0, 10000, &t->NO) < 0 ||
        get_int(d, "nphases", 1, 1000, &t->nphases) < 0 ||
        get_int(d, "nres", 0, 1000, &t->nres) < 0 || get_int(d, "L", 0, 100000, &t->L) < 0 ||
        get_int(d, "attack_dice", 1, 1000, &t->attack_dice) < 0 ||
        get_int(d, "defence_dice", 1, 1000, &t->defence_dice) < 0 ||
        get_int(d, "margin", -BIG, BIG, &t->margin) < 0 ||
        get_int(d, "wound_att", -BIG, BIG, &t->wound_att) < 0 ||
        get_int(d, "wound_def", -BIG, BIG, &t->wound_def) < 0 ||
        get_int(d, "wound_mov", -BIG, BIG, &t->wound_mov) < 0 ||
        get_int(d, "twice", 0, 1, &t->twice) < 0 || get_int(d, "every", 0, 1000, &t->every) < 0 ||
        get_int(d, "spill", 0, 1, &t->spill) < 0 ||
        get_int(d, "spill_att", -BIG, BIG, &t->spill_att) < 0 ||
        get_int(d, "r0_class", -1, 63, &t->r0_class) < 0 ||
        get_int(d, "r0_att", -BIG, BIG, &t->r0_att) < 0 ||
        get_int(d, "rider_class", -1, 63, &t->rider_class) < 0 ||
        get_int(d, "load_cost", 0, BIG, &t->load_cost) < 0 ||
        get_int(d, "unload_cost", 0, BIG, &t->unload_cost) < 0 ||
        get_int(d, "wound_divisor", 1, BIG, &t->wound_divisor) < 0 ||
        get_int(d, "combined", 0, 1, &t->combined) < 0 ||
        get_int(d, "parts_limit", -1, BIG, &t->parts_limit) < 0 ||
        get_int(d, "adm", 0, 1, &t->adm) < 0 ||
        get_int(d, "bdmg_margin", 0, 1, &t->bdmg_margin) < 0 ||
        get_int(d, "mos", 0, 1, &t->mos) < 0 ||
        get_int(d, "spill_enemies", 0, 1, &t->spill_enemies) < 0 ||
        get_int(d, "spill_spare", 0, 1, &t->spill_spare) < 0 ||
        get_int(d, "turn_limit", 1, 100000, &t->turn_limit) < 0 ||
        get_int(d, "at_limit", -2, 1, &t->at_limit) < 0 ||
        get_int(d, "maxmp", 0, 1000, &t->maxmp) < 0 ||
        get_int(d, "hz_first", -1, 65535, &t->hz_first) < 0 ||
        get_int(d, "deliver", -BIG, BIG, &t->deliver) < 0 ||
        get_int(d, "far", 0, INT_MAX / 2, &t->far) < 0 ||
        get_double(d, "wound_share", &t->wound_share) < 0 ||
        get_double(d, "approach", &t->approach) < 0 ||
        get_double(d, "opportunity", &t->opportunity) < 0 ||
        get_double(d, "exposure", &t->exposure) < 0 || get_double(d, "cover", &t->cover) < 0 ||
        get_double(d, "urgency", &t->urgency) < 0 ||
        get_double(d, "boldness", &t->boldness) < 0 ||
        get_double(d, "zone_w", &t->zone_w) < 0 ||
        get_double(d, "hold_back", &t->hold_back) < 0) {
        return -1;
    }
    const int H = t->H, U = t->U, B = t->B, C = t->C, NO = t->NO, REFS = U + B;
    const Py_ssize_t H6 = (Py_ssize_t)H * 6, MK6 = (Py_ssize_t)t->NMK * H6;
    if (REFS > 65535 || t->hz_first >= H) {
        PyErr_SetString(PyExc_ValueError, "prepare: too many units or a bad hazard index");
        return -1;
    }
    if (!(t->phases = get_array(d, "phases", "i", t->nphases, 0, 2)) ||
        !(t->res_at = get_array(d, "res_at", "i", t->nres, -BIG, BIG)) ||
        !(t->res_kind = get_array(d, "res_kind", "i", t->nres, 0, 2)) ||
        !(t->p_destroy = get_array(d, "p_destroy", "d", 2 * (Py_ssize_t)t->L + 1, 0, 0)) ||
        !(t->p_wound = get_array(d, "p_wound", "d", 2 * (Py_ssize_t)t->L + 1, 0, 0)) ||
        !(t->q = get_array(d, "q", "i", H, -BIG, BIG)) ||
        !(t->r = get_array(d, "r", "i", H, -BIG, BIG)) ||
        !(t->nb = get_array(d, "nb", "i", H6, -1, H - 1)) ||
        !(t->st_to = get_array(d, "st_to", "i", MK6, -1, H - 1)) ||
        !(t->st_cost = get_array(d, "st_cost", "i", MK6, 0, BIG)) ||
        !(t->st_road = get_array(d, "st_road", "i", MK6, 0, 1)) ||
        !(t->hz_has = get_array(d, "hz_has", "i", H, 0, 1)) ||
        !(t->hz_base = get_array(d, "hz_base", "i", H, -BIG, BIG)) ||
        !(t->hz_minus = get_array(d, "hz_minus", "i", H, 0, 1)) ||
        !(t->to_road = get_array(d, "to_road", "i", H, 0, INT_MAX / 2)) ||
        !(t->to_hazard = get_array(d, "to_hazard", "i", H, 0, INT_MAX / 2)) ||
        !(t->dfn_mod = get_array(d, "dfn_mod", "i", (Py_ssize_t)C * H, -BIG, BIG)) ||
        !(t->att_mod = get_array(d, "att_mod", "i", (Py_ssize_t)C * H, -BIG, BIG)) ||
        !(t->u_side = get_array(d, "u_side", "i", U, 0, 1)) ||
        !(t->u_att = get_array(d, "u_att", "i", U, -1, BIG)) ||
        !(t->u_rng = get_array(d, "u_rng", "i", U, 0, BIG)) ||
        !(t->u_dfn = get_array(d, "u_dfn", "i", U, 0, BIG)) ||
        !(t->u_mov = get_array(d, "u_mov", "i", U, 0, t->maxmp)) ||
        !(t->u_class = get_array(d, "u_class", "i", U, 0, C - 1)) ||
        !(t->u_value = get_array(d, "u_value", "i", U, 0, BIG)) ||
        !(t->u_parts = get_array(d, "u_parts", "i", U, 0, BIG)) ||
        !(t->u_cap = get_array(d, "u_cap", "i", U, 0, BIG)) ||
        !(t->u_riders_attack = get_array(d, "u_riders_attack", "i", U, 0, 1)) ||
        !(t->u_road_bonus = get_array(d, "u_road_bonus", "i", U, 0, 1)) ||
        !(t->u_mos = get_array(d, "u_mos", "i", U, 0, 1)) ||
        !(t->u_mk = get_array(d, "u_mk", "i", U, 0, t->NMK - 1)) ||
        !(t->u_start = get_array(d, "u_start", "i", U, 0, H - 1)) ||
        !(t->u_wounded = get_array(d, "u_wounded", "i", U, 0, 1)) ||
        !(t->u_riding = get_array(d, "u_riding", "i", U, -1, U - 1)) ||
        !(t->b_side = get_array(d, "b_side", "i", B, 0, 1)) ||
        !(t->b_pos = get_array(d, "b_pos", "i", B, 0, H - 1)) ||
        !(t->b_dfn = get_array(d, "b_dfn", "i", B, -BIG, BIG)) ||
        !(t->b_sp = get_array(d, "b_sp", "i", B, 1, BIG)) ||
        !(t->b_value = get_array(d, "b_value", "i", B, 0, BIG)) ||
        !(t->o_side = get_array(d, "o_side", "i", NO, 0, 1)) ||
        !(t->o_kind = get_array(d, "o_kind", "i", NO, 0, 1)) ||
        !(t->o_count = get_array(d, "o_count", "i", NO, 1, BIG)) ||
        !(t->o_toff = get_array(d, "o_toff", "i", NO + 1, 0, BIG)) ||
        !(t->o_zone = get_array(d, "o_zone", "i", (Py_ssize_t)NO * H, 0, 1))) {
        return -1;
    }
    for (int o = 0; o < NO; o++)
        if (t->o_toff[o] > t->o_toff[o + 1] || t->o_toff[0] != 0) {
            PyErr_SetString(PyExc_ValueError, "prepare: objective offsets must grow");
            return -1;
        }
    if (!(t->o_targets = get_array(d, "o_targets", "i", t->o_toff[NO], 0, REFS - 1))) return -1;
    if (!rows_packed(t->nb, H) || !rows_packed(t->st_to, (Py_ssize_t)t->NMK * H)) {
        PyErr_SetString(PyExc_ValueError, "prepare: a hex row has a gap");
        return -1;
    }
    for (Py_ssize_t i = 0; i < MK6; i++)
        if (t->st_to[i] >= 0 && t->st_cost[i] < 1) {
            PyErr_SetString(PyExc_ValueError, "prepare: every step must cost at least 1 MP");
            return -1;
        }
    for (int u = 0; u < U; u++) {
        int c = t->u_riding[u];
        if (c >= 0 && (c == u || t->u_riding[c] >= 0 || t->u_side[c] != t->u_side[u] ||
                       t->u_start[c] != t->u_start[u])) {
            PyErr_SetString(PyExc_ValueError, "prepare: a rider must start in its carrier");
            return -1;
        }
    }
    /* Derived tables. */
    t->R1 = t->maxmp + 1;
    t->B1 = t->maxmp + 1;
    t->E = t->every > 0 ? t->every : 1;
    t->weights = PyMem_Calloc(U, sizeof(int));
    t->u_widx = PyMem_Calloc(U, sizeof(int));
    t->obj_target = PyMem_Calloc(2 * (size_t)REFS, 1);
    if (!t->weights || !t->u_widx || !t->obj_target) {
        PyErr_NoMemory();
        return -1;
    }
    for (int u = 0; u < U; u++) {
        int k = 0;
        while (k < t->nweights && t->weights[k] != t->u_parts[u]) k++;
        if (k == t->nweights) t->weights[t->nweights++] = t->u_parts[u];
        t->u_widx[u] = k;
    }
    for (int o = 0; o < NO; o++) {
        t->has_obj[t->o_side[o]] = 1;
        for (int k = t->o_toff[o]; k < t->o_toff[o + 1]; k++)
            t->obj_target[(size_t)t->o_side[o] * REFS + t->o_targets[k]] = 1;
    }
    return 0;
}

/* -- the game -------------------------------------------------------------------------- */

typedef struct {
    int id, hex, r, b, k; /* a leg-search state and its index (fs_id) */
} FsKey;

typedef struct {
    int kind, a, b, n;
    Py_ssize_t off; /* units of a move or load: pool[off .. off + n] */
} Option;

typedef struct {
    const Tables *t;
    Players p;
    /* State / Unit of state.py; stacks and riders are linked lists in arrival order */
    int *pos, *wnd, *mp, *bonus, *road, *moved, *attacked, *carrier;
    int *rnext, *rprev, *rhead, *rtail, *nrid;
    int *snext, *sprev, *shead, *stail, *parts;
    int *bsp;
    int turn, player, phase;
    int open, a_target, a_n, a_during, *a_units;
    int lost[2];
    int over, winner, reason;
    int bad;     /* an inconsistency: a bug, raised at the end */
    int decline; /* something the kernel does not do: play() returns None */
    unsigned side_ver[2];
    unsigned *maskver; /* per stacking weight: bumped when a hex fills up or frees room */
    /* each unit's next leg (rules.reach), keyed by what it depends on */
    int *rc_ok, *rc_pos, *rc_mp, *rc_bonus, *rc_road, *rc_full, *rc_n;
    unsigned *rc_mver;
    int *rc_dest, *rc_hz, *rc_key; /* [u*H + k], destinations in index order */
    int *rc_poff, *rc_plen;        /* [u*H + k]: the path there in rc_path[u] (full searches) */
    int **rc_path;
    Py_ssize_t *rc_pcap;
    /* least-cost search scratch */
    int *dj_best, *dj_list, *dj_qhex, *dj_qnext, *dj_head, *dj_tail, *dj_cost;
    /* full leg search scratch (allocated at the first one) */
    int *fs_best, *fs_prev;
    uint32_t *fs_stamp, fs_clock;
    FsKey *fs_front, *fs_next, *fs_seen;
    Py_ssize_t fs_fcap, fs_ncap, fs_seen_cap, NK;
    int *ch_hz, *ch_list;
    FsKey *ch_key; /* per hex */
    uint32_t *ch_stamp, ch_clock;
    /* the greedy bot's context per side (evaluate._Context) */
    int ctx_ok[2], ctx_turn[2];
    unsigned ctx_ver[2], ctx_id[2], ctx_clock;
    int *dist[2], *threat[2], *queue;
    unsigned char *zone[2];
    double pull[2], expo[2];
    int tg_n[2], *tg_u[2], *tg_hex[2], *tg_dfn[2], *tg_wnd[2];
    double *tg_val[2];
    /* evaluate._beside: the units a spillover on target k strikes, at co_off[k] .. co_off[k+1] */
    int *co_off[2], *co_unit[2], *co_dfn[2], *co_wnd[2], *co_friend[2];
    double *co_val[2];
    /* evaluate._mixed, part of the context's key: the side's units sharing a hex
     * with an enemy (unit, hex, wounded, value), the context's and a scratch copy */
    int mx_n[2], *mx_u[2], *mx_h[2], *mx_w[2], mt_n, *mt_u, *mt_h, *mt_w;
    double *mx_v[2], *mt_v;
    /* hex worths (evaluate._position) per unit, valid while its signature holds */
    double *pv, *mtab;
    uint32_t *pstamp, *ustamp, pclock;
    unsigned *us_ctx;
    int *us_wnd, *us_att, *us_val, *us_nrid;
    /* decision scratch */
    Option *opt;
    Py_ssize_t nopt, capopt;
    int *pool;
    Py_ssize_t npool, cappool;
    double *sc;
    int *movers, *group, *cand, *chosen, *others, *targets, *act_units, *tmp_units;
    int *leg_key, *leg_path, *leg_len, *leg_tmp, pmax;
    uint32_t *hstamp, hclock;
} Game;

#define T (g->t)

#include "../_playout_play.h"

static int hexdist(const Tables *t, int a, int b) { return hex_distance(t->q, t->r, a, b); }


/* n dice of core.dice.Dice, summed: int(random() * 6) + 1 each. */
static int roll(Game *g, int n, int *sum) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        double x;
        if (draw(g->p.dice, &x) < 0) return -1;
        s += (int)(x * 6) + 1;
    }
    *sum = s;
    return 0;
}

/* Grow an array of `size`-byte items to hold `need` of them. */
static int grow(void **p, Py_ssize_t *cap, Py_ssize_t need, size_t size) {
    if (need <= *cap) return 0;
    Py_ssize_t bigger = *cap * 2 > need ? *cap * 2 : need + 16;
    void *q = PyMem_Realloc(*p, (size_t)bigger * size);
    if (!q) {
        PyErr_NoMemory();
        return -1;
    }
    *p = q;
    *cap = bigger;
    return 0;
}

/* -- ratings (rules.att / dfn / mov) and combat ----------------------------------------- */

static int att_cur(Game *g, int u) {
    int base = T->u_att[u] < 0 ? 0 : T->u_att[u];
    if (!g->wnd[u]) return base;
    int v = base + T->wound_att;
    return v > 0 ? v : 0;
}

static int dfn_cur(Game *g, int u) {
    int base = T->u_dfn[u];
    if (!g->wnd[u]) return base;
    int v = base + T->wound_def;
    return v > 0 ? v : 0;
}

static int mov_cur(Game *g, int u) {
    int base = T->u_mov[u];
    if (!g->wnd[u]) return base;
    int v = base + T->wound_mov;
    return v > 0 ? v : 0;
}

/* DEF of u if it stood in hex i (rules.defence, evaluate._defence). */
static int dfn_at(Game *g, int u, int i) {
    return dfn_cur(g, u) + T->dfn_mod[T->u_class[u] * T->H + i];
}

/* Hazard.strength of hex i's hazard against a unit of DEF dfn. */
static int hazard_att(Game *g, int i, int dfn) {
    return T->hz_minus[i] ? T->hz_base[i] - dfn : T->hz_base[i];
}

/* data.Core.result. */
static int core_result(Game *g, int difference) {
    int excess = difference - T->margin;
    for (int k = 0; k < T->nres; k++)
        if (excess >= T->res_at[k]) return T->res_kind[k];
    return RES_NONE;
}

/* combat.float_chances. */
static void chances(Game *g, int delta, double *destroy, double *wound) {
    int L = T->L;
    if (delta < -L) delta = -L;
    if (delta > L) delta = L;
    *destroy = T->p_destroy[delta + L];
    *wound = T->p_wound[delta + L];
}

/* -- stacks and riders ------------------------------------------------------------------ */

/* State.touch: what depends on this side's units (the enemy's context) is stale. */
static void touch(Game *g, int side) { g->side_ver[side]++; }

static void set_parts(Game *g, int h, int delta) {
    int old = g->parts[h], now = old + delta, lim = T->parts_limit;
    g->parts[h] = now;
    if (lim < 0) return;
    for (int k = 0; k < T->nweights; k++) {
        int w = T->weights[k];
        if ((old + w > lim) != (now + w > lim)) g->maskver[k]++;
    }
}

static int blocked(Game *g, int w, int h) {
    return T->parts_limit >= 0 && g->parts[h] + w > T->parts_limit;
}

/* rules.room. */
static int room(Game *g, int h, int w) {
    return T->parts_limit < 0 || g->parts[h] + w <= T->parts_limit;
}

/* The doubly linked lists in arrival order (each hex's stack, each carrier's
 * riders): item u of list l, by the links prev/next and the ends head/tail.
 * list_remove() is -1 (a bug) for an item in no list (l < 0). */
static void list_append(int *prev, int *next, int *head, int *tail, int l, int u) {
    prev[u] = tail[l];
    next[u] = -1;
    if (tail[l] >= 0) next[tail[l]] = u;
    else head[l] = u;
    tail[l] = u;
}

static int list_remove(int *prev, int *next, int *head, int *tail, int l, int u) {
    if (l < 0) return -1;
    int p = prev[u], n = next[u];
    if (p >= 0) next[p] = n;
    else head[l] = n;
    if (n >= 0) prev[n] = p;
    else tail[l] = p;
    next[u] = prev[u] = -1;
    return 0;
}

/* rules._lift: off its hex's stack (pos is kept until _put). */
static void lift(Game *g, int u) {
    int h = g->pos[u];
    if (list_remove(g->sprev, g->snext, g->shead, g->stail, h, u) < 0) {
        g->bad = 1;
        return;
    }
    set_parts(g, h, -T->u_parts[u]);
    touch(g, T->u_side[u]);
}

/* rules._put: at the end of hex h's stack, riders with it. */
static void put(Game *g, int u, int h) {
    g->pos[u] = h;
    list_append(g->sprev, g->snext, g->shead, g->stail, h, u);
    set_parts(g, h, T->u_parts[u]);
    for (int r = g->rhead[u]; r >= 0; r = g->rnext[r]) g->pos[r] = h;
    touch(g, T->u_side[u]);
}

static void add_rider(Game *g, int c, int u) {
    g->carrier[u] = c;
    list_append(g->rprev, g->rnext, g->rhead, g->rtail, c, u);
    g->nrid[c]++;
}

static void remove_rider(Game *g, int u) {
    int c = g->carrier[u];
    if (list_remove(g->rprev, g->rnext, g->rhead, g->rtail, c, u) < 0) {
        g->bad = 1;
        return;
    }
    g->nrid[c]--;
    g->carrier[u] = -1;
}

static int rider_parts(Game *g, int c) {
    int used = 0;
    for (int r = g->rhead[c]; r >= 0; r = g->rnext[r]) used += T->u_parts[r];
    return used;
}

/* evaluate.unit_value: a unit's value with its riders'. */
static double unit_value(Game *g, int u) {
    int v = T->u_value[u];
    for (int r = g->rhead[u]; r >= 0; r = g->rnext[r]) v += T->u_value[r];
    return (double)v;
}

/* -- movement: one leg (movement.search) --------------------------------------------------- */

/* The least-cost search of geometry.fastpath (any Dijkstra gives its costs):
 * fills dj_list (hexes other than start) and dj_cost, returns how many. */
static int least_cost(Game *g, int mk, int w, int start, int budget) {
    const int H = T->H;
    const int *to = T->st_to + (Py_ssize_t)mk * H * 6, *cost = T->st_cost + (Py_ssize_t)mk * H * 6;
    int *best = g->dj_best, n = 0, reached = 0, pushed = 0;
    for (int c = 0; c <= budget; c++) g->dj_head[c] = g->dj_tail[c] = -1;
    best[start] = 0;
    g->dj_qhex[0] = start;
    g->dj_qnext[0] = -1;
    g->dj_head[0] = g->dj_tail[0] = 0;
    pushed = 1;
    g->dj_list[reached++] = start;
    for (int c = 0; c <= budget; c++) {
        for (int e = g->dj_head[c]; e >= 0; e = g->dj_qnext[e]) {
            int here = g->dj_qhex[e];
            if (best[here] != c) continue;
            for (int k = 0; k < 6; k++) {
                int there = to[here * 6 + k];
                if (there < 0) break;
                int total = c + cost[here * 6 + k];
                if (total > budget || total >= best[there] || blocked(g, w, there)) continue;
                if (best[there] == INT_MAX) g->dj_list[reached++] = there;
                best[there] = total;
                if (pushed >= H * 6 + 1) {
                    g->bad = 1;
                    goto reset;
                }
                g->dj_qhex[pushed] = there;
                g->dj_qnext[pushed] = -1;
                if (g->dj_tail[total] < 0) g->dj_head[total] = pushed;
                else g->dj_qnext[g->dj_tail[total]] = pushed;
                g->dj_tail[total] = pushed;
                pushed++;
            }
        }
    }
reset:
    for (int k = 0; k < reached; k++) {
        int h = g->dj_list[k];
        if (h != start) {
            g->dj_list[n] = h;
            g->dj_cost[n] = best[h];
            n++;
        }
        best[h] = INT_MAX;
    }
    return n;
}

static int fs_id(Game *g, int hex, int r, int b, int k) {
    return ((hex * T->R1 + r) * T->B1 + b) * T->E + k;
}

static int fs_push(FsKey **list, Py_ssize_t *n, Py_ssize_t *cap, FsKey key) {
    if (grow((void **)list, cap, *n + 1, sizeof(FsKey)) < 0) return -1;
    (*list)[(*n)++] = key;
    return 0;
}

/* movement._better: fewest hazards, then most MP left, most regular MP, most road MP. */
static int better(int hz, const FsKey *a, int old_hz, const FsKey *b) {
    if (hz != old_hz) return hz < old_hz;
    if (a->r + a->b != b->r + b->b) return a->r + a->b > b->r + b->b;
    if (a->r != b->r) return a->r > b->r;
    return a->k > b->k;
}

/* The layered search of movement.search over (hex, regular, bonus, road MP),
 * counting hazards entered, in the very order Python runs it (so that each
 * state's predecessor, hence the path taken, is the same). Fills ch_list with
 * the destinations (unordered) and ch_hz / ch_key per hex; returns how many.
 * fs_prev then leads from each state back to the start. */
static int full_search(Game *g, int mk, int w, int start, int r, int b, int k, int every) {
    const int H = T->H, R1 = T->R1, B1 = T->B1, E = T->E, lim = T->parts_limit;
    const int *to = T->st_to + (Py_ssize_t)mk * H * 6, *cost = T->st_cost + (Py_ssize_t)mk * H * 6;
    const int *road = T->st_road + (Py_ssize_t)mk * H * 6, *parts = g->parts, *hzh = T->hz_has;
    if (!g->fs_best) {
        g->NK = (Py_ssize_t)H * R1 * B1 * E;
        g->fs_best = PyMem_Malloc(sizeof(int) * (size_t)g->NK);
        g->fs_prev = PyMem_Malloc(sizeof(int) * (size_t)g->NK);
        g->fs_stamp = PyMem_Calloc((size_t)g->NK, sizeof(uint32_t));
        if (!g->fs_best || !g->fs_prev || !g->fs_stamp) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (r < 0 || r >= R1 || b < 0 || b >= B1 || k < 0 || k >= E) {
        g->bad = 1;
        return 0;
    }
    if (++g->fs_clock == 0) {
        memset(g->fs_stamp, 0, sizeof(uint32_t) * (size_t)g->NK);
        g->fs_clock = 1;
    }
    const uint32_t clock = g->fs_clock;
    int *best = g->fs_best, *prev = g->fs_prev;
    uint32_t *stamp = g->fs_stamp;
    Py_ssize_t nfront = 0, nnext = 0, nseen = 0;
    FsKey first = {fs_id(g, start, r, b, k), start, r, b, k};
    best[first.id] = 0;
    prev[first.id] = -1;
    stamp[first.id] = clock;
    if (fs_push(&g->fs_seen, &nseen, &g->fs_seen_cap, first) < 0) return -1;
    if (fs_push(&g->fs_front, &nfront, &g->fs_fcap, first) < 0) return -1;
    while (nfront > 0) {
        nnext = 0;
        for (Py_ssize_t f = 0; f < nfront; f++) {
            const FsKey key = g->fs_front[f];
            const int here = key.hex, kr = key.r, kb = key.b, kk = key.k, hz = best[key.id];
            for (int e = 0; e < 6; e++) {
                int j = to[here * 6 + e];
                if (j < 0) break;
                int c = cost[here * 6 + e];
                if ((lim >= 0 && parts[j] + w > lim) || c > kr + kb) continue;
                FsKey next;
                next.hex = j;
                if (road[here * 6 + e] && every) { /* movement.pay, inlined as in search */
                    int regular = c < kr ? c : kr;
                    next.k = kk + regular;
                    next.b = kb - (c - regular);
                    if (next.k >= every) {
                        next.b += next.k / every;
                        next.k %= every;
                    }
                    next.r = kr - regular;
                } else {
                    int spent = c < kb ? c : kb;
                    next.r = kr - (c - spent);
                    next.b = kb - spent;
                    next.k = kk;
                }
                if (next.r < 0 || next.b >= B1 || next.b < 0 || next.k >= E) {
                    g->bad = 1;
                    return 0;
                }
                next.id = ((j * R1 + next.r) * B1 + next.b) * E + next.k;
                int total = hz + hzh[j], seen = stamp[next.id] == clock;
                if (!seen || total < best[next.id]) {
                    if (!seen) {
                        stamp[next.id] = clock;
                        if (fs_push(&g->fs_seen, &nseen, &g->fs_seen_cap, next) < 0) return -1;
                    }
                    best[next.id] = total;
                    prev[next.id] = key.id;
                    if (fs_push(&g->fs_next, &nnext, &g->fs_ncap, next) < 0) return -1;
                }
            }
        }
        FsKey *swap = g->fs_front;
        g->fs_front = g->fs_next;
        g->fs_next = swap;
        Py_ssize_t cap = g->fs_fcap;
        g->fs_fcap = g->fs_ncap;
        g->fs_ncap = cap;
        nfront = nnext;
    }
    if (++g->ch_clock == 0) {
        memset(g->ch_stamp, 0, sizeof(uint32_t) * H);
        g->ch_clock = 1;
    }
    int n = 0;
    for (Py_ssize_t s = 0; s < nseen; s++) {
        const FsKey *key = &g->fs_seen[s];
        int j = key->hex, hz = best[key->id];
        if (j == start) continue;
        if (g->ch_stamp[j] != g->ch_clock) {
            g->ch_stamp[j] = g->ch_clock;
            g->ch_hz[j] = hz;
            g->ch_key[j] = *key;
            g->ch_list[n++] = j;
        } else if (better(hz, key, g->ch_hz[j], &g->ch_key[j])) {
            g->ch_hz[j] = hz;
            g->ch_key[j] = *key;
        }
    }
    return n;
}

/* Small sorts (a leg's destinations): insertion sort, else the C library's. */
static int cmp_int(const void *a, const void *b);

static void sort_ints(int *x, int n) {
    if (n > 48) {
        qsort(x, (size_t)n, sizeof(int), cmp_int);
        return;
    }
    for (int i = 1; i < n; i++) {
        int v = x[i], j = i - 1;
        while (j >= 0 && x[j] > v) {
            x[j + 1] = x[j];
            j--;
        }
        x[j + 1] = v;
    }
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int pack_key(Game *g, int r, int b, int k) { return (r * T->B1 + b) * T->E + k; }

static void unpack_key(Game *g, int key, int *r, int *b, int *k) {
    *k = key % T->E;
    key /= T->E;
    *b = key % T->B1;
    *r = key / T->B1;
}

/* Whether movement.search takes the least-cost branch for u where it is now. */
static int fast_leg(Game *g, int u) {
    int start = g->pos[u], r = g->mp[u], b = g->bonus[u], k = g->road[u];
    int every = T->u_road_bonus[u] ? T->every : 0, budget = r + b;
    int no_hazard = T->to_hazard[start] > budget;
    int no_bonus = every == 0 || r + k < every || T->to_road[start] > budget;
    return no_hazard && no_bonus;
}

/* rules.reach: u's next leg, cached until u or the stacking mask of its weight changes. */
static int unit_reach(Game *g, int u) {
    const int H = T->H;
    unsigned mver = g->maskver[T->u_widx[u]];
    if (g->rc_ok[u] && g->rc_pos[u] == g->pos[u] && g->rc_mp[u] == g->mp[u] &&
        g->rc_bonus[u] == g->bonus[u] && g->rc_road[u] == g->road[u] && g->rc_mver[u] == mver)
        return 0;
    int start = g->pos[u], r = g->mp[u], b = g->bonus[u], k = g->road[u];
    int every = T->u_road_bonus[u] ? T->every : 0, w = T->u_parts[u];
    int *dest = g->rc_dest + (Py_ssize_t)u * H, *hz = g->rc_hz + (Py_ssize_t)u * H;
    int *key = g->rc_key + (Py_ssize_t)u * H, n;
    if (r < 0 || r >= T->R1 || b < 0 || b >= T->B1 || k < 0 || k >= T->E) {
        g->bad = 1;
        return 0;
    }
    if (fast_leg(g, u)) {
        n = least_cost(g, T->u_mk[u], w, start, r + b);
        /* sort the destinations, keeping their costs */
        for (int i = 0; i < n; i++) dest[i] = g->dj_list[i];
        sort_ints(dest, n);
        for (int i = 0; i < n; i++) g->dj_best[dest[i]] = i; /* position by hex, reset below */
        for (int i = 0; i < n; i++) {
            int at = g->dj_best[g->dj_list[i]], cost = g->dj_cost[i];
            int spent = cost < b ? cost : b;
            hz[at] = 0;
            key[at] = pack_key(g, r - (cost - spent), b - spent, k);
        }
        for (int i = 0; i < n; i++) g->dj_best[dest[i]] = INT_MAX;
        g->rc_full[u] = 0;
    } else {
        n = full_search(g, T->u_mk[u], w, start, r, b, k, every);
        if (n < 0) return -1;
        for (int i = 0; i < n; i++) dest[i] = g->ch_list[i];
        sort_ints(dest, n);
        int start_id = fs_id(g, start, r, b, k);
        Py_ssize_t used = 0;
        for (int i = 0; i < n; i++) { /* Reach.path of every destination, kept */
            const FsKey *end = &g->ch_key[dest[i]];
            hz[i] = g->ch_hz[dest[i]];
            key[i] = pack_key(g, end->r, end->b, end->k);
            int len = 0;
            for (int id = end->id; id != start_id; id = g->fs_prev[id]) {
                if (id < 0 || len >= g->pmax - 1) {
                    g->bad = 1;
                    return 0;
                }
                g->leg_tmp[len++] = id / (T->R1 * T->B1 * T->E);
            }
            g->leg_tmp[len++] = start;
            if (grow((void **)&g->rc_path[u], &g->rc_pcap[u], used + len, sizeof(int)) < 0)
                return -1;
            g->rc_poff[(Py_ssize_t)u * H + i] = (int)used;
            g->rc_plen[(Py_ssize_t)u * H + i] = len;
            for (int s = len - 1; s >= 0; s--) g->rc_path[u][used++] = g->leg_tmp[s];
        }
        g->rc_full[u] = 1;
    }
    g->rc_n[u] = n;
    g->rc_ok[u] = 1;
    g->rc_pos[u] = start;
    g->rc_mp[u] = r;
    g->rc_bonus[u] = b;
    g->rc_road[u] = k;
    g->rc_mver[u] = mver;
    return 0;
}

/* Where dest is among u's cached destinations, or -1. */
static int reach_slot(Game *g, int u, int dest) {
    const int *d = g->rc_dest + (Py_ssize_t)u * T->H;
    int lo = 0, hi = g->rc_n[u] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) >> 1;
        if (d[mid] == dest) return mid;
        if (d[mid] < dest) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* -- victory ----------------------------------------------------------------------------- */

static void finish(Game *g, int winner, int reason) {
    g->over = 1;
    g->winner = winner;
    g->reason = reason;
}

static int standing(Game *g, int ref) {
    return ref < T->U ? g->pos[ref] >= 0 : g->bsp[ref - T->U] > 0;
}

/* rules._check_victory. */
static void check_victory(Game *g) {
    if (g->over) return;
    int alive[2] = {0, 0};
    for (int u = 0; u < T->U; u++)
        if (g->pos[u] >= 0) alive[T->u_side[u]] = 1;
    if (!alive[0] || !alive[1]) {
        if (!alive[0] && !alive[1]) finish(g, -1, R_WIPED);
        else finish(g, alive[0] ? 0 : 1, R_NO_UNITS);
        return;
    }
    for (int o = 0; o < T->NO; o++) {
        if (T->o_kind[o] != 0) continue;
        int all = 1;
        for (int k = T->o_toff[o]; k < T->o_toff[o + 1] && all; k++)
            all = !standing(g, T->o_targets[k]);
        if (all) {
            finish(g, T->o_side[o], R_OBJ_DESTROYED);
            return;
        }
    }
}

/* rules._end_player_turn: reach objectives. */
static void end_player_turn(Game *g) {
    int side = g->player;
    for (int o = 0; o < T->NO; o++) {
        if (T->o_side[o] != side || T->o_kind[o] != 1) continue;
        const int *zone = T->o_zone + (Py_ssize_t)o * T->H;
        int inside = 0;
        for (int u = 0; u < T->U; u++)
            inside += T->u_side[u] == side && g->pos[u] >= 0 && zone[g->pos[u]];
        if (inside >= T->o_count[o]) {
            finish(g, side, R_OBJ_REACHED);
            return;
        }
    }
}

static void end_at_turn_limit(Game *g) {
    int score0 = g->lost[1], score1 = g->lost[0];
    if (T->at_limit == -2) {
        if (score0 == score1) finish(g, -1, R_EQUAL);
        else finish(g, score1 > score0 ? 1 : 0, R_MORE);
    } else if (T->at_limit == -1) {
        finish(g, -1, R_DRAW);
    } else {
        finish(g, T->at_limit, R_HOLDS);
    }
}

/* -- the turn sequence (rules._next_phase and friends) -------------------------------------- */

static void begin_player_turn(Game *g) {
    for (int u = 0; u < T->U; u++)
        if (T->u_side[u] == g->player) g->moved[u] = g->attacked[u] = 0;
}

static void enter_phase(Game *g) {
    if (T->phases[g->phase] != PK_MOVE) return;
    for (int u = 0; u < T->U; u++)
        if (T->u_side[u] == g->player && g->pos[u] >= 0) {
            g->mp[u] = mov_cur(g, u);
            g->bonus[u] = g->road[u] = 0;
        }
}

static void next_phase(Game *g) {
    if (T->phases[g->phase] == PK_MOVE) /* unused MP and bonus points are lost */
        for (int u = 0; u < T->U; u++) g->mp[u] = g->bonus[u] = g->road[u] = 0;
    g->open = 0;
    if (g->phase + 1 < T->nphases) {
        g->phase++;
    } else {
        end_player_turn(g);
        if (g->over) return;
        g->phase = 0;
        if (g->player + 1 < 2) {
            g->player++;
        } else {
            if (!next_turn(g)) return;
            g->player = 0;
        }
        begin_player_turn(g);
    }
    enter_phase(g);
}

/* -- results ------------------------------------------------------------------------------ */

static void destroy(Game *g, int u) {
    int side = T->u_side[u];
    if (g->carrier[u] >= 0) remove_rider(g, u);
    else lift(g, u);
    g->pos[u] = -1;
    g->lost[side] += T->u_value[u];
    int r = g->rhead[u];
    while (r >= 0) {
        int next = g->rnext[r];
        g->carrier[r] = -1;
        g->rnext[r] = g->rprev[r] = -1;
        g->pos[r] = -1;
        g->lost[T->u_side[r]] += T->u_value[r];
        r = next;
    }
    g->rhead[u] = g->rtail[u] = -1;
    g->nrid[u] = 0;
    touch(g, side);
}

/* rules._apply_result. */
static void apply_result(Game *g, int u, int result) {
    if (result == RES_NONE) return;
    if (result == RES_WOUND && !g->wnd[u]) {
        g->wnd[u] = 1;
        touch(g, T->u_side[u]);
        return;
    }
    if (result == RES_WOUND && !T->twice) return;
    destroy(g, u);
}

/* rules._attack_unit: ATT att against the target's DEF where it stands. */
static int attack_unit(Game *g, int target, int att) {
    int dfn = dfn_at(g, target, g->pos[target]), a, d;
    if (roll(g, T->attack_dice, &a) < 0 || roll(g, T->defence_dice, &d) < 0) return -1;
    apply_result(g, target, core_result(g, (att + a) - (dfn + d)));
    return 0;
}

static int hazard_attack(Game *g, int u) {
    return attack_unit(g, u, hazard_att(g, g->pos[u], dfn_cur(g, u)));
}

/* rules.building_damage. */
static int building_damage(Game *g, int result, int att, int difference) {
    int amount = T->bdmg_margin ? difference : att;
    if (amount < 0) amount = 0;
    if (result == RES_DESTROY) return amount;
    if (result == RES_WOUND) return amount / T->wound_divisor;
    return 0;
}

static int attack_building(Game *g, int bi, int att) {
    int a, d;
    if (roll(g, T->attack_dice, &a) < 0 || roll(g, T->defence_dice, &d) < 0) return -1;
    int difference = (att + a) - (T->b_dfn[bi] + d);
    int damage = building_damage(g, core_result(g, difference), att, difference);
    if (damage > g->bsp[bi]) damage = g->bsp[bi];
    g->bsp[bi] -= damage;
    touch(g, T->b_side[bi]);
    if (g->bsp[bi] <= 0) g->lost[T->b_side[bi]] += T->b_value[bi];
    return 0;
}

/* rules._hazards: the side's units staying in hazard hexes. */
static int hazards(Game *g) {
    for (int u = 0; u < T->U; u++) {
        if (T->u_side[u] != g->player || g->pos[u] < 0 || g->carrier[u] >= 0) continue;
        if (T->hz_has[g->pos[u]] && hazard_attack(g, u) < 0) return -1;
    }
    check_victory(g);
    return 0;
}

/* -- attacks ------------------------------------------------------------------------------- */

/* rules.attack_blocked is None. */
static int can_attack(Game *g, int u) {
    if (T->u_att[u] < 0 || g->attacked[u]) return 0;
    if (g->carrier[u] >= 0 && !T->u_riders_attack[g->carrier[u]]) return 0;
    if (T->mos && T->u_mos[u] && g->moved[u]) return 0;
    return 1;
}

/* rules.target_pos: -1 when not a target now. */
static int target_pos(Game *g, int ref) {
    if (ref >= T->U) return g->bsp[ref - T->U] > 0 ? T->b_pos[ref - T->U] : -1;
    return g->carrier[ref] >= 0 ? -1 : g->pos[ref];
}

/* rules._targets: enemy units (not riding) then standing buildings within range. */
static int list_targets(Game *g, int u, int *out) {
    int side = T->u_side[u], at = g->pos[u], rng = T->u_rng[u], n = 0;
    for (int v = 0; v < T->U; v++)
        if (T->u_side[v] != side && g->pos[v] >= 0 && g->carrier[v] < 0 &&
            hexdist(T, at, g->pos[v]) <= rng)
            out[n++] = v;
    for (int b = 0; b < T->B; b++)
        if (T->b_side[b] != side && g->bsp[b] > 0 && hexdist(T, at, T->b_pos[b]) <= rng)
            out[n++] = T->U + b;
    return n;
}

static int in_attack(Game *g, int u) {
    for (int k = 0; k < g->a_n; k++)
        if (g->a_units[k] == u) return 1;
    return 0;
}

/* rules._joiners: units in order; out may be NULL to count them. */
static int joiners(Game *g, int *out) {
    if (!g->open || !T->combined) return 0;
    int opener = g->a_units[0], side = T->u_side[opener], where = target_pos(g, g->a_target);
    int n = 0;
    if (where < 0) return 0;
    for (int u = 0; u < T->U; u++) {
        if (T->u_side[u] != side || g->pos[u] < 0 || in_attack(g, u) || !can_attack(g, u))
            continue;
        if (g->a_during && g->pos[u] != g->pos[opener]) continue;
        if (hexdist(T, g->pos[u], where) <= T->u_rng[u]) {
            if (out) out[n] = u;
            n++;
        }
    }
    return n;
}

/* rules.attack_strength: summed ATT with wound, terrain and range-0 modifiers. */
static int strength(Game *g, const int *units, int n, int where, int on_unit) {
    int base = 0, mods = 0;
    for (int k = 0; k < n; k++) {
        int u = units[k], rating = T->u_att[u] < 0 ? 0 : T->u_att[u];
        base += rating;
        mods += att_cur(g, u) - rating;
        mods += T->att_mod[T->u_class[u] * T->H + g->pos[u]];
        if (on_unit && T->r0_att && T->u_class[u] == T->r0_class && g->pos[u] == where)
            mods += T->r0_att;
    }
    return base + mods;
}

/* Whether unit v is one of units[0..n) (rules.spared_by_spillover, "not_attackers"). */
static int in_units(int v, const int *units, int n) {
    for (int k = 0; k < n; k++)
        if (units[k] == v) return 1;
    return 0;
}

/* rules._resolve_open. */
static int resolve(Game *g) {
    int ref = g->a_target, side = g->player, n = g->a_n;
    g->open = 0;
    for (int k = 0; k < n; k++) g->attacked[g->a_units[k]] = 1;
    int where = target_pos(g, ref);
    if (where < 0) {
        g->bad = 1;
        return 0;
    }
    if (ref >= T->U) {
        if (attack_building(g, ref - T->U, strength(g, g->a_units, n, where, 0)) < 0) return -1;
    } else {
        int att = strength(g, g->a_units, n, where, 1), m = 0;
        for (int v = g->shead[where]; v >= 0; v = g->snext[v])
            if (v != ref) g->others[m++] = v;
        if (attack_unit(g, ref, att) < 0) return -1;
        if (T->spill) { /* rules._spillover */
            for (int k = 0; k < m; k++) {
                int v = g->others[k];
                if (g->pos[v] < 0) continue;
                if (T->spill_enemies && T->u_side[v] == side) continue;
                if (T->spill_spare && in_units(v, g->a_units, n)) continue;
                if (attack_unit(g, v, att + T->spill_att) < 0) return -1;
            }
        }
    }
    check_victory(g);
    return 0;
}

/* rules._declare: an attack nobody could join is rolled at once. */
static int declare(Game *g, int u, int ref, int during) {
    g->open = 1;
    g->a_target = ref;
    g->a_units[0] = u;
    g->a_n = 1;
    g->a_during = during;
    if (joiners(g, NULL) == 0) return resolve(g);
    return 0;
}

/* -- transport and movement actions --------------------------------------------------------- */

/* rules._spend: bonus points first, like an off-road step. */
static void spend(Game *g, int u, int cost) {
    int spent = cost < g->bonus[u] ? cost : g->bonus[u];
    g->bonus[u] -= spent;
    g->mp[u] -= cost - spent;
    g->moved[u] = 1;
}

static void load(Game *g, int c, const int *riders, int n) {
    spend(g, c, T->load_cost);
    for (int k = 0; k < n; k++) spend(g, riders[k], T->load_cost);
    for (int k = 0; k < n; k++) {
        int r = riders[k];
        lift(g, r);
        add_rider(g, c, r);
        g->pos[r] = g->pos[c];
    }
}

static int unload(Game *g, int u) {
    spend(g, u, T->unload_cost);
    remove_rider(g, u);
    g->moved[u] = 1;
    put(g, u, g->pos[u]);
    if (T->hz_has[g->pos[u]]) {
        if (hazard_attack(g, u) < 0) return -1;
        check_victory(g);
    }
    return 0;
}

/* The path of u's leg to its destination number `slot` (movement.Reach.path),
 * into path; returns its length. */
static int leg_path(Game *g, int u, int slot, int *path) {
    Py_ssize_t at = (Py_ssize_t)u * T->H + slot;
    if (!g->rc_full[u]) {
        path[0] = g->pos[u];
        path[1] = g->rc_dest[at];
        return 2;
    }
    int len = g->rc_plen[at];
    if (len > g->pmax) {
        g->bad = 1;
        return 0;
    }
    memcpy(path, g->rc_path[u] + g->rc_poff[at], sizeof(int) * (size_t)len);
    return len;
}

/* rules._travel: along the path; hazards attack the unit as it enters them. */
static int travel(Game *g, int u, int key, const int *path, int len) {
    int r, b, k;
    unpack_key(g, key, &r, &b, &k);
    g->mp[u] = r;
    g->bonus[u] = b;
    g->road[u] = k;
    g->moved[u] = 1;
    lift(g, u);
    for (int s = 1; s < len; s++) {
        int i = path[s];
        if (!T->hz_has[i]) continue;
        put(g, u, i);
        if (hazard_attack(g, u) < 0) return -1;
        if (g->pos[u] < 0) {
            check_victory(g);
            return 0;
        }
        lift(g, u);
    }
    put(g, u, path[len - 1]);
    return 0;
}

/* rules._move: every leg is found before the first unit sets off. */
static int move(Game *g, const int *units, int n, int dest) {
    for (int k = 0; k < n; k++) {
        int u = units[k];
        if (unit_reach(g, u) < 0) return -1;
        int slot = reach_slot(g, u, dest);
        if (slot < 0) {
            g->bad = 1;
            return 0;
        }
        g->leg_key[k] = g->rc_key[(Py_ssize_t)u * T->H + slot];
        g->leg_len[k] = leg_path(g, u, slot, g->leg_path + (Py_ssize_t)k * g->pmax);
        if (g->leg_len[k] < 0) return -1;
        if (g->bad) return 0;
    }
    for (int k = 0; k < n; k++) {
        if (travel(g, units[k], g->leg_key[k], g->leg_path + (Py_ssize_t)k * g->pmax,
                   g->leg_len[k]) < 0)
            return -1;
        if (g->over) return 0;
    }
    return 0;
}

/* -- legal actions ------------------------------------------------------------------------- */

static int add_option(Game *g, int kind, int a, int b, const int *units, int n) {
    if (g->nopt >= MAX_OPTIONS) {
        g->decline = 1;
        return 0;
    }
    Py_ssize_t cap = g->capopt;
    if (grow((void **)&g->opt, &g->capopt, g->nopt + 1, sizeof(Option)) < 0) return -1;
    if (g->capopt != cap) {
        double *sc = PyMem_Realloc(g->sc, sizeof(double) * (size_t)g->capopt);
        if (!sc) {
            PyErr_NoMemory();
            return -1;
        }
        g->sc = sc;
    }
    if (grow((void **)&g->pool, &g->cappool, g->npool + n, sizeof(int)) < 0) return -1;
    Option *o = &g->opt[g->nopt++];
    o->kind = kind;
    o->a = a;
    o->b = b;
    o->n = n;
    o->off = g->npool;
    for (int k = 0; k < n; k++) g->pool[g->npool++] = units[k];
    return 0;
}

/* rules.move_blocked is None. */
static int can_move(Game *g, int u) {
    if (g->carrier[u] >= 0 || g->mp[u] + g->bonus[u] <= 0) return 0;
    if (T->mos && T->u_mos[u] && g->attacked[u]) return 0;
    return 1;
}

/* Loads of carrier c in itertools.combinations order, size by size. */
static int combos(Game *g, int c, int n, int size, int room_left, int depth, int from, int sum) {
    if (depth == size) return add_option(g, A_LOAD, c, 0, g->chosen, size);
    for (int i = from; i <= n - (size - depth); i++) {
        int total = sum + T->u_parts[g->cand[i]];
        if (total > room_left) continue; /* parts are never negative: no larger set fits */
        g->chosen[depth] = g->cand[i];
        if (combos(g, c, n, size, room_left, depth + 1, i + 1, total) < 0) return -1;
        if (g->decline) return 0;
    }
    return 0;
}

/* rules._load_options. */
static int load_options(Game *g, int side) {
    if (T->rider_class < 0) return 0;
    for (int c = 0; c < T->U; c++) {
        if (T->u_side[c] != side || g->pos[c] < 0 || T->u_cap[c] <= 0) continue;
        if (!can_move(g, c) || g->mp[c] + g->bonus[c] < T->load_cost) continue;
        int left = T->u_cap[c] - rider_parts(g, c), n = 0;
        for (int v = g->shead[g->pos[c]]; v >= 0; v = g->snext[v])
            if (T->u_side[v] == side && T->u_class[v] == T->rider_class &&
                g->mp[v] + g->bonus[v] >= T->load_cost && T->u_parts[v] <= left)
                g->cand[n++] = v;
        qsort(g->cand, (size_t)n, sizeof(int), cmp_int);
        for (int size = 1; size <= n; size++)
            if (combos(g, c, n, size, left, 0, 0, 0) < 0) return -1;
    }
    return 0;
}

/* rules._unload_options. */
static int unload_options(Game *g, int side) {
    if (T->rider_class < 0) return 0;
    for (int u = 0; u < T->U; u++)
        if (T->u_side[u] == side && g->carrier[u] >= 0 && g->pos[u] >= 0 &&
            g->mp[u] + g->bonus[u] >= T->unload_cost && room(g, g->pos[u], T->u_parts[u]))
            if (add_option(g, A_UNLOAD, u, 0, NULL, 0) < 0) return -1;
    return 0;
}

/* rules._attack_options. */
static int attack_options(Game *g, int side) {
    for (int u = 0; u < T->U; u++) {
        if (T->u_side[u] != side || g->pos[u] < 0 || !can_attack(g, u)) continue;
        int n = list_targets(g, u, g->targets);
        for (int k = 0; k < n; k++)
            if (add_option(g, A_ATTACK, u, g->targets[k], NULL, 0) < 0) return -1;
    }
    return 0;
}

/* rules._move_options: single movers, stacks, loads, unloads, attacks (option), end. */
static int move_options(Game *g, int side) {
    const int H = T->H;
    int nm = 0;
    for (int u = 0; u < T->U; u++)
        if (T->u_side[u] == side && g->pos[u] >= 0 && can_move(g, u)) g->movers[nm++] = u;
    for (int k = 0; k < nm; k++) {
        int u = g->movers[k];
        if (unit_reach(g, u) < 0) return -1;
        const int *dest = g->rc_dest + (Py_ssize_t)u * H;
        for (int i = 0; i < g->rc_n[u]; i++)
            if (add_option(g, A_MOVE, dest[i], 0, &u, 1) < 0) return -1;
    }
    if (++g->hclock == 0) {
        memset(g->hstamp, 0, sizeof(uint32_t) * H);
        g->hclock = 1;
    }
    for (int k = 0; k < nm; k++) { /* stacks, in order of their first mover */
        int h = g->pos[g->movers[k]], n = 0, weight = 0;
        if (g->hstamp[h] == g->hclock) continue;
        g->hstamp[h] = g->hclock;
        for (int j = k; j < nm; j++)
            if (g->pos[g->movers[j]] == h) {
                g->group[n++] = g->movers[j];
                weight += T->u_parts[g->movers[j]];
            }
        if (n < 2) continue;
        int first = g->group[0];
        const int *dest = g->rc_dest + (Py_ssize_t)first * H;
        for (int i = 0; i < g->rc_n[first]; i++) {
            int to = dest[i], all = 1;
            for (int j = 1; j < n && all; j++) all = reach_slot(g, g->group[j], to) >= 0;
            if (all && room(g, to, weight) && add_option(g, A_MOVE, to, 0, g->group, n) < 0)
                return -1;
        }
    }
    if (load_options(g, side) < 0 || unload_options(g, side) < 0) return -1;
    if (T->adm && attack_options(g, side) < 0) return -1;
    return 0;
}

/* rules.legal_actions for the side whose player turn it is. */
static int build_options(Game *g) {
    int side = g->player;
    g->nopt = g->npool = 0;
    if (g->open) {
        int n = joiners(g, g->targets);
        for (int k = 0; k < n; k++)
            if (add_option(g, A_JOIN, g->targets[k], 0, NULL, 0) < 0) return -1;
        return add_option(g, A_ROLL, 0, 0, NULL, 0);
    }
    if (T->phases[g->phase] == PK_MOVE) {
        if (move_options(g, side) < 0) return -1;
    } else if (attack_options(g, side) < 0) {
        return -1;
    }
    return add_option(g, A_END, 0, 0, NULL, 0);
}

/* -- the greedy bot's scores (evaluate.py) --------------------------------------------------- */

/* evaluate._loss: expected loss of a unit worth value, wounded or not. */
static double harm_of(Game *g, double value, int wounded, double destroy, double wound) {
    if (wounded && T->twice) return (destroy + wound) * value;
    return destroy * value + wound * T->wound_share * value;
}

/* evaluate.harm. */
static double harm(Game *g, int u, double destroy, double wound) {
    return harm_of(g, unit_value(g, u), g->wnd[u], destroy, wound);
}

/* Spillover strikes units of the attacking side (evaluate._hit_friends). */
static int hit_friends(Game *g) { return T->spill && !T->spill_enemies; }

/* evaluate._mixed into mt_*: side s's units sharing a hex with an enemy. */
static void mixed(Game *g, int s) {
    g->mt_n = 0;
    if (!hit_friends(g)) return;
    for (int u = 0; u < T->U; u++) {
        if (T->u_side[u] != s || g->carrier[u] >= 0 || g->pos[u] < 0) continue;
        int held = 0;
        for (int v = g->shead[g->pos[u]]; v >= 0 && !held; v = g->snext[v])
            held = T->u_side[v] != s && g->carrier[v] < 0;
        if (!held) continue;
        int n = g->mt_n++;
        g->mt_u[n] = u;
        g->mt_h[n] = g->pos[u];
        g->mt_w[n] = g->wnd[u];
        g->mt_v[n] = unit_value(g, u);
    }
}

static int mixed_same(Game *g, int s) {
    if (g->mx_n[s] != g->mt_n) return 0;
    for (int k = 0; k < g->mt_n; k++)
        if (g->mx_u[s][k] != g->mt_u[k] || g->mx_h[s][k] != g->mt_h[k] ||
            g->mx_w[s][k] != g->mt_w[k] || g->mx_v[s][k] != g->mt_v[k])
            return 0;
    return 1;
}

/* A source of the distances being made (queue[0 .. *len] holds them, each once). */
static void add_source(Game *g, int *out, int *len, int h) {
    if (out[h] != 0) {
        out[h] = 0;
        g->queue[(*len)++] = h;
    }
}

/* Breadth-first hex distance to the nearest source (Board._distances); out is
 * FAR everywhere but at the sources. */
static void distances(Game *g, int *out, int len) {
    for (int k = 0; k < len; k++) {
        int h = g->queue[k];
        for (int e = 0; e < 6; e++) {
            int x = T->nb[h * 6 + e];
            if (x < 0) break;
            if (out[x] == T->far) {
                out[x] = out[h] + 1;
                g->queue[len++] = x;
            }
        }
    }
}

/* evaluate._context: rebuilt when the enemy or the turn changed. */
static void ensure_ctx(Game *g, int s) {
    const int H = T->H, U = T->U, e = 1 - s;
    mixed(g, s);
    if (g->ctx_ok[s] && g->ctx_ver[s] == g->side_ver[e] && g->ctx_turn[s] == g->turn &&
        mixed_same(g, s))
        return;
    g->mx_n[s] = g->mt_n;
    memcpy(g->mx_u[s], g->mt_u, sizeof(int) * (size_t)g->mt_n);
    memcpy(g->mx_h[s], g->mt_h, sizeof(int) * (size_t)g->mt_n);
    memcpy(g->mx_w[s], g->mt_w, sizeof(int) * (size_t)g->mt_n);
    memcpy(g->mx_v[s], g->mt_v, sizeof(double) * (size_t)g->mt_n);
    int has = T->has_obj[s];
    int span = T->turn_limit - 1 > 1 ? T->turn_limit - 1 : 1;
    double late = (double)(g->turn - 1) / (double)span;
    g->pull[s] = has ? T->approach * (1.0 + T->urgency * late) : T->approach;
    g->expo[s] = has ? T->exposure * T->boldness : T->exposure;
    int n = 0;
    for (int v = 0; v < U; v++) {
        if (T->u_side[v] != e || g->pos[v] < 0 || g->carrier[v] >= 0) continue;
        g->tg_u[s][n] = v;
        g->tg_hex[s][n] = g->pos[v];
        g->tg_dfn[s][n] = dfn_at(g, v, g->pos[v]);
        g->tg_val[s][n] = unit_value(g, v);
        g->tg_wnd[s][n] = g->wnd[v];
        n++;
    }
    g->tg_n[s] = n;
    int c = 0, friends = hit_friends(g); /* evaluate._beside */
    for (int k = 0; k < n; k++) {
        g->co_off[s][k] = c;
        if (!T->spill) continue;
        int j = g->tg_hex[s][k];
        for (int v = 0; v < U; v++) {
            if (g->pos[v] != j || g->carrier[v] >= 0 || (T->u_side[v] == s && !friends)) continue;
            if (v == g->tg_u[s][k]) continue;
            g->co_unit[s][c] = v;
            g->co_dfn[s][c] = dfn_at(g, v, j);
            g->co_val[s][c] = unit_value(g, v);
            g->co_wnd[s][c] = g->wnd[v];
            g->co_friend[s][c] = T->u_side[v] == s;
            c++;
        }
    }
    g->co_off[s][n] = c;
    int *dist = g->dist[s], ng = 0; /* evaluate._goal_hexes */
    for (int h = 0; h < H; h++) dist[h] = T->far;
    for (int o = 0; o < T->NO; o++) {
        if (T->o_side[o] != s) continue;
        if (T->o_kind[o] == 1) {
            const int *zone = T->o_zone + (Py_ssize_t)o * H;
            for (int h = 0; h < H; h++)
                if (zone[h]) add_source(g, dist, &ng, h);
        } else {
            for (int k = T->o_toff[o]; k < T->o_toff[o + 1]; k++) {
                int ref = T->o_targets[k];
                if (ref >= U) {
                    if (g->bsp[ref - U] > 0) add_source(g, dist, &ng, T->b_pos[ref - U]);
                } else if (g->pos[ref] >= 0) {
                    add_source(g, dist, &ng, g->pos[ref]);
                }
            }
        }
    }
    if (ng == 0)
        for (int k = 0; k < n; k++) add_source(g, dist, &ng, g->tg_hex[s][k]);
    distances(g, dist, ng);
    int *threat = g->threat[s];
    memset(threat, 0, sizeof(int) * H);
    for (int v = 0; v < U; v++) {
        if (T->u_side[v] != e || g->pos[v] < 0 || T->u_att[v] < 0) continue;
        int radius = T->u_rng[v] + mov_cur(g, v), att = att_cur(g, v), at = g->pos[v];
        for (int h = 0; h < H; h++)
            if (hexdist(T, h, at) <= radius) threat[h] += att;
    }
    g->ctx_ok[s] = 1;
    g->ctx_ver[s] = g->side_ver[e];
    g->ctx_turn[s] = g->turn;
    g->ctx_id[s] = ++g->ctx_clock;
}

/* evaluate._position: how good hex i is for unit u. */
static double position_raw(Game *g, int u, int i) {
    const int s = T->u_side[u], cls = T->u_class[u];
    double value = unit_value(g, u);
    int distance = g->dist[s][i];
    int pulls = T->u_att[u] >= 0 || g->nrid[u] > 0;
    double score = 0.0;
    if (pulls && distance < T->far)
        score = -g->pull[s] * value * (double)(distance < 30 ? distance : 30);
    if (g->zone[s][i]) score += T->zone_w * value;
    int dfn = dfn_at(g, u, i);
    score += T->cover * value * (double)T->dfn_mod[cls * T->H + i];
    double d, w;
    if (g->threat[s][i]) {
        chances(g, g->threat[s][i] - dfn, &d, &w);
        score -= g->expo[s] * harm(g, u, d, w);
    }
    if (T->hz_has[i]) {
        chances(g, hazard_att(g, i, dfn_cur(g, u)) - dfn, &d, &w);
        score -= harm(g, u, d, w);
    }
    if (T->u_att[u] >= 0 && !g->attacked[u]) {
        int att = att_cur(g, u), bonus = cls == T->r0_class ? T->r0_att : 0;
        int hits_self = T->spill && !T->spill_enemies && !T->spill_spare;
        double best = 0.0;
        for (int k = 0; k < g->tg_n[s]; k++) {
            int j = g->tg_hex[s][k];
            if (hexdist(T, i, j) > T->u_rng[u]) continue;
            int strength = att + (j == i ? bonus : 0);
            chances(g, strength - g->tg_dfn[s][k], &d, &w);
            double gain = g->tg_wnd[s][k] && T->twice ? (d + w) * g->tg_val[s][k]
                                                       : (d + w * T->wound_share) * g->tg_val[s][k];
            if (T->spill) { /* the others in the target's hex; u itself at range 0 */
                strength += T->spill_att;
                for (int c = g->co_off[s][k]; c < g->co_off[s][k + 1]; c++) {
                    if (g->co_unit[s][c] == u) continue;
                    chances(g, strength - g->co_dfn[s][c], &d, &w);
                    double loss = harm_of(g, g->co_val[s][c], g->co_wnd[s][c], d, w);
                    if (g->co_friend[s][c]) gain -= loss;
                    else gain += loss;
                }
                if (j == i && hits_self) {
                    chances(g, strength - dfn, &d, &w);
                    gain -= harm(g, u, d, w);
                }
            }
            if (gain > best) best = gain;
        }
        score += T->opportunity * best;
    }
    return score;
}

/* Hex worths of u stay valid while its context, wound, attack and riders hold. */
static void check_worths(Game *g, int u) {
    int s = T->u_side[u], val = (int)unit_value(g, u);
    if (g->us_ctx[u] != g->ctx_id[s] || g->us_wnd[u] != g->wnd[u] ||
        g->us_att[u] != g->attacked[u] || g->us_val[u] != val || g->us_nrid[u] != g->nrid[u]) {
        g->us_nrid[u] = g->nrid[u];
        g->us_ctx[u] = g->ctx_id[s];
        g->us_wnd[u] = g->wnd[u];
        g->us_att[u] = g->attacked[u];
        g->us_val[u] = val;
        if (++g->pclock == 0) {
            memset(g->pstamp, 0, sizeof(uint32_t) * (size_t)T->U * T->H);
            g->pclock = 1;
        }
        g->ustamp[u] = g->pclock;
    }
}

static double position(Game *g, int u, int i) {
    return memo(g, g->pv, g->pstamp, g->ustamp, u, i, position_raw);
}

/* evaluate._path_hazard. */
static double path_hazard(Game *g, int u, int count, int dest) {
    if (!count) return 0.0;
    int h = T->hz_has[dest] ? dest : T->hz_first;
    if (h < 0) {
        g->bad = 1;
        return 0.0;
    }
    int dfn = dfn_at(g, u, dest);
    double d, w;
    chances(g, hazard_att(g, h, dfn_cur(g, u)) - dfn, &d, &w);
    double survive = pow(1.0 - d, (double)count);
    return (1.0 - survive) * unit_value(g, u) + w * T->wound_share * unit_value(g, u);
}

/* evaluate._scores_of: the worth of each leg of u, into mtab[u*H + dest]. */
static void leg_scores(Game *g, int u) {
    const int H = T->H;
    check_worths(g, u);
    double here = position(g, u, g->pos[u]);
    const int *dest = g->rc_dest + (Py_ssize_t)u * H, *hz = g->rc_hz + (Py_ssize_t)u * H;
    for (int k = 0; k < g->rc_n[u]; k++)
        g->mtab[(Py_ssize_t)u * H + dest[k]] =
            position(g, u, dest[k]) - here - path_hazard(g, u, hz[k], dest[k]);
}

/* evaluate.attack_value: expected gain of this (combined) attack, spillover included. */
static double attack_value(Game *g, int s, const int *units, int n, int ref) {
    int where = target_pos(g, ref);
    if (where < 0) return 0.0;
    const int REFS = T->U + T->B;
    double d, w;
    if (ref >= T->U) {
        int b = ref - T->U, att = strength(g, units, n, where, 0), sp = g->bsp[b];
        double destroy, wound, expected = 0.0;
        chances(g, att - T->b_dfn[b], &destroy, &wound);
        if (destroy) {
            int damage = building_damage(g, RES_DESTROY, att, att - T->b_dfn[b]);
            expected += destroy * (double)(damage < sp ? damage : sp);
        }
        if (wound) {
            int damage = building_damage(g, RES_WOUND, att, att - T->b_dfn[b]);
            expected += wound * (double)(damage < sp ? damage : sp);
        }
        double gain = expected * (double)T->b_value[b] / (double)T->b_sp[b];
        int finish_it = building_damage(g, RES_DESTROY, att, att - T->b_dfn[b]) >= sp;
        int objective = T->obj_target[(size_t)s * REFS + ref];
        if (finish_it) gain += destroy * (double)T->b_value[b] * (objective ? 1.0 : 0.3);
        return gain * (objective ? 2.0 : 1.0);
    }
    int att = strength(g, units, n, where, 1);
    chances(g, att - dfn_at(g, ref, where), &d, &w);
    double gain = harm(g, ref, d, w);
    if (T->obj_target[(size_t)s * REFS + ref]) gain *= 2.0;
    if (T->spill) {
        int spill = att + T->spill_att;
        for (int v = g->shead[where]; v >= 0; v = g->snext[v]) {
            if (v == ref || (T->spill_enemies && T->u_side[v] == s)) continue;
            if (T->spill_spare && in_units(v, units, n)) continue;
            chances(g, spill - dfn_at(g, v, where), &d, &w);
            double loss = harm(g, v, d, w);
            gain += T->u_side[v] == s ? -loss : loss;
        }
    }
    return gain;
}

/* evaluate.best_attack. */
static double best_attack(Game *g, int s, int u) {
    if (!can_attack(g, u)) return 0.0;
    double best = 0.0;
    int n = list_targets(g, u, g->others);
    for (int k = 0; k < n; k++) {
        double v = attack_value(g, s, &u, 1, g->others[k]);
        if (v > best) best = v;
    }
    return best;
}

/* evaluate.evaluate over the options listed, into sc. */
static int score_options(Game *g, int s) {
    const int H = T->H;
    ensure_ctx(g, s);
    int movers_scored = 0;
    for (Py_ssize_t i = 0; i < g->nopt; i++) {
        Option *o = &g->opt[i];
        const int *units = g->pool + o->off;
        double score = 0.0;
        switch (o->kind) {
        case A_MOVE:
            if (!movers_scored) {
                for (int u = 0; u < T->U; u++)
                    if (T->u_side[u] == s && g->pos[u] >= 0 && can_move(g, u)) leg_scores(g, u);
                movers_scored = 1;
            }
            if (o->n == 1) {
                score = g->mtab[(Py_ssize_t)units[0] * H + o->a];
            } else {
                for (int k = 0; k < o->n; k++) score += g->mtab[(Py_ssize_t)units[k] * H + o->a];
            }
            break;
        case A_LOAD: {
            int c = o->a, value = 0;
            for (int k = 0; k < o->n; k++) value += T->u_value[units[k]];
            int far = g->dist[s][g->pos[c]] > T->deliver;
            score = g->pull[s] * (double)value * (far ? (double)T->u_mov[c] : -1.0);
            break;
        }
        case A_UNLOAD: {
            int near = g->dist[s][g->pos[o->a]] <= T->deliver;
            score = g->pull[s] * (double)T->u_value[o->a] * (near ? 2.0 : -1.0);
            break;
        }
        case A_ATTACK:
            score = attack_value(g, s, &o->a, 1, o->b);
            break;
        case A_JOIN: {
            int n = g->a_n;
            memcpy(g->tmp_units, g->a_units, sizeof(int) * (size_t)n);
            g->tmp_units[n] = o->a;
            double gain = attack_value(g, s, g->tmp_units, n + 1, g->a_target);
            gain -= attack_value(g, s, g->a_units, n, g->a_target);
            score = gain - T->hold_back * best_attack(g, s, o->a);
            break;
        }
        default:
            score = 0.0;
        }
        g->sc[i] = score;
    }
    return 0;
}

/* -- the bots ---------------------------------------------------------------------------------- */

/* The action code of an option (layout at the top of this file). */
static int emit(Game *g, int side, const Option *o, const int *units) {
    unsigned long long low = (unsigned long long)o->kind | (unsigned long long)side << 3 |
                             (unsigned long long)(o->a & 0xFFFF) << 4 |
                             (unsigned long long)(o->b & 0xFFFF) << 20;
    PyObject *code;
    if (T->U <= 27) {
        for (int k = 0; k < o->n; k++) low |= 1ULL << (36 + units[k]);
        code = PyLong_FromUnsignedLongLong(low);
    } else {
        code = PyLong_FromUnsignedLongLong(low);
        for (int k = 0; code && k < o->n; k++) {
            PyObject *one = PyLong_FromLong(1), *shift = PyLong_FromLong(36 + units[k]);
            PyObject *bit = one && shift ? PyNumber_Lshift(one, shift) : NULL;
            PyObject *both = bit ? PyNumber_Or(code, bit) : NULL;
            Py_XDECREF(one);
            Py_XDECREF(shift);
            Py_XDECREF(bit);
            Py_DECREF(code);
            code = both;
        }
    }
    return emit_code(g, code);
}

/* Game._advance: the automatic steps until a side must choose (1, options
 * listed) or the game is over (0). */
static int settle(Game *g) {
    for (int i = 0; i < MAX_AUTO_STEPS; i++) {
        if (g->over) return 0;
        if (T->phases[g->phase] == PK_HAZARD) {
            if (hazards(g) < 0) return -1;
            if (g->over) return 0;
            next_phase(g);
            continue;
        }
        if (build_options(g) < 0) return -1;
        if (g->decline || g->bad) return 0;
        if (g->open || g->nopt > 1) return 1;
        next_phase(g); /* nothing to move or attack with: the phase passes */
    }
    PyErr_SetString(PyExc_RuntimeError, "playout: proceeded automatically for too long");
    return -1;
}

/* One decision: the options settle() listed, the side's bot picks one, apply it. */
static int decide(Game *g) {
    const int side = g->player;
    Py_ssize_t i;
    if (g->p.kind[side] == 1 && score_options(g, side) < 0) return -1;
    if (pick(g, side, g->nopt, &i) < 0) return -1;
    Option o = g->opt[i];
    int *units = g->act_units;
    memcpy(units, g->pool + o.off, sizeof(int) * (size_t)o.n);
    if (emit(g, side, &o, units) < 0) return -1;
    switch (o.kind) {
    case A_MOVE:
        return move(g, units, o.n, o.a);
    case A_LOAD:
        load(g, o.a, units, o.n);
        return 0;
    case A_UNLOAD:
        return unload(g, o.a);
    case A_ATTACK:
        return declare(g, o.a, o.b, T->phases[g->phase] == PK_MOVE);
    case A_JOIN:
        g->a_units[g->a_n++] = o.a;
        return 0;
    case A_ROLL:
        return resolve(g);
    default:
        next_phase(g);
        return 0;
    }
}

/* -- play ------------------------------------------------------------------------------------ */

static void game_free(Game *g) {
    if (g->rc_path)
        for (int u = 0; u < T->U; u++) PyMem_Free(g->rc_path[u]);
    void *blocks[] = {g->leg_tmp, g->rc_poff, g->rc_plen, g->rc_path, g->rc_pcap,
        g->pos, g->wnd, g->mp, g->bonus, g->road, g->moved, g->attacked, g->carrier, g->rnext,
        g->rprev, g->rhead, g->rtail, g->nrid, g->snext, g->sprev, g->shead, g->stail, g->parts,
        g->bsp, g->a_units, g->maskver, g->rc_ok, g->rc_pos, g->rc_mp, g->rc_bonus, g->rc_road,
        g->rc_full, g->rc_n, g->rc_mver, g->rc_dest, g->rc_hz, g->rc_key, g->dj_best,
        g->dj_list, g->dj_qhex, g->dj_qnext, g->dj_head, g->dj_tail, g->dj_cost, g->fs_best,
        g->fs_prev, g->fs_stamp, g->fs_front, g->fs_next, g->fs_seen, g->ch_hz, g->ch_key,
        g->ch_list, g->ch_stamp, g->dist[0], g->dist[1], g->threat[0], g->threat[1], g->queue, g->zone[0], g->zone[1], g->tg_hex[0], g->tg_hex[1], g->tg_dfn[0],
        g->tg_dfn[1], g->tg_wnd[0], g->tg_wnd[1], g->tg_val[0], g->tg_val[1], g->pv, g->mtab,
        g->pstamp, g->ustamp, g->us_ctx, g->us_wnd, g->us_att, g->us_val, g->us_nrid, g->opt, g->pool,
        g->sc, g->movers, g->group, g->cand, g->chosen, g->others, g->targets, g->act_units,
        g->tmp_units, g->leg_key, g->leg_path, g->leg_len, g->hstamp,
        g->tg_u[0], g->tg_u[1], g->co_off[0], g->co_off[1], g->co_unit[0], g->co_unit[1], g->co_dfn[0], g->co_dfn[1],
        g->co_wnd[0], g->co_wnd[1], g->co_friend[0], g->co_friend[1], g->co_val[0], g->co_val[1],
        g->mx_u[0], g->mx_u[1], g->mx_h[0], g->mx_h[1], g->mx_w[0], g->mx_w[1], g->mx_v[0],
        g->mx_v[1], g->mt_u, g->mt_h, g->mt_w, g->mt_v};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) PyMem_Free(blocks[i]);
}

static int game_init(Game *g) {
    const Py_ssize_t H = T->H, U = T->U, B = T->B, UH = U * H;
    const Py_ssize_t budget = 2 * (Py_ssize_t)T->maxmp + 2, refs = U + B + 1;
    int **ints[] = {&g->pos, &g->wnd, &g->mp, &g->bonus, &g->road, &g->moved, &g->attacked,
                    &g->carrier, &g->rnext, &g->rprev, &g->rhead, &g->rtail, &g->nrid,
                    &g->snext, &g->sprev, &g->rc_ok, &g->rc_pos, &g->rc_mp, &g->rc_bonus,
                    &g->rc_road, &g->rc_full, &g->rc_n, &g->us_wnd, &g->us_att, &g->us_val, &g->us_nrid,
                    &g->movers, &g->group, &g->cand, &g->chosen, &g->act_units,
                    &g->a_units, &g->leg_key, &g->leg_len, &g->tg_hex[0], &g->tg_hex[1],
                    &g->tg_dfn[0], &g->tg_dfn[1], &g->tg_wnd[0], &g->tg_wnd[1],
                    &g->tg_u[0], &g->tg_u[1], &g->co_off[0], &g->co_off[1], &g->mx_u[0], &g->mx_u[1], &g->mx_h[0],
                    &g->mx_h[1], &g->mx_w[0], &g->mx_w[1], &g->mt_u, &g->mt_h, &g->mt_w};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (!(*ints[i] = PyMem_Calloc((size_t)U + 1, sizeof(int)))) goto nomem;
    int **hexes[] = {&g->shead, &g->stail, &g->parts, &g->dj_best, &g->dj_list, &g->dj_cost,
                     &g->ch_hz, &g->ch_list, &g->dist[0], &g->dist[1],
                     &g->threat[0], &g->threat[1], &g->queue};
    for (size_t i = 0; i < sizeof hexes / sizeof hexes[0]; i++)
        if (!(*hexes[i] = PyMem_Calloc((size_t)H + 1, sizeof(int)))) goto nomem;
    g->pmax = 2 * T->maxmp + 3;
    g->bsp = PyMem_Calloc((size_t)B + 1, sizeof(int));
    g->maskver = PyMem_Calloc((size_t)T->nweights + 1, sizeof(unsigned));
    g->rc_mver = PyMem_Calloc((size_t)U, sizeof(unsigned));
    g->rc_dest = PyMem_Calloc((size_t)UH, sizeof(int));
    g->rc_hz = PyMem_Calloc((size_t)UH, sizeof(int));
    g->rc_key = PyMem_Calloc((size_t)UH, sizeof(int));
    g->dj_qhex = PyMem_Calloc((size_t)H * 6 + 1, sizeof(int));
    g->dj_qnext = PyMem_Calloc((size_t)H * 6 + 1, sizeof(int));
    g->dj_head = PyMem_Calloc((size_t)budget, sizeof(int));
    g->dj_tail = PyMem_Calloc((size_t)budget, sizeof(int));
    g->ch_stamp = PyMem_Calloc((size_t)H, sizeof(uint32_t));
    g->ch_key = PyMem_Calloc((size_t)H, sizeof(FsKey));
    g->leg_tmp = PyMem_Calloc((size_t)g->pmax + 1, sizeof(int));
    g->rc_poff = PyMem_Calloc((size_t)UH, sizeof(int));
    g->rc_plen = PyMem_Calloc((size_t)UH, sizeof(int));
    g->rc_path = PyMem_Calloc((size_t)U, sizeof(int *));
    g->rc_pcap = PyMem_Calloc((size_t)U, sizeof(Py_ssize_t));
    g->zone[0] = PyMem_Calloc((size_t)H, 1);
    g->zone[1] = PyMem_Calloc((size_t)H, 1);
    g->tg_val[0] = PyMem_Calloc((size_t)U, sizeof(double));
    g->tg_val[1] = PyMem_Calloc((size_t)U, sizeof(double));
    int **pairs[] = {&g->co_unit[0], &g->co_unit[1], &g->co_dfn[0], &g->co_dfn[1],
                     &g->co_wnd[0], &g->co_wnd[1], &g->co_friend[0], &g->co_friend[1]};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) /* at most U beside each target */
        if (!(*pairs[i] = PyMem_Calloc((size_t)(U * U + 1), sizeof(int)))) goto nomem;
    g->co_val[0] = PyMem_Calloc((size_t)(U * U + 1), sizeof(double));
    g->co_val[1] = PyMem_Calloc((size_t)(U * U + 1), sizeof(double));
    g->mx_v[0] = PyMem_Calloc((size_t)U + 1, sizeof(double));
    g->mx_v[1] = PyMem_Calloc((size_t)U + 1, sizeof(double));
    g->mt_v = PyMem_Calloc((size_t)U + 1, sizeof(double));
    g->pv = PyMem_Calloc((size_t)UH, sizeof(double));
    g->mtab = PyMem_Calloc((size_t)UH, sizeof(double));
    g->pstamp = PyMem_Calloc((size_t)UH, sizeof(uint32_t));
    g->ustamp = PyMem_Calloc((size_t)U, sizeof(uint32_t));
    g->us_ctx = PyMem_Calloc((size_t)U, sizeof(unsigned));
    g->targets = PyMem_Calloc((size_t)refs, sizeof(int));
    g->others = PyMem_Calloc((size_t)refs, sizeof(int)); /* spillover victims, or targets */
    g->cappool = 64;
    g->pool = PyMem_Calloc((size_t)g->cappool, sizeof(int));
    g->tmp_units = PyMem_Calloc((size_t)U + 1, sizeof(int));
    g->leg_path = PyMem_Calloc((size_t)U * g->pmax, sizeof(int));
    g->hstamp = PyMem_Calloc((size_t)H, sizeof(uint32_t));
    if (!g->bsp || !g->maskver || !g->rc_mver || !g->rc_dest || !g->rc_hz || !g->rc_key ||
        !g->dj_qhex || !g->dj_qnext || !g->dj_head || !g->dj_tail || !g->ch_stamp || !g->ch_key || !g->leg_tmp ||
        !g->rc_poff || !g->rc_plen || !g->rc_path || !g->rc_pcap ||
        !g->zone[0] || !g->zone[1] || !g->tg_val[0] || !g->tg_val[1] || !g->pv || !g->mtab ||
        !g->co_val[0] || !g->co_val[1] || !g->mx_v[0] || !g->mx_v[1] || !g->mt_v ||
        !g->pstamp || !g->ustamp || !g->us_ctx || !g->targets || !g->others || !g->pool || !g->tmp_units ||
        !g->leg_path || !g->hstamp)
        goto nomem;
    for (Py_ssize_t h = 0; h < H; h++) {
        g->shead[h] = g->stail[h] = -1;
        g->dj_best[h] = INT_MAX;
    }
    for (Py_ssize_t u = 0; u < U; u++) {
        g->rnext[u] = g->rprev[u] = g->rhead[u] = g->rtail[u] = -1;
        g->snext[u] = g->sprev[u] = -1;
        g->carrier[u] = -1;
        g->pos[u] = -1;
        g->us_ctx[u] = 0; /* no context has id 0: worths are made at first use */
    }
    for (int o = 0; o < T->NO; o++)
        if (T->o_kind[o] == 1)
            for (Py_ssize_t h = 0; h < H; h++)
                if (T->o_zone[o * H + h]) g->zone[T->o_side[o]][h] = 1;
    g->side_ver[0] = g->side_ver[1] = 0;
    g->winner = -1;
    return 0;
nomem:
    PyErr_NoMemory();
    return -1;
}

/* rules.initial_state: the scenario's deployment, at the start of the first phase. */
static int game_start(Game *g) {
    const int U = T->U;
    for (int u = 0; u < U; u++) {
        g->pos[u] = T->u_start[u];
        g->wnd[u] = T->u_wounded[u];
    }
    for (int u = 0; u < U; u++) /* stacks, then riders */
        if (T->u_riding[u] < 0) put(g, u, T->u_start[u]);
    for (int u = 0; u < U; u++)
        if (T->u_riding[u] >= 0) add_rider(g, T->u_riding[u], u);
    for (int b = 0; b < T->B; b++) g->bsp[b] = T->b_sp[b];
    g->turn = 1;
    g->player = g->phase = 0;
    begin_player_turn(g);
    enter_phase(g);
    return 0;
}

/* The game where a live Python State stands (playout.export_state; layout at the top
 * of this file): units, stacks and riders in their order, buildings' SP, turn, player,
 * phase, the open attack and the losses. Checked to hold together (ValueError if not):
 * the kernel plays on from it as the engine would, caches made afresh. */
static int game_load(Game *g, PyObject *d) {
    const int U = T->U, B = T->B, H = T->H, REFS = T->U + T->B, R = T->maxmp;
    int ns, nr, an, rc = -1;
    int *a[12] = {NULL};
    int **pos = &a[0], **wnd = &a[1], **mp = &a[2], **bonus = &a[3], **road = &a[4];
    int **moved = &a[5], **attacked = &a[6], **carrier = &a[7], **stacked = &a[8];
    int **riders = &a[9], **bsp = &a[10], **attackers = &a[11];
    if (get_int(d, "NS", 0, U, &ns) < 0 || get_int(d, "NR", 0, U, &nr) < 0 ||
        get_int(d, "NA", 0, U, &an) < 0 || get_int(d, "turn", 1, T->turn_limit, &g->turn) < 0 ||
        get_int(d, "player", 0, 1, &g->player) < 0 ||
        get_int(d, "phase", 0, T->nphases - 1, &g->phase) < 0 ||
        get_int(d, "open", 0, 1, &g->open) < 0 ||
        get_int(d, "a_target", 0, REFS - 1, &g->a_target) < 0 ||
        get_int(d, "a_during", 0, 1, &g->a_during) < 0 ||
        get_int(d, "lost_0", 0, INT_MAX / 2, &g->lost[0]) < 0 ||
        get_int(d, "lost_1", 0, INT_MAX / 2, &g->lost[1]) < 0)
        goto done;
    if (!(*pos = get_array(d, "pos", "i", U, -1, H - 1)) ||
        !(*wnd = get_array(d, "wounded", "i", U, 0, 1)) ||
        !(*mp = get_array(d, "mp", "i", U, 0, R)) ||
        !(*bonus = get_array(d, "bonus", "i", U, 0, R)) ||
        !(*road = get_array(d, "road", "i", U, 0, T->E - 1)) ||
        !(*moved = get_array(d, "moved", "i", U, 0, 1)) ||
        !(*attacked = get_array(d, "attacked", "i", U, 0, 1)) ||
        !(*carrier = get_array(d, "carrier", "i", U, -1, U - 1)) ||
        !(*stacked = get_array(d, "stacked", "i", ns, 0, U - 1)) ||
        !(*riders = get_array(d, "riders", "i", nr, 0, U - 1)) ||
        !(*bsp = get_array(d, "sp", "i", B, 0, BIG)) ||
        !(*attackers = get_array(d, "attackers", "i", an, 0, U - 1)))
        goto done;
    int n_standing = 0, riding = 0;
    for (int u = 0; u < U; u++) {
        int c = (*carrier)[u];
        if (c < 0) {
            n_standing += (*pos)[u] >= 0;
            continue;
        }
        riding++;
        if ((*pos)[u] < 0 || c == u || (*carrier)[c] >= 0 || (*pos)[c] != (*pos)[u] ||
            T->u_side[c] != T->u_side[u]) {
            state_error("a rider must ride a carrier of its side, on the board, where it is");
            goto done;
        }
    }
    if (ns != n_standing || nr != riding) {
        state_error("every unit on the board must stand in one stack or ride one carrier");
        goto done;
    }
    for (int u = 0; u < U; u++) g->pos[u] = -2; /* not placed yet */
    for (int k = 0; k < nr; k++) {
        int r = (*riders)[k];
        if ((*carrier)[r] < 0 || g->pos[r] != -2) {
            state_error("the riders must list each riding unit once");
            goto done;
        }
        g->pos[r] = -3;
        add_rider(g, (*carrier)[r], r);
    }
    for (int k = 0; k < ns; k++) {
        int u = (*stacked)[k];
        if ((*pos)[u] < 0 || (*carrier)[u] >= 0 || g->pos[u] != -2) {
            state_error("the stacks must list each standing unit once");
            goto done;
        }
        put(g, u, (*pos)[u]); /* at the end of its hex's stack: the order is kept */
    }
    memcpy(g->pos, *pos, sizeof(int) * (size_t)U);
    memcpy(g->wnd, *wnd, sizeof(int) * (size_t)U);
    memcpy(g->mp, *mp, sizeof(int) * (size_t)U);
    memcpy(g->bonus, *bonus, sizeof(int) * (size_t)U);
    memcpy(g->road, *road, sizeof(int) * (size_t)U);
    memcpy(g->moved, *moved, sizeof(int) * (size_t)U);
    memcpy(g->attacked, *attacked, sizeof(int) * (size_t)U);
    for (int b = 0; b < B; b++) {
        if ((*bsp)[b] > T->b_sp[b]) {
            state_error("a building has more SP than it started with");
            goto done;
        }
        g->bsp[b] = (*bsp)[b];
    }
    g->a_n = g->open ? an : 0;
    if (g->open) {
        if (an < 1) {
            state_error("an open attack needs an attacker");
            goto done;
        }
        for (int k = 0; k < an; k++) {
            int u = (*attackers)[k];
            if (T->u_side[u] != g->player || g->pos[u] < 0) {
                state_error("an attacker must be a unit on the board of the side whose turn it is");
                goto done;
            }
            for (int j = 0; j < k; j++)
                if (g->a_units[j] == u) {
                    state_error("an attacker is named twice");
                    goto done;
                }
            g->a_units[k] = u;
        }
    }
    rc = 0;
done:
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) PyMem_Free(a[i]);
    return rc;
}

/* The end state for the differential tests: per unit (pos, wounded, mp, bonus,
 * road, moved, attacked, carrier, riders), buildings' SP, turn, player, phase,
 * the open attack (target, attackers, during movement) or None, lost per side,
 * whether the game is over. */
static PyObject *final_state(Game *g) {
    PyObject *units = PyList_New(T->U), *sps = NULL, *attack = NULL;
    if (!units) return NULL;
    for (int u = 0; u < T->U; u++) {
        PyObject *riders = PyTuple_New(g->nrid[u]);
        if (!riders) goto fail;
        int k = 0;
        for (int r = g->rhead[u]; r >= 0 && k < g->nrid[u]; r = g->rnext[r]) {
            PyObject *v = PyLong_FromLong(r);
            if (!v) {
                Py_DECREF(riders);
                goto fail;
            }
            PyTuple_SET_ITEM(riders, k++, v);
        }
        PyObject *row = Py_BuildValue("(iiiiiiiiN)", g->pos[u], g->wnd[u], g->mp[u], g->bonus[u],
                                      g->road[u], g->moved[u], g->attacked[u], g->carrier[u],
                                      riders);
        if (!row) goto fail;
        PyList_SET_ITEM(units, u, row);
    }
    if (!(sps = PyList_New(T->B))) goto fail;
    for (int b = 0; b < T->B; b++) {
        PyObject *v = PyLong_FromLong(g->bsp[b]);
        if (!v) goto fail;
        PyList_SET_ITEM(sps, b, v);
    }
    if (g->open) {
        PyObject *who = PyTuple_New(g->a_n);
        if (!who) goto fail;
        for (int k = 0; k < g->a_n; k++) {
            PyObject *v = PyLong_FromLong(g->a_units[k]);
            if (!v) {
                Py_DECREF(who);
                goto fail;
            }
            PyTuple_SET_ITEM(who, k, v);
        }
        if (!(attack = Py_BuildValue("(iNi)", g->a_target, who, g->a_during))) goto fail;
    } else {
        attack = Py_NewRef(Py_None);
    }
    return Py_BuildValue("(NNiiiNiii)", units, sps, g->turn, g->player, g->phase, attack,
                         g->lost[0], g->lost[1], g->over);
fail:
    Py_XDECREF(units);
    Py_XDECREF(sps);
    Py_XDECREF(attack);
    return NULL;
}

static PyObject *play_from(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *state, *result = NULL;
    Game game;
    Game *g = &game;
    memset(g, 0, sizeof game);
    if (!PyArg_ParseTuple(args, "OO!OOOii", &capsule, &PyDict_Type, &state, &g->p.dice,
                          &g->p.bot[0], &g->p.bot[1], &g->p.kind[0], &g->p.kind[1])) {
        return NULL;
    }
    if (game_args(g, capsule, "play") < 0) return NULL;
    if (game_init(g) == 0 && game_load(g, state) == 0) result = run(g);
    game_free(g);
    return result;
}

#undef T

static PyMethodDef methods[] = {
    PLAYOUT_METHODS("Play a whole game of a CGME world with built-in bots."),
};

PLAYOUT_MODULE(methods)
