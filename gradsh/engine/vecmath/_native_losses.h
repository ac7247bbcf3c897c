/* The losses' small kernels. nll_sum: nll_loss's total as its kernel adds it (nll_sum.py's
 * _contiguous_cascade_sum, every target counted).
 *
 * log_softmax over the rows of a contiguous float32 matrix, forward and backward, in the
 * order of operations of kernels.py's _log_softmax_rows and log_softmax_backward (ATen's
 * _vec_log_softmax_lastdim, _vec_log_softmax_backward): vecreduce.py's reductions (a left
 * fold below 16 columns, else 16 lanes, a partial last vector folded into the first lanes,
 * then the shuffle tree), SLEEF's expf and logf through the current instruction set's copy.
 *
 * Included by _native.c after `current` and `holds`. A result with a NaN anywhere is not
 * returned (the entry points answer False): NumPy's emulation then decides which NaN, so both
 * paths give the same bits. */

#define LANES 16

/* vec::maximum without NaN (a NaN reaches the result, which is then refused): a unless b is
 * not smaller, so b on a +0/-0 tie. */
INLINE float fold_max(float a, float b)
{
    return a > b ? a : b;
}

/* vecreduce.reduce_last of one row of n floats: the fold of `maximum` (is_max) or of `+`. */
static float reduce_row(const float *x, idx_t n, int is_max)
{
    if (n < LANES) {
        float acc = x[0];
        for (idx_t j = 1; j < n; j++)
            acc = is_max ? fold_max(acc, x[j]) : acc + x[j];
        return acc;
    }
    float acc[LANES], next[LANES];
    memcpy(acc, x, sizeof acc);
    idx_t full = n - n % LANES;
    for (idx_t d = LANES; d < n; d += LANES) {
        idx_t width = d < full ? LANES : n - full;
        for (idx_t l = 0; l < width; l++)
            acc[l] = is_max ? fold_max(acc[l], x[d + l]) : acc[l] + x[d + l];
    }
    for (int step = 8; step >= 1; step /= 2) {
        for (int l = 0; l < LANES; l++)
            next[l] = is_max ? fold_max(acc[l], acc[l ^ step]) : acc[l] + acc[l ^ step];
        memcpy(acc, next, sizeof acc);
    }
    return acc[0];
}

static int any_nan(const float *x, idx_t count)
{
    for (idx_t i = 0; i < count; i++)
        if (x[i] != x[i])
            return 1;
    return 0;
}

/* out = (x - max) - logf(sum(expf(x - max))) per row; scratch holds rows * n + 2 * rows
 * floats. */
static int log_softmax_rows_body(float *out, const float *x, idx_t rows, idx_t n,
                                 float *scratch)
{
    float *e = scratch, *totals = scratch + rows * n, *logs = totals + rows;
    for (idx_t r = 0; r < rows; r++) {
        float mx = reduce_row(x + r * n, n, 1);
        for (idx_t j = 0; j < n; j++)
            out[r * n + j] = x[r * n + j] - mx;
    }
    current->expf(e, out, rows * n);
    for (idx_t r = 0; r < rows; r++)
        totals[r] = reduce_row(e + r * n, n, 0);
    current->logf(logs, totals, rows);
    for (idx_t r = 0; r < rows; r++)
        for (idx_t j = 0; j < n; j++)
            out[r * n + j] = out[r * n + j] - logs[r];
    return !any_nan(out, rows * n);
}

/* out = fmaf(-expf(y), sum(g), g) per row; scratch holds rows * n floats. */
static int log_softmax_backward_rows_body(float *out, const float *g, const float *y,
                                          idx_t rows, idx_t n, float *scratch)
{
    current->expf(scratch, y, rows * n);
    for (idx_t r = 0; r < rows; r++) {
        float total = reduce_row(g + r * n, n, 0);
        for (idx_t j = 0; j < n; j++)
            out[r * n + j] = fmaf(-scratch[r * n + j], total, g[r * n + j]);
    }
    return !any_nan(out, rows * n);
}

