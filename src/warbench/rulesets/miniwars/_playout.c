/* A whole MiniWars game of built-in bots in C: the simulation hot loop.
 *
 * Optional, like geometry/_reach.c: setup.py builds it when a C compiler is
 * present, and warbench.rulesets.miniwars.playout falls back to None (the
 * engine then plays action by action in Python) when it is missing. The Python
 * rules (rules.py, evaluate.py, bots/) stay the reference: this kernel must
 * play the very game play_game() plays with the same seeds, and
 * tests/rulesets/miniwars/test_playout.py holds it to that; play_from() plays on
 * from any position as the engine does (tests/rulesets/miniwars/test_play_from.py).
 *
 * How the game stays the same game:
 * - every random number comes from the Python objects the engine would use:
 *   the game's dice are the bound `random` method of random.Random(seed)
 *   (a die is int(random() * 6) + 1, core/dice.py) and each bot's stream is
 *   random.Random(bot_seed).random, called here through the C API;
 * - legal actions are listed in the Python order (MoveOptions, including how
 *   _update_move_options edits the lists within a phase; fire, rally and
 *   attack options in unit order; END/PASS last), since the random bot picks
 *   actions[int(r * len)] and the greedy bot breaks ties by index;
 * - reach lists are made by the same searches in the same order:
 *   Board.open_reach (hexgrid.reachable: Dijkstra popping by (cost, push
 *   order), then the one-hex minimum neighbours) and Board.reach (the search
 *   of geometry/_reach.c, then the neighbours);
 * - the greedy bot's scores are the same double operations in the same order
 *   as evaluate.py, on odds tables computed by the Python functions.
 *
 * prepare(dict) -> capsule "warbench.miniwars.playout.tables"
 *   Copies the tables below out of the dict (playout.py builds it once per
 *   scenario). Every array is an array('i') (int32) or array('d') (double).
 *   Hexes are board indices 0..H-1 (Board.index), units placement indices
 *   0..U-1 (State.units order), sides 0/1 (Setup.sides order).
 *
 *   ints  H, U                 hexes, units
 *         ncodes, R            missile codes used, largest range among them
 *         nkinds               reach kinds: distinct (move class, budget)
 *         dmax, modr           largest hex distance, largest |modifier total|
 *         need_missile_max, need_melee_max, nroutes
 *         missile_miss, missile_att_dis, melee_att_dis,
 *         rally_fail, rally_self_min, rally_leader       chart constants
 *         fired_units (0 no_melee, 1 free, 2 hold), hold_and_melee,
 *         tie_first_side, los_either, turn_limit,
 *         at_limit (-3 units, -2 points, -1 draw, 0/1 that side holds)
 *   doubles p_doubles, p_self_rally, share, approach, exposure, advance
 *   q, r[H]                    axial coordinates (hex distance for rallies)
 *   nb[H*6]                    neighbour in direction d (Hex.neighbours), -1 off map
 *   step_to_0/1, step_cost_0/1[H*6]   Board.adjacency of infantry (0) and
 *                              cavalry (1) in its order, -1 ends a row
 *   zoc[H*6], melee[H*6]       Board.zoc_into / melee_into in order, -1 ends
 *   melee_mod[H*6]             total terrain modifier of a melee from h into
 *                              its neighbour in direction d (Board.melee_modifier)
 *   lane, lane_need, lane_mod[ncodes*H*W*W], W = 2R+1: for a shooter of code c
 *                              at a and a target hex t with (dq, dr) = t - a,
 *                              slot (c*H + a)*W*W + (dq+R)*W + (dr+R) holds the
 *                              offset of its open routes in `routes` (or -1:
 *                              out of range, concealed or no terrain sight:
 *                              Board.fire_lanes), the roll needed and the
 *                              height modifier
 *   routes[nroutes]            at an offset: number of routes, then per route
 *                              its length and its hexes (Board.los_routes)
 *   kind_class, kind_budget[nkinds]   move class and budget (half-MP) of a kind
 *   u_side, u_start, u_kind, u_code (-1: no missile), u_morale_mod (modifier
 *   when it is the target), u_rally_mod, u_leader, u_cost[U]
 *   melee_need[U*U]            two-dice total unit a needs against unit b
 *   p_missile[(need_missile_max+1)*(2*modr+1)], p_melee[(need_melee_max+1)*
 *   (2*modr+1)], p_rally[(dmax+1)*(2*modr+1)]   float(chance) by (needed or
 *                              distance, modifier total + modr)
 *
 *   prepare also runs the open (empty-board) reach of every kind from every
 *   hex once, so the capsule never changes after it is made.
 *
 * reach_order(tables, kind, start, blocked, stops) -> list of hexes
 *   For the tests: the reach of a unit kind from `start` in the order play()
 *   lists it, open (no byte set in the H-byte masks) or among enemies.
 *
 * play(tables, dice_random, random_0, random_1, kind_0, kind_1) -> tuple
 *   kind: 0 random bot, 1 greedy bot. Returns (codes, winner, reason, turn,
 *   final): codes a list of ints, one per action in order,
 *   ((side * 8 + kind) << 32) | (a << 16) | b with kind 0 choose (a: 0 = A,
 *   1 = B), 1 fire (unit, target), 2 move (unit, hex), 3 attack (unit,
 *   target), 4 advance (unit), 5 rally (leader, unit), 6 pass, 7 end; winner
 *   a side or -1; reason 0 last army on the board, 1 more enemy cost
 *   destroyed, 2 equal losses, 3 turn limit (draw), 4 a side holds, 5 more
 *   units on the board, 6 equal units on the board; final
 *   the end state for tests (see final_state()).
 *
 * play_from(tables, units, state, dice_random, random_0, random_1, kind_0, kind_1)
 *   -> tuple as play() returns
 *   Plays on from a position of a live game (playout.play_from exports a State):
 *   units a buffer of 4 int32 per unit (hex or -1 once removed, disrupted,
 *   fired, acted); state a tuple of ints (turn, phase, step, side of role A,
 *   side of role B, chooser, last loser, active unit, vacated hex, initiative
 *   roll of side 0 and of side 1, broken 0/1 of each side, starting units of
 *   each side, lost cost of each side), -1 for none; phase and step numbered as
 *   the enums below, so a position within a phase or in melee's attack or
 *   advance step is played on from there. The caches start empty, as a copied
 *   State's do (movement options are listed afresh). A state the kernel cannot
 *   play (a step of another phase, no roles after the initiative, two units in
 *   a hex, no attacker of the acting side) raises ValueError before any draw.
 *   The codes are the actions from the position on; turn is the turn at the end.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../_playout_common.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* no fused multiply-add: scores must match Python's */
#endif

#define CAPSULE "warbench.miniwars.playout.tables"
#define BUG "playout: a table lookup went out of range (a bug)"
#define DECLINED(g) 0 /* this kernel plays every game */

enum { PH_INITIATIVE, PH_MISSILE_A, PH_MISSILE_B, PH_MOVE_B, PH_MOVE_A, PH_MORALE };
enum { ST_ROLL, ST_CHOOSE, ST_FIRE, ST_SELECT, ST_ATTACK, ST_ADVANCE, ST_A, ST_B };
enum { K_CHOOSE, K_FIRE, K_MOVE, K_ATTACK, K_ADVANCE, K_RALLY, K_PASS, K_END };
enum { FU_NO_MELEE, FU_FREE, FU_HOLD };
enum { R_LAST_ARMY, R_MORE_COST, R_EQUAL_LOSSES, R_DRAW, R_HOLDS, R_MORE_UNITS, R_EQUAL_UNITS };

