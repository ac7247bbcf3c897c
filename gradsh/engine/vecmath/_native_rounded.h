/* gradsh's compiled kernels: float32 tanh and exp correctly rounded (vecmath/kernels.py's
 * stand-ins for MKL's vmsTanh and vmsExp), from a float64 value and a flag per element.
 *
 * The float64 value comes from one expm1 routine (argument reduction by ln 2, a degree-13
 * Taylor polynomial), accurate to a few float64 ulps: far inside kernels.py's margin (2**-20
 * float32 ulps = 512 float64 ulps), so its rounding to float32 is the correct one whenever the
 * value is not within that margin of a rounding boundary. Such elements, and those outside the
 * normal float32 range, non-finite ones included, are flagged: kernels.py recomputes exactly
 * the flagged ones with its NumPy path. So the results are the NumPy path's, bit for bit, on
 * every CPU; only the time differs. */
/* Part of _native.c (included after its common definitions); not a header of its own. */

/* Whether an operation may raise a floating-point exception flag does not matter here (no
 * value changes): GCC then turns the selects into vector blends. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-trapping-math")
#endif

#define ROUNDED_LOW29 ((int64_t)((1 << 29) - 1))
#define ROUNDED_BELOW_MIDPOINT ((int64_t)((1 << 28) - 512))
#define ROUNDED_MARGIN ((int64_t)1024)

/* exp(y) = scale * (1 + p) for |y| <= 60: scale = 2**k exact, p = expm1(y - k ln 2) within a
 * few float64 ulps. */
INLINE double rounded_exp_parts(double y, double *scale)
{
    const double shifter = 6755399441055744.0; /* 1.5 * 2**52: adding it rounds to an integer */
    const double ln2_hi = 0.6931471803691238, ln2_lo = 1.9082149292705877e-10;
    double shifted = y * 1.4426950408889634 + shifter; /* its low bits hold k = round(y / ln 2) */
    double kf = shifted - shifter;
    double r = (y - kf * ln2_hi) - kf * ln2_lo; /* |r| <= 0.347, kf * ln2_hi exact */
    /* expm1(r): r + r^2/2! + ... + r^13/13!, the error below r^14/14! < 4e-18 */
    double p = 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = (p * r) * r + r;
    int64_t shifted_bits; /* integer steps only (no float-to-int64 conversion): they vectorise */
    memcpy(&shifted_bits, &shifted, sizeof shifted_bits);
    uint64_t scale_bits = (uint64_t)(shifted_bits - 0x4338000000000000LL + 1023) << 52;
    memcpy(scale, &scale_bits, sizeof *scale);
    return p;
}

/* expm1(y) for |y| <= 60 within a few float64 ulps: 2**k (1 + p) - 1, scale - 1 exact. */
INLINE double rounded_expm1(double y)
{
    double scale, p = rounded_exp_parts(y, &scale);
    return scale * p + (scale - 1.0);
}

/* Whether the float64 value d, rounded to float32 as r, needs the exact path. */
INLINE int rounded_suspect(double d, float r)
{
    int64_t bits;
    uint32_t rbits;
    memcpy(&bits, &d, sizeof bits);
    memcpy(&rbits, &r, sizeof rbits);
    int64_t low = (bits - ROUNDED_BELOW_MIDPOINT) & ROUNDED_LOW29;
    uint32_t top = rbits & 0x7F000000u;
    return (low <= ROUNDED_MARGIN) | (top == 0) | (top == 0x7F000000u); /* no branches */
}

/* tanh: e / (e + 2) with e = expm1(2|x|), the sign of x; |x| > 20 gives +-1 (then tanh is 1
 * within 2**-57). NaN flagged. */
INLINE void rounded_tanh_body(float *out, uint8_t *flags, const float *x, idx_t count)
{
    IVDEP for (idx_t i = 0; i < count; i++) {
        double v = (double)x[i], a = fabs(v);
        double y = 2.0 * (a < 20.0 ? a : 20.0); /* NaN: 20, flagged below */
        double e = rounded_expm1(y);
        double t = e / (e + 2.0); /* 1 within 2**-57 from |x| = 20 on */
        double d = copysign(t, v);
        float r = (float)d;
        out[i] = r;
        flags[i] = (uint8_t)(rounded_suspect(d, r) | (v != v));
    }
}

/* exp: 2**k (1 + p); arguments outside (-87, 88) are flagged (their
 * result is subnormal, zero or infinite in float32), NaN too. */
INLINE void rounded_exp_body(float *out, uint8_t *flags, const float *x, idx_t count)
{
    IVDEP for (idx_t i = 0; i < count; i++) {
        double v = (double)x[i];
        double inside = v > -87.0 ? (v < 88.0 ? v : 88.0) : -87.0; /* NaN: -87, flagged */
        double scale, p = rounded_exp_parts(inside, &scale);
        double e = scale * p + scale;
        float r = (float)e;
        out[i] = r;
        flags[i] = (uint8_t)(rounded_suspect(e, r) | (inside != v));
    }
}

/* tanh's backward, g * (1 - y * y) with 1 - y * y one fused step (kernels.tanh_backward). */
INLINE void tanh_backward_body(float *out, const float *g, const float *y, idx_t count)
{
    IVDEP for (idx_t i = 0; i < count; i++)
        out[i] = g[i] * fmaf(-y[i], y[i], 1.0f);
}

typedef void (*RoundedBody)(float *, uint8_t *, const float *, idx_t);