/* log_softmax_rows(out, x, rows, n) -> bool and log_softmax_backward_rows(out, g, y, rows, n)
 * -> bool: False where a result is NaN (out then holds nothing to use). */
static PyObject *softmax_call(PyObject *args, int backward)
{
    Py_buffer out, x, y = {0};
    idx_t rows, n;
    int ok = backward ? PyArg_ParseTuple(args, "w*y*y*nn", &out, &x, &y, &rows, &n)
                      : PyArg_ParseTuple(args, "w*y*nn", &out, &x, &rows, &n);
    if (!ok)
        return NULL;
    ok = rows >= 0 && n >= 1 && holds(&out, rows * n, "out") && holds(&x, rows * n, "x")
         && (!backward || holds(&y, rows * n, "y"));
    if (!ok && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "log_softmax rows: bad sizes");
    float *scratch = NULL;
    if (ok) {
        scratch = PyMem_Malloc(((size_t)(rows * n + 2 * rows) + 1) * sizeof(float));
        if (!scratch) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    int clean = 0;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        clean = backward ? log_softmax_backward_rows_body(out.buf, x.buf, y.buf, rows, n, scratch)
                         : log_softmax_rows_body(out.buf, x.buf, rows, n, scratch);
        Py_END_ALLOW_THREADS
    }
    PyMem_Free(scratch);
    PyBuffer_Release(&out);
    PyBuffer_Release(&x);
    if (backward)
        PyBuffer_Release(&y);
    return ok ? PyBool_FromLong(clean) : NULL;
}

static PyObject *py_log_softmax_rows(PyObject *self, PyObject *args)
{
    (void)self;
    return softmax_call(args, 0);
}

static PyObject *py_log_softmax_backward_rows(PyObject *self, PyObject *args)
{
    (void)self;
    return softmax_call(args, 1);
}

#undef LANES

/* 0 + x[0] + x[1] + ... in order (nll_sum.py's _sequential: a -0.0 total becomes 0.0). */
static float sequential(const float *x, idx_t n)
{
    float s = x[0];
    for (idx_t i = 1; i < n; i++)
        s = s + x[i];
    return s + 0.0f;
}

/* nll_sum.py's _contiguous_cascade_sum of n >= 1 values, levels of 2**power; values is
 * overwritten. */
static float nll_sum_body(float *values, idx_t n, int power)
{
    idx_t step = (idx_t)1 << power, size = n;
    float leftovers[8];
    int count = 0;
    for (int level = 0; level < 7 && size > 1; level++) {
        idx_t blocks = (size - 1) / step, tail = size - 1 - blocks * step;
        leftovers[count++] = tail ? sequential(values + 1 + blocks * step, tail) : 0.0f;
        values[0] = values[0] + 0.0f;
        for (idx_t b = 0; b < blocks; b++)
            values[1 + b] = sequential(values + 1 + b * step, step);
        size = 1 + blocks;
    }
    leftovers[count++] = sequential(values, size);
    return sequential(leftovers, count);
}

/* nll_sum(values, n, power) -> float: values a float32 buffer of n >= 1 (left unchanged). */
static PyObject *py_nll_sum(PyObject *self, PyObject *args)
{
    Py_buffer x;
    idx_t n;
    int power;
    float total = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ni", &x, &n, &power))
        return NULL;
    int ok = n >= 1 && power >= 1 && power < 62 && holds(&x, n, "values");
    float *copy = ok ? PyMem_Malloc((size_t)n * sizeof(float)) : NULL;
    if (ok && !copy) {
        PyErr_NoMemory();
        ok = 0;
    } else if (!ok && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "nll_sum: bad sizes");
    }
    if (ok) {
        memcpy(copy, x.buf, (size_t)n * sizeof(float));
        total = nll_sum_body(copy, n, power);
    }
    PyMem_Free(copy);
    PyBuffer_Release(&x);
    return ok ? PyFloat_FromDouble((double)total) : NULL;
}
