/* The optional C fast path of the autograd engine's per-operation work: Tensor._make and the
 * common case of Function.apply (gradsh/engine/node.py), statement for statement the Python
 * code's, on the same objects. gradsh/engine/fastpath.py installs it (GRADSH_NATIVE=0 or a
 * missing build leaves the Python code in place); every case this file does not handle
 * (several devices, float16 opmath, more than three inputs, ...) calls the Python apply. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* ---- what init() is given ------------------------------------------------------------- */

static PyTypeObject *tensor_type;  /* gradsh.engine.variable.Tensor */
static PyObject *ndarray_type;      /* numpy.ndarray */
static PyObject *inference_mode;    /* variable.InferenceMode (its `counter`) */
static PyObject *devices;           /* pytypes._DEVICES: name -> Device */
static PyObject *device_of;         /* pytypes.device_of */
static PyObject *place;             /* backend.place */
static PyObject *grad_mode;         /* grad_mode._GradMode (its `enabled`) */
static PyObject *sequence;          /* grad_mode._sequence: itertools.count */
static PyObject *no_edge;           /* node._NO_EDGE: (None, 0) */
static PyObject *needs_one[2];      /* node._NEEDS_ONE[False], [True] */
static PyObject *needs_two[2][2];   /* node._NEEDS_TWO */
static PyObject *needs_none3;       /* node._NEEDS_NONE3 */
static PyObject *py_edge;           /* node._edge */
static PyObject *py_meta;           /* node._meta */
static PyObject *py_shared;         /* node._shared */
static PyObject *py_interned;       /* node._interned */
static PyObject *metas;             /* node._METAS */
static PyObject *meta_tuples;       /* node._META_TUPLES */
static PyObject *np_dtypes;         /* dtypes._BY_NP: numpy dtype -> DType */
static PyObject *anomaly;           /* grad_mode.Anomaly (its `enabled`) */
static PyObject *result_key;        /* node.RESULT_KEY */
static PyObject *py_apply;          /* Function.apply's Python function (cls, *inputs, **params) */
static PyObject *py_as_data;        /* node._output_array: a forward's result as an ndarray */
static PyObject *py_finish_view;    /* node._finish_view(cls, node, inputs, out) */
static PyObject *py_save_result;    /* node._save_result(cls, node, out) */
static PyObject *py_record_forward; /* node._record_forward */
static PyObject *is_float;          /* dtypes.is_float_array_dtype */
static PyTypeObject *saved_type;    /* saved_variable.SavedTensor */
static PyObject *version_counter;   /* variable.VersionCounter */
static PyObject *saved_hooks;       /* grad_mode.SavedHooks (its `stack`) */
static PyObject *origin;            /* grad_mode._Origin (its `live` and `value`) */
static PyObject *no_saved;          /* node._NO_SAVED */
static PyObject *result_marker;     /* node.RESULT */

static PyObject *mul_node, *add_node; /* MulBackward0, AddBackward0 (init_operators) */

/* Tensor's slots, as offsets into the object (its __slots__ member descriptors) */
static Py_ssize_t off_data, off_requires_grad, off_grad_fn, off_grad, off_counter, off_base,
    off_view_fn, off_view_version, off_acc, off_hooks, off_device, off_wrapped, off_view_creation;

/* SavedTensor's slots */
static Py_ssize_t sv_tensor, sv_weak, sv_data, sv_counter, sv_version, sv_is_output,
    sv_released, sv_origin, sv_freed_origin, sv_shape, sv_dtype, sv_device, sv_view_grad_fn,
    sv_view_history, sv_hooked;

static PyObject *s_counter, *s_enabled, *s_half_opmath, *s_opmath_dtypes, *s_plain_init,
    *s_plain_device, *s_needs_input_grad, *s_next_functions, *s_input_meta, *s_sequence_nr,
    *s_forward, *s_num_outputs, *s_shape, *s_dtype, *s_kind, *s_output_device, *s_is_view,
    *s_saved, *s_result_name, *s_release_variables, *s_requires_grad, *s_cpu, *s_stack,
    *s_live, *s_value,
    *empty_tuple, *zero, *one;

static int ready = 0;

#define SLOT(o, off) (*(PyObject **)((char *)(o) + (off)))

