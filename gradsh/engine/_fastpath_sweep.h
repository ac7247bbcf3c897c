/* loss.backward()'s sweep in C: backward.py's _plain_sweep and _Sweep.hand_on, statement for
 * statement, on the same objects, included by _fastpath.c (whose statics it uses). A node with
 * hooks, several outputs or no gradient, and anomaly mode, go to _Sweep.run as in the Python
 * loop; gradients that are not a tuple matching next_functions go to _Sweep.hand_on. The
 * references held at each call are the Python loop's, so that the reference counts _add_into
 * and AccumulateGrad.accumulate read (who else holds an array) come out the same. */

static PyObject *accumulate_grad_cls; /* node.AccumulateGrad */
static PyObject *py_heappush, *py_heappop; /* heapq.heappush, heapq.heappop */
static PyObject *py_add_into;       /* backward._add_into(buffer, g) */
static PyObject *py_sum;            /* backward._sum(previous, g) */
static PyObject *py_validate_grad;  /* backward._validate_grad(node, i, g, F) */
static PyObject *py_deposit_slot;   /* backward._deposit_slot(buffers, node, slot, g) */
static PyObject *s_pre_hooks, *s_retain_grad_ref, *s_node_pre_hooks, *s_post_hooks,
    *s_variable, *s_hooks, *s_accumulate, *s_call_backward, *s_run, *s_hand_on, *s_np,
    *s_ready, *s_buffers, *s_dependencies, *s_tie, *s_F, *s_retain_graph;

/* node.<name> for what the sweep reads of a node (its hooks, edges, metadata, leaf): what
 * PyObject_GetAttr finds, by object.__getattribute__'s lookup itself. PyObject_GetAttr goes
 * through Node.__getattr__'s slot first (two type lookups a read, and in 3.11 a miss's
 * AttributeError formatted before the hook runs), and that hook answers only PyTorch's
 * _saved_ and _raw_saved_ names, which the sweep never reads; no gradsh class overrides
 * __getattribute__. */
static PyObject *node_attr(PyObject *node, PyObject *name)
{
    return PyObject_GenericGetAttr(node, name);
}

