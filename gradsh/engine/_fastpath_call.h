/* Function.call_backward in C, included by _fastpath.c (after _fastpath_saved.h, whose
 * fp_unpack it calls): node.py's code for the common case (no saved_tensors_hooks used, array
 * formulas), every saved tensor unpacked before the formula runs, then `self.backward(F,
 * grad)`; the other cases are the Python method's. The sweep calls it once per node. */

static PyObject *py_call_backward; /* node.Function.call_backward, the Python function */
static PyObject *saved_hooks_state; /* grad_mode.SavedHooks (its `used`) */
static PyObject *s_used, *s_as_tensor, *s_backward, *s_unpack;

/* Function.call_backward(self, F, grad) */
static PyObject *fp_call_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *F, *grad, *saved, *call[3];
    int r;
    if (nargs != 2 || py_call_backward == NULL) goto python;
    F = args[0];
    grad = args[1];
    /* `if SavedHooks.used` and `if F.as_tensor`: the Python method (which unpacks first, as
       here: reading the two flags changes nothing) */
    if ((r = truth_attr(saved_hooks_state, s_used)) != 0) {
        if (r < 0) return NULL;
        goto python;
    }
    if ((r = truth_attr(F, s_as_tensor)) != 0) {
        if (r < 0) return NULL;
        goto python;
    }
    /* for saved in self._saved.values(): saved.unpack(self, False) */
    if ((saved = PyObject_GetAttr(self, s_saved)) == NULL) return NULL;
    if (saved != no_saved) {
        PyObject *values;
        if (!PyDict_CheckExact(saved)) {
            Py_DECREF(saved);
            goto python;
        }
        values = PyDict_Values(saved);  /* (a list: the loop's order, held) */
        Py_DECREF(saved);
        if (values == NULL) return NULL;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(values); i++) {
            PyObject *one = PyList_GET_ITEM(values, i), *done;
            call[0] = self;
            call[1] = Py_False;
            if (Py_IS_TYPE(one, saved_type)) {
                done = fp_unpack(one, call, 2);
            } else {
                PyObject *method[3] = {one, self, Py_False};
                done = PyObject_VectorcallMethod(s_unpack, method, 3, NULL);
            }
            if (done == NULL) {
                Py_DECREF(values);
                return NULL;
            }
            Py_DECREF(done);
        }
        Py_DECREF(values);
    } else {
        Py_DECREF(saved);
    }
    call[0] = self;
    call[1] = F;
    call[2] = grad;
    return PyObject_VectorcallMethod(s_backward, call, 3, NULL);
python:
    {
        PyObject *whole[3] = {self, nargs > 0 ? args[0] : NULL, nargs > 1 ? args[1] : NULL};
        if (nargs != 2 || py_call_backward == NULL) {
            PyErr_Format(PyExc_TypeError, "call_backward() takes 2 arguments (%zd given)",
                         nargs);
            return NULL;
        }
        return PyObject_Vectorcall(py_call_backward, whole, 3, NULL);
    }
}

static PyMethodDef call_backward_def = {
    "call_backward", (PyCFunction)(void (*)(void))fp_call_backward, METH_FASTCALL,
    "call_backward(F, grad): one gradient per edge, from the node's backward formula"};

/* call_backward_method(Function, python_call_backward, SavedHooks): Function.call_backward as
   a method of that class */
static PyObject *fp_call_backward_method(PyObject *self, PyObject *args)
{
    PyObject *cls, *python, *hooks;
    if (!PyArg_ParseTuple(args, "O!OO:call_backward_method", &PyType_Type, &cls, &python,
                          &hooks))
        return NULL;
    if (s_used == NULL && ((s_used = PyUnicode_InternFromString("used")) == NULL ||
                           (s_as_tensor = PyUnicode_InternFromString("as_tensor")) == NULL ||
                           (s_backward = PyUnicode_InternFromString("backward")) == NULL ||
                           (s_unpack = PyUnicode_InternFromString("unpack")) == NULL))
        return NULL;
    Py_XSETREF(py_call_backward, Py_NewRef(python));
    Py_XSETREF(saved_hooks_state, Py_NewRef(hooks));
    return PyDescr_NewMethod((PyTypeObject *)cls, &call_backward_def);
}