typedef struct {
    int H, U, ncodes, R, W, nkinds, dmax, modr, need_missile_max, need_melee_max, nroutes;
    int missile_miss, missile_att_dis, melee_att_dis, rally_fail, rally_self_min, rally_leader;
    int fired_units, hold_and_melee, tie_first_side, los_either, turn_limit, at_limit;
    double p_doubles, p_self_rally, share, approach, exposure, advance;
    int *q, *r, *nb, *step_to[2], *step_cost[2], *zoc, *melee, *melee_mod;
    int *lane, *lane_need, *lane_mod, *routes;
    int *kind_class, *kind_budget;
    int *u_side, *u_start, *u_kind, *u_code, *u_morale_mod, *u_rally_mod, *u_leader, *u_cost;
    int *melee_need;
    double *p_missile, *p_melee, *p_rally;
    int *open_off, *open_hex; /* open reach of kind k from h: open_hex[open_off[k*H+h] ..] */
} Tables;

/* -- tables ------------------------------------------------------------------------ */

static void tables_free(Tables *t) {
    if (!t) return;
    int *ints[] = {t->q, t->r, t->nb, t->step_to[0], t->step_to[1], t->step_cost[0],
                   t->step_cost[1], t->zoc, t->melee, t->melee_mod, t->lane, t->lane_need,
                   t->lane_mod, t->routes, t->kind_class, t->kind_budget, t->u_side,
                   t->u_start, t->u_kind, t->u_code, t->u_morale_mod, t->u_rally_mod,
                   t->u_leader, t->u_cost, t->melee_need, t->open_off, t->open_hex};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) PyMem_Free(ints[i]);
    PyMem_Free(t->p_missile);
    PyMem_Free(t->p_melee);
    PyMem_Free(t->p_rally);
    PyMem_Free(t);
}

/* Board.open_reach: hexgrid.reachable (a Dijkstra popping by cost, then push
 * order: a bucket queue with first-in-first-out buckets pops alike) in order of
 * first discovery, then the hexes of the one-hex minimum move. Writes the hexes
 * to `order` and returns how many. best[] must be all -1 and is left so. */
static int open_reach(const Tables *t, int cls, int budget, int start, int *best, int *order,
                      int *qhex, int *qnext, int *head, int *tail) {
    const int *to = t->step_to[cls], *cost = t->step_cost[cls];
    int n = 0, pushed = 0;
    for (int c = 0; c <= budget; c++) head[c] = tail[c] = -1;
    best[start] = 0;
    order[n++] = start;
    qhex[0] = start;
    qnext[0] = -1;
    head[0] = tail[0] = 0;
    pushed = 1;
    for (int c = 0; c <= budget; c++) {
        for (int e = head[c]; e >= 0; e = qnext[e]) {
            int here = qhex[e];
            if (c > best[here]) continue; /* stale entry */
            for (int k = 0; k < 6; k++) {
                int there = to[here * 6 + k];
                if (there < 0) break;
                int total = c + cost[here * 6 + k];
                if (total > budget) continue;
                int old = best[there];
                if (old < 0 || total < old) {
                    if (old < 0) order[n++] = there;
                    best[there] = total;
                    qhex[pushed] = there;
                    qnext[pushed] = -1;
                    if (tail[total] < 0) head[total] = pushed;
                    else qnext[tail[total]] = pushed;
                    tail[total] = pushed;
                    pushed++;
                }
            }
        }
    }
    for (int k = 0; k < 6; k++) { /* found.setdefault(n, cost): the one-hex minimum */
        int there = to[start * 6 + k];
        if (there < 0) break;
        if (best[there] < 0) {
            best[there] = cost[start * 6 + k];
            order[n++] = there;
        }
    }
    for (int i = 0; i < n; i++) best[order[i]] = -1;
    return n;
}

/* Every kind's open reach from every hex, flattened into open_off / open_hex. */
static int prepare_open_reach(Tables *t) {
    const int H = t->H;
    int maxbudget = 0;
    for (int k = 0; k < t->nkinds; k++)
        if (t->kind_budget[k] > maxbudget) maxbudget = t->kind_budget[k];
    int *best = PyMem_Malloc(sizeof(int) * H), *order = PyMem_Malloc(sizeof(int) * (H + 6));
    int *qhex = PyMem_Malloc(sizeof(int) * (H * 6 + 1)), *qnext = PyMem_Malloc(sizeof(int) * (H * 6 + 1));
    int *head = PyMem_Malloc(sizeof(int) * (maxbudget + 1)), *tail = PyMem_Malloc(sizeof(int) * (maxbudget + 1));
    Py_ssize_t cap = (Py_ssize_t)H * 8 + 16, used = 0;
    int ok = -1;
    t->open_off = PyMem_Malloc(sizeof(int) * ((size_t)t->nkinds * H + 1));
    t->open_hex = PyMem_Malloc(sizeof(int) * cap);
    if (!best || !order || !qhex || !qnext || !head || !tail || !t->open_off || !t->open_hex) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < H; i++) best[i] = -1;
    for (int k = 0; k < t->nkinds; k++) {
        for (int h = 0; h < H; h++) {
            int n = open_reach(t, t->kind_class[k], t->kind_budget[k], h, best, order, qhex,
                               qnext, head, tail);
            if (used + n > cap) {
                Py_ssize_t bigger = 2 * cap + n;
                int *grown = PyMem_Realloc(t->open_hex, sizeof(int) * bigger);
                if (!grown) {
                    PyErr_NoMemory();
                    goto done;
                }
                t->open_hex = grown;
                cap = bigger;
            }
            if (used > INT32_MAX - n) {
                PyErr_SetString(PyExc_OverflowError, "prepare: open reach tables too large");
                goto done;
            }
            t->open_off[k * H + h] = (int)used;
            memcpy(t->open_hex + used, order, sizeof(int) * n);
            used += n;
        }
    }
    t->open_off[t->nkinds * H] = (int)used;
    ok = 0;
done:
    PyMem_Free(best);
    PyMem_Free(order);
    PyMem_Free(qhex);
    PyMem_Free(qnext);
    PyMem_Free(head);
    PyMem_Free(tail);
    return ok;
}

/* prepare(): the tables out of the exported dict into t (zeroed); -1 with an
 * exception set if they are missing or out of range (the caller frees t). */
