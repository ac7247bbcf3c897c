/* MulBackward0's and AddBackward0's forward for a small float tensor and a wrapped number
   (functions/arithmetic.py's first case of each), included by _fastpath.c. */

static PyObject *np_multiply, *np_add;  /* the ufuncs */
static PyObject *f32, *f64;             /* numpy.dtype('float32'), ('float64') */
static PyObject *threads_module;        /* gradsh.engine.threads (its MIN_ELEMENTS) */
static PyObject *s_size, *s_item, *s_min_elements, *s_alpha, *s_other, *s_self, *ufunc_kwnames;
static PyObject *s_strides, *s_itemsize;

/* Whether the array x has a size-1 dimension and strides other than row-major ones (-1: an
   error): NumPy lays `x * 2` out otherwise than TensorIterator there (a size-1 dimension's
   stride), so the Python forward, which lays its result out as ATen, runs */
static int unusual_unit_strides(PyObject *x)
{
    PyObject *shape, *strides = NULL, *v = NULL;
    Py_ssize_t n, i, step, size;
    int unit = 0, unusual = 0;
    if ((shape = PyObject_GetAttr(x, s_shape)) == NULL) return -1;
    n = PyTuple_GET_SIZE(shape);
    for (i = 0; i < n; i++)
        if (PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i)) == 1) unit = 1;
    if (unit) {
        if ((strides = PyObject_GetAttr(x, s_strides)) == NULL ||
            (v = PyObject_GetAttr(x, s_itemsize)) == NULL) {
            Py_DECREF(shape);
            Py_XDECREF(strides);
            return -1;
        }
        step = PyLong_AsSsize_t(v);
        for (i = n - 1; i >= 0; i--) {
            if (PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, i)) != step) unusual = 1;
            size = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
            step *= size > 1 ? size : 1;
        }
        Py_DECREF(strides);
        Py_DECREF(v);
    }
    Py_DECREF(shape);
    return unusual;
}

/* Whether the first case applies (-1: an error); `data` is a's array */
static int small_case(PyObject *a, PyObject *b, PyObject **data)
{
    PyObject *x, *dtype, *v;
    Py_ssize_t size, limit;
    int r;
    if (!PyObject_TypeCheck(a, tensor_type) || !PyObject_TypeCheck(b, tensor_type)) return 0;
    if (SLOT(b, off_wrapped) != Py_True || SLOT(a, off_wrapped) != Py_False) return 0;
    x = SLOT(a, off_data);
    if (x == NULL || SLOT(b, off_data) == NULL || (PyObject *)Py_TYPE(x) != ndarray_type)
        return 0;
    if ((dtype = PyObject_GetAttr(x, s_dtype)) == NULL) return -1;
    Py_DECREF(dtype);  /* (the array holds it) */
    if (dtype != f32 && dtype != f64) return 0;
    if ((v = PyObject_GetAttr(x, s_size)) == NULL) return -1;
    size = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    if (size == -1 && PyErr_Occurred()) return -1;
    if ((v = PyObject_GetAttr(threads_module, s_min_elements)) == NULL) return -1;
    limit = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    if (limit == -1 && PyErr_Occurred()) return -1;
    *data = x;
    if (size >= limit) return 0;
    if ((r = unusual_unit_strides(x)) != 0) return r < 0 ? -1 : 0;
    return 1;
}

static PyObject *save_as(PyObject *node, PyObject *name, PyObject *tensor)
{
    PyObject *args[2] = {name, tensor};
    return fp_save(node, args, 2);
}

/* The result array, or NULL with no error set where the Python forward must run */
static PyObject *small_forward(PyObject *cls, PyObject *node, PyObject *a, PyObject *b,
                               PyObject *alpha, int need_a, int need_b)
{
    PyObject *x = NULL, *item, *dtype, *call[4], *out, *done;
    int r;
    if (cls == add_node) {
        /* self.alpha = alpha, then `b._wrapped and alpha == 1 and not a._wrapped ...` */
        if (PyObject_SetAttr(node, s_alpha, alpha) < 0) return NULL;
        if (!PyObject_TypeCheck(b, tensor_type) || SLOT(b, off_wrapped) != Py_True) return NULL;
        if ((r = PyObject_RichCompareBool(alpha, one, Py_EQ)) <= 0) return NULL;
    }
    if ((r = small_case(a, b, &x)) <= 0) return NULL;
    /* np.multiply(x, y.item(), dtype=x.dtype, out=...) (np.add); a Python complex number
       makes a complex result: the Python forward's */
    if ((item = PyObject_CallMethodNoArgs(SLOT(b, off_data), s_item)) == NULL) return NULL;
    if (PyComplex_Check(item)) {
        Py_DECREF(item);
        return NULL;
    }
    if (cls == mul_node) {
        if (need_a) {
            if ((done = save_as(node, s_other, b)) == NULL) {
                Py_DECREF(item);
                return NULL;
            }
            Py_DECREF(done);
        }
        if (need_b) {
            if ((done = save_as(node, s_self, a)) == NULL) {
                Py_DECREF(item);
                return NULL;
            }
            Py_DECREF(done);
        }
    }
    if ((dtype = PyObject_GetAttr(x, s_dtype)) == NULL) {
        Py_DECREF(item);
        return NULL;
    }
    call[0] = x;
    call[1] = item;
    call[2] = dtype;
    call[3] = Py_Ellipsis;
    out = PyObject_Vectorcall(cls == mul_node ? np_multiply : np_add, call, 2, ufunc_kwnames);
    Py_DECREF(item);
    Py_DECREF(dtype);
    return out;
}