/* ---- Tensor._make ---------------------------------------------------------------------- */

static inline int is_cpu(PyObject *device)
{
    /* `device == "cpu"`: Device is a str subclass without its own __eq__ */
    if (device == s_cpu) return 1;
    return PyUnicode_Check(device) && PyUnicode_CompareWithASCIIString(device, "cpu") == 0;
}

static inline void set_slot(PyObject *t, Py_ssize_t off, PyObject *value)
{
    PyObject **p = &SLOT(t, off);
    PyObject *old = *p;
    Py_INCREF(value);
    *p = value;
    Py_XDECREF(old);
}

/* Tensor._make(cls, data, device, grad_fn, requires_grad) */
static PyObject *make(PyTypeObject *cls, PyObject *data, PyObject *device, PyObject *grad_fn,
                      PyObject *requires_grad)
{
    PyObject *placed = NULL, *t = NULL, *counter = NULL, *dev = NULL;
    if (!is_cpu(device) || (PyObject *)Py_TYPE(data) != ndarray_type) {
        placed = PyObject_CallFunctionObjArgs(place, data, device, NULL);
        if (placed == NULL) return NULL;
        data = placed;
    }
    t = PyBaseObject_Type.tp_new(cls, empty_tuple, NULL);
    if (t == NULL) goto fail;
    set_slot(t, off_data, data);
    set_slot(t, off_requires_grad, requires_grad);
    set_slot(t, off_grad_fn, grad_fn);
    set_slot(t, off_grad, Py_None);
    counter = PyObject_GetAttr(inference_mode, s_counter);
    if (counter == NULL) goto fail;
    set_slot(t, off_counter, counter);
    set_slot(t, off_base, Py_None);
    set_slot(t, off_view_fn, Py_None);
    set_slot(t, off_view_version, zero);
    set_slot(t, off_view_creation, zero);
    set_slot(t, off_acc, Py_None);
    set_slot(t, off_hooks, Py_None);
    /* _DEVICE_OBJECTS.get(device) or device_of(device) */
    dev = PyDict_GetItemWithError(devices, device);
    if (dev != NULL) {
        int truth = PyObject_IsTrue(dev);
        if (truth < 0) goto fail;
        dev = truth ? Py_NewRef(dev) : NULL;
    } else if (PyErr_Occurred()) {
        goto fail;
    }
    if (dev == NULL) {
        dev = PyObject_CallOneArg(device_of, device);
        if (dev == NULL) goto fail;
    }
    set_slot(t, off_device, dev);
    set_slot(t, off_wrapped, Py_False);
    Py_DECREF(dev);
    Py_DECREF(counter);
    Py_XDECREF(placed);
    return t;
fail:
    Py_XDECREF(counter);
    Py_XDECREF(t);
    Py_XDECREF(placed);
    return NULL;
}

static PyObject *fp_make(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames)
{
    static const char *names[] = {"cls", "data", "device", "grad_fn", "requires_grad"};
    PyObject *values[5] = {NULL, NULL, s_cpu, Py_None, Py_False};
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_fastpath.init() was not called");
        return NULL;
    }
    if (nargs > 5) {
        PyErr_Format(PyExc_TypeError, "_make() takes at most 5 arguments (%zd given)", nargs);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) values[i] = args[i];
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int found = 0;
        for (int i = 1; i < 5; i++) {
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
                if (i < nargs) {
                    PyErr_Format(PyExc_TypeError, "_make() got multiple values for argument "
                                 "'%s'", names[i]);
                    return NULL;
                }
                values[i] = args[nargs + k];
                found = 1;
                break;
            }
        }
        if (!found) {
            PyErr_Format(PyExc_TypeError, "_make() got an unexpected keyword argument '%U'",
                         key);
            return NULL;
        }
    }
    if (values[0] == NULL || values[1] == NULL) {
        PyErr_SetString(PyExc_TypeError, "_make() missing required argument 'data'");
        return NULL;
    }
    if (!PyType_Check(values[0]) || !PyType_IsSubtype((PyTypeObject *)values[0], tensor_type)) {
        PyErr_SetString(PyExc_TypeError, "_make() needs a Tensor class");
        return NULL;
    }
    return make((PyTypeObject *)values[0], values[1], values[2], values[3], values[4]);
}