static int load_tables(Tables *t, PyObject *d) {
    const long BIG = 1L << 20;
    if (get_int(d, "H", 1, 10000, &t->H) < 0 || get_int(d, "U", 1, 4000, &t->U) < 0 ||
        get_int(d, "ncodes", 0, 5, &t->ncodes) < 0 || get_int(d, "R", 0, 20, &t->R) < 0 ||
        get_int(d, "nkinds", 1, 64, &t->nkinds) < 0 || get_int(d, "dmax", 0, 1000, &t->dmax) < 0 ||
        get_int(d, "modr", 0, 100, &t->modr) < 0 ||
        get_int(d, "need_missile_max", 0, 100, &t->need_missile_max) < 0 ||
        get_int(d, "need_melee_max", 0, 100, &t->need_melee_max) < 0 ||
        get_int(d, "nroutes", 0, INT32_MAX, &t->nroutes) < 0 ||
        get_int(d, "missile_miss", -BIG, BIG, &t->missile_miss) < 0 ||
        get_int(d, "missile_att_dis", -BIG, BIG, &t->missile_att_dis) < 0 ||
        get_int(d, "melee_att_dis", -BIG, BIG, &t->melee_att_dis) < 0 ||
        get_int(d, "rally_fail", -BIG, BIG, &t->rally_fail) < 0 ||
        get_int(d, "rally_self_min", -BIG, BIG, &t->rally_self_min) < 0 ||
        get_int(d, "rally_leader", -BIG, BIG, &t->rally_leader) < 0 ||
        get_int(d, "fired_units", 0, 2, &t->fired_units) < 0 ||
        get_int(d, "hold_and_melee", 0, 1, &t->hold_and_melee) < 0 ||
        get_int(d, "tie_first_side", 0, 1, &t->tie_first_side) < 0 ||
        get_int(d, "los_either", 0, 1, &t->los_either) < 0 ||
        get_int(d, "turn_limit", 1, 100000, &t->turn_limit) < 0 ||
        get_int(d, "at_limit", -3, 1, &t->at_limit) < 0 ||
        get_double(d, "p_doubles", &t->p_doubles) < 0 ||
        get_double(d, "p_self_rally", &t->p_self_rally) < 0 ||
        get_double(d, "share", &t->share) < 0 || get_double(d, "approach", &t->approach) < 0 ||
        get_double(d, "exposure", &t->exposure) < 0 ||
        get_double(d, "advance", &t->advance) < 0) {
        return -1;
    }
    const int H = t->H, U = t->U;
    t->W = 2 * t->R + 1;
    const Py_ssize_t H6 = (Py_ssize_t)H * 6, M = 2 * t->modr + 1;
    const Py_ssize_t lanes = (Py_ssize_t)t->ncodes * H * t->W * t->W;
    if (!(t->q = get_array(d, "q", "i", H, -BIG, BIG)) ||
        !(t->r = get_array(d, "r", "i", H, -BIG, BIG)) ||
        !(t->nb = get_array(d, "nb", "i", H6, -1, H - 1)) ||
        !(t->step_to[0] = get_array(d, "step_to_0", "i", H6, -1, H - 1)) ||
        !(t->step_to[1] = get_array(d, "step_to_1", "i", H6, -1, H - 1)) ||
        !(t->step_cost[0] = get_array(d, "step_cost_0", "i", H6, 0, 10000)) ||
        !(t->step_cost[1] = get_array(d, "step_cost_1", "i", H6, 0, 10000)) ||
        !(t->zoc = get_array(d, "zoc", "i", H6, -1, H - 1)) ||
        !(t->melee = get_array(d, "melee", "i", H6, -1, H - 1)) ||
        !(t->melee_mod = get_array(d, "melee_mod", "i", H6, -BIG, BIG)) ||
        !(t->lane = get_array(d, "lane", "i", lanes, -1, (long)t->nroutes - 1)) ||
        !(t->lane_need = get_array(d, "lane_need", "i", lanes, 0, t->need_missile_max)) ||
        !(t->lane_mod = get_array(d, "lane_mod", "i", lanes, -BIG, BIG)) ||
        !(t->routes = get_array(d, "routes", "i", t->nroutes, -1, BIG)) ||
        !(t->kind_class = get_array(d, "kind_class", "i", t->nkinds, 0, 1)) ||
        !(t->kind_budget = get_array(d, "kind_budget", "i", t->nkinds, 0, 1000)) ||
        !(t->u_side = get_array(d, "u_side", "i", U, 0, 1)) ||
        !(t->u_start = get_array(d, "u_start", "i", U, 0, H - 1)) ||
        !(t->u_kind = get_array(d, "u_kind", "i", U, 0, t->nkinds - 1)) ||
        !(t->u_code = get_array(d, "u_code", "i", U, -1, t->ncodes - 1)) ||
        !(t->u_morale_mod = get_array(d, "u_morale_mod", "i", U, -BIG, BIG)) ||
        !(t->u_rally_mod = get_array(d, "u_rally_mod", "i", U, -BIG, BIG)) ||
        !(t->u_leader = get_array(d, "u_leader", "i", U, 0, 1)) ||
        !(t->u_cost = get_array(d, "u_cost", "i", U, 0, BIG)) ||
        !(t->melee_need = get_array(d, "melee_need", "i", (Py_ssize_t)U * U, 0, t->need_melee_max)) ||
        !(t->p_missile = get_array(d, "p_missile", "d", (t->need_missile_max + 1) * M, 0, 0)) ||
        !(t->p_melee = get_array(d, "p_melee", "d", (t->need_melee_max + 1) * M, 0, 0)) ||
        !(t->p_rally = get_array(d, "p_rally", "d", (t->dmax + 1) * M, 0, 0))) {
        return -1;
    }
    /* Routes: well-formed sets of board hexes or -1 (off the map: never
     * occupied), and every lane points at the start of a set. */
    {
        unsigned char *starts = PyMem_Calloc(t->nroutes + 1, 1);
        if (!starts) {
            PyErr_NoMemory();
            return -1;
        }
        int o = 0, ok = 1;
        while (ok && o < t->nroutes) {
            starts[o] = 1;
            int count = t->routes[o++];
            ok = count >= 0;
            for (int k = 0; ok && k < count; k++) {
                ok = o < t->nroutes;
                int len = ok ? t->routes[o++] : 0;
                ok = ok && len >= 0 && len <= t->nroutes - o;
                for (int i = 0; ok && i < len; i++) ok = t->routes[o + i] < H;
                o += len;
            }
        }
        for (Py_ssize_t i = 0; ok && i < lanes; i++) ok = t->lane[i] < 0 || starts[t->lane[i]];
        PyMem_Free(starts);
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "prepare: malformed routes or lanes");
            return -1;
        }
    }
    for (int h = 0; h < H; h++) /* the rows must be packed: -1 only at the end */
        for (int k = 1; k < 6; k++) {
            int *rows[] = {t->step_to[0], t->step_to[1], t->zoc, t->melee};
            for (int j = 0; j < 4; j++)
                if (rows[j][h * 6 + k - 1] < 0 && rows[j][h * 6 + k] >= 0) {
                    PyErr_SetString(PyExc_ValueError, "prepare: a hex row has a gap");
                    return -1;
                }
        }
    if (prepare_open_reach(t) < 0) return -1;
    return 0;
}

/* -- the game -------------------------------------------------------------------------- */

typedef struct {
    const Tables *t;
    Players p;
    /* state (State / Unit in state.py) */
    int *pos, *occ;
    unsigned char *dis, *fired, *acted;
    int turn, phase, step, role_side[2], chooser, last_loser, active, vacated, rolls[2];
    int broken[2], start_count[2], lost[2];
    int over, winner, reason;
    int bad; /* a table lookup out of range: a bug, raised at the end */
    /* the acting side's move options (the ("moves", side) cache of rules.py) */
    int moves_valid, n_mu;
    int *mu_order, *dests, *dlen; /* dests of unit u: dests[u*(H+1) ..], dlen[u] long */
    unsigned char *inreach;       /* inreach[u*H + h]: h in unit u's reach */
    /* search scratch */
    int *best, *reached, *list;
    unsigned char *done, *blocked, *stops;
    /* greedy caches: pure functions of the state, dropped whenever an input changes */
    double *score;
    uint32_t *stamp, *ustamp, clock; /* score[u*H+h] valid iff stamp == ustamp[u] */
    int *edist[2], edist_ok[2], *touch[2], *touch_n[2], touch_ok[2];
    /* decision scratch */
    int *oa, *ob;
    double *sc;
} Game;

#define T (g->t)

#include "../_playout_play.h"

static int dist(const Tables *t, int a, int b) { return hex_distance(t->q, t->r, a, b); }


/* One die of core.dice.Dice: int(random() * 6) + 1. */
static int roll(Game *g, int *out) {
    double x;
    if (draw(g->p.dice, &x) < 0) return -1;
    *out = (int)(x * 6) + 1;
    return 0;
}

static double table(Game *g, const double *p, int rows, int row, int mod) {
    int m = T->modr;
    if (row < 0 || row > rows || mod < -m || mod > m) {
        g->bad = 1;
        return 0.0;
    }
    return p[row * (2 * m + 1) + mod + m];
}

/* The modifier of a melee from a into adjacent b (Board.melee_modifier). */
static int melee_mod(Game *g, int a, int b) {
    for (int d = 0; d < 6; d++)
        if (T->nb[a * 6 + d] == b) return T->melee_mod[a * 6 + d];
    g->bad = 1;
    return 0;
}

/* -- caches ---------------------------------------------------------------------------- */

