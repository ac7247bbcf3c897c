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
#define GEMM_KC 384   /* the longest piece of a chain packed at once (from_c) */
/* b's panels packed at once: 1 measured best on the convolutions' and the MLP's products (a
 * panel and a's tiles stay in the first-level cache); more read longer stretches of b's rows
 * (faster on a product as wide as 144 x 65,536 alone). */
#define GEMM_PANELS 1
#define GEMM_TILES 336 /* a's row tiles packed at once (4,032 rows of AVX-512's 12) */
#include "_native_gemm.h"

/* ---------------------------------------------------------------------------------------- */
/* One copy of every kernel per instruction set.                                              */

typedef struct {
    const char *name;
    void (*gemm)(const Gemm *);
    int mr, nr; /* the tile's rows and columns */
    void (*dot_rows)(float *, const float *, const float *, idx_t, idx_t, idx_t, int);
    void (*gemv)(float *, const float *, const float *, idx_t, idx_t, idx_t);
    float (*sdot)(const float *, const float *, idx_t);
    void (*axpy)(float *, const float *, const float *, idx_t, idx_t);
    void (*unfused)(float *, const float *, const float *, idx_t, idx_t, idx_t, idx_t);
    void (*fma)(float *, const float *, const float *, const float *, idx_t, idx_t, idx_t, idx_t);
    void (*block_sums)(float *, const float *, idx_t, idx_t, idx_t, idx_t, int);
    void (*expf)(float *, const float *, idx_t);
    void (*logf)(float *, const float *, idx_t);
    void (*zero_below)(uint32_t *, const float *, const uint32_t *, idx_t, int);
} Level;

/* zero_below's loop (py_zero_below): +0.0 where x[i] < 0 (<= 0 when inclusive), else the
 * value's own bits: one bit mask an element. */
INLINE void zero_below_body(uint32_t *os, const float *xs, const uint32_t *vs, idx_t count,
                            int inclusive)
{
    if (inclusive) {
        IVDEP for (idx_t i = 0; i < count; i++)
            os[i] = vs[i] & ((uint32_t)(xs[i] <= 0.0f) - 1u);
    } else {
        IVDEP for (idx_t i = 0; i < count; i++)
            os[i] = vs[i] & ((uint32_t)(xs[i] < 0.0f) - 1u);
    }
}

