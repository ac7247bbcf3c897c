/* gradsh's optional compiled kernels: the exact float32 multiply-add chains that sgemm.py
 * emulates with float64 NumPy steps (MKL's sgemm/sgemv/sdot orders, ATen's unfused bmm loop).
 *
 * Every output is computed by the same sequence of IEEE float32 operations as the NumPy path:
 * fmaf for each fused step (one rounding), a plain float32 * or + for each unfused one. The
 * build turns contraction off (-ffp-contract=off) so that no a * b + c is fused behind our back;
 * the loops vectorise across independent outputs only, never reorder one output's chain. So the
 * bits do not depend on the instruction set: the AVX-512 and AVX2+FMA copies run vfmadd, the
 * portable copy calls libm's fmaf, all exact. `use(name)` forces a copy (the tests compare them).
 *
 * Buffers come in as C-contiguous float32 (sgemm.py's wrappers in native.py make them so); the
 * kernels run without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#endif

typedef Py_ssize_t idx_t;

#if defined(_MSC_VER)
#define INLINE static __forceinline
#else
#define INLINE static inline __attribute__((always_inline))
#endif

#if defined(__GNUC__) && !defined(__clang__)
#define IVDEP _Pragma("GCC ivdep")
#else
#define IVDEP
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define GRADSH_X86 1
#endif

/* ---------------------------------------------------------------------------------------- */
/* The kernels, written once and instantiated per instruction set below.                     */

#include "_native_products.h"
#include "_native_elementwise.h"

/* ---------------------------------------------------------------------------------------- */
/* One copy of every kernel per instruction set.                                              */

typedef struct {
    const char *name;
    void (*chain)(float *, const float *, const float *, idx_t, idx_t, idx_t, idx_t, idx_t);
    void (*dot_rows)(float *, const float *, const float *, idx_t, idx_t, idx_t, int);
    void (*gemv)(float *, const float *, const float *, idx_t, idx_t, idx_t);
    float (*sdot)(const float *, const float *, idx_t);
    void (*axpy)(float *, const float *, const float *, idx_t, idx_t);
    void (*unfused)(float *, const float *, const float *, idx_t, idx_t, idx_t, idx_t);
    void (*fma)(float *, const float *, const float *, const float *, idx_t, idx_t, idx_t, idx_t);
    void (*block_sums)(float *, const float *, idx_t, idx_t, idx_t, idx_t, int);
    void (*expf)(float *, const float *, idx_t);
    void (*logf)(float *, const float *, idx_t);
} Level;

#define DEFINE_LEVEL(SUFFIX, ATTRIBUTE, WIDTH)                                                   \
    ATTRIBUTE static void chain_##SUFFIX(float *o, const float *a, const float *b, idx_t m,      \
                                         idx_t n, idx_t lda, idx_t k0, idx_t k1)                 \
    { chain_body(o, a, b, m, n, lda, k0, k1, chain_tile_##SUFFIX, WIDTH); }                      \
    ATTRIBUTE static void dot_rows_##SUFFIX(float *o, const float *a, const float *bt, idx_t m,  \
                                            idx_t n, idx_t k, int peel)                          \
    { dot_rows_body(o, a, bt, m, n, k, peel); }                                                  \
    ATTRIBUTE static void gemv_##SUFFIX(float *o, const float *a, const float *bt, idx_t m,      \
                                        idx_t n, idx_t k)                                        \
    { gemv_body(o, a, bt, m, n, k); }                                                            \
    ATTRIBUTE static float sdot_##SUFFIX(const float *x, const float *y, idx_t k)                \
    { return sdot_body(x, y, k); }                                                               \
    ATTRIBUTE static void axpy_##SUFFIX(float *y, const float *x, const float *rows, idx_t k,    \
                                        idx_t n)                                                 \
    { axpy_body(y, x, rows, k, n); }                                                             \
    ATTRIBUTE static void unfused_##SUFFIX(float *o, const float *a, const float *b,            \
                                           idx_t batch, idx_t m, idx_t n, idx_t k)               \
    { unfused_body(o, a, b, batch, m, n, k); }                                                   \
    ATTRIBUTE static void fma_##SUFFIX(float *o, const float *a, const float *b, const float *c, \
                                       idx_t count, idx_t sa, idx_t sb, idx_t sc)                \
    { fma_body(o, a, b, c, count, sa, sb, sc); }                                                 \
    ATTRIBUTE static void block_sums_##SUFFIX(float *o, const float *x, idx_t rows, idx_t size0, \
                                              idx_t s0, idx_t s1, int kind)                      \
    { block_sums_body(o, x, rows, size0, s0, s1, kind); }                                        \
    ATTRIBUTE static void expf_##SUFFIX(float *o, const float *x, idx_t count)                  \
    { expf_body(o, x, count); }                                                                  \
    ATTRIBUTE static void logf_##SUFFIX(float *o, const float *x, idx_t count)                  \
    { logf_body(o, x, count); }

