/* Helpers shared by the compiled playout kernels (miniwars/_playout.c and
 * cgme/_playout.c): reading the tables the Python glue exports, drawing a
 * number from a Python random() so that a kernel's dice and bot choices are
 * the very numbers the Python engine draws, and the players of a game
 * (_playout_play.h has the entry points and the game loop).
 *
 * Included (once) by each kernel after <Python.h>; everything is static. */
#ifndef WARBENCH_PLAYOUT_COMMON_H
#define WARBENCH_PLAYOUT_COMMON_H

#include <stdint.h>
#include <string.h>

#define MAX_ACTIONS 200000   /* sim.runner.MAX_ACTIONS */
#define MAX_AUTO_STEPS 10000 /* core.game.MAX_AUTO_STEPS */
#define TIE 1e-9             /* bots/greedy.py: score >= best - 1e-9 */

/* The random streams and bots play() and play_from() are given, and the codes of
 * the actions the game is played with. */
typedef struct {
    PyObject *dice, *bot[2]; /* borrowed: bound random() methods */
    int kind[2];             /* each side's bot: 0 random, 1 greedy */
    PyObject *out;           /* the action codes, one int per action */
    Py_ssize_t nactions;
} Players;

/* The streams and bot kinds of the Python entry point `entry`. */
static int check_players(const Players *p, const char *entry) {
    if (!PyCallable_Check(p->dice) || !PyCallable_Check(p->bot[0]) ||
        !PyCallable_Check(p->bot[1]) || p->kind[0] < 0 || p->kind[0] > 1 || p->kind[1] < 0 ||
        p->kind[1] > 1) {
        PyErr_Format(PyExc_ValueError, "%s: random streams must be callables, bots 0 or 1",
                     entry);
        return -1;
    }
    return 0;
}

/* A state given to play_from() that the kernel cannot play: ValueError. */
static int state_error(const char *why) {
    PyErr_Format(PyExc_ValueError, "play_from: %s", why);
    return -1;
}

/* The int `key` of the exported dict, checked to lie in lo..hi. */
static int get_int(PyObject *d, const char *key, long lo, long hi, int *out) {
    PyObject *v = PyDict_GetItemString(d, key); /* borrowed */
    if (!v) {
        PyErr_Format(PyExc_KeyError, "prepare: missing '%s'", key);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "prepare: '%s' = %ld is outside %ld..%ld", key, x, lo, hi);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int get_double(PyObject *d, const char *key, double *out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "prepare: missing '%s'", key);
        return -1;
    }
    double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}


/* A copy of the buffer `key`: n items of `format` ("i" or "d"), each int in lo..hi. */
static void *get_array(PyObject *d, const char *key, const char *format, Py_ssize_t n, long lo,
                       long hi) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "prepare: missing '%s'", key);
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(v, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    size_t size = format[0] == 'i' ? sizeof(int32_t) : sizeof(double);
    void *copy = NULL;
    if (!view.format || strcmp(view.format, format) != 0 || (size_t)view.itemsize != size ||
        view.len != n * (Py_ssize_t)size) {
        PyErr_Format(PyExc_ValueError, "prepare: '%s' must be %zd items of type '%s'", key, n,
                     format);
        goto done;
    }
    copy = PyMem_Malloc(n > 0 ? (size_t)n * size : 1);
    if (!copy) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(copy, view.buf, (size_t)n * size);
    if (format[0] == 'i') {
        const int32_t *x = copy;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (x[i] < lo || x[i] > hi) {
                PyErr_Format(PyExc_ValueError, "prepare: '%s'[%zd] = %d is outside %ld..%ld",
                             key, i, (int)x[i], lo, hi);
                PyMem_Free(copy);
                copy = NULL;
                goto done;
            }
        }
    }
done:
    PyBuffer_Release(&view);
    return copy;
}


/* One number from a bound Python random() method. */
static int draw(PyObject *rand, double *out) {
    PyObject *v = PyObject_CallNoArgs(rand);
    if (!v) return -1;
    double x = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

/* Hex distance between two hexes given by axial coordinate arrays q, r. */
static int hex_distance(const int *q, const int *r, int a, int b) {
    int dq = q[a] - q[b], dr = r[a] - r[b], ds = dq + dr;
    return ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) >> 1;
}

#endif