#define DEFINE_LEVEL(SUFFIX, ATTRIBUTE, MR, NR, SIMD)                                            \
    ATTRIBUTE static void gemm_##SUFFIX(const Gemm *g)                                           \
    { gemm_body(g, micro_##SUFFIX, MR, NR, SIMD); }                                              \
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
    { logf_body(o, x, count); }                                                                  \
    ATTRIBUTE static void zero_below_##SUFFIX(uint32_t *o, const float *x, const uint32_t *v,   \
                                              idx_t count, int inclusive)                        \
    { zero_below_body(o, x, v, count, inclusive); }

#define LEVEL_ENTRY(NAME, SUFFIX, MR, NR)                                                        \
    { NAME, gemm_##SUFFIX, MR, NR, dot_rows_##SUFFIX, gemv_##SUFFIX, sdot_##SUFFIX,              \
      axpy_##SUFFIX, unfused_##SUFFIX, fma_##SUFFIX, block_sums_##SUFFIX, expf_##SUFFIX,          \
      logf_##SUFFIX, zero_below_##SUFFIX }

DEFINE_LEVEL(portable, , PORTABLE_MR, PORTABLE_NR, 0)
#ifdef GRADSH_X86
DEFINE_LEVEL(avx2, __attribute__((target("avx2,fma"))), AVX2_MR, 16, 1)
DEFINE_LEVEL(avx512, __attribute__((target("avx512f,avx2,fma"))), AVX512_MR, 32, 1)
#endif

/* Best first; `portable` runs anywhere. */
static const Level LEVELS[] = {
#ifdef GRADSH_X86
    LEVEL_ENTRY("avx512f", avx512, AVX512_MR, 32),
    LEVEL_ENTRY("avx2", avx2, AVX2_MR, 16),
#endif
    LEVEL_ENTRY("portable", portable, PORTABLE_MR, PORTABLE_NR),
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

/* The packing buffers of the general kernel, kept between calls (a product's panels are a few
 * megabytes: fresh ones would cost their page faults every call). Taken and given back with
 * the GIL held; a second thread that finds them taken gets buffers of its own. */
static float *scratch;
static size_t scratch_floats;
static int scratch_taken;

static float *scratch_take(size_t floats)
{
    if (scratch_taken)
        return PyMem_RawMalloc(floats * sizeof(float));
    if (floats > scratch_floats) {
        PyMem_RawFree(scratch);
        scratch = PyMem_RawMalloc(floats * sizeof(float));
        scratch_floats = scratch ? floats : 0;
        if (!scratch)
            return NULL;
    }
    scratch_taken = 1;
    return scratch;
}

static void scratch_give(float *buffer)
{
    if (buffer == scratch)
        scratch_taken = 0;
    else
        PyMem_RawFree(buffer);
}

/* Runs g (its packing buffers found here) on the current level: as C = A B, or as its
 * transpose C' = B' A' when that fills the tiles better (the vectors then run along C's
 * columns; the same chains). 0 with MemoryError set when the buffers cannot be had. Called
 * with the GIL; runs the kernel without it. */
static int gemm_run(Gemm *g)
{
    idx_t mr = current->mr, nr = current->nr;
    if (g->m == 0 || g->n == 0)
        return 1;
    idx_t as_is = (g->n + nr - 1) / nr * nr * ((g->m + mr - 1) / mr * mr);
    idx_t swapped = (g->m + nr - 1) / nr * nr * ((g->n + mr - 1) / mr * mr);
    if (swapped < as_is || (swapped == as_is && g->ccs != 1 && g->crs == 1)) {
        idx_t t;
        const float *p = g->a;
        g->a = g->b, g->b = p;
        t = g->ars, g->ars = g->bcs, g->bcs = t;
        t = g->aks, g->aks = g->bks, g->bks = t;
        t = g->crs, g->crs = g->ccs, g->ccs = t;
        t = g->srs, g->srs = g->scs, g->scs = t;
        t = g->m, g->m = g->n, g->n = t;
        const idx_t *table = g->a_rows;
        g->a_rows = g->b_cols, g->b_cols = table;
        table = g->a_ks, g->a_ks = g->b_ks, g->b_ks = table;
        table = g->c_rows, g->c_rows = g->c_cols, g->c_cols = table;
    }
    idx_t kc = 0;
    for (idx_t block = 0; block < g->count; block++) {
        idx_t length = g->bounds[2 * block + 1] - g->bounds[2 * block];
        kc = length > kc ? length : kc;
    }
    if (g->from_c && kc > GEMM_KC)
        kc = GEMM_KC;
    idx_t tiles = (g->m + mr - 1) / mr, rows = (tiles < GEMM_TILES ? tiles : GEMM_TILES) * mr;
    size_t floats = (size_t)((rows + GEMM_PANELS * nr + 1) * kc) + 1; /* + done's bytes */
    float *buffer = scratch_take(floats);
    if (!buffer) {
        PyErr_NoMemory();
        return 0;
    }
    g->apack = buffer;
    g->bpack = buffer + rows * kc;
    g->done = (uint8_t *)(g->bpack + GEMM_PANELS * nr * kc);
    Py_BEGIN_ALLOW_THREADS
    current->gemm(g);
    Py_END_ALLOW_THREADS
    scratch_give(buffer);
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
        idx_t bounds[2] = {k0, k1};
        Gemm g = {.c = out.buf, .crs = n, .ccs = 1, .a = a.buf, .ars = lda, .aks = 1,
                  .b = b.buf, .bks = n, .bcs = 1, .m = m, .n = n, .bounds = bounds, .count = 1,
                  .from_c = 1, .alpha = 1};
        ok = gemm_run(&g);
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "chain: bad sizes");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* The float32 start of a product (an addmm's input) broadcast to out's (rows x columns): its
 * first element and its element strides along each (0 where it broadcasts). 0, with
 * ValueError set, where it is not a float32 array of at most 2 dimensions that broadcasts. */
static int start_view(PyObject *source, Py_buffer *view, idx_t rows, idx_t columns,
                      idx_t *row_step, idx_t *column_step)
{
    if (PyObject_GetBuffer(source, view, PyBUF_STRIDED_RO | PyBUF_FORMAT) < 0)
        return 0;
    int nd = view->ndim, ok = nd <= 2 && view->itemsize == 4 && strcmp(view->format, "f") == 0;
    idx_t sizes[2] = {1, 1}, steps[2] = {0, 0};
    for (int d = 0; ok && d < nd; d++) {
        int at = d + 2 - nd; /* aligned to the right, as NumPy broadcasts */
        ok = view->strides[d] % 4 == 0;
        sizes[at] = view->shape[d];
        steps[at] = view->shape[d] == 1 ? 0 : view->strides[d] / 4;
    }
    if (!ok || (sizes[0] != 1 && sizes[0] != rows) || (sizes[1] != 1 && sizes[1] != columns)) {
        PyErr_SetString(PyExc_ValueError, "gemm: a start that does not broadcast");
        PyBuffer_Release(view);
        return 0;
    }
    *row_step = steps[0];
    *column_step = steps[1];
    return 1;
}

/* k blocks as pairs (k0, k1) from a tuple of 2 * count ints, each within 0..k; 0 and
 * ValueError otherwise. `bounds` holds them (PyMem_Free it). */
static int block_bounds(PyObject *blocks, idx_t k, idx_t **bounds, idx_t *count)
{
    idx_t size = PyTuple_GET_SIZE(blocks);
    *count = size / 2;
    *bounds = PyMem_Malloc((size_t)(size ? size : 1) * sizeof(idx_t));
    if (!*bounds) {
        PyErr_NoMemory();
        return 0;
    }
    int ok = size % 2 == 0;
    for (idx_t i = 0; ok && i < size; i++) {
        (*bounds)[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(blocks, i));
        idx_t at = (*bounds)[i];
        ok = at >= 0 && at <= k && (i % 2 == 0 || (*bounds)[i - 1] <= at);
    }
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "gemm: bad k blocks");
        PyMem_Free(*bounds);
        *bounds = NULL;
    }
    return ok;
}

/* A 2-D float32 array's view and its element strides; 0 with ValueError otherwise. */
static int matrix_view(PyObject *source, Py_buffer *view, int writable, idx_t *rows_step,
                       idx_t *columns_step, const char *what)
{
    int flags = PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(source, view, flags) < 0)
        return 0;
    if (view->ndim != 2 || view->itemsize != 4 || strcmp(view->format, "f") != 0
        || view->strides[0] % 4 != 0 || view->strides[1] % 4 != 0) {
        PyErr_Format(PyExc_ValueError, "gemm: %s is not a 2-D float32 array", what);
        PyBuffer_Release(view);
        return 0;
    }
    *rows_step = view->strides[0] / 4;
    *columns_step = view->strides[1] / 4;
    return 1;
}

/* An operand of gemm: a 2-D float32 array (any strides), or gathered: a tuple (base, rows,
 * columns) of a C-contiguous float32 array and two int64 arrays of element offsets, element
 * (r, c) at base[rows[r] + columns[c]], every sum inside base. */
typedef struct {
    Py_buffer view, rows, columns;
    int gathered;
    idx_t rs, cs, shape[2];
} Operand;

static void operand_release(Operand *x)
{
    PyBuffer_Release(&x->view);
    if (x->gathered) {
        PyBuffer_Release(&x->rows);
        PyBuffer_Release(&x->columns);
    }
}

/* The smallest and largest of `count` offsets. */
static void offsets_range(const idx_t *at, idx_t count, idx_t *low, idx_t *high)
{
    *low = *high = count ? at[0] : 0;
    for (idx_t i = 1; i < count; i++) {
        *low = at[i] < *low ? at[i] : *low;
        *high = at[i] > *high ? at[i] : *high;
    }
}

static int offsets_view(PyObject *source, Py_buffer *view)
{
    if (PyObject_GetBuffer(source, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return 0;
    if (view->itemsize != 8 || view->ndim != 1 || (strcmp(view->format, "l") != 0
                                                   && strcmp(view->format, "q") != 0)) {
        PyErr_SetString(PyExc_ValueError, "gemm: offsets that are not a 1-D int64 array");
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

static int operand_view(PyObject *source, Operand *x, int writable, const char *what)
{
    x->gathered = PyTuple_Check(source);
    x->rs = x->cs = 0;
    if (!x->gathered) {
        if (!matrix_view(source, &x->view, writable, &x->rs, &x->cs, what))
            return 0;
        x->shape[0] = x->view.shape[0];
        x->shape[1] = x->view.shape[1];
        return 1;
    }
    if (PyTuple_GET_SIZE(source) != 3) {
        PyErr_Format(PyExc_ValueError, "gemm: %s is not (base, rows, columns)", what);
        return 0;
    }
    if (PyObject_GetBuffer(PyTuple_GET_ITEM(source, 0), &x->view,
                           PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0))
        < 0)
        return 0;
    if (x->view.itemsize != 4 || strcmp(x->view.format, "f") != 0) {
        PyErr_Format(PyExc_ValueError, "gemm: %s's base is not float32", what);
        PyBuffer_Release(&x->view);
        return 0;
    }
    if (!offsets_view(PyTuple_GET_ITEM(source, 1), &x->rows)) {
        PyBuffer_Release(&x->view);
        return 0;
    }
    if (!offsets_view(PyTuple_GET_ITEM(source, 2), &x->columns)) {
        PyBuffer_Release(&x->view);
        PyBuffer_Release(&x->rows);
        return 0;
    }
    x->shape[0] = x->rows.shape[0];
    x->shape[1] = x->columns.shape[0];
    idx_t low0, high0, low1, high1;
    offsets_range(x->rows.buf, x->shape[0], &low0, &high0);
    offsets_range(x->columns.buf, x->shape[1], &low1, &high1);
    if (x->shape[0] && x->shape[1]
        && (low0 + low1 < 0 || high0 + high1 >= x->view.len / (idx_t)sizeof(float))) {
        PyErr_Format(PyExc_ValueError, "gemm: %s's offsets reach outside its base", what);
        operand_release(x);
        return 0;
    }
    return 1;
}

/* gemm(out, a, b, blocks, start, beta, alpha, from_out): MKL's general kernel whole, as
 * sgemm.addmm composes it: for each k block of `blocks` (a tuple: k0, k1, k0, k1, ...) the
 * fused chains from 0, times alpha (when not 1); the first block's then fused with beta *
 * start (start: None, or a float32 array that broadcasts to out's shape), the others added in
 * turn; no blocks: a zero product. out (m x n, written in place), a (m x k) and b (k x n) are
 * 2-D float32 arrays of any strides (views: transposes, slices), or gathered (see Operand; a
 * gathered out must not name one element twice). With from_out each output's chain continues
 * from out's value over the blocks in turn instead (start, beta and alpha then unused). */
static PyObject *py_gemm(PyObject *self, PyObject *args)
{
    PyObject *out_source, *a_source, *b_source, *blocks, *source;
    double beta, alpha;
    int from_out;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOO!Oddp", &out_source, &a_source, &b_source, &PyTuple_Type,
                          &blocks, &source, &beta, &alpha, &from_out))
        return NULL;
    Py_buffer start = {0};
    Operand out, a, b;
    idx_t row_step = 0, column_step = 0, count = 0;
    idx_t *bounds = NULL;
    if (!operand_view(out_source, &out, 1, "out"))
        return NULL;
    if (!operand_view(a_source, &a, 0, "a")) {
        operand_release(&out);
        return NULL;
    }
    if (!operand_view(b_source, &b, 0, "b")) {
        operand_release(&out);
        operand_release(&a);
        return NULL;
    }
    idx_t m = out.shape[0], n = out.shape[1], k = a.shape[1];
    int ok = a.shape[0] == m && b.shape[0] == k && b.shape[1] == n;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "gemm: shapes that do not multiply");
    ok = ok && block_bounds(blocks, k, &bounds, &count);
    int has_start = 0;
    if (ok && source != Py_None && !from_out)
        ok = has_start = start_view(source, &start, m, n, &row_step, &column_step);
    if (ok) {
        Gemm g = {.c = out.view.buf, .crs = out.rs, .ccs = out.cs, .a = a.view.buf,
                  .ars = a.rs, .aks = a.cs, .b = b.view.buf, .bks = b.rs, .bcs = b.cs, .m = m,
                  .n = n, .bounds = bounds, .count = count, .from_c = from_out,
                  .start = has_start ? start.buf : NULL, .srs = row_step, .scs = column_step,
                  .beta = (float)beta, .alpha = (float)alpha, .scale = !from_out && alpha != 1,
                  .a_rows = a.gathered ? a.rows.buf : NULL,
                  .a_ks = a.gathered ? a.columns.buf : NULL,
                  .b_ks = b.gathered ? b.rows.buf : NULL,
                  .b_cols = b.gathered ? b.columns.buf : NULL,
                  .c_rows = out.gathered ? out.rows.buf : NULL,
                  .c_cols = out.gathered ? out.columns.buf : NULL};
        ok = gemm_run(&g);
    }
    PyMem_Free(bounds);
    if (has_start)
        PyBuffer_Release(&start);
    operand_release(&out);
    operand_release(&a);
    operand_release(&b);
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

/* zero_below(out, x, values, count, inclusive): out[i] = +0.0 where x[i] < 0 (x[i] <= 0 when
 * inclusive), else values[i]'s bits: relu's `x < 0 ? 0 : x` and threshold_backward's select at
 * 0, as pointwise.zero_where's bit masks compute them (NaN and -0.0 kept), in one pass. */
static PyObject *py_zero_below(PyObject *self, PyObject *args)
{
    Py_buffer out, x, values;
    idx_t count;
    int inclusive;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*y*np", &out, &x, &values, &count, &inclusive))
        return NULL;
    int ok = holds(&out, count, "out") && holds(&x, count, "x") && holds(&values, count, "values");
    if (ok)
        current->zero_below(out.buf, x.buf, values.buf, count, inclusive);
    PyBuffer_Release(&out);
    PyBuffer_Release(&x);
    PyBuffer_Release(&values);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* shuffle(perm, jumps, start, inside_out): randperm's Fisher-Yates steps start .. start +
 * len(jumps) - 1 over the int64 array perm, in place (random.py's Generator.randperm): step i
 * swaps perm[i] and perm[i + jumps[k]]; inside_out: perm[i] = perm[z]; perm[z] = i, z = jumps[k]
 * <= i (the large-n form). A jump out of range is an error, not a write outside perm. */
static PyObject *py_shuffle(PyObject *self, PyObject *args)
{
    Py_buffer perm, jumps;
    idx_t start;
    int inside_out;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*np", &perm, &jumps, &start, &inside_out))
        return NULL;
    int64_t *p = (int64_t *)perm.buf;
    const int64_t *z = (const int64_t *)jumps.buf;
    idx_t n = perm.len / 8, count = jumps.len / 8;
    int ok = start >= 0 && start + count <= n;
    for (idx_t k = 0; ok && k < count; k++) {
        idx_t i = start + k, j = inside_out ? z[k] : i + z[k];
        if (j < 0 || j >= n || (inside_out && j > i)) {
            ok = 0;
        } else if (inside_out) {
            p[i] = p[j];
            p[j] = i;
        } else {
            int64_t t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
    }
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "shuffle: a step outside the permutation");
    PyBuffer_Release(&perm);
    PyBuffer_Release(&jumps);
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

#include "_native_losses.h"
#include "_native_sleef64.h"
#include "_native_sleef64_gamma.h"
#include "_native_sleef64_calls.h"
#include "_native_glibc32.h"
#include "_native_sleef_powf.h"

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
#include "_native_optim.h"

static PyMethodDef METHODS[] = {
    {"chain", py_chain, METH_VARARGS,
     "chain(out, a, b, m, n, lda, k0, k1): out += the fused chains over k0..k1 (in place)"},
    {"gemm", py_gemm, METH_VARARGS,
     "gemm(out, a, b, blocks, start, beta, alpha, from_out): MKL's general kernel whole on "
     "arrays of any strides or gathered (out written in place); from_out: the chains "
     "continue from out's values"},
    {"dot_rows", py_dot_rows, METH_VARARGS,
     "dot_rows(out, a, bt, m, n, k, peel): MKL's 16-lane dot kernel on every row pair"},
    {"gemv", py_gemv, METH_VARARGS, "gemv(out, a, bt, m, n, k): MKL's sgemv dot form"},
    {"sdot", py_sdot, METH_VARARGS, "sdot(x, y, k) -> float: MKL's sdot"},
    {"axpy", py_axpy, METH_VARARGS, "axpy(y, x, rows, k, n): MKL's sgemv axpy form, in place"},
    {"unfused", py_unfused, METH_VARARGS,
     "unfused(out, a, b, batch, m, n, k): ATen's small bmm loop"},
    {"fma", py_fma, METH_VARARGS,
     "fma(out, a, b, c, count): out = fmaf(a, b, c) element-wise (one-float operands broadcast)"},
    {"zero_below", py_zero_below, METH_VARARGS,
     "zero_below(out, x, values, count, inclusive): +0.0 where x < 0 (<= 0), else values"},
    {"shuffle", py_shuffle, METH_VARARGS,
     "shuffle(perm, jumps, start, inside_out): randperm's swaps over an int64 array, in place"},
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
    {"nll_sum", py_nll_sum, METH_VARARGS,
     "nll_sum(values, n, power) -> float: nll_loss's cascade total of n float32 values"},
    {"log_softmax_rows", py_log_softmax_rows, METH_VARARGS,
     "log_softmax_rows(out, x, rows, n) -> bool: log_softmax of each row; False on a NaN"},
    {"log_softmax_backward_rows", py_log_softmax_backward_rows, METH_VARARGS,
     "log_softmax_backward_rows(out, g, y, rows, n) -> bool: its backward; False on a NaN"},
    {"optim_step", py_optim_step, METH_VARARGS,
     "optim_step(kind, buffers, count, flags, scalars): one Adam, RMSprop, Adagrad or SGD update"},
    {"set_sqrt_table", py_set_sqrt_table, METH_VARARGS,
     "set_sqrt_table(table): VRSQRT14PS's significands for vml_sqrt (vml._SIGNIFICAND17)"},
    {"vml_sqrt", py_vml_sqrt, METH_VARARGS, "vml_sqrt(out, x, count): MKL's vmsSqrt"},
    {"set_mkl_sqrt", py_set_mkl_sqrt, METH_VARARGS,
     "set_mkl_sqrt(address, mode): the optimizers' roots from this vmsSqrt (0: vml_sqrt)"},
    {"optim_sqrt", py_optim_sqrt, METH_VARARGS,
     "optim_sqrt(out, x, count): the optimizers' square roots as their kernels take them"},
    {"sleef64", py_sleef64, METH_VARARGS,
     "sleef64(which, out, x, count): SLEEF's double routine `which` (exp, log, log1p, expm1, "
     "sinh, cosh, tanh, exp2, erf, lgamma, atanh; then the C library's) element-wise"},
    {"sleef64_binary", py_sleef64_binary, METH_VARARGS,
     "sleef64_binary(which, out, a, b, count): SLEEF's double atan2, pow, hypot (0-2), the C "
     "library's (3-5)"},
    {"glibc32", py_glibc32, METH_VARARGS,
     "glibc32(which, out, x, count): glibc's float expf, logf (FMA builds), log1pf (0-2)"},
    {"sleef_powf", py_sleef_powf, METH_VARARGS,
     "sleef_powf(out, x, y, count, y_step): SLEEF's powf (u10), y[i * y_step] (0: one y)"},
    {"fma64", py_fma64, METH_VARARGS, "fma64(out, a, b, c, count): float64 fma element-wise"},
    {"welford64", py_welford64, METH_VARARGS,
     "welford64(var, mean, values, reduced, outputs, pieces, correction, take_sqrt): ATen's "
     "Welford over a (reduced, outputs) float64 matrix's columns"},
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
