/* The least-cost reach search of warbench.geometry.fastpath, in C.
 *
 * Optional: built by setup.py when a C compiler is present; fastpath.py falls
 * back to its pure-Python search otherwise, and the tests check both agree.
 *
 * reach(start, budget, degree, targets, costs, blocked, stops) -> dict
 *   targets, costs: int32 buffers of n * degree entries; targets[i*degree+e] is
 *   the e-th hex that may be entered from hex i (-1 ends the list), costs the
 *   whole-number cost (>= 0) of entering it; blocked, stops: n bytes each.
 *   Returns {index: least cost} of every hex reachable within budget.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static PyObject *reach(PyObject *self, PyObject *args) {
    Py_ssize_t start, budget, degree;
    Py_buffer targets, costs, blocked, stops;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "nnny*y*y*y*", &start, &budget, &degree, &targets, &costs,
                          &blocked, &stops)) {
        return NULL;
    }
    Py_ssize_t n = blocked.len;
    const int32_t *to = (const int32_t *)targets.buf;
    const int32_t *cost = (const int32_t *)costs.buf;
    const unsigned char *is_blocked = (const unsigned char *)blocked.buf;
    const unsigned char *is_stop = (const unsigned char *)stops.buf;
    int *best = NULL, *reached = NULL;
    unsigned char *done = NULL;
    if (degree < 1 || stops.len != n || targets.len != (Py_ssize_t)(n * degree * 4) ||
        costs.len != targets.len || start < 0 || start >= n || budget < 0) {
        PyErr_SetString(PyExc_ValueError, "reach: inconsistent arguments");
        goto finally;
    }
    best = PyMem_Malloc(n * sizeof(int));
    reached = PyMem_Malloc(n * sizeof(int));
    done = PyMem_Calloc(n, 1);
    if (!best || !reached || !done) {
        PyErr_NoMemory();
        goto finally;
    }
    const int limit = (int)budget + 1;
    for (Py_ssize_t i = 0; i < n; i++) best[i] = limit;
    best[start] = 0;
    Py_ssize_t count = 0;
    reached[count++] = (int)start;
    for (int level = 0; level < limit; level++) {
        for (Py_ssize_t k = 0; k < count; k++) {
            int here = reached[k];
            if (best[here] != level || done[here]) continue;
            done[here] = 1;
            if (here != start && is_stop[here]) continue; /* a zone of control */
            for (Py_ssize_t e = 0; e < degree; e++) {
                int there = to[here * degree + e];
                if (there < 0) break;
                if (there >= n) {
                    PyErr_SetString(PyExc_ValueError, "reach: neighbour index off the map");
                    goto finally;
                }
                int total = level + cost[here * degree + e];
                if (total < best[there] && !is_blocked[there]) {
                    if (best[there] == limit) reached[count++] = there;
                    best[there] = total;
                }
            }
        }
    }
    result = PyDict_New();
    if (!result) goto finally;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *key = PyLong_FromLong(reached[k]);
        PyObject *value = PyLong_FromLong(best[reached[k]]);
        if (!key || !value || PyDict_SetItem(result, key, value) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(value);
            Py_CLEAR(result);
            goto finally;
        }
        Py_DECREF(key);
        Py_DECREF(value);
    }
finally:
    PyMem_Free(best);
    PyMem_Free(reached);
    PyMem_Free(done);
    PyBuffer_Release(&targets);
    PyBuffer_Release(&costs);
    PyBuffer_Release(&blocked);
    PyBuffer_Release(&stops);
    return result;
}

static PyMethodDef methods[] = {
    {"reach", reach, METH_VARARGS, "Least-cost reach over dense hex indices."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_reach", NULL, -1, methods};

PyMODINIT_FUNC PyInit__reach(void) { return PyModule_Create(&module); }
