/* Saved tensors in C, included by _fastpath.c (whose statics it uses): SavedTensor(...) as
 * saved_variable.py makes it (an op's inputs through Function.save, its output through apply),
 * SavedTensor.unpack for what backward formulas read, and Function.release_variables. Every
 * case these do not handle goes to the Python code. */

/* ---- Function.save ---------------------------------------------------------------- */

static PyObject *unchanged;      /* saved_variable.UNCHANGED (unpack_method sets it) */
static PyObject *number_dtypes;  /* saved_variable._NUMBER_DTYPES */
static PyObject *s_item_name;    /* "item" */

/* Whether `tensor` (whose counter is None) is a wrapped number SavedTensor keeps as its
   value: saved_variable.py's test, less the hooks (checked before); -1: an error */
static int kept_as_number(PyObject *tensor, PyObject *dtype, int is_output)
{
    if (is_output || unchanged == NULL || number_dtypes == NULL ||
        SLOT(tensor, off_wrapped) != Py_True ||
        (PyObject *)Py_TYPE(SLOT(tensor, off_data)) != ndarray_type)
        return 0;
    return PySet_Contains(number_dtypes, dtype);
}

/* SavedTensor(tensor, is_output) when no saved_tensors_hooks are active: NULL with no error
   set where the Python class must do it. An input keeps the tensor; an output (saved by its
   own node) a weak reference to it and its array */
static PyObject *saved_tensor(PyObject *tensor, int is_output)
{
    PyObject *counter, *dtype, *known, *stack, *live, *where, *version, *shape, *saved;
    PyObject *number = NULL;
    int hooks;
    if (!PyObject_TypeCheck(tensor, tensor_type) || SLOT(tensor, off_counter) == NULL ||
        SLOT(tensor, off_data) == NULL || SLOT(tensor, off_device) == NULL)
        return NULL;
    counter = SLOT(tensor, off_counter);
    if (counter != Py_None && (PyObject *)Py_TYPE(counter) != version_counter) return NULL;
    if ((stack = PyObject_GetAttr(saved_hooks, s_stack)) == NULL) return NULL;
    hooks = PyObject_IsTrue(stack);
    Py_DECREF(stack);
    if (hooks != 0) return NULL;  /* (an error, or hooks to pack with: Python's) */
    if ((dtype = PyObject_GetAttr(SLOT(tensor, off_data), s_dtype)) == NULL) return NULL;
    known = PyDict_GetItemWithError(np_dtypes, dtype);
    if (known != NULL && counter == Py_None) {
        int r = kept_as_number(tensor, dtype, is_output);
        if (r < 0) known = NULL;
        else if (r) number = PyObject_CallMethodNoArgs(SLOT(tensor, off_data), s_item_name);
        if (r && number == NULL) known = NULL;
    }
    Py_DECREF(dtype);
    if (known == NULL) return NULL;  /* (tensor.dtype, in Python) */
    Py_INCREF(known);
    if ((live = PyObject_GetAttr(origin, s_live)) == NULL) goto fail_known;
    where = live == Py_None ? PyObject_GetAttr(origin, s_value) : PyObject_CallNoArgs(live);
    Py_DECREF(live);
    if (where == NULL) goto fail_known;
    if (number != NULL) {
        counter = Py_NewRef(unchanged);  /* (the tensor keeps no counter) */
    } else if (counter == Py_None) {
        counter = PyObject_CallNoArgs(version_counter);
        if (counter == NULL) goto fail_where;
        set_slot(tensor, off_counter, counter);
    } else {
        Py_INCREF(counter);
    }
    version = PyObject_GetAttr(counter, s_value);
    if (version == NULL) goto fail_counter;
    shape = PyObject_GetAttr(SLOT(tensor, off_data), s_shape);
    if (shape == NULL) goto fail_version;
    saved = PyBaseObject_Type.tp_new(saved_type, empty_tuple, NULL);
    if (saved == NULL) goto fail_shape;
    set_slot(saved, sv_is_output, is_output ? Py_True : Py_False);
    set_slot(saved, sv_counter, counter);
    set_slot(saved, sv_version, version);
    set_slot(saved, sv_released, Py_False);
    set_slot(saved, sv_origin, where);
    set_slot(saved, sv_freed_origin, Py_None);
    set_slot(saved, sv_shape, shape);
    set_slot(saved, sv_dtype, known);
    set_slot(saved, sv_device, SLOT(tensor, off_device));
    set_slot(saved, sv_view_grad_fn, Py_None);
    set_slot(saved, sv_view_history, Py_None);
    set_slot(saved, sv_hooked, Py_None);
    if (is_output) {
        PyObject *weak = PyWeakref_NewRef(tensor, NULL);
        if (weak == NULL) {
            Py_DECREF(saved);
            goto fail_shape;
        }
        set_slot(saved, sv_tensor, Py_None);
        set_slot(saved, sv_weak, weak);
        set_slot(saved, sv_data, SLOT(tensor, off_data));
        Py_DECREF(weak);
    } else if (number != NULL) {  /* a wrapped number: kept as its value */
        set_slot(saved, sv_tensor, Py_None);
        set_slot(saved, sv_weak, Py_None);
        set_slot(saved, sv_data, number);
        Py_CLEAR(number);
    } else {
        set_slot(saved, sv_tensor, tensor);
        set_slot(saved, sv_weak, Py_None);
        set_slot(saved, sv_data, Py_None);
    }
    Py_DECREF(shape);
    Py_DECREF(version);
    Py_DECREF(counter);
    Py_DECREF(where);
    Py_DECREF(known);
    return saved;
fail_shape:
    Py_DECREF(shape);
fail_version:
    Py_DECREF(version);
fail_counter:
    Py_DECREF(counter);
fail_where:
    Py_DECREF(where);
fail_known:
    Py_DECREF(known);
    Py_XDECREF(number);
    return NULL;
}