#define ROUNDED_LEVEL(SUFFIX, ATTRIBUTE)                                                         \
    ATTRIBUTE static void rounded_tanh_##SUFFIX(float *o, uint8_t *f, const float *x, idx_t n) \
    { rounded_tanh_body(o, f, x, n); }                                                           \
    ATTRIBUTE static void rounded_exp_##SUFFIX(float *o, uint8_t *f, const float *x, idx_t n)  \
    { rounded_exp_body(o, f, x, n); }                                                            \
    ATTRIBUTE static void tanh_backward_##SUFFIX(float *o, const float *g, const float *y,      \
                                                 idx_t n)                                        \
    { tanh_backward_body(o, g, y, n); }

ROUNDED_LEVEL(portable, )
#ifdef GRADSH_X86
ROUNDED_LEVEL(avx2, __attribute__((target("avx2,fma"))))
ROUNDED_LEVEL(avx512, __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma,"
                                             "prefer-vector-width=512"))))
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* Whether the AVX-512 copies above run here: they also take AVX-512's DQ, VL and BW parts
 * (which let the compiler keep the float64 steps in 512-bit registers: a quarter faster);
 * without them the AVX2 copy stands in, with the same bits. */
static int rounded_avx512(void)
{
#ifdef GRADSH_X86
    return strcmp(current->name, "avx512f") == 0 && __builtin_cpu_supports("avx512dq")
           && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
#else
    return 0;
#endif
}

/* The copy for the instruction set in use (`current`, chosen by use()). */
static RoundedBody rounded_kernel(int exp)
{
#ifdef GRADSH_X86
    if (rounded_avx512())
        return exp ? rounded_exp_avx512 : rounded_tanh_avx512;
    if (strcmp(current->name, "avx2") == 0 || strcmp(current->name, "avx512f") == 0)
        return exp ? rounded_exp_avx2 : rounded_tanh_avx2;
#endif
    return exp ? rounded_exp_portable : rounded_tanh_portable;
}

/* The kernel over x in blocks whose flags stay in the first-level cache (`flags`, a scratch
 * buffer of at least ROUNDED_BLOCK bytes), the positions of the flags set gathered as it goes
 * (memchr skips the long runs of zeros): a bytes object of int64 (native order), or NULL with
 * MemoryError set. Runs without the GIL but for the final bytes object. */
#define ROUNDED_BLOCK 4096
static PyObject *rounded_run(RoundedBody body, float *out, uint8_t *flags, const float *x,
                             idx_t count)
{
    idx_t found = 0, room = 64;
    int64_t *positions = PyMem_RawMalloc((size_t)room * sizeof(int64_t));
    if (positions == NULL)
        return PyErr_NoMemory();
    int ok = 1;
    Py_BEGIN_ALLOW_THREADS
    for (idx_t start = 0; ok && start < count; start += ROUNDED_BLOCK) {
        idx_t size = count - start < ROUNDED_BLOCK ? count - start : ROUNDED_BLOCK;
        body(out + start, flags, x + start, size);
        const uint8_t *end = flags + size, *at;
        for (at = flags; at < end && (at = memchr(at, 1, (size_t)(end - at))) != NULL; at++) {
            if (found == room) {
                int64_t *grown = PyMem_RawRealloc(positions, (size_t)(2 * room) * sizeof(int64_t));
                if (grown == NULL) {
                    ok = 0;
                    break;
                }
                positions = grown;
                room *= 2;
            }
            positions[found++] = (int64_t)(start + (at - flags));
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *result = ok ? PyBytes_FromStringAndSize((const char *)positions,
                                                      found * (idx_t)sizeof(int64_t))
                          : PyErr_NoMemory();
    PyMem_RawFree(positions);
    return result;
}

/* rounded(kind, out, flags, x, count): kind "tanh" or "exp"; out float32 and flags uint8 of
 * count elements (flags a scratch buffer), x float32. Returns the flagged positions (bytes of
 * int64) for the caller to compute exactly. */
static PyObject *py_rounded(PyObject *self, PyObject *args)
{
    Py_buffer out, flags, x;
    const char *kind;
    idx_t count;
    (void)self;
    if (!PyArg_ParseTuple(args, "sw*w*y*n", &kind, &out, &flags, &x, &count))
        return NULL;
    int exp = strcmp(kind, "exp") == 0;
    int ok = (exp || strcmp(kind, "tanh") == 0) && count >= 0 && holds(&out, count, "out")
             && holds(&x, count, "x") && flags.len >= count;
    PyObject *positions = NULL;
    if (ok)
        positions = rounded_run(rounded_kernel(exp), out.buf, flags.buf, x.buf, count);
    else if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "rounded: bad kind or sizes");
    PyBuffer_Release(&out);
    PyBuffer_Release(&flags);
    PyBuffer_Release(&x);
    return positions;
}

/* tanh_backward(out, g, y, count): out = g * fma(-y, y, 1), all float32 of count elements. */
static PyObject *py_tanh_backward(PyObject *self, PyObject *args)
{
    Py_buffer out, g, y;
    idx_t count;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*y*n", &out, &g, &y, &count))
        return NULL;
    int ok = count >= 0 && holds(&out, count, "out") && holds(&g, count, "g")
             && holds(&y, count, "y");
    if (ok) {
        void (*body)(float *, const float *, const float *, idx_t) = tanh_backward_portable;
#ifdef GRADSH_X86
        if (rounded_avx512())
            body = tanh_backward_avx512;
        else if (strcmp(current->name, "avx2") == 0 || strcmp(current->name, "avx512f") == 0)
            body = tanh_backward_avx2;
#endif
        Py_BEGIN_ALLOW_THREADS
        body(out.buf, g.buf, y.buf, count);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&g);
    PyBuffer_Release(&y);
    return ok ? Py_NewRef(Py_None) : NULL;
}