#include "_fastpath_saved.h"

/* ---- Function.apply ------------------------------------------------------------------- */

static int truth_attr(PyObject *o, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL) return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

/* `t._requires_grad or t._grad_fn is not None or (t._base is not None and t.requires_grad)` */
static int needs_grad(PyObject *t)
{
    int r = PyObject_IsTrue(SLOT(t, off_requires_grad));
    if (r != 0) return r;
    if (SLOT(t, off_grad_fn) != Py_None) return 1;
    if (SLOT(t, off_base) == Py_None) return 0;
    return truth_attr(t, s_requires_grad);
}

/* node._edge(t), its common cases here */
static PyObject *edge(PyObject *t)
{
    if (SLOT(t, off_base) == Py_None) {
        PyObject *fn = SLOT(t, off_grad_fn);
        if (fn != Py_None) {
            PyObject *count = PyObject_GetAttr(fn, s_num_outputs);
            if (count == NULL) return NULL;
            int single = PyObject_RichCompareBool(count, one, Py_EQ);
            Py_DECREF(count);
            if (single < 0) return NULL;
            if (single) return PyTuple_Pack(2, fn, zero);
        } else {
            int r = PyObject_IsTrue(SLOT(t, off_requires_grad));
            if (r < 0) return NULL;
            if (!r) return Py_NewRef(no_edge);
        }
    }
    return PyObject_CallOneArg(py_edge, t);
}