static PyObject *new_saved(PyObject *tensor)
{
    PyObject *saved = saved_tensor(tensor, 0);
    if (saved != NULL || PyErr_Occurred()) return saved;
    return PyObject_CallOneArg((PyObject *)saved_type, tensor);
}

/* Function.save(self, name, tensor), node.py's code */
static PyObject *fp_save(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *name, *tensor, *saved, *value;
    int r;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "save() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    name = args[0];
    tensor = args[1];
    if ((saved = PyObject_GetAttr(self, s_saved)) == NULL) return NULL;
    if (saved == no_saved) {
        Py_DECREF(saved);
        saved = PyDict_New();
        if (saved == NULL) return NULL;
        if (tensor != result_marker) {  /* the common first save, in one step */
            value = new_saved(tensor);
            if (value == NULL || PyDict_SetItem(saved, name, value) < 0 ||
                PyObject_SetAttr(self, s_saved, saved) < 0) {
                Py_XDECREF(value);
                Py_DECREF(saved);
                return NULL;
            }
            Py_DECREF(value);
            Py_DECREF(saved);
            Py_RETURN_NONE;
        }
        if (PyObject_SetAttr(self, s_saved, saved) < 0) {
            Py_DECREF(saved);
            return NULL;
        }
    }
    if (tensor == result_marker) {
        r = PyObject_SetItem(saved, result_key, Py_None);
    } else {
        value = new_saved(tensor);
        r = value == NULL ? -1 : PyObject_SetItem(saved, name, value);
        Py_XDECREF(value);
    }
    Py_DECREF(saved);
    if (r < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef save_def = {
    "save", (PyCFunction)(void (*)(void))fp_save, METH_FASTCALL,
    "save(name, tensor): keep `tensor` for backward (RESULT: the output, once it exists)"};

/* node._save_result(cls, node, out): `node._saved[cls.result_name] = SavedTensor(out,
   is_output=True)`, then `del node._saved[RESULT_KEY]` (the Python function where the C
   SavedTensor cannot be made: hooks, an inference tensor's counter) */
static int save_result(PyObject *cls, PyObject *node, PyObject *out)
{
    PyObject *value = saved_tensor(out, 1);
    if (value == NULL) {
        if (PyErr_Occurred()) return -1;
        PyObject *done = PyObject_CallFunctionObjArgs(py_save_result, cls, node, out, NULL);
        if (done == NULL) return -1;
        Py_DECREF(done);
        return 0;
    }
    PyObject *name = PyObject_GetAttr(cls, s_result_name), *saved = NULL;
    int r = -1;
    if (name != NULL && (saved = PyObject_GetAttr(node, s_saved)) != NULL &&
        PyObject_SetItem(saved, name, value) == 0)
        r = PyObject_DelItem(saved, result_key);
    Py_XDECREF(saved);
    Py_XDECREF(name);
    Py_DECREF(value);
    return r;
}

/* ---- SavedTensor.unpack ------------------------------------------------------------- */

static PyObject *py_unpack; /* saved_variable.SavedTensor.unpack, the Python function */

/* SavedTensor.unpack(self, owner, as_tensor), saved_variable.py's code, for what backward
   formulas read most: the array (as_tensor False) of a saved tensor that is still there, at
   the version it was saved at, without hooks (an output's array, or an input's unless it is
   a wrapped number); everything else, errors included, is the Python method's */
static PyObject *fp_unpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs == 2 && args[1] == Py_False && Py_IS_TYPE(self, saved_type) &&
        SLOT(self, sv_released) == Py_False && SLOT(self, sv_hooked) == Py_None) {
        PyObject *counter = SLOT(self, sv_counter), *version = SLOT(self, sv_version),
                 *is_output = SLOT(self, sv_is_output);
        if (counter != NULL && version != NULL && is_output != NULL &&
            (PyObject *)Py_TYPE(counter) == version_counter) {
            PyObject *value = PyObject_GetAttr(counter, s_value);
            if (value == NULL) return NULL;
            int same = PyObject_RichCompareBool(value, version, Py_EQ);
            Py_DECREF(value);
            if (same < 0) return NULL;
            if (same && is_output == Py_True && SLOT(self, sv_data) != NULL)
                return Py_NewRef(SLOT(self, sv_data));
            if (same && is_output == Py_False && SLOT(self, sv_tensor) == Py_None &&
                SLOT(self, sv_weak) == Py_None && SLOT(self, sv_data) != NULL &&
                SLOT(self, sv_data) != Py_None)
                return Py_NewRef(SLOT(self, sv_data));  /* a wrapped number's value */
            if (same && is_output == Py_False) {
                PyObject *tensor = SLOT(self, sv_tensor);
                if (tensor != NULL && Py_IS_TYPE(tensor, tensor_type) &&
                    SLOT(tensor, off_wrapped) == Py_False && SLOT(tensor, off_data) != NULL)
                    return Py_NewRef(SLOT(tensor, off_data));
            }
        }
    }
    PyObject *call[3] = {self, nargs > 0 ? args[0] : NULL, nargs > 1 ? args[1] : NULL};
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "unpack() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    return PyObject_Vectorcall(py_unpack, call, (size_t)nargs + 1, NULL);
}

