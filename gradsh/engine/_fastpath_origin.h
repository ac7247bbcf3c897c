/* The origin of a record made while a Python program runs compiled whole (pywhole.py): a
 * callable `_Origin.live` that answers from the running frame's instruction offset, one dict
 * lookup, as _WholeProgram.origin's common case does, without a Python call; included by
 * _fastpath.c. Where the offset is not in the table yet (or no frame is known), it calls
 * `find` (the Python method, which fills the table and sets the frame). */

typedef struct {
    PyObject_HEAD
    PyObject *frame; /* the running piece's frame, or None */
    PyObject *table; /* its code's offsets -> statements (a dict) */
    PyObject *find;  /* _WholeProgram.origin */
} HereObject;

static PyObject *here_call(PyObject *op, PyObject *args, PyObject *kwargs)
{
    HereObject *self = (HereObject *)op;
    if (PyTuple_GET_SIZE(args) != 0 || (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0)) {
        PyErr_SetString(PyExc_TypeError, "origin() takes no arguments");
        return NULL;
    }
    if (PyFrame_Check(self->frame) && PyDict_CheckExact(self->table)) {
        /* frame.f_lasti: the offset in bytes */
        PyObject *offset = PyLong_FromLong(PyFrame_GetLasti((PyFrameObject *)self->frame));
        if (offset == NULL) return NULL;
        PyObject *found = PyDict_GetItemWithError(self->table, offset);
        Py_DECREF(offset);
        if (found != NULL) return Py_NewRef(found);
        if (PyErr_Occurred()) return NULL;
    }
    return PyObject_CallNoArgs(self->find);
}

static int here_init(PyObject *op, PyObject *args, PyObject *kwargs)
{
    HereObject *self = (HereObject *)op;
    PyObject *find;
    static char *names[] = {"find", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Here", names, &find)) return -1;
    Py_XSETREF(self->find, Py_NewRef(find));
    Py_XSETREF(self->frame, Py_NewRef(Py_None));
    Py_XSETREF(self->table, PyDict_New());
    return self->table == NULL ? -1 : 0;
}

static int here_traverse(PyObject *op, visitproc visit, void *arg)
{
    HereObject *self = (HereObject *)op;
    Py_VISIT(self->frame);
    Py_VISIT(self->table);
    Py_VISIT(self->find);
    return 0;
}

static int here_clear(PyObject *op)
{
    HereObject *self = (HereObject *)op;
    Py_CLEAR(self->frame);
    Py_CLEAR(self->table);
    Py_CLEAR(self->find);
    return 0;
}

static void here_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    here_clear(op);
    Py_TYPE(op)->tp_free(op);
}

static PyMemberDef here_members[] = {
    {"frame", T_OBJECT, offsetof(HereObject, frame), 0, "the running piece's frame, or None"},
    {"table", T_OBJECT, offsetof(HereObject, table), 0, "offset -> statement, of its code"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject HereType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gradsh.engine._fastpath.Here",
    .tp_basicsize = sizeof(HereObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Here(find): the running statement, from the frame's offset (pywhole.py)",
    .tp_new = PyType_GenericNew,
    .tp_init = here_init,
    .tp_call = here_call,
    .tp_traverse = here_traverse,
    .tp_clear = here_clear,
    .tp_dealloc = here_dealloc,
    .tp_members = here_members,
};
