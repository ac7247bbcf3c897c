/* The Python entry points of the float64 SLEEF routines (_native_sleef64.h,
 * _native_sleef64_gamma.h) and of the float64 kernels vecmath/kernels_double.py hands to C:
 * fma64 and ATen's Welford (welford64). Included by _native.c after both. */

/* ---- entry points ---- */

enum {
    SLEEF64_EXP, SLEEF64_LOG, SLEEF64_LOG1P, SLEEF64_EXPM1, SLEEF64_SINH, SLEEF64_COSH,
    SLEEF64_TANH, SLEEF64_EXP2, SLEEF64_ERF, SLEEF64_LGAMMA, SLEEF64_ATANH,
    /* the C library's (ATen's scalar loops call std::exp ...: the same library torch uses) */
    LIBM_EXP, LIBM_LOG, LIBM_LOG1P, LIBM_EXPM1, LIBM_SINH, LIBM_COSH, LIBM_TANH, LIBM_EXP2,
    LIBM_ERF, LIBM_LGAMMA, LIBM_ATANH, SLEEF64_UNARY_COUNT
};

/* The element-wise loops, compiled once per instruction set: with FMA (x86-64 with AVX2) every
 * fma() is one instruction, else a call into libm's fma (exact either way). */
#define SLEEF64_CASE(WHICH, EXPR)                                                                  \
    case WHICH:                                                                                    \
        for (idx_t i = 0; i < n; i++) {                                                            \
            double x = v[i];                                                                       \
            o[i] = (EXPR);                                                                         \
        }                                                                                          \
        break;

#define SLEEF64_LOOPS(SUFFIX, ATTRIBUTE)                                                           \
    ATTRIBUTE static void sleef64_unary_##SUFFIX(int which, double *o, const double *v, idx_t n)  \
    {                                                                                              \
        switch (which) {                                                                           \
            SLEEF64_CASE(SLEEF64_EXP, sleef_exp(x))                                                \
            SLEEF64_CASE(SLEEF64_LOG, sleef_log(x))                                                \
            SLEEF64_CASE(SLEEF64_LOG1P, sleef_log1p(x))                                            \
            SLEEF64_CASE(SLEEF64_EXPM1, sleef_expm1(x))                                            \
            SLEEF64_CASE(SLEEF64_SINH, sleef_sinh_cosh(x, 0))                                      \
            SLEEF64_CASE(SLEEF64_COSH, sleef_sinh_cosh(x, 1))                                      \
            SLEEF64_CASE(SLEEF64_TANH, sleef_tanh(x))                                              \
            SLEEF64_CASE(SLEEF64_EXP2, sleef_exp2(x))                                              \
            SLEEF64_CASE(SLEEF64_ERF, sleef_erf(x))                                                \
            SLEEF64_CASE(SLEEF64_LGAMMA, sleef_lgamma(x))                                          \
            SLEEF64_CASE(SLEEF64_ATANH, sleef_atanh(x))                                            \
            SLEEF64_CASE(LIBM_EXP, exp(x))                                                         \
            SLEEF64_CASE(LIBM_LOG, log(x))                                                         \
            SLEEF64_CASE(LIBM_LOG1P, log1p(x))                                                     \
            SLEEF64_CASE(LIBM_EXPM1, expm1(x))                                                     \
            SLEEF64_CASE(LIBM_SINH, sinh(x))                                                       \
            SLEEF64_CASE(LIBM_COSH, cosh(x))                                                       \
            SLEEF64_CASE(LIBM_TANH, tanh(x))                                                       \
            SLEEF64_CASE(LIBM_EXP2, exp2(x))                                                       \
            SLEEF64_CASE(LIBM_ERF, erf(x))                                                         \
            SLEEF64_CASE(LIBM_LGAMMA, lgamma(x))                                                   \
            SLEEF64_CASE(LIBM_ATANH, atanh(x))                                                     \
        }                                                                                          \
    }                                                                                              \
    ATTRIBUTE static void sleef64_binary_##SUFFIX(int which, double *o, const double *p,          \
                                                  const double *q, idx_t n)                       \
    {                                                                                              \
        switch (which) {                                                                           \
        case 0: for (idx_t i = 0; i < n; i++) o[i] = sleef_atan2(p[i], q[i]); break;               \
        case 1: for (idx_t i = 0; i < n; i++) o[i] = sleef_pow(p[i], q[i]); break;                 \
        case 2: for (idx_t i = 0; i < n; i++) o[i] = sleef_hypot(p[i], q[i]); break;               \
        case 3: for (idx_t i = 0; i < n; i++) o[i] = atan2(p[i], q[i]); break;                     \
        case 4: for (idx_t i = 0; i < n; i++) o[i] = pow(p[i], q[i]); break;                       \
        default: for (idx_t i = 0; i < n; i++) o[i] = hypot(p[i], q[i]); break;                    \
        }                                                                                          \
    }                                                                                              \
    ATTRIBUTE static void fma64_##SUFFIX(double *o, const double *a, const double *b,             \
                                         const double *c, idx_t n)                                 \
    {                                                                                              \
        for (idx_t i = 0; i < n; i++)                                                              \
            o[i] = fma(a[i], b[i], c[i]);                                                          \
    }

SLEEF64_LOOPS(portable, )
#ifdef GRADSH_X86
SLEEF64_LOOPS(fma, __attribute__((target("avx2,fma"))))

static int sleef64_has_fma(void)
{
    static int known = -1;
    if (known < 0)
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return known;
}
#define SLEEF64_PICK(NAME) (sleef64_has_fma() ? NAME##_fma : NAME##_portable)
#else
#define SLEEF64_PICK(NAME) NAME##_portable
#endif