#define LEVEL_ENTRY(NAME, SUFFIX)                                                                \
    { NAME, chain_##SUFFIX, dot_rows_##SUFFIX, gemv_##SUFFIX, sdot_##SUFFIX, axpy_##SUFFIX,       \
      unfused_##SUFFIX, fma_##SUFFIX, block_sums_##SUFFIX, expf_##SUFFIX, logf_##SUFFIX }

DEFINE_LEVEL(portable, , 4)
#ifdef GRADSH_X86
DEFINE_LEVEL(avx2, __attribute__((target("avx2,fma"))), 16)
DEFINE_LEVEL(avx512, __attribute__((target("avx512f,avx2,fma"))), 32)
#endif

/* Best first; `portable` runs anywhere. */
static const Level LEVELS[] = {
#ifdef GRADSH_X86
    LEVEL_ENTRY("avx512f", avx512),
    LEVEL_ENTRY("avx2", avx2),
#endif
    LEVEL_ENTRY("portable", portable),
};
#define LEVEL_COUNT ((int)(sizeof LEVELS / sizeof LEVELS[0]))

static const Level *current = &LEVELS[LEVEL_COUNT - 1];

static int supported(const Level *level)
{
#ifdef GRADSH_X86
    __builtin_cpu_init();
    if (strcmp(level->name, "avx512f") == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2")
               && __builtin_cpu_supports("fma");
    if (strcmp(level->name, "avx2") == 0)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    (void)level;
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* Python entry points: buffers checked for size, then the kernel without the GIL.           */

/* Whether `view` holds at least `count` floats; sets ValueError otherwise. */
static int holds(Py_buffer *view, idx_t count, const char *what)
{
    if (count < 0 || view->len / (idx_t)sizeof(float) < count) {
        PyErr_Format(PyExc_ValueError, "%s: buffer too small", what);
        return 0;
    }
    return 1;
}

static PyObject *py_chain(PyObject *self, PyObject *args)
{
    Py_buffer out, a, b;
    idx_t m, n, lda, k0, k1;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*y*nnnnn", &out, &a, &b, &m, &n, &lda, &k0, &k1))
        return NULL;
    int ok = m >= 0 && n >= 0 && 0 <= k0 && k0 <= k1 && k1 <= lda && holds(&out, m * n, "out")
             && holds(&a, m * lda, "a") && holds(&b, k1 * n, "b");
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        current->chain(out.buf, a.buf, b.buf, m, n, lda, k0, k1);
        Py_END_ALLOW_THREADS
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "chain: bad sizes");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* dot_rows(out, a, bt, m, n, k, peel) and gemv(out, a, bt, m, n, k): a is m x k, bt is n x k. */
static PyObject *rows_call(PyObject *args, int gemv)
{
    Py_buffer out, a, bt;
    idx_t m, n, k;
    int peel = 0;
    if (gemv ? !PyArg_ParseTuple(args, "w*y*y*nnn", &out, &a, &bt, &m, &n, &k)
             : !PyArg_ParseTuple(args, "w*y*y*nnnp", &out, &a, &bt, &m, &n, &k, &peel))
        return NULL;
    int ok = m >= 0 && n >= 0 && k >= 1 && holds(&out, m * n, "out") && holds(&a, m * k, "a")
             && holds(&bt, n * k, "bt");
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        if (gemv)
            current->gemv(out.buf, a.buf, bt.buf, m, n, k);
        else
            current->dot_rows(out.buf, a.buf, bt.buf, m, n, k, peel);
        Py_END_ALLOW_THREADS
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "dot kernel: bad sizes");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&a);
    PyBuffer_Release(&bt);
    return ok ? Py_NewRef(Py_None) : NULL;
}

static PyObject *py_dot_rows(PyObject *self, PyObject *args)
{
    (void)self;
    return rows_call(args, 0);
}

static PyObject *py_gemv(PyObject *self, PyObject *args)
{
    (void)self;
    return rows_call(args, 1);
}

static PyObject *py_sdot(PyObject *self, PyObject *args)
{
    Py_buffer x, y;
    idx_t k;
    float result = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*n", &x, &y, &k))
        return NULL;
    int ok = holds(&x, k, "x") && holds(&y, k, "y");
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        result = current->sdot(x.buf, y.buf, k);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    return ok ? PyFloat_FromDouble((double)result) : NULL;
}

static PyObject *py_axpy(PyObject *self, PyObject *args)
{
    Py_buffer y, x, rows;
    idx_t k, n;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*y*nn", &y, &x, &rows, &k, &n))
        return NULL;
    int ok = holds(&y, n, "y") && holds(&x, k, "x") && holds(&rows, k * n, "rows");
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        current->axpy(y.buf, x.buf, rows.buf, k, n);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&y);
    PyBuffer_Release(&x);
    PyBuffer_Release(&rows);
    return ok ? Py_NewRef(Py_None) : NULL;
}