static PyMethodDef unpack_def = {
    "unpack", (PyCFunction)(void (*)(void))fp_unpack, METH_FASTCALL,
    "unpack(owner, as_tensor): the saved tensor (or its array) for a backward formula"};

/* unpack_method(SavedTensor, python_unpack, UNCHANGED, _NUMBER_DTYPES): SavedTensor.unpack
   as a method of that class (and what saving a wrapped number as its value reads) */
static PyObject *fp_unpack_method(PyObject *self, PyObject *args)
{
    PyObject *cls, *python, *counter, *kinds;
    if (!PyArg_ParseTuple(args, "O!OOO!:unpack_method", &PyType_Type, &cls, &python, &counter,
                          &PyFrozenSet_Type, &kinds))
        return NULL;
    if (s_item_name == NULL && (s_item_name = PyUnicode_InternFromString("item")) == NULL)
        return NULL;
    Py_XSETREF(py_unpack, Py_NewRef(python));
    Py_XSETREF(unchanged, Py_NewRef(counter));
    Py_XSETREF(number_dtypes, Py_NewRef(kinds));
    return PyDescr_NewMethod((PyTypeObject *)cls, &unpack_def);
}

/* ---- Function.release_variables ----------------------------------------------------- */

static PyObject *py_release_variables; /* node.Function.release_variables, the Python function */
static PyObject *undo_state;            /* undo._Undo (its `log`) */
static PyObject *last_sequence;         /* grad_mode._LAST */
static PyObject *s_log, *s_first_node, *s_release;

/* SavedTensor.release(saved, False), saved_variable.py's code: where it was freed (the first
   time), then nothing kept */
static int release_saved(PyObject *saved)
{
    if (!Py_IS_TYPE(saved, saved_type) || SLOT(saved, sv_released) == NULL) {
        PyObject *done = PyObject_CallMethodOneArg(saved, s_release, Py_False);
        Py_XDECREF(done);
        return done == NULL ? -1 : 0;
    }
    int released = PyObject_IsTrue(SLOT(saved, sv_released));
    if (released < 0) return -1;
    if (!released) {
        PyObject *live = PyObject_GetAttr(origin, s_live), *where;
        if (live == NULL) return -1;
        where = live == Py_None ? PyObject_GetAttr(origin, s_value) : PyObject_CallNoArgs(live);
        Py_DECREF(live);
        if (where == NULL) return -1;
        set_slot(saved, sv_freed_origin, where);
        Py_DECREF(where);
    }
    set_slot(saved, sv_released, Py_True);
    set_slot(saved, sv_tensor, Py_None);
    set_slot(saved, sv_data, Py_None);
    set_slot(saved, sv_view_history, Py_None);
    set_slot(saved, sv_hooked, Py_None);
    return 0;
}

static PyObject *s_freed; /* "_freed" */

/* SavedTensor.release(saved, True) under an undo log, saved_variable.py's code: the log's
   record_release (the record undo.py's rollback reads, appended to `freed`, the log's list),
   then release_saved */