/* node._meta(t), its common case here */
static PyObject *meta(PyObject *t)
{
    if (SLOT(t, off_acc) != Py_None && SLOT(t, off_grad_fn) == Py_None)
        return PyObject_CallOneArg(py_meta, t);
    PyObject *data = SLOT(t, off_data);
    PyObject *dtype = PyObject_GetAttr(data, s_dtype);
    if (dtype == NULL) return NULL;
    PyObject *known = PyDict_GetItemWithError(np_dtypes, dtype);
    Py_DECREF(dtype);
    if (known == NULL) {
        if (PyErr_Occurred()) return NULL;
        return PyObject_CallOneArg(py_meta, t);  /* (t.dtype, in Python) */
    }
    PyObject *shape = PyObject_GetAttr(data, s_shape);
    if (shape == NULL) return NULL;
    PyObject *key = PyTuple_Pack(3, shape, known, SLOT(t, off_device));
    Py_DECREF(shape);
    if (key == NULL) return NULL;
    PyObject *shared = PyDict_GetItemWithError(metas, key);
    if (shared != NULL) {
        Py_DECREF(key);
        return Py_NewRef(shared);
    }
    if (PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    shared = PyObject_CallFunctionObjArgs(py_interned, metas, key, NULL);
    Py_DECREF(key);
    return shared;
}

/* The Python apply, with the same arguments */
static PyObject *fallback(PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    return PyObject_Vectorcall(py_apply, args, PyVectorcall_NARGS(nargsf), kwnames);
}

static PyObject *small_forward(PyObject *cls, PyObject *node, PyObject *a, PyObject *b,
                               PyObject *alpha, int need_a, int need_b);

#define MAX_STACK 16

static PyObject *fp_apply(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    Py_ssize_t n = nargs - 1, nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *cls, *node = NULL, *data = NULL, *out = NULL, *edges[3] = {NULL, NULL, NULL},
        *ms[3] = {NULL, NULL, NULL}, *stack[MAX_STACK + 1];
    int need[3] = {0, 0, 0}, requires = 0, enabled, r;
    if (!ready || n < 1 || n > 3 || n + nkw >= MAX_STACK) return fallback(args, nargs, kwnames);
    cls = args[0];
    /* the cases the Python code handles: float16 opmath, an __init__ or device rule of the
       op's own, an input that is not a plain CPU tensor */
    if (!PyObject_TypeCheck(args[1], tensor_type) || SLOT(args[1], off_data) == NULL)
        return fallback(args, nargs, kwnames);
    if ((r = truth_attr(cls, s_half_opmath)) != 0) {
        /* `inputs[0]._data.dtype in cls.opmath_dtypes`: the Python code widens it */
        PyObject *dtype, *widened;
        if (r < 0) return NULL;
        if ((dtype = PyObject_GetAttr(SLOT(args[1], off_data), s_dtype)) == NULL) return NULL;
        if ((widened = PyObject_GetAttr(cls, s_opmath_dtypes)) == NULL) {
            Py_DECREF(dtype);
            return NULL;
        }
        r = PySequence_Contains(widened, dtype);
        Py_DECREF(widened);
        Py_DECREF(dtype);
        if (r != 0) return r < 0 ? NULL : fallback(args, nargs, kwnames);
    }
    if ((r = truth_attr(cls, s_plain_init)) != 1)
        return r < 0 ? NULL : fallback(args, nargs, kwnames);
    if ((r = truth_attr(cls, s_plain_device)) != 1)
        return r < 0 ? NULL : fallback(args, nargs, kwnames);
    if (!PyType_Check(cls)) return fallback(args, nargs, kwnames);
    for (Py_ssize_t i = 1; i <= n; i++) {
        PyObject *t = args[i];
        if (!PyObject_TypeCheck(t, tensor_type) || SLOT(t, off_data) == NULL ||
            SLOT(t, off_requires_grad) == NULL || SLOT(t, off_grad_fn) == NULL ||
            SLOT(t, off_base) == NULL || SLOT(t, off_acc) == NULL ||
            SLOT(t, off_device) == NULL || !is_cpu(SLOT(t, off_device)))
            return fallback(args, nargs, kwnames);
    }
    enabled = truth_attr(grad_mode, s_enabled);
    if (enabled < 0) return NULL;
    if (n == 3 && !enabled) return fallback(args, nargs, kwnames);
    if (enabled) {
        for (Py_ssize_t i = 0; i < n; i++) {
            need[i] = needs_grad(args[i + 1]);
            if (need[i] < 0) return NULL;
            requires |= need[i];
        }
    }
    node = PyBaseObject_Type.tp_new((PyTypeObject *)cls, empty_tuple, NULL);
    if (node == NULL) return NULL;
    {
        PyObject *needs;
        if (n == 1) needs = Py_NewRef(needs_one[need[0]]);
        else if (n == 2) needs = Py_NewRef(needs_two[need[0]][need[1]]);
        else if (requires) needs = PyTuple_Pack(3, need[0] ? Py_True : Py_False,
                                                 need[1] ? Py_True : Py_False,
                                                 need[2] ? Py_True : Py_False);
        else needs = Py_NewRef(needs_none3);
        if (needs == NULL) goto fail;
        r = PyObject_SetAttr(node, s_needs_input_grad, needs);
        Py_DECREF(needs);
        if (r < 0) goto fail;
    }
    if (requires) {
        PyObject *tuple, *known, *seq;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *t = args[i + 1];
            edges[i] = (n == 1 || need[i]) ? edge(t) : Py_NewRef(no_edge);
            if (edges[i] == NULL) goto fail;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (n > 1 && PyTuple_GET_ITEM(edges[i], 0) == Py_None) {
                ms[i] = Py_NewRef(Py_None);
            } else {
                ms[i] = meta(args[i + 1]);
                if (ms[i] == NULL) goto fail;
            }
        }
        tuple = PyTuple_New(n);
        if (tuple == NULL) goto fail;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyTuple_SET_ITEM(tuple, i, edges[i]);
            edges[i] = NULL;
        }
        r = PyObject_SetAttr(node, s_next_functions, tuple);
        Py_DECREF(tuple);
        if (r < 0) goto fail;
        tuple = PyTuple_New(n);
        if (tuple == NULL) goto fail;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyTuple_SET_ITEM(tuple, i, ms[i]);
            ms[i] = NULL;
        }
        /* _META_TUPLES.get(metas) or _shared(metas) */
        known = PyDict_GetItemWithError(meta_tuples, tuple);
        if (known != NULL) {
            known = Py_NewRef(known);
        } else if (PyErr_Occurred()) {
            Py_DECREF(tuple);
            goto fail;
        } else {
            known = PyObject_CallOneArg(py_shared, tuple);
        }
        Py_DECREF(tuple);
        if (known == NULL) goto fail;
        r = PyObject_SetAttr(node, s_input_meta, known);
        Py_DECREF(known);
        if (r < 0) goto fail;
        seq = PyIter_Next(sequence);
        if (seq == NULL) {
            if (!PyErr_Occurred()) PyErr_SetNone(PyExc_StopIteration);
            goto fail;
        }
        r = PyObject_SetAttr(node, s_sequence_nr, seq);
        Py_DECREF(seq);
        if (r < 0) goto fail;
    }
    /* data = node.forward(*inputs, **params); MulBackward0's and AddBackward0's first case
       (a small float tensor and a wrapped number) in C */
    data = NULL;
    if (n == 2 && (cls == mul_node || cls == add_node)) {
        PyObject *alpha = NULL;
        if (cls == mul_node && nkw == 0) alpha = Py_None;
        else if (cls == add_node && nkw == 0) alpha = one;
        else if (cls == add_node && nkw == 1 &&
                 PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "alpha") == 0)
            alpha = args[3];
        if (alpha != NULL) {
            data = small_forward(cls, node, args[1], args[2], alpha, need[0], need[1]);
            if (data == NULL && PyErr_Occurred()) goto fail;
        }
    }
    if (data == NULL) {
        stack[0] = node;
        for (Py_ssize_t i = 1; i <= n + nkw; i++) stack[i] = args[i];
        data = PyObject_VectorcallMethod(s_forward, stack, (size_t)(n + 1), kwnames);
        if (data == NULL) goto fail;
    }
    if ((PyObject *)Py_TYPE(data) != ndarray_type) {
        PyObject *array = PyObject_CallOneArg(py_as_data, data);
        Py_DECREF(data);
        data = array;
        if (data == NULL) goto fail;
    }
    if (requires) {
        /* integer and bool results never require grad */
        PyObject *dtype = PyObject_GetAttr(data, s_dtype), *kind;
        int floating;
        if (dtype == NULL) goto fail;
        kind = PyObject_GetAttr(dtype, s_kind);
        if (kind == NULL) {
            Py_DECREF(dtype);
            goto fail;
        }
        floating = PyUnicode_Check(kind) &&
            (PyUnicode_CompareWithASCIIString(kind, "f") == 0 ||
             PyUnicode_CompareWithASCIIString(kind, "c") == 0);
        Py_DECREF(kind);
        if (!floating) {  /* bfloat16's kind is "V" (and its dtype is loaded lazily) */
            PyObject *answer = PyObject_CallOneArg(is_float, dtype);
            floating = answer == NULL ? -1 : PyObject_IsTrue(answer);
            Py_XDECREF(answer);
            if (floating < 0) {
                Py_DECREF(dtype);
                goto fail;
            }
        }
        Py_DECREF(dtype);
        if (!floating) {
            PyObject *done;
            requires = 0;
            done = PyObject_CallMethodNoArgs(node, s_release_variables);
            if (done == NULL) goto fail;
            Py_DECREF(done);
        }
    }
    {
        PyObject *device = PyObject_GetAttr(node, s_output_device);
        if (device == NULL) goto fail;
        out = make(tensor_type, data, device, requires ? node : Py_None, Py_False);
        Py_DECREF(device);
        if (out == NULL) goto fail;
    }
    if ((r = truth_attr(cls, s_is_view)) != 0) {
        PyObject *inputs, *done;
        if (r < 0) goto fail;
        inputs = PyTuple_New(n);
        if (inputs == NULL) goto fail;
        for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(inputs, i, Py_NewRef(args[i + 1]));
        done = PyObject_CallFunctionObjArgs(py_finish_view, cls, node, inputs, out, NULL);
        Py_DECREF(inputs);
        if (done == NULL) goto fail;
        Py_DECREF(done);
    }
    if (requires) {
        PyObject *saved = PyObject_GetAttr(node, s_saved);
        if (saved == NULL) goto fail;
        r = PySequence_Contains(saved, result_key);
        Py_DECREF(saved);
        if (r < 0) goto fail;
        if (r && (r = save_result(cls, node, out)) < 0) goto fail;
        if ((r = truth_attr(anomaly, s_enabled)) != 0) {
            PyObject *done;
            if (r < 0) goto fail;
            done = PyObject_CallOneArg(py_record_forward, node);
            if (done == NULL) goto fail;
            Py_DECREF(done);
        }
    }
    Py_DECREF(data);
    Py_DECREF(node);
    return out;
