/* The Python entry points and the game loop shared by the compiled playout
 * kernels (miniwars/_playout.c and cgme/_playout.c): prepare(), play(), the
 * loop of run(), the bots' choice, the action codes, the end of a turn at the
 * turn limit and the memo of per-unit scores. Only the rules differ between
 * the kernels; they are played by the same driver.
 *
 * Included by each kernel (once) after it has defined:
 *   CAPSULE                    the capsule name of its tables
 *   BUG                        the RuntimeError message when g->bad is set
 *   DECLINED(g)                whether the game came to something the kernel
 *                              does not play (run() then returns None)
 *   Tables                     the read-only tables, with int H (hexes) and
 *                              turn_limit
 *   Game                       with const Tables *t; Players p; int bad,
 *                              winner, reason, turn; double *sc (the greedy
 *                              scores of the options of a decision)
 * and it defines the functions declared below (its rules). Everything here is
 * static. */
#ifndef WARBENCH_PLAYOUT_PLAY_H
#define WARBENCH_PLAYOUT_PLAY_H

/* The tables: freed (NULL: nothing), and read out of the exported dict into a
 * zeroed t (-1 with an exception set if they are missing or out of range). */
static void tables_free(Tables *t);
static int load_tables(Tables *t, PyObject *d);
/* A game's scratch (game_free frees what game_init allocated, even if it
 * failed), and the scenario's first state (rules.initial_state). */
static int game_init(Game *g);
static int game_start(Game *g);
static void game_free(Game *g);
/* Game._advance: the automatic steps until a side must choose (1) or the game is
 * over (0); decide(): the acting side's bot chooses and the action is applied;
 * final_state(): the end state for the differential tests. */
static int settle(Game *g);
static int decide(Game *g);
static PyObject *final_state(Game *g);
/* The game ends at the turn limit: who wins, why (rules' turn-limit victory). */
static void end_at_turn_limit(Game *g);
/* The Python entry point that plays on from an exported state. */
static PyObject *play_from(PyObject *self, PyObject *args);

static void capsule_free(PyObject *capsule) {
    tables_free((Tables *)PyCapsule_GetPointer(capsule, CAPSULE));
}

static PyObject *prepare(PyObject *self, PyObject *d) {
    (void)self;
    if (!PyDict_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "prepare: expected a dict of tables");
        return NULL;
    }
    Tables *t = PyMem_Calloc(1, sizeof(Tables));
    if (!t) return PyErr_NoMemory();
    if (load_tables(t, d) == 0) {
        PyObject *capsule = PyCapsule_New(t, CAPSULE, capsule_free);
        if (capsule) return capsule;
    }
    tables_free(t);
    return NULL;
}

/* bots/random_bot.py or bots/greedy.py: the index of the action taken among n
 * (the greedy bot's scores in g->sc). */
static int pick(Game *g, int side, Py_ssize_t n, Py_ssize_t *out) {
    double r;
    if (g->p.kind[side] == 0) {
        if (draw(g->p.bot[side], &r) < 0) return -1;
        *out = (Py_ssize_t)(r * (double)n);
        if (*out >= n) *out = n - 1;
        return 0;
    }
    double best = g->sc[0];
    for (Py_ssize_t i = 1; i < n; i++)
        if (g->sc[i] > best) best = g->sc[i];
    double floor = best - TIE;
    Py_ssize_t top = 0;
    for (Py_ssize_t i = 0; i < n; i++) top += g->sc[i] >= floor;
    if (draw(g->p.bot[side], &r) < 0) return -1;
    Py_ssize_t k = (Py_ssize_t)(r * (double)top);
    for (Py_ssize_t i = 0; i < n; i++)
        if (g->sc[i] >= floor && k-- == 0) {
            *out = i;
            return 0;
        }
    g->bad = 1;
    *out = n - 1;
    return 0;
}

