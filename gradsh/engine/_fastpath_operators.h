/* Tensor.__mul__ and Tensor.__add__ in C, included by _fastpath.c (whose statics it uses). */

/* ---- Tensor.__mul__ and Tensor.__add__ --------------------------------------------------- */

/* The operator's common call, `tensor * number` / `tensor * tensor` (and +), as ops/guard.py's
   `binary` and ops/arithmetic.py's mul and add run it; anything else goes to `binary`. */
typedef struct {
    PyObject_HEAD
    PyObject *binary;    /* the Python operator (guard.py's `binary` for this op) */
    PyObject *recover;   /* recover(error, a, b): binary's `except _ARGUMENT_ERRORS` */
    PyObject *node;      /* MulBackward0 or AddBackward0 */
    PyObject *errors;    /* guard._ARGUMENT_ERRORS */
    Py_ssize_t max_reads, measured;
    int add;             /* add (alpha=1) or mul */
    vectorcallfunc vectorcall;
} Operator;

static PyObject *scalar_overloads;  /* functions.grad_ops.ScalarOverloads (its `active`) */
static PyObject *shared_floats;     /* ops.arithmetic._SHARED */
static PyObject *py_shared_float;   /* ops.arithmetic._shared_float */
static PyObject *np_array;          /* numpy.array */
static PyObject *float64;           /* numpy.dtype('float64') */
static PyObject *dtype_kwnames;     /* ("dtype",) */
static PyObject *alpha_kwnames;     /* ("alpha",) */
static PyObject *s_active, *s_nbytes, *s_apply;

/* whether the guard's read and memory checks would do anything for `t`: -1 error, 1 yes */
static int needs_checks(Operator *op, PyObject *t)
{
    PyObject *data = SLOT(t, off_data), *v;
    Py_ssize_t n;
    if (data == NULL || (PyObject *)Py_TYPE(data) != ndarray_type) return 1;
    if ((v = PyObject_GetAttr(data, s_size)) == NULL) return -1;
    n = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n > op->max_reads) return 1;
    if ((v = PyObject_GetAttr(data, s_nbytes)) == NULL) return -1;
    n = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    if (n == -1 && PyErr_Occurred()) return -1;
    return n >= op->measured;
}

/* Tensor.wrap_scalar(value) for a float: a 0-d float64 tensor, marked wrapped */
static PyObject *wrap_float(PyObject *value)
{
    PyObject *call[2] = {value, float64}, *array, *t;
    array = PyObject_Vectorcall(np_array, call, 1, dtype_kwnames);
    if (array == NULL) return NULL;
    t = make(tensor_type, array, s_cpu, Py_None, Py_False);
    Py_DECREF(array);
    if (t != NULL) set_slot(t, off_wrapped, Py_True);
    return t;
}

static PyObject *operator_call(PyObject *self, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames)
{
    Operator *op = (Operator *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *a, *b, *operand = NULL, *result, *call[4];
    int r;
    if (!ready || nargs != 2 || kwnames != NULL) goto python;
    a = args[0];
    b = args[1];
    if (Py_TYPE(a) != tensor_type || SLOT(a, off_requires_grad) == NULL ||
        SLOT(a, off_grad_fn) == NULL || SLOT(a, off_base) == NULL)
        goto python;
    if (!(PyFloat_CheckExact(b) || Py_TYPE(b) == tensor_type)) goto python;
    if ((r = needs_checks(op, a)) != 0) {
        if (r < 0) return NULL;
        goto python;
    }
    if (Py_TYPE(b) == tensor_type) {
        if ((r = needs_checks(op, b)) != 0) {
            if (r < 0) return NULL;
            goto python;
        }
        operand = Py_NewRef(b);
    } else {
        if ((r = truth_attr(scalar_overloads, s_active)) != 0) {
            if (r < 0) return NULL;
            goto python;
        }
        if (!op->add && (SLOT(a, off_requires_grad) == Py_True ||
                         SLOT(a, off_grad_fn) != Py_None || SLOT(a, off_base) != Py_None)) {
            if (SLOT(a, off_requires_grad) != Py_True && SLOT(a, off_requires_grad) != Py_False)
                goto python;  /* (a flag that is not a bool: Python's truth test) */
            operand = wrap_float(b);  /* which MulBackward0 may save */
        } else {
            if (SLOT(a, off_requires_grad) != Py_True && SLOT(a, off_requires_grad) != Py_False)
                goto python;
            operand = PyDict_GetItemWithError(shared_floats, b);  /* _shared_float, inline */
            if (operand != NULL) Py_INCREF(operand);
            else if (!PyErr_Occurred()) operand = PyObject_CallOneArg(py_shared_float, b);
        }
        if (operand == NULL) return NULL;
    }
    /* MulBackward0.apply(a, operand) / AddBackward0.apply(a, operand, alpha=1) */
    call[0] = op->node;
    call[1] = a;
    call[2] = operand;
    call[3] = one;
    result = PyObject_VectorcallMethod(s_apply, call, 3, op->add ? alpha_kwnames : NULL);
    Py_DECREF(operand);
    if (result == NULL && PyErr_ExceptionMatches(op->errors)) {
        /* binary's `except _ARGUMENT_ERRORS as error: return argument_error(...)`, the error
           being handled while it runs (what it raises has it as __context__) */
        PyObject *type, *value, *trace, *before;
        PyErr_Fetch(&type, &value, &trace);
        PyErr_NormalizeException(&type, &value, &trace);
        if (trace != NULL) PyException_SetTraceback(value, trace);
        before = PyErr_GetHandledException();
        PyErr_SetHandledException(value);
        result = PyObject_CallFunctionObjArgs(op->recover, value, a, b, NULL);
        PyErr_SetHandledException(before);
        Py_XDECREF(before);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(trace);
    }
    return result;
python:
    return PyObject_Vectorcall(op->binary, args, nargsf, kwnames);
}

static PyObject *operator_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static PyObject *operator_getattro(PyObject *self, PyObject *name)
{
    /* __name__, __doc__, __wrapped__, ...: the Python operator's */
    PyObject *found = PyObject_GenericGetAttr(self, name);
    if (found != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError)) return found;
    PyErr_Clear();
    return PyObject_GetAttr(((Operator *)self)->binary, name);
}