static void fresh_scores(Game *g, int u) { g->ustamp[u] = ++g->clock; }

/* rules._forget_scores: a disruption changes attack odds. */
static void forget_scores(Game *g) {
    for (int u = 0; u < T->U; u++) fresh_scores(g, u);
}

/* state.caches.clear(). */
static void clear_caches(Game *g) {
    g->moves_valid = 0;
    g->edist_ok[0] = g->edist_ok[1] = 0;
    g->touch_ok[0] = g->touch_ok[1] = 0;
    forget_scores(g);
}

/* Units of `side` moved: what the other side derives from their places is stale. */
static void side_moved(Game *g, int side) {
    g->edist_ok[1 - side] = g->touch_ok[1 - side] = 0;
    for (int u = 0; u < T->U; u++)
        if (T->u_side[u] != side) fresh_scores(g, u);
}

static int side_count(Game *g, int side) {
    int n = 0;
    for (int u = 0; u < T->U; u++) n += T->u_side[u] == side && g->pos[u] >= 0;
    return n;
}

/* -- the turn sequence (rules.py: _next_phase and friends) ---------------------------------- */

static int acting_side(Game *g) {
    switch (g->phase) {
    case PH_INITIATIVE: return g->step == ST_CHOOSE ? g->chooser : -1;
    case PH_MISSILE_A:
    case PH_MOVE_A: return g->role_side[0];
    case PH_MISSILE_B:
    case PH_MOVE_B: return g->role_side[1];
    default: return g->role_side[g->step == ST_A ? 0 : 1];
    }
}

static void end_at_turn_limit(Game *g) {
    g->over = 1;
    int score0 = g->lost[1], score1 = g->lost[0];
    if (T->at_limit == -3) { /* ruling 11: more units on the board */
        int left0 = side_count(g, 0), left1 = side_count(g, 1);
        g->winner = left0 == left1 ? -1 : (left1 > left0 ? 1 : 0);
        g->reason = g->winner >= 0 ? R_MORE_UNITS : R_EQUAL_UNITS;
    } else if (T->at_limit == -2) {
        g->winner = score0 == score1 ? -1 : (score1 > score0 ? 1 : 0);
        g->reason = g->winner >= 0 ? R_MORE_COST : R_EQUAL_LOSSES;
    } else if (T->at_limit == -1) {
        g->winner = -1;
        g->reason = R_DRAW;
    } else {
        g->winner = T->at_limit;
        g->reason = R_HOLDS;
    }
}

static void next_phase(Game *g) {
    g->active = g->vacated = -1;
    clear_caches(g);
    memset(g->acted, 0, T->U);
    if (g->phase + 1 < 6) {
        g->phase++;
    } else {
        if (!next_turn(g)) return;
        g->phase = PH_INITIATIVE;
    }
    static const int first_step[] = {ST_ROLL, ST_FIRE, ST_FIRE, ST_SELECT, ST_SELECT, ST_A};
    g->step = first_step[g->phase];
}

static void next_step_of_morale(Game *g) {
    if (g->step == ST_A) {
        g->step = ST_B;
        memset(g->acted, 0, T->U);
    } else {
        next_phase(g);
    }
}

static int roll_initiative(Game *g) {
    int a, b, winner;
    if (roll(g, &a) < 0 || roll(g, &b) < 0) return -1;
    g->rolls[0] = a;
    g->rolls[1] = b;
    if (a != b) winner = a > b ? 0 : 1;
    else if (g->last_loser >= 0) winner = g->last_loser;
    else if (T->tie_first_side) winner = 0;
    else return 0; /* tied on the first turn: roll again */
    g->chooser = winner;
    g->last_loser = 1 - winner;
    g->step = ST_CHOOSE;
    return 0;
}

static void choose_role(Game *g, int side, int role) {
    g->role_side[role] = side;
    g->role_side[1 - role] = 1 - side;
    memset(g->fired, 0, T->U); /* the missile fire markers come off */
    next_phase(g);
}

/* -- hits and removal (rules._harm) ------------------------------------------------------- */

static void harm(Game *g, int target) {
    forget_scores(g);
    if (!g->dis[target]) {
        g->dis[target] = 1;
        return;
    }
    g->occ[g->pos[target]] = -1;
    g->pos[target] = -1;
    clear_caches(g);
    int side = T->u_side[target];
    g->lost[side] += T->u_cost[target];
    int remaining = side_count(g, side);
    if (remaining == 0) {
        g->over = 1;
        g->winner = 1 - side;
        g->reason = R_LAST_ARMY;
        return;
    }
    if (!g->broken[side] && remaining * 2 <= g->start_count[side]) { /* Break Point */
        g->broken[side] = 1;
        for (int u = 0; u < T->U; u++)
            if (T->u_side[u] == side && g->pos[u] >= 0) g->dis[u] = 1;
    }
}

static void relocate(Game *g, int u, int to) {
    g->occ[g->pos[u]] = -1;
    g->pos[u] = to;
    g->occ[to] = u;
}

/* -- missile fire --------------------------------------------------------------------------- */

static int lane_slot(Game *g, int code, int at, int target) {
    int dq = T->q[target] - T->q[at], dr = T->r[target] - T->r[at], R = T->R;
    if (dq < -R || dq > R || dr < -R || dr > R) return -1;
    return ((code * T->H + at) * T->W + dq + R) * T->W + dr + R;
}

/* rules._routes_clear: units on the open routes block ("both": all routes
 * blocked; "either": any). */
static int routes_clear(Game *g, int offset) {
    const int *p = T->routes + offset;
    int count = *p++, any = 0, all = 1;
    for (int k = 0; k < count; k++) {
        int len = *p++, clear = 1;
        for (int i = 0; i < len; i++)
            if (p[i] >= 0 && g->occ[p[i]] >= 0) clear = 0;
        p += len;
        any |= clear;
        all &= clear;
    }
    return T->los_either ? all : any;
}

/* rules._fire_options: shooters in unit order, then targets in unit order. */
static int fire_options(Game *g, int side) {
    int n = 0;
    for (int u = 0; u < T->U; u++) {
        if (T->u_side[u] != side || g->pos[u] < 0 || T->u_code[u] < 0 || g->fired[u]) continue;
        for (int v = 0; v < T->U; v++) {
            if (T->u_side[v] == side || g->pos[v] < 0) continue;
            int slot = lane_slot(g, T->u_code[u], g->pos[u], g->pos[v]);
            if (slot < 0 || T->lane[slot] < 0 || !routes_clear(g, T->lane[slot])) continue;
            g->oa[n] = u;
            g->ob[n] = v;
            n++;
        }
    }
    return n;
}

static double harm_value(Game *g, int u) {
    double cost = (double)T->u_cost[u];
    return g->dis[u] ? cost : T->share * cost;
}

static int missile_modifier(Game *g, int u, int v, int slot) {
    return T->u_morale_mod[v] + (g->dis[u] ? T->missile_att_dis : 0) + T->lane_mod[slot];
}

static double fire_score(Game *g, int u, int v) {
    int slot = lane_slot(g, T->u_code[u], g->pos[u], g->pos[v]);
    if (slot < 0) {
        g->bad = 1;
        return 0.0;
    }
    double hit = table(g, T->p_missile, T->need_missile_max, T->lane_need[slot],
                       missile_modifier(g, u, v, slot));
    return hit * harm_value(g, v);
}

static int fire(Game *g, int u, int v) {
    int slot = lane_slot(g, T->u_code[u], g->pos[u], g->pos[v]), die;
    if (slot < 0) {
        g->bad = 1;
        return 0;
    }
    g->fired[u] = 1;
    if (roll(g, &die) < 0) return -1;
    if (die != T->missile_miss && die + missile_modifier(g, u, v, slot) >= T->lane_need[slot])
        harm(g, v);
    return 0;
}

/* -- melee ---------------------------------------------------------------------------------- */