/* `bool(node.<name>)` */
static int node_truth(PyObject *node, PyObject *name)
{
    PyObject *v = node_attr(node, name);
    if (v == NULL) return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

/* `node.<name> is not None` */
static int not_none_attr(PyObject *o, PyObject *name)
{
    PyObject *v = node_attr(o, name);
    if (v == NULL) return -1;
    int r = v != Py_None;
    Py_DECREF(v);
    return r;
}

/* `node.<name> != 1` */
static int not_one_attr(PyObject *o, PyObject *name)
{
    PyObject *v = node_attr(o, name);
    if (v == NULL) return -1;
    int r = PyObject_RichCompareBool(v, one, Py_NE);
    Py_DECREF(v);
    return r;
}

/* hand_on's meta check: `metas[i] if metas is not None and g.__class__ is np.ndarray else
 * False`, then whether _validate_grad must see g (1), or it fits (0) */
static int needs_validation(PyObject *metas, Py_ssize_t i, PyObject *g)
{
    if (metas == Py_None || (PyObject *)Py_TYPE(g) != ndarray_type) return 1;
    PyObject *index = PyLong_FromSsize_t(i);
    if (index == NULL) return -1;
    PyObject *meta = PyObject_GetItem(metas, index);
    Py_DECREF(index);
    if (meta == NULL) return -1;
    if (meta == Py_False) {
        Py_DECREF(meta);
        return 1;
    }
    if (meta == Py_None) {
        Py_DECREF(meta);
        return 0;
    }
    /* not (g.shape == meta[0] and g.dtype == meta[1].np and meta[2] == "cpu") */
    int fits = 0;
    PyObject *shape = NULL, *want = NULL, *dtype = NULL, *kind = NULL, *np_dtype = NULL,
             *device = NULL;
    if ((shape = PyObject_GetAttr(g, s_shape)) == NULL ||
        (want = PySequence_GetItem(meta, 0)) == NULL)
        goto done;
    fits = PyObject_RichCompareBool(shape, want, Py_EQ);
    if (fits != 1) goto done;
    if ((dtype = PyObject_GetAttr(g, s_dtype)) == NULL ||
        (kind = PySequence_GetItem(meta, 1)) == NULL ||
        (np_dtype = PyObject_GetAttr(kind, s_np)) == NULL) {
        fits = -1;
        goto done;
    }
    fits = PyObject_RichCompareBool(dtype, np_dtype, Py_EQ);
    if (fits != 1) goto done;
    if ((device = PySequence_GetItem(meta, 2)) == NULL) {
        fits = -1;
        goto done;
    }
    fits = PyObject_RichCompareBool(device, s_cpu, Py_EQ);
done:
    Py_XDECREF(shape);
    Py_XDECREF(want);
    Py_XDECREF(dtype);
    Py_XDECREF(kind);
    Py_XDECREF(np_dtype);
    Py_XDECREF(device);
    Py_DECREF(meta);
    return fits < 0 ? -1 : !fits;
}

/* One gradient g for the edge (child, slot): into the child's buffer (hand_on's loop body up
 * to the dependency count). Steals the reference to g. */
static int deposit(PyObject *buffers, PyObject *child, PyObject *slot, PyObject *g)
{
    int several = not_one_attr(child, s_num_outputs);
    if (several < 0) goto fail;
    if (several) {
        PyObject *r = PyObject_CallFunctionObjArgs(py_deposit_slot, buffers, child, slot, g,
                                                   NULL);
        if (r == NULL) goto fail;
        Py_DECREF(r);
        Py_DECREF(g);
        return 0;
    }
    PyObject *previous = PyDict_GetItemWithError(buffers, child);
    if (previous == NULL) {
        if (PyErr_Occurred()) goto fail;
        int r = PyDict_SetItem(buffers, child, g);
        Py_DECREF(g);
        return r;
    }
    Py_INCREF(previous); /* (hand_on's `previous`: one of the references _add_into counts) */
    PyObject *args[2] = {previous, g};
    PyObject *added = PyObject_Vectorcall(py_add_into, args, 2, NULL);
    int done = added == NULL ? -1 : PyObject_IsTrue(added);
    Py_XDECREF(added);
    if (done == 0) {
        PyObject *sum = PyObject_Vectorcall(py_sum, args, 2, NULL);
        done = sum == NULL ? -1 : PyDict_SetItem(buffers, child, sum);
        Py_XDECREF(sum);
    }
    Py_DECREF(previous);
    Py_DECREF(g);
    return done < 0 ? -1 : 0;
fail:
    Py_DECREF(g);
    return -1;
}

/* `remaining = dependencies[child] - 1`, stored; a child whose inputs are all in goes on the
 * heap: (-child.sequence_nr, next(tie), child) */
static int count_down(PyObject *dependencies, PyObject *ready_list, PyObject *tie,
                      PyObject *child)
{
    PyObject *count = PyObject_GetItem(dependencies, child);
    if (count == NULL) return -1;
    PyObject *remaining = PyNumber_Subtract(count, one);
    Py_DECREF(count);
    if (remaining == NULL) return -1;
    int r = PyObject_SetItem(dependencies, child, remaining);
    int last = r < 0 ? -1 : PyObject_RichCompareBool(remaining, zero, Py_EQ);
    Py_DECREF(remaining);
    if (last <= 0) return last;
    PyObject *nr = node_attr(child, s_sequence_nr);
    if (nr == NULL) return -1;
    PyObject *key = PyNumber_Negative(nr);
    Py_DECREF(nr);
    if (key == NULL) return -1;
    PyObject *number = PyIter_Next(tie);
    if (number == NULL) {
        Py_DECREF(key);
        if (!PyErr_Occurred()) PyErr_SetNone(PyExc_StopIteration);
        return -1;
    }
    PyObject *entry = PyTuple_Pack(3, key, number, child);
    Py_DECREF(key);
    Py_DECREF(number);
    if (entry == NULL) return -1;
    PyObject *pushed = PyObject_CallFunctionObjArgs(py_heappush, ready_list, entry, NULL);
    Py_DECREF(entry);
    if (pushed == NULL) return -1;
    Py_DECREF(pushed);
    return 0;
}

/* _Sweep.hand_on(node, grads) */
static int hand_on(PyObject *sweep, PyObject *node, PyObject *grads, PyObject *buffers,
                   PyObject *dependencies, PyObject *ready_list, PyObject *tie, PyObject *F)
{
    PyObject *edges = node_attr(node, s_next_functions);
    if (edges == NULL) return -1;
    Py_ssize_t n = PyTuple_CheckExact(edges) ? PyTuple_GET_SIZE(edges) : -1;
    int plain = n >= 0 && PyTuple_CheckExact(grads) && PyTuple_GET_SIZE(grads) == n;
    for (Py_ssize_t i = 0; plain && i < n; i++) {
        PyObject *e = PyTuple_GET_ITEM(edges, i);
        plain = PyTuple_CheckExact(e) && PyTuple_GET_SIZE(e) == 2;
    }
    if (!plain) { /* (zip's errors, edges of other kinds: the Python code) */
        Py_DECREF(edges);
        PyObject *r = PyObject_CallMethodObjArgs(sweep, s_hand_on, node, grads, NULL);
        if (r == NULL) return -1;
        Py_DECREF(r);
        return 0;
    }
    PyObject *metas = node_attr(node, s_input_meta); /* getattr(node, "input_meta", None) */
    if (metas == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
            Py_DECREF(edges);
            return -1;
        }
        PyErr_Clear();
        metas = Py_NewRef(Py_None);
    }
    int status = 0;
    for (Py_ssize_t i = 0; i < n && status == 0; i++) {
        PyObject *e = PyTuple_GET_ITEM(edges, i);
        PyObject *child = PyTuple_GET_ITEM(e, 0), *slot = PyTuple_GET_ITEM(e, 1);
        PyObject *g = PyTuple_GET_ITEM(grads, i);
        if (child == Py_None) continue;
        Py_INCREF(child);
        if (g != Py_None) {
            Py_INCREF(g);
            int check = needs_validation(metas, i, g);
            if (check > 0) {
                PyObject *index = PyLong_FromSsize_t(i);
                PyObject *valid = index == NULL ? NULL : PyObject_CallFunctionObjArgs(
                    py_validate_grad, node, index, g, F, NULL);
                Py_XDECREF(index);
                Py_SETREF(g, valid);
            }
            if (check < 0 || g == NULL) {
                Py_XDECREF(g);
                status = -1;
            } else {
                status = deposit(buffers, child, slot, g);
            }
        }
        if (status == 0) status = count_down(dependencies, ready_list, tie, child);
        Py_DECREF(child);
    }
    Py_DECREF(metas);
    Py_DECREF(edges);
    return status;
}