/* sleef64(which, out, x, count): the unary routine `which` (the enum's order: SLEEF's, then the
 * C library's) element-wise. */
static PyObject *py_sleef64(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer out, x;
    int which;
    idx_t count;
    if (!PyArg_ParseTuple(args, "iw*y*n", &which, &out, &x, &count))
        return NULL;
    int ok = which >= 0 && which < SLEEF64_UNARY_COUNT && count >= 0
        && out.len / (idx_t)sizeof(double) >= count && x.len / (idx_t)sizeof(double) >= count;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        SLEEF64_PICK(sleef64_unary)(which, out.buf, x.buf, count);
        Py_END_ALLOW_THREADS
    } else {
        PyErr_SetString(PyExc_ValueError, "sleef64: bad routine or buffer too small");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&x);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* sleef64_binary(which, out, a, b, count): SLEEF's atan2(a, b) (0), pow(a, b) (1) or
 * hypot(a, b) (2, u05), the C library's atan2 (3), pow (4) or hypot (5), element-wise. */
static PyObject *py_sleef64_binary(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer out, a, b;
    int which;
    idx_t count;
    if (!PyArg_ParseTuple(args, "iw*y*y*n", &which, &out, &a, &b, &count))
        return NULL;
    idx_t bytes = count * (idx_t)sizeof(double);
    int ok = which >= 0 && which <= 5 && count >= 0 && out.len >= bytes && a.len >= bytes
        && b.len >= bytes;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        SLEEF64_PICK(sleef64_binary)(which, out.buf, a.buf, b.buf, count);
        Py_END_ALLOW_THREADS
    } else {
        PyErr_SetString(PyExc_ValueError, "sleef64_binary: bad routine or buffer too small");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* fma64(out, a, b, c, count): out = fma(a, b, c) element-wise on float64 buffers (ATen's
 * kernels where GCC fused a multiply and an add of their vector code). */
static PyObject *py_fma64(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer out, a, b, c;
    idx_t count;
    if (!PyArg_ParseTuple(args, "w*y*y*y*n", &out, &a, &b, &c, &count))
        return NULL;
    idx_t bytes = count * (idx_t)sizeof(double);
    int ok = count >= 0 && out.len >= bytes && a.len >= bytes && b.len >= bytes && c.len >= bytes;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        SLEEF64_PICK(fma64)(out.buf, a.buf, b.buf, c.buf, count);
        Py_END_ALLOW_THREADS
    } else {
        PyErr_SetString(PyExc_ValueError, "fma64: buffer too small");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&c);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* welford64(var, mean, values, reduced, outputs, pieces, correction, take_sqrt): ATen's
 * WelfordOps over the columns of a row-major (reduced, outputs) float64 matrix, as
 * kernels_double.welford_var computes it (the same operations, unfused): each column's
 * elements in order, in `pieces` equal parts combined left to right. */
static void welford_column(const double *v, idx_t reduced, idx_t outputs, idx_t column,
                           idx_t pieces, double *mean_out, double *m2_out)
{
    idx_t step = (reduced + pieces - 1) / pieces;
    double mean = 0, m2 = 0, count = 0;
    for (idx_t begin = 0; begin < reduced; begin += step) {
        idx_t end = begin + step < reduced ? begin + step : reduced;
        double b_mean = 0, b_m2 = 0;
        for (idx_t i = begin; i < end; i++) {
            double x = v[i * outputs + column];
            double delta = x - b_mean;
            b_mean = b_mean + delta / (double)(i - begin + 1);
            b_m2 = b_m2 + delta * (x - b_mean);
        }
        double b_count = (double)(end - begin);
        if (begin == 0) {
            mean = b_mean;
            m2 = b_m2;
        } else {
            double delta = b_mean - mean;
            double ratio = b_count / (count + b_count);
            mean = mean + delta * ratio;
            m2 = m2 + b_m2 + delta * delta * count * ratio;
        }
        count += b_count;
    }
    *mean_out = mean;
    *m2_out = m2;
}

static PyObject *py_welford64(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer var, mean, values;
    idx_t reduced, outputs, pieces;
    double correction;
    int take_sqrt;
    if (!PyArg_ParseTuple(args, "w*w*y*nnndp", &var, &mean, &values, &reduced, &outputs, &pieces,
                          &correction, &take_sqrt))
        return NULL;
    int ok = reduced > 0 && outputs >= 0 && pieces >= 1
        && var.len >= outputs * (idx_t)sizeof(double) && mean.len >= outputs * (idx_t)sizeof(double)
        && values.len / (idx_t)sizeof(double) / (reduced ? reduced : 1) >= outputs;
    if (ok) {
        double *v_out = var.buf, *m_out = mean.buf;
        const double *v = values.buf;
        Py_BEGIN_ALLOW_THREADS
        double divisor = (double)reduced > correction ? (double)reduced - correction : 0.0;
        for (idx_t c = 0; c < outputs; c++) {
            double m2;
            welford_column(v, reduced, outputs, c, pieces, &m_out[c], &m2);
            v_out[c] = take_sqrt ? sqrt(m2 / divisor) : m2 / divisor;
        }
        Py_END_ALLOW_THREADS
    } else {
        PyErr_SetString(PyExc_ValueError, "welford64: bad sizes");
    }
    PyBuffer_Release(&var);
    PyBuffer_Release(&mean);
    PyBuffer_Release(&values);
    return ok ? Py_NewRef(Py_None) : NULL;
}