/* rules._melee_targets: enemies across a hexside melee may cross, in melee_into order. */
static int melee_targets(Game *g, int u, int moved, int *out) {
    if (g->fired[u] && T->fired_units != FU_FREE) return 0;
    if (!moved && !T->hold_and_melee) return 0;
    int n = 0;
    const int *into = T->melee + g->pos[u] * 6;
    for (int k = 0; k < 6 && into[k] >= 0; k++) {
        int o = g->occ[into[k]];
        if (o >= 0 && T->u_side[o] != T->u_side[u]) out[n++] = o;
    }
    return n;
}

static int melee_modifier(Game *g, int u, int at, int v) {
    return T->u_morale_mod[v] + (g->dis[u] ? T->melee_att_dis : 0) + melee_mod(g, at, g->pos[v]);
}

/* evaluate._melee_value, with u standing at `at`. */
static double melee_value(Game *g, int u, int at, int v) {
    double p = table(g, T->p_melee, T->need_melee_max, T->melee_need[u * T->U + v],
                     melee_modifier(g, u, at, v));
    double risk = g->dis[u] ? 0.0 : T->p_doubles * T->share * (double)T->u_cost[u];
    return p * harm_value(g, v) - risk;
}

static int attack(Game *g, int u, int v) {
    int a, b;
    int needed = T->melee_need[u * T->U + v], mod = melee_modifier(g, u, g->pos[u], v);
    if (roll(g, &a) < 0 || roll(g, &b) < 0) return -1;
    int success = a + b + mod >= needed, doubles = a == b;
    g->step = ST_SELECT;
    g->active = -1;
    int removed_at = success && g->dis[v] ? g->pos[v] : -1;
    if (success) harm(g, v);
    if (doubles && !g->dis[u] && g->pos[u] >= 0) {
        g->dis[u] = 1;
        forget_scores(g);
    }
    if (!g->over && removed_at >= 0 && g->pos[u] >= 0) {
        const int *to = T->step_to[T->kind_class[T->u_kind[u]]] + g->pos[u] * 6;
        for (int k = 0; k < 6 && to[k] >= 0; k++)
            if (to[k] == removed_at) { /* Board.can_enter */
                g->step = ST_ADVANCE;
                g->active = u;
                g->vacated = removed_at;
                break;
            }
    }
    return 0;
}

static void advance(Game *g) {
    int u = g->active;
    relocate(g, u, g->vacated);
    clear_caches(g);
    g->step = ST_SELECT;
    g->active = g->vacated = -1;
}

/* -- movement ------------------------------------------------------------------------------- */

/* geometry/_reach.c's search (the order of its dict), then Board.reach's one-hex
 * minimum. Writes the hexes to g->list, returns how many. */
static int blocked_reach(Game *g, int cls, int budget, int start) {
    const int *to = T->step_to[cls], *cost = T->step_cost[cls];
    const int limit = budget + 1;
    int *best = g->best, *reached = g->reached;
    int count = 0;
    best[start] = 0;
    reached[count++] = start;
    for (int level = 0; level < limit; level++) {
        for (int k = 0; k < count; k++) {
            int here = reached[k];
            if (best[here] != level || g->done[here]) continue;
            g->done[here] = 1;
            if (here != start && g->stops[here]) continue; /* a zone of control */
            for (int e = 0; e < 6; e++) {
                int there = to[here * 6 + e];
                if (there < 0) break;
                int total = level + cost[here * 6 + e];
                int known = best[there] == INT32_MAX ? limit : best[there]; /* beyond: limit */
                if (total < known && !g->blocked[there]) {
                    if (known == limit) reached[count++] = there;
                    best[there] = total;
                }
            }
        }
    }
    int n = 0;
    for (int k = 0; k < count; k++) g->list[n++] = reached[k];
    for (int e = 0; e < 6; e++) {
        int there = to[start * 6 + e];
        if (there < 0) break;
        if (best[there] == INT32_MAX && !g->blocked[there]) g->list[n++] = there;
    }
    for (int k = 0; k < count; k++) {
        best[reached[k]] = INT32_MAX;
        g->done[reached[k]] = 0;
    }
    return n;
}

/* rules._move_options when the ("moves", side) cache is empty. */
static void build_moves(Game *g, int side) {
    const int H = T->H;
    memset(g->blocked, 0, H);
    memset(g->stops, 0, H);
    for (int v = 0; v < T->U; v++) { /* rules.zones: enemies block, their ZOCs stop */
        if (T->u_side[v] == side || g->pos[v] < 0) continue;
        g->blocked[g->pos[v]] = 1;
        const int *z = T->zoc + g->pos[v] * 6;
        for (int k = 0; k < 6 && z[k] >= 0; k++) g->stops[z[k]] = 1;
    }
    g->n_mu = 0;
    for (int u = 0; u < T->U; u++) {
        if (T->u_side[u] != side || g->pos[u] < 0) continue;
        if (g->acted[u] || (T->fired_units == FU_HOLD && g->fired[u])) continue;
        int kind = T->u_kind[u], at = g->pos[u];
        const int *list = T->open_hex + T->open_off[kind * H + at];
        int n = T->open_off[kind * H + at + 1] - T->open_off[kind * H + at];
        int disjoint = 1;
        for (int i = 0; i < n; i++)
            if (g->blocked[list[i]] || g->stops[list[i]]) {
                disjoint = 0;
                break;
            }
        if (!disjoint) {
            n = blocked_reach(g, T->kind_class[kind], T->kind_budget[kind], at);
            list = g->list;
        }
        int *dests = g->dests + (Py_ssize_t)u * (H + 1), m = 0;
        unsigned char *in = g->inreach + (Py_ssize_t)u * H;
        memset(in, 0, H);
        for (int i = 0; i < n; i++) {
            in[list[i]] = 1;
            if (g->occ[list[i]] < 0) dests[m++] = list[i];
        }
        dests[m++] = at; /* holding is a move too */
        g->dlen[u] = m;
        g->mu_order[g->n_mu++] = u;
    }
    g->moves_valid = 1;
}

/* rules._update_move_options after u moved from `start` (to its pos now). */
static void update_moves(Game *g, int u, int start) {
    int k = 0;
    while (k < g->n_mu && g->mu_order[k] != u) k++;
    if (k < g->n_mu) {
        memmove(g->mu_order + k, g->mu_order + k + 1, sizeof(int) * (g->n_mu - k - 1));
        g->n_mu--;
    }
    int to = g->pos[u];
    if (to == start) return;
    for (k = 0; k < g->n_mu; k++) {
        int v = g->mu_order[k];
        int *dests = g->dests + (Py_ssize_t)v * (T->H + 1);
        for (int i = 0; i < g->dlen[v]; i++)
            if (dests[i] == to) {
                memmove(dests + i, dests + i + 1, sizeof(int) * (g->dlen[v] - i - 1));
                g->dlen[v]--;
                break;
            }
        if (g->inreach[(Py_ssize_t)v * T->H + start]) dests[g->dlen[v]++] = start;
    }
}

static void move(Game *g, int u, int to) {
    int start = g->pos[u];
    g->acted[u] = 1;
    if (to != start) {
        relocate(g, u, to);
        side_moved(g, T->u_side[u]);
        fresh_scores(g, u);
    }
    update_moves(g, u, start);
    if (melee_targets(g, u, to != start, g->oa) > 0) {
        g->step = ST_ATTACK;
        g->active = u;
    }
}