static PyObject *py_unfused(PyObject *self, PyObject *args)
{
    Py_buffer out, a, b;
    idx_t batch, m, n, k;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*y*nnnn", &out, &a, &b, &batch, &m, &n, &k))
        return NULL;
    int ok = batch >= 0 && m >= 0 && n >= 0 && k >= 0 && holds(&out, batch * m * n, "out")
             && holds(&a, batch * m * k, "a") && holds(&b, batch * k * n, "b");
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        current->unfused(out.buf, a.buf, b.buf, batch, m, n, k);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* fma(out, a, b, c, count): each of a, b, c holds `count` floats or one (broadcast). */
static PyObject *py_fma(PyObject *self, PyObject *args)
{
    Py_buffer out, a, b, c;
    idx_t count;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*y*y*n", &out, &a, &b, &c, &count))
        return NULL;
    idx_t floats[3] = {a.len / (idx_t)sizeof(float), b.len / (idx_t)sizeof(float),
                       c.len / (idx_t)sizeof(float)};
    idx_t steps[3];
    int ok = holds(&out, count, "out");
    for (int i = 0; ok && i < 3; i++) {
        steps[i] = floats[i] >= count ? 1 : 0;
        if (!steps[i] && floats[i] != 1) {
            PyErr_SetString(PyExc_ValueError, "fma: an operand of neither count floats nor one");
            ok = 0;
        }
    }
    if (ok && count > 0) {
        Py_BEGIN_ALLOW_THREADS
        current->fma(out.buf, a.buf, b.buf, c.buf, count, steps[0], steps[1], steps[2]);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&c);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* block_sums(out, block, s0, s1): block is a float32 array (any strides, at least 2-D) of
 * (..., size1, size0); out a contiguous float32 buffer of its size1 * ... sums; s0, s1 the
 * strides (elements) that choose the kernel, as cascade_sum.py's _block_sums. */
static PyObject *py_block_sums(PyObject *self, PyObject *args)
{
    Py_buffer out, block;
    PyObject *source;
    idx_t s0, s1;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*Onn", &out, &source, &s0, &s1))
        return NULL;
    if (PyObject_GetBuffer(source, &block, PyBUF_STRIDED_RO | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&out);
        return NULL;
    }
    int ok = 1, nd = block.ndim;
    if (nd < 2 || nd > 16 || block.itemsize != 4 || strcmp(block.format, "f") != 0) {
        PyErr_SetString(PyExc_ValueError, "block_sums: a float32 array of 2 to 16 dimensions");
        ok = 0;
    }
    idx_t outer = 1, strides[16];
    for (int d = 0; ok && d < nd; d++) {
        if (block.strides[d] % 4 != 0 || block.strides[d] < 0) {
            PyErr_SetString(PyExc_ValueError, "block_sums: strides of whole, forward elements");
            ok = 0;
        }
        strides[d] = block.strides[d] / 4;
        if (d < nd - 2)
            outer *= block.shape[d];
    }
    idx_t size0 = ok ? block.shape[nd - 1] : 0, size1 = ok ? block.shape[nd - 2] : 0;
    ok = ok && holds(&out, outer * size1, "out");
    if (ok && outer * size1 > 0) {
        int kind = s0 == 1 && size0 >= SUM_WIDTH   ? 0
                   : s1 == 1 && size1 >= SUM_WIDTH ? 1
                   : s0 < s1                        ? 2
                                                    : 3;
        idx_t e0 = strides[nd - 1], e1 = strides[nd - 2];
        Py_BEGIN_ALLOW_THREADS
        idx_t index[16] = {0};
        for (idx_t o = 0; o < outer; o++) {
            const float *base = block.buf;
            idx_t rest = o;
            for (int d = nd - 3; d >= 0; d--) {
                index[d] = rest % block.shape[d];
                rest /= block.shape[d];
                base += index[d] * strides[d];
            }
            current->block_sums((float *)out.buf + o * size1, base, size1, size0, e0, e1, kind);
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&block);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* expf(out, x, count) and logf(out, x, count): SLEEF's routines element-wise. */
static PyObject *unary_call(PyObject *args, int which)
{
    Py_buffer out, x;
    idx_t count;
    if (!PyArg_ParseTuple(args, "w*y*n", &out, &x, &count))
        return NULL;
    int ok = holds(&out, count, "out") && holds(&x, count, "x");
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        (which ? current->logf : current->expf)(out.buf, x.buf, count);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&x);
    return ok ? Py_NewRef(Py_None) : NULL;
}

static PyObject *py_expf(PyObject *self, PyObject *args)
{
    (void)self;
    return unary_call(args, 0);
}

static PyObject *py_logf(PyObject *self, PyObject *args)
{
    (void)self;
    return unary_call(args, 1);
}

static PyObject *py_levels(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *names = PyList_New(0);
    for (int i = 0; names && i < LEVEL_COUNT; i++) {
        if (!supported(&LEVELS[i]))
            continue;
        PyObject *name = PyUnicode_FromString(LEVELS[i].name);
        if (!name || PyList_Append(names, name) < 0) {
            Py_XDECREF(name);
            Py_CLEAR(names);
            break;
        }
        Py_DECREF(name);
    }
    return names;
}

static PyObject *py_level(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(current->name);
}

static PyObject *py_use(PyObject *self, PyObject *args)
{
    const char *name;
    (void)self;
    if (!PyArg_ParseTuple(args, "s", &name))
        return NULL;
    for (int i = 0; i < LEVEL_COUNT; i++) {
        if (strcmp(LEVELS[i].name, name) != 0)
            continue;
        if (!supported(&LEVELS[i])) {
            PyErr_Format(PyExc_ValueError, "this CPU cannot run the %s kernels", name);
            return NULL;
        }
        current = &LEVELS[i];
        return Py_NewRef(Py_None);
    }
    PyErr_Format(PyExc_ValueError, "no kernels named %s", name);
    return NULL;
}

#include "_native_rounded.h"
#include "_native_sort.h"

static PyMethodDef METHODS[] = {
    {"chain", py_chain, METH_VARARGS,
     "chain(out, a, b, m, n, lda, k0, k1): out += the fused chains over k0..k1 (in place)"},
    {"dot_rows", py_dot_rows, METH_VARARGS,
     "dot_rows(out, a, bt, m, n, k, peel): MKL's 16-lane dot kernel on every row pair"},
    {"gemv", py_gemv, METH_VARARGS, "gemv(out, a, bt, m, n, k): MKL's sgemv dot form"},
    {"sdot", py_sdot, METH_VARARGS, "sdot(x, y, k) -> float: MKL's sdot"},
    {"axpy", py_axpy, METH_VARARGS, "axpy(y, x, rows, k, n): MKL's sgemv axpy form, in place"},
    {"unfused", py_unfused, METH_VARARGS,
     "unfused(out, a, b, batch, m, n, k): ATen's small bmm loop"},
    {"fma", py_fma, METH_VARARGS,
     "fma(out, a, b, c, count): out = fmaf(a, b, c) element-wise (one-float operands broadcast)"},
    {"block_sums", py_block_sums, METH_VARARGS,
     "block_sums(out, block, s0, s1): ATen's float32 cascade sums along the last axis"},
    {"rounded", py_rounded, METH_VARARGS,
     "rounded(kind, out, flags, x, count): tanh or exp via float64; the doubtful positions"},
    {"std_sort", py_std_sort, METH_VARARGS,
     "std_sort(kind, keys, order, n, descending): libstdc++'s std::sort of (key, index) pairs"},
    {"tanh_backward", py_tanh_backward, METH_VARARGS,
     "tanh_backward(out, g, y, count): g * fma(-y, y, 1)"},
    {"expf", py_expf, METH_VARARGS, "expf(out, x, count): SLEEF's expf (u10), NaN left as NaN"},
    {"logf", py_logf, METH_VARARGS, "logf(out, x, count): SLEEF's logf (u10), NaN left as NaN"},
    {"levels", py_levels, METH_NOARGS, "the instruction sets this CPU runs, best first"},
    {"level", py_level, METH_NOARGS, "the instruction set in use"},
    {"use", py_use, METH_VARARGS, "use(name): run the kernels compiled for `name`"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_native", "gradsh's compiled exact float32 kernels", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void)
{
    for (int i = 0; i < LEVEL_COUNT; i++)
        if (supported(&LEVELS[i])) {
            current = &LEVELS[i];
            break;
        }
    return PyModule_Create(&MODULE);
}
