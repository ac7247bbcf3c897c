/* PyTorch's torch.* functions are C functions: `print(torch.relu)` shows
 * `<built-in method relu of type object at 0x...>`, type(torch.relu) is
 * builtin_function_or_method, inspect.isbuiltin(torch.relu) is true. builtin(...) makes such an
 * object, a real builtin_function_or_method, for one of gradsh's Python functions, with no cost
 * per call beyond one C call: the object's vectorcall slot (which CPython reads for every call
 * of it, the specializing interpreter included, as the method's flags are METH_VARARGS)
 * hands the arguments on, as they are, to the Python function kept beside its PyMethodDef.
 * The definitions live as long as the process, as those of any C extension's functions. */

typedef struct {
    PyMethodDef def;  /* first: the object's m_ml points here */
    PyObject *target; /* the Python function called */
} BuiltinDef;

/* Each builtin's own C function (its ml_meth), calling the Python function in its slot: what
 * tells two builtins apart, as CPython compares and hashes builtins by (m_self, ml_meth)
 * (torch.relu != torch.tanh, a dict keyed by activations). Calls reach it only without the
 * vectorcall slot (none in CPython 3.11); 1,000 slots (gradsh makes about 600). */
#define BUILTIN_SLOTS 1000
#define BUILTIN_FIRST 1000 /* the slots' numbers: 1000 to 1999 (decimal literals, no octal) */
static PyObject *builtin_targets[BUILTIN_SLOTS];
static int builtin_used;

static PyObject *builtin_slot_call(int number, PyObject *args, PyObject *kwargs)
{
    return PyObject_Call(builtin_targets[number - BUILTIN_FIRST], args, kwargs);
}

#define BT(n) \
    static PyObject *bt_##n(PyObject *s, PyObject *a, PyObject *k) \
    { return builtin_slot_call(n, a, k); }
#define BT10(p) BT(p##0) BT(p##1) BT(p##2) BT(p##3) BT(p##4) BT(p##5) BT(p##6) BT(p##7) \
    BT(p##8) BT(p##9)
#define BT100(p) BT10(p##0) BT10(p##1) BT10(p##2) BT10(p##3) BT10(p##4) BT10(p##5) \
    BT10(p##6) BT10(p##7) BT10(p##8) BT10(p##9)
BT100(10) BT100(11) BT100(12) BT100(13) BT100(14) BT100(15) BT100(16) BT100(17) BT100(18)
BT100(19)

#define BR(n) bt_##n,
#define BR10(p) BR(p##0) BR(p##1) BR(p##2) BR(p##3) BR(p##4) BR(p##5) BR(p##6) BR(p##7) \
    BR(p##8) BR(p##9)
#define BR100(p) BR10(p##0) BR10(p##1) BR10(p##2) BR10(p##3) BR10(p##4) BR10(p##5) \
    BR10(p##6) BR10(p##7) BR10(p##8) BR10(p##9)
static PyCFunctionWithKeywords builtin_slots[BUILTIN_SLOTS] = {
    BR100(10) BR100(11) BR100(12) BR100(13) BR100(14) BR100(15) BR100(16) BR100(17) BR100(18)
    BR100(19)};

static PyObject *builtin_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                    PyObject *kwnames)
{
    BuiltinDef *def = (BuiltinDef *)((PyCFunctionObject *)callable)->m_ml;
    return PyObject_Vectorcall(def->target, args, nargsf, kwnames);
}

/* A copy of a str's UTF-8 text that lives as long as the process (NULL for None). */
static const char *builtin_text(PyObject *text)
{
    if (text == Py_None) return NULL;
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &size);
    if (utf8 == NULL) return NULL;
    char *copy = PyMem_RawMalloc(size + 1);
    if (copy == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(copy, utf8, size + 1);
    return copy;
}

/* builtin(name, function, owner, module, doc): `function` as a builtin named `name`, its
 * __module__ `module`; `owner` a class (a static method of it, as torch's
 * _VariableFunctionsClass holds torch.relu: `<built-in method relu of type object>`, __self__
 * None), a module (F.linear's __self__ is torch._C._nn: `<built-in function linear>`) or None.
 * None when the slots are all taken. */
static PyObject *fp_builtin(PyObject *self, PyObject *args)
{
    PyObject *name, *target, *owner, *module_name, *doc;
    if (!PyArg_ParseTuple(args, "UOOUO", &name, &target, &owner, &module_name, &doc))
        return NULL;
    if (!PyCallable_Check(target) ||
        (owner != Py_None && !PyType_Check(owner) && !PyModule_Check(owner)) ||
        (doc != Py_None && !PyUnicode_Check(doc))) {
        PyErr_SetString(PyExc_TypeError,
                        "builtin(name, function, owner class, module or None, module name, "
                        "doc or None)");
        return NULL;
    }
    if (builtin_used == BUILTIN_SLOTS) Py_RETURN_NONE; /* (the caller keeps the function) */
    BuiltinDef *def = PyMem_RawCalloc(1, sizeof(BuiltinDef));
    if (def == NULL) return PyErr_NoMemory();
    def->def.ml_name = builtin_text(name);
    if (def->def.ml_name == NULL) return NULL;
    if (doc != Py_None && (def->def.ml_doc = builtin_text(doc)) == NULL) return NULL;
    def->def.ml_meth = (PyCFunction)(void (*)(void))builtin_slots[builtin_used];
    builtin_targets[builtin_used++] = Py_NewRef(target);
    def->def.ml_flags = METH_VARARGS | METH_KEYWORDS | (PyType_Check(owner) ? METH_STATIC : 0);
    Py_INCREF(target);
    def->target = target;
    PyObject *result = PyCFunction_NewEx(&def->def, owner == Py_None ? NULL : owner,
                                         module_name);
    if (result != NULL) ((PyCFunctionObject *)result)->vectorcall = builtin_vectorcall;
    return result;
}

/* builtin_target(f): the Python function a builtin() object calls, else None. */
static PyObject *fp_builtin_target(PyObject *self, PyObject *function)
{
    if (PyCFunction_Check(function) &&
        ((PyCFunctionObject *)function)->vectorcall == builtin_vectorcall)
        return Py_NewRef(((BuiltinDef *)((PyCFunctionObject *)function)->m_ml)->target);
    Py_RETURN_NONE;
}