/* The end of a turn: the game ends at the turn limit, else the next turn begins
 * (1; 0 if the game ended). */
static int next_turn(Game *g) {
    if (g->turn >= g->t->turn_limit) {
        end_at_turn_limit(g);
        return 0;
    }
    g->turn++;
    return 1;
}

/* f(g, u, h) memoised in values[u*H + h]: valid while stamps[u*H + h] is the
 * unit's stamp ustamp[u] (which changes whenever what f reads does). */
static double memo(Game *g, double *values, uint32_t *stamps, const uint32_t *ustamp, int u,
                   int h, double (*f)(Game *, int, int)) {
    Py_ssize_t slot = (Py_ssize_t)u * g->t->H + h;
    if (stamps[slot] != ustamp[u]) {
        values[slot] = f(g, u, h);
        stamps[slot] = ustamp[u];
    }
    return values[slot];
}

/* Append an action's code (a new reference; NULL: the error is set) to the
 * game's codes. */
static int emit_code(Game *g, PyObject *code) {
    if (!code) return -1;
    int rc = PyList_Append(g->p.out, code);
    Py_DECREF(code);
    if (rc < 0) return -1;
    if (++g->p.nactions > MAX_ACTIONS) {
        PyErr_Format(PyExc_RuntimeError, "playout: no end within %d actions", MAX_ACTIONS);
        return -1;
    }
    return 0;
}

/* Play from where g stands to the end: (codes, winner, reason, turn, final), or
 * None if the kernel declines the game. */
static PyObject *run(Game *g) {
    PyObject *result = NULL;
    if (!(g->p.out = PyList_New(0))) return NULL;
    for (;;) {
        int waiting = settle(g);
        if (waiting < 0) goto done;
        if (g->bad || DECLINED(g) || !waiting) break;
        if (decide(g) < 0) goto done;
        if (g->bad || DECLINED(g)) break;
    }
    if (g->bad) {
        PyErr_SetString(PyExc_RuntimeError, BUG);
        goto done;
    }
    if (DECLINED(g)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    PyObject *final = final_state(g);
    if (!final) goto done;
    result = Py_BuildValue("(OiiiN)", g->p.out, g->winner, g->reason, g->turn, final);
done:
    Py_CLEAR(g->p.out);
    return result;
}

/* The tables and the players of play() and play_from() (`entry`), into g. */
static int game_args(Game *g, PyObject *capsule, const char *entry) {
    g->t = PyCapsule_GetPointer(capsule, CAPSULE);
    if (!g->t) return -1;
    return check_players(&g->p, entry);
}

static PyObject *play(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *result = NULL;
    Game game;
    Game *g = &game;
    memset(g, 0, sizeof game);
    if (!PyArg_ParseTuple(args, "OOOOii", &capsule, &g->p.dice, &g->p.bot[0], &g->p.bot[1],
                          &g->p.kind[0], &g->p.kind[1])) {
        return NULL;
    }
    if (game_args(g, capsule, "play") < 0) return NULL;
    if (game_init(g) == 0 && game_start(g) == 0) result = run(g);
    game_free(g);
    return result;
}

/* The entries of the module's method table that every kernel has. */
#define PLAYOUT_METHODS(play_doc)                                                         \
    {"prepare", prepare, METH_O, "Copy a scenario's tables into a capsule for play()."}, \
    {"play", play, METH_VARARGS, play_doc},                                               \
    {"play_from", play_from, METH_VARARGS, "Play on from an exported state to the end."}, \
    {NULL, NULL, 0, NULL}

/* The module _playout with the method table `methods`. */
#define PLAYOUT_MODULE(methods)                                                       \
    static struct PyModuleDef module = {                                              \
        PyModuleDef_HEAD_INIT, "_playout", NULL, -1, methods, NULL, NULL, NULL, NULL, \
    };                                                                                \
    PyMODINIT_FUNC PyInit__playout(void) { return PyModule_Create(&module); }

#endif