fail:
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(edges[i]);
        Py_XDECREF(ms[i]);
    }
    Py_XDECREF(out);
    Py_XDECREF(data);
    Py_XDECREF(node);
    return NULL;
}

static int take(PyObject *config, const char *name, PyObject **target);

#include "_fastpath_forward.h"
#include "_fastpath_operators.h"
#include "_fastpath_sweep.h"
#include "_fastpath_origin.h"
#include "_fastpath_call.h"
#include "_fastpath_builtin.h"

/* ---- init ------------------------------------------------------------------------------- */

static int slot_offset(PyObject *cls, const char *name, Py_ssize_t *offset)
{
    PyObject *descr = PyDict_GetItemString(((PyTypeObject *)cls)->tp_dict, name);
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "Tensor has no slot %s", name);
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "Tensor's slot %s is not an object slot", name);
        return -1;
    }
    *offset = member->offset;
    return 0;
}

static int take(PyObject *config, const char *name, PyObject **target)
{
    PyObject *value = PyDict_GetItemString(config, name);
    if (value == NULL) {
        PyErr_Format(PyExc_KeyError, "_fastpath.init: %s missing", name);
        return -1;
    }
    Py_XSETREF(*target, Py_NewRef(value));
    return 0;
}

static PyObject *fp_init(PyObject *self, PyObject *config)
{
    PyObject *tensor = NULL, *pair = NULL;
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "init() takes a dict");
        return NULL;
    }
    ready = 0;
    if (take(config, "Tensor", &tensor) < 0) return NULL;
    if (!PyType_Check(tensor)) {
        Py_DECREF(tensor);
        PyErr_SetString(PyExc_TypeError, "Tensor must be a class");
        return NULL;
    }
    Py_XSETREF(tensor_type, (PyTypeObject *)tensor);
    if (slot_offset(tensor, "_data", &off_data) < 0 ||
        slot_offset(tensor, "_requires_grad", &off_requires_grad) < 0 ||
        slot_offset(tensor, "_grad_fn", &off_grad_fn) < 0 ||
        slot_offset(tensor, "_grad", &off_grad) < 0 ||
        slot_offset(tensor, "_counter", &off_counter) < 0 ||
        slot_offset(tensor, "_base", &off_base) < 0 ||
        slot_offset(tensor, "_view_fn", &off_view_fn) < 0 ||
        slot_offset(tensor, "_view_version", &off_view_version) < 0 ||
        slot_offset(tensor, "_acc", &off_acc) < 0 ||
        slot_offset(tensor, "_hooks", &off_hooks) < 0 ||
        slot_offset(tensor, "device", &off_device) < 0 ||
        slot_offset(tensor, "_wrapped", &off_wrapped) < 0 ||
        slot_offset(tensor, "_view_creation", &off_view_creation) < 0)
        return NULL;
    if (take(config, "ndarray", &ndarray_type) < 0 ||
        take(config, "InferenceMode", &inference_mode) < 0 ||
        take(config, "devices", &devices) < 0 || take(config, "device_of", &device_of) < 0 ||
        take(config, "place", &place) < 0 || take(config, "GradMode", &grad_mode) < 0 ||
        take(config, "sequence", &sequence) < 0 || take(config, "no_edge", &no_edge) < 0 ||
        take(config, "needs_none3", &needs_none3) < 0 || take(config, "edge", &py_edge) < 0 ||
        take(config, "meta", &py_meta) < 0 || take(config, "shared", &py_shared) < 0 ||
        take(config, "interned", &py_interned) < 0 || take(config, "metas", &metas) < 0 ||
        take(config, "meta_tuples", &meta_tuples) < 0 ||
        take(config, "np_dtypes", &np_dtypes) < 0 || take(config, "Anomaly", &anomaly) < 0 ||
        take(config, "result_key", &result_key) < 0 || take(config, "apply", &py_apply) < 0 ||
        take(config, "as_data", &py_as_data) < 0 ||
        take(config, "finish_view", &py_finish_view) < 0 ||
        take(config, "save_result", &py_save_result) < 0 ||
        take(config, "record_forward", &py_record_forward) < 0 ||
        take(config, "is_float", &is_float) < 0 ||
        take(config, "needs_one_false", &needs_one[0]) < 0 ||
        take(config, "needs_one_true", &needs_one[1]) < 0 || take(config, "needs_two", &pair) < 0)
        return NULL;
    /* needs_two: ((ff, ft), (tf, tt)) */
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        Py_DECREF(pair);
        PyErr_SetString(PyExc_TypeError, "needs_two must be a pair of pairs");
        return NULL;
    }
    for (int a = 0; a < 2; a++) {
        PyObject *row = PyTuple_GET_ITEM(pair, a);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 2) {
            Py_DECREF(pair);
            PyErr_SetString(PyExc_TypeError, "needs_two must be a pair of pairs");
            return NULL;
        }
        for (int b = 0; b < 2; b++)
            Py_XSETREF(needs_two[a][b], Py_NewRef(PyTuple_GET_ITEM(row, b)));
    }
    Py_DECREF(pair);
    if (!PyDict_CheckExact(devices) || !PyDict_CheckExact(metas) ||
        !PyDict_CheckExact(meta_tuples) || !PyDict_CheckExact(np_dtypes)) {
        PyErr_SetString(PyExc_TypeError, "devices, metas, meta_tuples, np_dtypes: dicts");
        return NULL;
    }
    if (take(config, "SavedTensor", (PyObject **)&saved_type) < 0 ||
        take(config, "VersionCounter", &version_counter) < 0 ||
        take(config, "SavedHooks", &saved_hooks) < 0 || take(config, "Origin", &origin) < 0 ||
        take(config, "no_saved", &no_saved) < 0 || take(config, "RESULT", &result_marker) < 0)
        return NULL;
    if (!PyType_Check(saved_type)) {
        PyErr_SetString(PyExc_TypeError, "SavedTensor must be a class");
        return NULL;
    }
    {
        PyObject *cls = (PyObject *)saved_type;
        if (slot_offset(cls, "_tensor", &sv_tensor) < 0 ||
            slot_offset(cls, "_weak", &sv_weak) < 0 || slot_offset(cls, "_data", &sv_data) < 0 ||
            slot_offset(cls, "_counter", &sv_counter) < 0 ||
            slot_offset(cls, "version", &sv_version) < 0 ||
            slot_offset(cls, "is_output", &sv_is_output) < 0 ||
            slot_offset(cls, "released", &sv_released) < 0 ||
            slot_offset(cls, "origin", &sv_origin) < 0 ||
            slot_offset(cls, "freed_origin", &sv_freed_origin) < 0 ||
            slot_offset(cls, "shape", &sv_shape) < 0 ||
            slot_offset(cls, "dtype", &sv_dtype) < 0 ||
            slot_offset(cls, "device", &sv_device) < 0 ||
            slot_offset(cls, "view_grad_fn", &sv_view_grad_fn) < 0 ||
            slot_offset(cls, "view_history", &sv_view_history) < 0 ||
            slot_offset(cls, "_hooked", &sv_hooked) < 0)
            return NULL;
    }
    ready = 1;
    Py_RETURN_NONE;
}