/* evaluate._enemy_distance: breadth-first hex distance to the nearest enemy. */
static const int *enemy_distance(Game *g, int side) {
    int *d = g->edist[side];
    if (g->edist_ok[side]) return d;
    const int H = T->H;
    int *queue = g->reached, n = 0;
    for (int h = 0; h < H; h++) d[h] = -1;
    for (int v = 0; v < T->U; v++)
        if (T->u_side[v] != side && g->pos[v] >= 0 && d[g->pos[v]] < 0) {
            d[g->pos[v]] = 0;
            queue[n++] = g->pos[v];
        }
    for (int k = 0; k < n; k++) {
        int h = queue[k];
        for (int e = 0; e < 6; e++) {
            int x = T->nb[h * 6 + e];
            if (x >= 0 && d[x] < 0) {
                d[x] = d[h] + 1;
                queue[n++] = x;
            }
        }
    }
    g->edist_ok[side] = 1;
    return d;
}

/* evaluate._enemies_touching: per hex, the enemies that could melee into it. */
static void enemies_touching(Game *g, int side) {
    if (g->touch_ok[side]) return;
    int *t = g->touch[side], *n = g->touch_n[side];
    memset(n, 0, sizeof(int) * T->H);
    for (int v = 0; v < T->U; v++) {
        if (T->u_side[v] == side || g->pos[v] < 0) continue;
        const int *into = T->melee + g->pos[v] * 6;
        for (int k = 0; k < 6 && into[k] >= 0; k++) {
            int h = into[k];
            if (n[h] < 6) t[h * 6 + n[h]++] = v;
            else g->bad = 1;
        }
    }
    g->touch_ok[side] = 1;
}

/* evaluate.move_score. */
static double move_score(Game *g, int u, int to) {
    const int side = T->u_side[u], at = g->pos[u];
    const int *d = enemy_distance(g, side);
    int closer = (d[at] < 0 ? 0 : d[at]) - (d[to] < 0 ? 0 : d[to]);
    double pull = T->approach * (double)T->u_cost[u] * (double)closer;
    if (g->dis[u]) pull = -pull;
    enemies_touching(g, side);
    const int n = g->touch_n[side][to], *enemies = g->touch[side] + to * 6;
    if (n == 0) return pull;
    double best = 0.0; /* _best_melee_from */
    if (!(g->fired[u] && T->fired_units != FU_FREE) && !(to == at && !T->hold_and_melee)) {
        for (int k = 0; k < n; k++) {
            double v = melee_value(g, u, to, enemies[k]);
            if (v > best) best = v;
        }
    }
    double total = 0.0; /* _exposure */
    for (int k = 0; k < n; k++) {
        int o = enemies[k];
        int mod = T->u_morale_mod[u] + (g->dis[o] ? T->melee_att_dis : 0) +
                  melee_mod(g, g->pos[o], to);
        double p = table(g, T->p_melee, T->need_melee_max, T->melee_need[o * T->U + u], mod);
        total += p * harm_value(g, u);
    }
    return best - T->exposure * total + pull;
}

static double move_score_cached(Game *g, int u, int to) {
    return memo(g, g->score, g->stamp, g->ustamp, u, to, move_score);
}

/* -- morale --------------------------------------------------------------------------------- */

/* rules._rally_options: leaders in unit order; a disrupted one only itself. */
static int rally_options(Game *g, int side) {
    int n = 0, any = 0;
    for (int u = 0; u < T->U; u++) any |= T->u_side[u] == side && g->pos[u] >= 0 && g->dis[u];
    if (!any) return 0;
    for (int l = 0; l < T->U; l++) {
        if (T->u_side[l] != side || g->pos[l] < 0 || !T->u_leader[l] || g->acted[l]) continue;
        if (g->dis[l]) {
            g->oa[n] = g->ob[n] = l;
            n++;
            continue;
        }
        for (int u = 0; u < T->U; u++)
            if (T->u_side[u] == side && g->pos[u] >= 0 && g->dis[u]) {
                g->oa[n] = l;
                g->ob[n] = u;
                n++;
            }
    }
    return n;
}

static int rally_modifier(Game *g, int u) {
    return T->u_rally_mod[u] + (T->u_leader[u] ? T->rally_leader : 0);
}

static double rally_score(Game *g, int l, int u) {
    double chance = l == u ? T->p_self_rally
                           : table(g, T->p_rally, T->dmax, dist(T, g->pos[l], g->pos[u]),
                                   rally_modifier(g, u));
    return chance * T->share * (double)T->u_cost[u];
}

static int rally(Game *g, int l, int u) {
    int distance = l == u ? T->rally_self_min - 1 : dist(T, g->pos[l], g->pos[u]);
    int mod = l == u ? 0 : rally_modifier(g, u), die;
    g->acted[l] = 1;
    if (roll(g, &die) < 0) return -1;
    if (die != T->rally_fail && die + mod > distance) g->dis[u] = 0;
    return 0;
}

/* -- the bots ------------------------------------------------------------------------------- */

static int emit(Game *g, int side, int kind, int a, int b) {
    long long code = ((long long)(side * 8 + kind) << 32) | ((long long)a << 16) | b;
    return emit_code(g, PyLong_FromLongLong(code));
}

/* The bot picks among n options (their greedy scores in g->sc) and `last`
 * (END or PASS, listed last with score 0): 1 if it took `last` (emitted), 0 if
 * option *i, -1 on an error. */
static int pick_or(Game *g, int side, Py_ssize_t n, int last, Py_ssize_t *i) {
    g->sc[n] = 0.0;
    if (pick(g, side, n + 1, i) < 0) return -1;
    if (*i < n) return 0;
    return emit(g, side, last, 0, 0) < 0 ? -1 : 1;
}

/* A choice among the n options (g->oa[k], g->ob[k]) of a phase, scored by
 * score(), or END: the bot picks, the action is emitted and applied (END:
 * end(), the next phase or step). Fire and rally. */
static int choose_pair(Game *g, int side, Py_ssize_t n, double (*score)(Game *, int, int),
                       int kind, int (*apply)(Game *, int, int), void (*end)(Game *)) {
    Py_ssize_t i;
    for (Py_ssize_t k = 0; g->p.kind[side] == 1 && k < n; k++)
        g->sc[k] = score(g, g->oa[k], g->ob[k]);
    int ended = pick_or(g, side, n, K_END, &i);
    if (ended < 0) return -1;
    if (ended) {
        end(g);
        return 0;
    }
    if (emit(g, side, kind, g->oa[i], g->ob[i]) < 0) return -1;
    return apply(g, g->oa[i], g->ob[i]);
}

/* Game._advance: take the automatic steps until a side must choose (1) or the
 * game is over (0). */
static int settle(Game *g) {
    for (int i = 0; i < MAX_AUTO_STEPS; i++) {
        if (g->over) return 0;
        int side = acting_side(g);
        if (g->phase == PH_INITIATIVE) {
            if (side >= 0) return 1;
            if (roll_initiative(g) < 0) return -1;
        } else if (g->phase == PH_MISSILE_A || g->phase == PH_MISSILE_B) {
            if (fire_options(g, side) > 0) return 1;
            next_phase(g);
        } else if (g->phase == PH_MORALE) {
            if (rally_options(g, side) > 0) return 1;
            next_step_of_morale(g);
        } else {
            return 1;
        }
    }
    PyErr_SetString(PyExc_RuntimeError, "playout: proceeded automatically for too long");
    return -1;
}

/* One decision: list the legal actions as rules.legal_actions does, let the
 * side's bot pick one, apply it. */