/* node.pre_hooks or node.retain_grad_ref is not None or node.node_pre_hooks or
 * node.post_hooks or node.num_outputs != 1 or Anomaly.enabled: the node goes to _Sweep.run */
static int needs_run(PyObject *node)
{
    int r;
    if ((r = node_truth(node, s_pre_hooks)) != 0) return r;
    if ((r = not_none_attr(node, s_retain_grad_ref)) != 0) return r;
    if ((r = node_truth(node, s_node_pre_hooks)) != 0) return r;
    if ((r = node_truth(node, s_post_hooks)) != 0) return r;
    if ((r = not_one_attr(node, s_num_outputs)) != 0) return r;
    return truth_attr(anomaly, s_enabled);
}

/* A method call with its arguments, the result dropped: 0, or -1 with the error set */
static int call_method(PyObject *obj, PyObject *name, PyObject *a, PyObject *b)
{
    PyObject *args[3] = {obj, a, b};
    size_t count = a == NULL ? 1 : b == NULL ? 2 : 3;
    PyObject *r = PyObject_VectorcallMethod(name, args, count | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                            NULL);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

/* One node of the sweep, its gradient `grad` (a reference this holds for the whole step, as
 * the Python loop's variable does) */
static int sweep_node(PyObject *sweep, PyObject *node, PyObject *grad, int release,
                      PyObject *buffers, PyObject *dependencies, PyObject *ready_list,
                      PyObject *tie, PyObject *F)
{
    int run = grad == Py_None ? 1 : needs_run(node);
    if (run != 0) return run < 0 ? -1 : call_method(sweep, s_run, node, grad);
    if ((PyObject *)Py_TYPE(node) == accumulate_grad_cls) {
        PyObject *leaf = node_attr(node, s_variable);
        if (leaf == NULL) return -1;
        int hooked = truth_attr(leaf, s_hooks);
        Py_DECREF(leaf);
        if (hooked < 0) return -1;
        return hooked ? call_method(sweep, s_run, node, grad)
                      : call_method(node, s_accumulate, grad, Py_False);
    }
    PyObject *args[3] = {node, F, grad};
    PyObject *grads = PyObject_VectorcallMethod(
        s_call_backward, args, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    if (grads == NULL) return -1;
    int status = release ? call_method(node, s_release_variables, NULL, NULL) : 0;
    if (status == 0)
        status = hand_on(sweep, node, grads, buffers, dependencies, ready_list, tie, F);
    Py_DECREF(grads); /* (then the buffers' alone: a leaf can take its own) */
    return status;
}

/* plain_sweep(sweep): backward._plain_sweep */
static PyObject *fp_plain_sweep(PyObject *self, PyObject *sweep)
{
    (void)self;
    if (accumulate_grad_cls == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastpath.init_sweep was not called");
        return NULL;
    }
    PyObject *ready_list = NULL, *buffers = NULL, *dependencies = NULL, *tie = NULL, *F = NULL,
             *keep = NULL;
    int status = -1;
    if ((ready_list = PyObject_GetAttr(sweep, s_ready)) == NULL ||
        (buffers = PyObject_GetAttr(sweep, s_buffers)) == NULL ||
        (dependencies = PyObject_GetAttr(sweep, s_dependencies)) == NULL ||
        (tie = PyObject_GetAttr(sweep, s_tie)) == NULL ||
        (F = PyObject_GetAttr(sweep, s_F)) == NULL ||
        (keep = PyObject_GetAttr(sweep, s_retain_graph)) == NULL)
        goto done;
    int release = PyObject_Not(keep);
    if (release < 0) goto done;
    if (!PyList_Check(ready_list) || !PyDict_CheckExact(buffers)) {
        PyErr_SetString(PyExc_TypeError, "plain_sweep: ready must be a list, buffers a dict");
        goto done;
    }
    status = 0;
    while (status == 0 && PyList_GET_SIZE(ready_list) > 0) {
        PyObject *entry = PyObject_CallOneArg(py_heappop, ready_list);
        if (entry == NULL) {
            status = -1;
            break;
        }
        PyObject *node = PySequence_GetItem(entry, 2);
        Py_DECREF(entry);
        if (node == NULL) {
            status = -1;
            break;
        }
        /* grad = buffers.pop(node, None) */
        PyObject *grad = PyDict_GetItemWithError(buffers, node);
        if (grad != NULL) {
            Py_INCREF(grad);
            status = PyDict_DelItem(buffers, node);
        } else if (PyErr_Occurred()) {
            status = -1;
        } else {
            grad = Py_NewRef(Py_None);
        }
        if (status == 0)
            status = sweep_node(sweep, node, grad, release, buffers, dependencies, ready_list,
                                tie, F);
        Py_XDECREF(grad);
        Py_DECREF(node);
    }
done:
    Py_XDECREF(ready_list);
    Py_XDECREF(buffers);
    Py_XDECREF(dependencies);
    Py_XDECREF(tie);
    Py_XDECREF(F);
    Py_XDECREF(keep);
    if (status < 0) return NULL;
    Py_RETURN_NONE;
}

/* dependencies(roots): backward._dependencies, how many edges enter each node reachable from
 * `roots` (a list), in the same order of visits (an explicit stack, popped from its end) so
 * that the dict's order is the Python function's */
static PyObject *fp_dependencies(PyObject *self, PyObject *roots)
{
    (void)self;
    if (!PyList_Check(roots)) {
        PyErr_SetString(PyExc_TypeError, "dependencies() takes a list");
        return NULL;
    }
    PyObject *dependencies = PyDict_New(), *seen = PySet_New(roots), *stack = NULL;
    if (dependencies == NULL || seen == NULL) goto fail;
    stack = PySequence_List(seen);  /* list(seen) */
    if (stack == NULL) goto fail;
    while (PyList_GET_SIZE(stack) > 0) {
        Py_ssize_t last = PyList_GET_SIZE(stack) - 1;
        PyObject *node = Py_NewRef(PyList_GET_ITEM(stack, last));
        if (PyList_SetSlice(stack, last, last + 1, NULL) < 0) {
            Py_DECREF(node);
            goto fail;
        }
        PyObject *edges = node_attr(node, s_next_functions);
        Py_DECREF(node);
        if (edges == NULL) goto fail;
        PyObject *iter = PyObject_GetIter(edges);
        Py_DECREF(edges);
        if (iter == NULL) goto fail;
        PyObject *edge;
        while ((edge = PyIter_Next(iter)) != NULL) {
            PyObject *child;
            if (PyTuple_CheckExact(edge) && PyTuple_GET_SIZE(edge) == 2) {
                child = Py_NewRef(PyTuple_GET_ITEM(edge, 0));
            } else {  /* `for child, _ in ...`: any pair */
                PyObject *pair = PySequence_Tuple(edge);
                if (pair == NULL || PyTuple_GET_SIZE(pair) != 2) {
                    if (pair != NULL)
                        PyErr_SetString(PyExc_ValueError, "an edge is not a pair");
                    Py_XDECREF(pair);
                    Py_DECREF(edge);
                    Py_DECREF(iter);
                    goto fail;
                }
                child = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
                Py_DECREF(pair);
            }
            Py_DECREF(edge);
            int status = 0;
            if (child != Py_None) {
                PyObject *count = PyDict_GetItemWithError(dependencies, child);
                if (count != NULL) {
                    PyObject *more = PyNumber_Add(count, one);
                    status = more == NULL ? -1 : PyDict_SetItem(dependencies, child, more);
                    Py_XDECREF(more);
                } else if (PyErr_Occurred()) {
                    status = -1;
                } else {
                    status = PyDict_SetItem(dependencies, child, one);
                    if (status == 0) {
                        int known = PySet_Contains(seen, child);
                        if (known < 0)
                            status = -1;
                        else if (!known && (PySet_Add(seen, child) < 0 ||
                                            PyList_Append(stack, child) < 0))
                            status = -1;
                    }
                }
            }
            Py_DECREF(child);
            if (status < 0) {
                Py_DECREF(iter);
                goto fail;
            }
        }
        Py_DECREF(iter);
        if (PyErr_Occurred()) goto fail;
    }
    Py_DECREF(seen);
    Py_DECREF(stack);
    return dependencies;
fail:
    Py_XDECREF(dependencies);
    Py_XDECREF(seen);
    Py_XDECREF(stack);
    return NULL;
}

/* init_sweep(config): what the sweep calls (fastpath.py) */
static PyObject *fp_init_sweep(PyObject *self, PyObject *config)
{
    (void)self;
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "init_sweep() takes a dict");
        return NULL;
    }
    if (take(config, "AccumulateGrad", &accumulate_grad_cls) < 0 ||
        take(config, "heappush", &py_heappush) < 0 || take(config, "heappop", &py_heappop) < 0 ||
        take(config, "add_into", &py_add_into) < 0 || take(config, "sum", &py_sum) < 0 ||
        take(config, "validate_grad", &py_validate_grad) < 0 ||
        take(config, "deposit_slot", &py_deposit_slot) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static int intern_sweep_names(void)
{
#define SWEEP_NAME(var, text) if ((var = PyUnicode_InternFromString(text)) == NULL) return -1
    SWEEP_NAME(s_pre_hooks, "pre_hooks");
    SWEEP_NAME(s_retain_grad_ref, "retain_grad_ref");
    SWEEP_NAME(s_node_pre_hooks, "node_pre_hooks");
    SWEEP_NAME(s_post_hooks, "post_hooks");
    SWEEP_NAME(s_variable, "variable");
    SWEEP_NAME(s_hooks, "_hooks");
    SWEEP_NAME(s_accumulate, "accumulate");
    SWEEP_NAME(s_call_backward, "call_backward");
    SWEEP_NAME(s_run, "run");
    SWEEP_NAME(s_hand_on, "hand_on");
    SWEEP_NAME(s_np, "np");
    SWEEP_NAME(s_ready, "ready");
    SWEEP_NAME(s_buffers, "buffers");
    SWEEP_NAME(s_dependencies, "dependencies");
    SWEEP_NAME(s_tie, "tie");
    SWEEP_NAME(s_F, "F");
    SWEEP_NAME(s_retain_graph, "retain_graph");
#undef SWEEP_NAME
    return 0;
}