static int release_recorded(PyObject *saved, PyObject *freed)
{
    PyObject *record;
    if (!Py_IS_TYPE(saved, saved_type) || SLOT(saved, sv_tensor) == NULL ||
        SLOT(saved, sv_data) == NULL || SLOT(saved, sv_view_history) == NULL ||
        SLOT(saved, sv_released) == NULL) {
        PyObject *done = PyObject_CallMethodOneArg(saved, s_release, Py_True);
        Py_XDECREF(done);
        return done == NULL ? -1 : 0;
    }
    /* ("release", saved, saved._tensor, saved._data, saved.view_history, saved.released,
       getattr(saved, "freed_origin", None)) */
    record = PyTuple_Pack(7, s_release, saved, SLOT(saved, sv_tensor), SLOT(saved, sv_data),
                          SLOT(saved, sv_view_history), SLOT(saved, sv_released),
                          SLOT(saved, sv_freed_origin) != NULL ? SLOT(saved, sv_freed_origin)
                                                               : Py_None);
    if (record == NULL) return -1;
    int r = PyList_Append(freed, record);
    Py_DECREF(record);
    return r < 0 ? -1 : release_saved(saved);
}

/* every saved tensor of `saved` (the node's dict) released, recorded in `freed` when it is
   not NULL */
static PyObject *release_all(PyObject *saved, PyObject *freed)
{
    PyObject *values = PyDict_Values(saved);  /* (a list: the loop's order, held) */
    if (values == NULL) return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(values); i++) {
        PyObject *one = PyList_GET_ITEM(values, i);
        if ((freed != NULL ? release_recorded(one, freed) : release_saved(one)) < 0) {
            Py_DECREF(values);
            return NULL;
        }
    }
    Py_DECREF(values);
    Py_RETURN_NONE;
}

/* Function.release_variables(self), node.py's code: every saved tensor released, undoably
   (recorded in the running statement's undo log) where that log predates the node */
static PyObject *fp_release_variables(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *freed = NULL, *done;
    PyObject *saved = PyObject_GetAttr(self, s_saved);
    if (saved == NULL) return NULL;
    Py_DECREF(saved);  /* (the node holds it) */
    if (saved == no_saved) Py_RETURN_NONE;  /* nothing saved: nothing to release */
    PyObject *log = PyObject_GetAttr(undo_state, s_log);
    if (log == NULL) return NULL;
    if (log != Py_None) {
        /* getattr(self, "sequence_nr", _LAST) < log.first_node */
        PyObject *sequence = PyObject_GetAttr(self, s_sequence_nr), *first = NULL;
        int undoable = -1;
        if (sequence == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            sequence = Py_NewRef(last_sequence);
        }
        if (sequence != NULL && (first = PyObject_GetAttr(log, s_first_node)) != NULL)
            undoable = PyObject_RichCompareBool(sequence, first, Py_LT);
        Py_XDECREF(sequence);
        Py_XDECREF(first);
        if (undoable > 0) {
            if (s_freed == NULL) s_freed = PyUnicode_InternFromString("_freed");
            freed = s_freed == NULL ? NULL : PyObject_GetAttr(log, s_freed);
            if (freed == NULL) undoable = -1;
        }
        Py_DECREF(log);
        if (undoable < 0) return NULL;
        if (undoable && !PyList_CheckExact(freed)) {  /* (another log: the Python method) */
            Py_DECREF(freed);
            return PyObject_CallOneArg(py_release_variables, self);
        }
    } else {
        Py_DECREF(log);
    }
    saved = PyObject_GetAttr(self, s_saved);
    if (saved == NULL) {
        Py_XDECREF(freed);
        return NULL;
    }
    if (!PyDict_CheckExact(saved)) {  /* (_NO_SAVED, or another mapping: the Python loop) */
        Py_DECREF(saved);
        Py_XDECREF(freed);
        return PyObject_CallOneArg(py_release_variables, self);
    }
    done = release_all(saved, freed);
    Py_DECREF(saved);
    Py_XDECREF(freed);
    return done;
}

static PyMethodDef release_def = {
    "release_variables", (PyCFunction)fp_release_variables, METH_NOARGS,
    "release_variables(): free what the node saved for backward"};

/* release_method(Function, python_release_variables, _Undo, _LAST): Function.release_variables
   as a method of that class */
static PyObject *fp_release_method(PyObject *self, PyObject *args)
{
    PyObject *cls, *python, *undo, *last;
    if (!PyArg_ParseTuple(args, "O!OOO:release_method", &PyType_Type, &cls, &python, &undo,
                          &last))
        return NULL;
    Py_XSETREF(py_release_variables, Py_NewRef(python));
    Py_XSETREF(undo_state, Py_NewRef(undo));
    Py_XSETREF(last_sequence, Py_NewRef(last));
    return PyDescr_NewMethod((PyTypeObject *)cls, &release_def);
}