static PyObject *fp_save_method(PyObject *self, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "save_method() takes the Function class");
        return NULL;
    }
    return PyDescr_NewMethod((PyTypeObject *)cls, &save_def);
}

static PyMethodDef methods[] = {
    {"operator", (PyCFunction)fp_operator, METH_VARARGS,
     "operator(binary, recover, node, errors, max_reads, measured, add): Tensor.__mul__ or "
     "__add__ in C"},
    {"init_operators", (PyCFunction)fp_init_operators, METH_O,
     "init_operators(config): what the operators read (fastpath.py)"},
    {"save_method", (PyCFunction)fp_save_method, METH_O,
     "save_method(Function): Function.save as a method of that class"},
    {"init", (PyCFunction)fp_init, METH_O,
     "init(config): the engine's objects the fast path reads and calls (fastpath.py)"},
    {"make", (PyCFunction)(void (*)(void))fp_make, METH_FASTCALL | METH_KEYWORDS,
     "make(cls, data, device='cpu', grad_fn=None, requires_grad=False): Tensor._make"},
    {"apply", (PyCFunction)(void (*)(void))fp_apply, METH_FASTCALL | METH_KEYWORDS,
     "apply(cls, *inputs, **params): Function.apply"},
    {"init_sweep", (PyCFunction)fp_init_sweep, METH_O,
     "init_sweep(config): what the backward sweep calls (fastpath.py)"},
    {"plain_sweep", (PyCFunction)fp_plain_sweep, METH_O,
     "plain_sweep(sweep): backward._plain_sweep, loss.backward()'s sweep"},
    {"unpack_method", (PyCFunction)fp_unpack_method, METH_VARARGS,
     "unpack_method(SavedTensor, python_unpack): SavedTensor.unpack as a method of that class"},
    {"release_method", (PyCFunction)fp_release_method, METH_VARARGS,
     "release_method(Function, python, _Undo, _LAST): Function.release_variables in C"},
    {"call_backward_method", (PyCFunction)fp_call_backward_method, METH_VARARGS,
     "call_backward_method(Function, python, SavedHooks): Function.call_backward in C"},
    {"dependencies", (PyCFunction)fp_dependencies, METH_O,
     "dependencies(roots): backward._dependencies, the edges entering each reachable node"},
    {"builtin", (PyCFunction)fp_builtin, METH_VARARGS,
     "builtin(name, function, owner, module, doc): function as a builtin_function_or_method"},
    {"builtin_target", (PyCFunction)fp_builtin_target, METH_O,
     "builtin_target(f): the Python function a builtin() calls, else None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastpath",
                                    "C fast path of Tensor._make and Function.apply", -1,
                                    methods};

#define INTERN(var, text) if ((var = PyUnicode_InternFromString(text)) == NULL) return NULL

PyMODINIT_FUNC PyInit__fastpath(void)
{
    INTERN(s_counter, "counter");
    INTERN(s_enabled, "enabled");
    INTERN(s_half_opmath, "half_opmath");
    INTERN(s_opmath_dtypes, "opmath_dtypes");
    INTERN(s_plain_init, "_plain_init");
    INTERN(s_plain_device, "_plain_device");
    INTERN(s_needs_input_grad, "needs_input_grad");
    INTERN(s_next_functions, "next_functions");
    INTERN(s_result_name, "result_name");
    INTERN(s_log, "log");
    INTERN(s_first_node, "first_node");
    INTERN(s_release, "release");
    INTERN(s_input_meta, "input_meta");
    INTERN(s_sequence_nr, "sequence_nr");
    INTERN(s_forward, "forward");
    INTERN(s_num_outputs, "num_outputs");
    INTERN(s_shape, "shape");
    INTERN(s_dtype, "dtype");
    INTERN(s_kind, "kind");
    INTERN(s_output_device, "output_device");
    INTERN(s_is_view, "is_view");
    INTERN(s_saved, "_saved");
    INTERN(s_release_variables, "release_variables");
    INTERN(s_requires_grad, "requires_grad");
    INTERN(s_cpu, "cpu");
    INTERN(s_stack, "stack");
    INTERN(s_live, "live");
    INTERN(s_value, "value");
    INTERN(s_item, "item");
    INTERN(s_min_elements, "MIN_ELEMENTS");
    INTERN(s_alpha, "alpha");
    INTERN(s_other, "other");
    INTERN(s_self, "self");
    if ((ufunc_kwnames = Py_BuildValue("(ss)", "dtype", "out")) == NULL) return NULL;
    INTERN(s_active, "active");
    INTERN(s_size, "size");
    INTERN(s_strides, "strides");
    INTERN(s_itemsize, "itemsize");
    INTERN(s_nbytes, "nbytes");
    INTERN(s_apply, "apply");
    if ((dtype_kwnames = Py_BuildValue("(s)", "dtype")) == NULL) return NULL;
    if ((alpha_kwnames = Py_BuildValue("(s)", "alpha")) == NULL) return NULL;
    if (intern_sweep_names() < 0) return NULL;
    if (PyType_Ready(&OperatorType) < 0) return NULL;
    if (PyType_Ready(&HereType) < 0) return NULL;
    if ((empty_tuple = PyTuple_New(0)) == NULL) return NULL;
    if ((zero = PyLong_FromLong(0)) == NULL) return NULL;
    if ((one = PyLong_FromLong(1)) == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddObjectRef(m, "Here", (PyObject *)&HereType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