static int operator_traverse(PyObject *self, visitproc visit, void *arg)
{
    Operator *op = (Operator *)self;
    Py_VISIT(op->binary);
    Py_VISIT(op->recover);
    Py_VISIT(op->node);
    Py_VISIT(op->errors);
    return 0;
}

static void operator_dealloc(PyObject *self)
{
    Operator *op = (Operator *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(op->binary);
    Py_XDECREF(op->recover);
    Py_XDECREF(op->node);
    Py_XDECREF(op->errors);
    PyObject_GC_Del(self);
}

static PyTypeObject OperatorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gradsh.engine._fastpath.Operator",
    .tp_basicsize = sizeof(Operator),
    .tp_dealloc = operator_dealloc,
    .tp_vectorcall_offset = offsetof(Operator, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_getattro = operator_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_traverse = operator_traverse,
    .tp_descr_get = operator_get,
    .tp_doc = "Tensor.__mul__ / __add__: the common call in C, the rest in Python",
};

/* operator(binary, recover, node, errors, max_reads, measured, add) */
static PyObject *fp_operator(PyObject *self, PyObject *args)
{
    PyObject *binary, *recover, *node, *errors;
    Py_ssize_t max_reads, measured;
    int add;
    Operator *op;
    if (!PyArg_ParseTuple(args, "OOOOnnp", &binary, &recover, &node, &errors, &max_reads,
                          &measured, &add))
        return NULL;
    op = PyObject_GC_New(Operator, &OperatorType);
    if (op == NULL) return NULL;
    op->binary = Py_NewRef(binary);
    op->recover = Py_NewRef(recover);
    op->node = Py_NewRef(node);
    op->errors = Py_NewRef(errors);
    op->max_reads = max_reads;
    op->measured = measured;
    op->add = add;
    op->vectorcall = operator_call;
    PyObject_GC_Track(op);
    return (PyObject *)op;
}

/* init_operators(config): what the operators read besides init()'s */
static PyObject *fp_init_operators(PyObject *self, PyObject *config)
{
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "init_operators() takes a dict");
        return NULL;
    }
    if (take(config, "ScalarOverloads", &scalar_overloads) < 0 ||
        take(config, "shared_floats", &shared_floats) < 0 ||
        take(config, "shared_float", &py_shared_float) < 0 ||
        take(config, "array", &np_array) < 0 || take(config, "float64", &float64) < 0 ||
        take(config, "MulBackward0", &mul_node) < 0 ||
        take(config, "AddBackward0", &add_node) < 0 || take(config, "multiply", &np_multiply) < 0 ||
        take(config, "add", &np_add) < 0 || take(config, "float32", &f32) < 0 ||
        take(config, "threads", &threads_module) < 0)
        return NULL;
    Py_XSETREF(f64, Py_NewRef(float64));
    if (!PyDict_CheckExact(shared_floats)) {
        PyErr_SetString(PyExc_TypeError, "shared_floats must be a dict");
        return NULL;
    }
    Py_RETURN_NONE;
}