static int decide(Game *g) {
    const int side = acting_side(g);
    if (side < 0) { /* settle() stops only where a side chooses */
        g->bad = 1;
        return 0;
    }
    const int greedy = g->p.kind[side] == 1;
    Py_ssize_t n = 0, i;
    int ended;
    if (g->phase == PH_INITIATIVE) {
        g->sc[0] = g->sc[1] = 0.0;
        if (pick(g, side, 2, &i) < 0 || emit(g, side, K_CHOOSE, (int)i, 0) < 0) return -1;
        choose_role(g, side, (int)i);
        return 0;
    }
    if (g->phase == PH_MISSILE_A || g->phase == PH_MISSILE_B)
        return choose_pair(g, side, fire_options(g, side), fire_score, K_FIRE, fire, next_phase);
    if (g->phase == PH_MORALE)
        return choose_pair(g, side, rally_options(g, side), rally_score, K_RALLY, rally,
                           next_step_of_morale);
    if (g->step == ST_ATTACK) {
        const int u = g->active;
        n = melee_targets(g, u, 1, g->ob);
        for (Py_ssize_t k = 0; greedy && k < n; k++) g->sc[k] = melee_value(g, u, g->pos[u], g->ob[k]);
        if ((ended = pick_or(g, side, n, K_PASS, &i)) < 0) return -1;
        if (ended) {
            g->step = ST_SELECT;
            g->active = -1;
            return 0;
        }
        if (emit(g, side, K_ATTACK, u, g->ob[i]) < 0) return -1;
        return attack(g, u, g->ob[i]);
    }
    if (g->step == ST_ADVANCE) {
        g->sc[0] = T->advance;
        g->sc[1] = 0.0;
        if (pick(g, side, 2, &i) < 0) return -1;
        if (i == 0) {
            if (emit(g, side, K_ADVANCE, g->active, 0) < 0) return -1;
            advance(g);
        } else {
            if (emit(g, side, K_PASS, 0, 0) < 0) return -1;
            g->step = ST_SELECT;
            g->active = g->vacated = -1;
        }
        return 0;
    }
    /* movement: select */
    if (!g->moves_valid) build_moves(g, side);
    for (int k = 0; k < g->n_mu; k++) {
        int u = g->mu_order[k];
        const int *dests = g->dests + (Py_ssize_t)u * (T->H + 1);
        if (greedy)
            for (int j = 0; j < g->dlen[u]; j++) g->sc[n + j] = move_score_cached(g, u, dests[j]);
        n += g->dlen[u];
    }
    if ((ended = pick_or(g, side, n, K_END, &i)) < 0) return -1;
    if (ended) {
        next_phase(g);
        return 0;
    }
    for (int k = 0; k < g->n_mu; k++) {
        int u = g->mu_order[k];
        if (i < g->dlen[u]) {
            int to = g->dests[(Py_ssize_t)u * (T->H + 1) + i];
            if (emit(g, side, K_MOVE, u, to) < 0) return -1;
            move(g, u, to);
            return 0;
        }
        i -= g->dlen[u];
    }
    g->bad = 1;
    return 0;
}

/* -- play ------------------------------------------------------------------------------------ */

static void game_free(Game *g) {
    void *blocks[] = {g->pos, g->occ, g->dis, g->fired, g->acted, g->mu_order, g->dests,
                      g->dlen, g->inreach, g->best, g->reached, g->list, g->done, g->blocked,
                      g->stops, g->score, g->stamp, g->ustamp, g->edist[0], g->edist[1],
                      g->touch[0], g->touch[1], g->touch_n[0], g->touch_n[1], g->oa, g->ob,
                      g->sc};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) PyMem_Free(blocks[i]);
}

static int game_init(Game *g) {
    const Py_ssize_t H = T->H, U = T->U;
    const Py_ssize_t options = U * (H + 1) > U * U ? U * (H + 1) : U * U;
    g->pos = PyMem_Calloc(U, sizeof(int));
    g->occ = PyMem_Calloc(H, sizeof(int));
    g->dis = PyMem_Calloc(U, 1);
    g->fired = PyMem_Calloc(U, 1);
    g->acted = PyMem_Calloc(U, 1);
    g->mu_order = PyMem_Calloc(U, sizeof(int));
    g->dests = PyMem_Calloc(U * (H + 1), sizeof(int));
    g->dlen = PyMem_Calloc(U, sizeof(int));
    g->inreach = PyMem_Calloc(U * H, 1);
    g->best = PyMem_Calloc(H, sizeof(int));
    g->reached = PyMem_Calloc(H + 1, sizeof(int));
    g->list = PyMem_Calloc(H + 7, sizeof(int));
    g->done = PyMem_Calloc(H, 1);
    g->blocked = PyMem_Calloc(H, 1);
    g->stops = PyMem_Calloc(H, 1);
    g->score = PyMem_Calloc(U * H, sizeof(double));
    g->stamp = PyMem_Calloc(U * H, sizeof(uint32_t));
    g->ustamp = PyMem_Calloc(U, sizeof(uint32_t));
    for (int s = 0; s < 2; s++) {
        g->edist[s] = PyMem_Calloc(H, sizeof(int));
        g->touch[s] = PyMem_Calloc(H * 6, sizeof(int));
        g->touch_n[s] = PyMem_Calloc(H, sizeof(int));
    }
    g->oa = PyMem_Calloc(options + 2, sizeof(int));
    g->ob = PyMem_Calloc(options + 2, sizeof(int));
    g->sc = PyMem_Calloc(options + 2, sizeof(double));
    if (!g->pos || !g->occ || !g->dis || !g->fired || !g->acted || !g->mu_order || !g->dests ||
        !g->dlen || !g->inreach || !g->best || !g->reached || !g->list || !g->done ||
        !g->blocked || !g->stops || !g->score || !g->stamp || !g->ustamp || !g->edist[0] ||
        !g->edist[1] || !g->touch[0] || !g->touch[1] || !g->touch_n[0] || !g->touch_n[1] ||
        !g->oa || !g->ob || !g->sc) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t h = 0; h < H; h++) {
        g->occ[h] = -1;
        g->best[h] = INT32_MAX;
    }
    g->winner = -1;
    forget_scores(g);
    return 0;
}

/* rules.initial_state: the deployment, at the start of the first turn. */
static int game_start(Game *g) {
    for (int u = 0; u < T->U; u++) {
        g->pos[u] = T->u_start[u];
        if (g->occ[g->pos[u]] >= 0) {
            PyErr_SetString(PyExc_ValueError, "playout: two units start in one hex");
            return -1;
        }
        g->occ[g->pos[u]] = u;
        g->start_count[T->u_side[u]]++;
    }
    g->turn = 1;
    g->phase = PH_INITIATIVE;
    g->step = ST_ROLL;
    g->role_side[0] = g->role_side[1] = -1;
    g->chooser = g->last_loser = g->active = g->vacated = -1;
    g->rolls[0] = g->rolls[1] = -1;
    return 0;
}

/* The end state for the differential tests: (pos, disrupted, fired, acted) per
 * unit, then turn, phase, step, roles, chooser, last_loser, active, vacated,
 * initiative rolls, broken and lost cost per side. */
static PyObject *final_state(Game *g) {
    PyObject *units = PyList_New(T->U);
    if (!units) return NULL;
    for (int u = 0; u < T->U; u++) {
        PyObject *row = Py_BuildValue("(iiii)", g->pos[u], g->dis[u], g->fired[u], g->acted[u]);
        if (!row) {
            Py_DECREF(units);
            return NULL;
        }
        PyList_SET_ITEM(units, u, row);
    }
    return Py_BuildValue("(Niiiiiiiiiiiiiiii)", units, g->turn, g->phase, g->step,
                         g->role_side[0], g->role_side[1], g->chooser, g->last_loser, g->active,
                         g->vacated, g->rolls[0], g->rolls[1], g->broken[0], g->broken[1],
                         g->lost[0], g->lost[1], g->over);
}

/* The scalars of an exported state, in the order play_from() takes them. */
enum {
    S_TURN, S_PHASE, S_STEP, S_ROLE_A, S_ROLE_B, S_CHOOSER, S_LAST_LOSER, S_ACTIVE, S_VACATED,
    S_ROLL_0, S_ROLL_1, S_BROKEN_0, S_BROKEN_1, S_START_0, S_START_1, S_LOST_0, S_LOST_1, S_N
};

/* Put an exported State into g (after game_init): units (pos or -1, disrupted,
 * fired, acted) per unit and the scalars above. Checks what the kernel relies
 * on, so that a state it cannot play is refused rather than misplayed. */
static int load_state(Game *g, const int *units, const int *s) {
    const int H = T->H, U = T->U;
    for (int h = 0; h < H; h++) g->occ[h] = -1;
    for (int u = 0; u < U; u++) {
        const int *row = units + 4 * u;
        if (row[0] < -1 || row[0] >= H) return state_error("a unit's hex is off the board");
        for (int k = 1; k < 4; k++)
            if (row[k] != 0 && row[k] != 1) return state_error("a unit's flag is not 0 or 1");
        g->pos[u] = row[0];
        g->dis[u] = (unsigned char)row[1];
        g->fired[u] = (unsigned char)row[2];
        g->acted[u] = (unsigned char)row[3];
        if (row[0] >= 0) {
            if (g->occ[row[0]] >= 0) return state_error("two units in one hex");
            g->occ[row[0]] = u;
        }
    }
    static const int phase_of_step[] = {PH_INITIATIVE, PH_INITIATIVE, -1, PH_MOVE_B, PH_MOVE_B,
                                        PH_MOVE_B, PH_MORALE, PH_MORALE};
    const int phase = s[S_PHASE], step = s[S_STEP];
    if (s[S_TURN] < 1) return state_error("turn before the first");
    if (phase < 0 || phase > PH_MORALE || step < 0 || step > ST_B)
        return state_error("no such phase or step");
    int step_phase = phase_of_step[step];
    int fits = step == ST_FIRE ? (phase == PH_MISSILE_A || phase == PH_MISSILE_B)
                               : (step_phase == phase ||
                                  (step_phase == PH_MOVE_B && phase == PH_MOVE_A));
    if (!fits) return state_error("a step of another phase");
    for (int k = S_ROLE_A; k <= S_LAST_LOSER; k++)
        if (s[k] < -1 || s[k] > 1) return state_error("a side that is not 0 or 1");
    if ((s[S_ROLE_A] < 0) != (s[S_ROLE_B] < 0) ||
        (s[S_ROLE_A] >= 0 && s[S_ROLE_A] == s[S_ROLE_B]))
        return state_error("roles are not one side each");
    if (phase != PH_INITIATIVE && s[S_ROLE_A] < 0) return state_error("no roles after initiative");
    if (step == ST_CHOOSE && s[S_CHOOSER] < 0) return state_error("no side chooses a role");
    if (s[S_ACTIVE] < -1 || s[S_ACTIVE] >= U || s[S_VACATED] < -1 || s[S_VACATED] >= H)
        return state_error("the active unit or vacated hex is unknown");
    if (step == ST_ATTACK || step == ST_ADVANCE) {
        int u = s[S_ACTIVE], side = s[phase == PH_MOVE_A ? S_ROLE_A : S_ROLE_B];
        if (u < 0 || g->pos[u] < 0 || T->u_side[u] != side)
            return state_error("no unit of the acting side to attack or advance");
        if (step == ST_ADVANCE && (s[S_VACATED] < 0 || g->occ[s[S_VACATED]] >= 0))
            return state_error("no empty hex to advance into");
    }
    for (int k = S_BROKEN_0; k <= S_BROKEN_1; k++)
        if (s[k] != 0 && s[k] != 1) return state_error("broken is not 0 or 1");
    for (int k = S_START_0; k <= S_LOST_1; k++)
        if (s[k] < 0) return state_error("a negative count");
    g->turn = s[S_TURN];
    g->phase = phase;
    g->step = step;
    g->role_side[0] = s[S_ROLE_A];
    g->role_side[1] = s[S_ROLE_B];
    g->chooser = s[S_CHOOSER];
    g->last_loser = s[S_LAST_LOSER];
    g->active = s[S_ACTIVE];
    g->vacated = s[S_VACATED];
    g->rolls[0] = s[S_ROLL_0];
    g->rolls[1] = s[S_ROLL_1];
    g->broken[0] = s[S_BROKEN_0];
    g->broken[1] = s[S_BROKEN_1];
    g->start_count[0] = s[S_START_0];
    g->start_count[1] = s[S_START_1];
    g->lost[0] = s[S_LOST_0];
    g->lost[1] = s[S_LOST_1];
    /* A copied State starts with empty caches: so do the kernel's. */
    clear_caches(g);
    return 0;
}

static PyObject *play_from(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *scalars, *result = NULL;
    Py_buffer units = {0};
    int s[S_N];
    Game game;
    Game *g = &game;
    memset(g, 0, sizeof game);
    if (!PyArg_ParseTuple(args, "Oy*OOOOii", &capsule, &units, &scalars, &g->p.dice, &g->p.bot[0],
                          &g->p.bot[1], &g->p.kind[0], &g->p.kind[1])) {
        return NULL;
    }
    if (game_args(g, capsule, "play_from") < 0) goto done;
    if (units.len != (Py_ssize_t)sizeof(int32_t) * 4 * g->t->U) {
        PyErr_SetString(PyExc_ValueError, "play_from: units must be 4 int32 per unit");
        goto done;
    }
    if (!PyTuple_Check(scalars) || PyTuple_GET_SIZE(scalars) != S_N) {
        PyErr_Format(PyExc_ValueError, "play_from: the state must be a tuple of %d ints", S_N);
        goto done;
    }
    for (int k = 0; k < S_N; k++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(scalars, k));
        if (v == -1 && PyErr_Occurred()) goto done;
        if (v < -1 || v > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "play_from: a state number is out of range");
            goto done;
        }
        s[k] = (int)v;
    }
    if (game_init(g) == 0 && load_state(g, (const int *)units.buf, s) == 0) result = run(g);
    game_free(g);
done:
    PyBuffer_Release(&units);
    return result;
}

/* The reach order of one unit kind from `start`, for the tests: the open
 * (empty-board) table, or with enemies (blocked and stops: H bytes each) the
 * search play() runs. Hex indices, in the order the Python board lists them. */
static PyObject *reach_order(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *result = NULL;
    int kind, start;
    Py_buffer blocked = {0}, stops = {0};
    Game game;
    Game *g = &game;
    memset(g, 0, sizeof game);
    if (!PyArg_ParseTuple(args, "Oiiy*y*", &capsule, &kind, &start, &blocked, &stops)) return NULL;
    const Tables *t = PyCapsule_GetPointer(capsule, CAPSULE);
    if (!t) goto done;
    g->t = t;
    if (kind < 0 || kind >= t->nkinds || start < 0 || start >= t->H || blocked.len != t->H ||
        stops.len != t->H) {
        PyErr_SetString(PyExc_ValueError, "reach_order: inconsistent arguments");
        goto done;
    }
    const int *list;
    int n;
    int any = 0;
    for (int h = 0; h < t->H; h++)
        any |= ((const char *)blocked.buf)[h] || ((const char *)stops.buf)[h];
    if (!any) {
        list = t->open_hex + t->open_off[kind * t->H + start];
        n = t->open_off[kind * t->H + start + 1] - t->open_off[kind * t->H + start];
    } else {
        if (game_init(g) < 0) goto done;
        memcpy(g->blocked, blocked.buf, t->H);
        memcpy(g->stops, stops.buf, t->H);
        n = blocked_reach(g, t->kind_class[kind], t->kind_budget[kind], start);
        list = g->list;
    }
    result = PyList_New(n);
    if (!result) goto done;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(list[i]);
        if (!v) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, v);
    }
done:
    if (g->t) game_free(g);
    PyBuffer_Release(&blocked);
    PyBuffer_Release(&stops);
    return result;
}

#undef T

static PyMethodDef methods[] = {
    {"reach_order", reach_order, METH_VARARGS, "A unit kind's reach order (for tests)."},
    PLAYOUT_METHODS("Play a whole MiniWars game of built-in bots."),
};

PLAYOUT_MODULE(methods)
