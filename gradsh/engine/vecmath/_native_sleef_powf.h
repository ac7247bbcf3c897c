/* SLEEF's powf (Sleef_powf16_u10, xpowf) as ATen's AVX-512 Vectorized<float>::pow computes it,
 * one element at a time: vecmath/sleef.py's powf_u10 (its AVX-512 branch of logkf, with
 * vgetexp/vgetmant, and expkf) step for step, each fused step an fmaf. Part of _native.c
 * (included there after _native_elementwise.h's to_bits/from_bits); not a header of its own. */

typedef struct {
    float x, y; /* x + y */
} df_t;

INLINE df_t df_make(float x, float y)
{
    df_t r = {x, y};
    return r;
}

INLINE df_t df_add2_ff(float x, float y)
{
    float s = x + y, v = s - x;
    return df_make(s, (x - (s - v)) + (y - v));
}

INLINE df_t df_add2_df_f(df_t x, float y)
{
    float s = x.x + y, v = s - x.x;
    return df_make(s, ((x.x - (s - v)) + (y - v)) + x.y);
}

INLINE df_t df_add_f_df(float x, df_t y)
{
    float s = x + y.x;
    return df_make(s, ((x - s) + y.x) + y.y);
}

INLINE df_t df_add_df_df(df_t x, df_t y)
{
    float s = x.x + y.x;
    return df_make(s, (((x.x - s) + y.x) + x.y) + y.y);
}

INLINE df_t df_add2_df_df(df_t x, df_t y)
{
    float s = x.x + y.x, v = s - x.x;
    return df_make(s, ((x.x - (s - v)) + (y.x - v)) + (x.y + y.y));
}

INLINE df_t df_mul_df_f(df_t x, float y)
{
    float s = x.x * y;
    return df_make(s, fmaf(x.y, y, fmaf(x.x, y, -s)));
}

INLINE df_t df_mul_df_df(df_t x, df_t y)
{
    float s = x.x * y.x;
    return df_make(s, fmaf(x.x, y.y, fmaf(x.y, y.x, fmaf(x.x, y.x, -s))));
}

INLINE df_t df_squ(df_t x)
{
    float s = x.x * x.x;
    return df_make(s, fmaf(x.x + x.x, x.y, fmaf(x.x, x.x, -s)));
}

INLINE df_t df_div(df_t n, df_t d)
{
    float t = 1.0f / d.x, s = n.x * t;
    float u = fmaf(t, n.x, -s);
    float v = fmaf(-d.y, t, fmaf(-d.x, t, 1.0f));
    return df_make(s, fmaf(s, v, fmaf(n.y, t, u)));
}

/* vcvtps2dq: round half to even; NaN and out-of-range give INT_MIN */
INLINE int32_t sleef_rint_i32(float x)
{
    double r = rint((double)x);
    return fabs(r) < 2147483648.0 ? (int32_t)r : INT32_MIN;
}

/* vgetexp: floor(log2 |d|) (-inf for 0, inf for inf, exact for subnormals) */
INLINE float sleef_getexp(float d)
{
    if (d != d)
        return d;
    if (isinf(d))
        return INFINITY;
    if (d == 0.0f)
        return -INFINITY;
    float a = fabsf(d);
    int shift = a < 0x1p-126f ? 23 : 0; /* a subnormal, scaled exactly */
    if (shift)
        a *= 0x1p23f;
    return (float)((int)((to_bits(a) >> 23) & 0xff) - 127 - shift);
}

/* vgetmant with interval [0.75, 1.5), the sign dropped (a negative input gives NaN; -0.0
 * gives +0.0) */
INLINE float sleef_getmant(float d)
{
    if (d < 0.0f)
        return NAN;
    if (d != d || isinf(d))
        return d;
    if (d == 0.0f)
        return 0.0f;
    float a = d < 0x1p-126f ? d * 0x1p23f : d;
    float m = from_bits((to_bits(a) & 0x007fffffu) | 0x3f800000u); /* in [1, 2) */
    return m < 1.5f ? m : m * 0.5f;
}

/* SLEEF's general vldexp: x * 2**q in five multiplications */
INLINE float sleef_ldexp(float x, int32_t q)
{
    int32_t m = q >> 31;
    m = (((m + q) >> 6) - m) * 16;
    q = q - m * 4;
    m += 0x7f;
    m = m < 0 ? 0 : m > 0xff ? 0xff : m;
    float u = from_bits((uint32_t)m << 23);
    x = (((x * u) * u) * u) * u;
    return x * from_bits((uint32_t)(q + 0x7f) << 23);
}

INLINE df_t sleef_logkf(float d)
{
    const df_t ln2 = {0.69314718246459960938f, -1.904654323148236017e-09f};
    const df_t c = {0.66666662693023681640625f, 3.69183861259614332084311e-09f};
    float e = sleef_getexp(d * (float)(1.0 / 0.75));
    if (isinf(e) && e > 0)
        e = 128.0f;
    float m = sleef_getmant(d);
    df_t x = df_div(df_add2_ff(-1.0f, m), df_add2_ff(1.0f, m));
    df_t x2 = df_squ(x);
    float t = fmaf(fmaf(0.240320354700088500976562f, x2.x, 0.285112679004669189453125f), x2.x,
                   0.400007992982864379882812f);
    df_t s = df_mul_df_f(ln2, e);
    s = df_add_df_df(s, df_make(x.x * 2.0f, x.y * 2.0f));
    df_t tail = df_add2_df_df(df_mul_df_f(x2, t), c);
    return df_add_df_df(s, df_mul_df_df(df_mul_df_df(x2, x), tail));
}

INLINE float sleef_expkf(df_t d)
{
    const float r_ln2 = 1.442695040888963407359924681001892137f;
    const float l2u = 0.693145751953125f, l2l = 1.428606765330187045e-06f;
    int32_t q = sleef_rint_i32((d.x + d.y) * r_ln2);
    float qf = (float)q;
    df_t s = df_add2_df_f(d, qf * -l2u);
    s = df_add2_df_f(s, qf * -l2l);
    float total = s.x + s.y;
    s = df_make(total, (s.x - total) + s.y);
    float u = fmaf(0.00136324646882712841033936f, s.x, 0.00836596917361021041870117f);
    u = fmaf(u, s.x, 0.0416710823774337768554688f);
    u = fmaf(u, s.x, 0.166665524244308471679688f);
    u = fmaf(u, s.x, 0.499999850988388061523438f);
    df_t t = df_add_df_df(s, df_mul_df_f(df_squ(s), u));
    t = df_add_f_df(1.0f, t);
    u = sleef_ldexp(t.x + t.y, q);
    return d.x < -104.0f ? 0.0f : u;
}

/* x with its sign flipped where y's sign bit is set */
INLINE float sleef_mulsign(float x, float y)
{
    return from_bits(to_bits(x) ^ (to_bits(y) & 0x80000000u));
}

INLINE float sleef_powf(float x, float y)
{
    float ay = fabsf(y);
    int yisint = truncf(y) == y || ay > 16777216.0f;
    int32_t ty = ay < 2147483648.0f ? (int32_t)truncf(y) : 0;
    int yisodd = (ty & 1) == 1 && yisint && ay < 16777216.0f;
    float result = sleef_expkf(df_mul_df_f(sleef_logkf(fabsf(x)), y));
    if (result != result)
        result = INFINITY;
    result *= x > 0 ? 1.0f : yisint ? (yisodd ? -1.0f : 1.0f) : NAN;
    if (isinf(y)) {
        float efx = sleef_mulsign(fabsf(x) - 1.0f, y);
        result = efx < 0 ? 0.0f : efx == 0 ? 1.0f : INFINITY;
    }
    if (isinf(x) || x == 0.0f) {
        float zero_or_inf = (signbit(y) != 0) != (x == 0.0f) ? 0.0f : INFINITY;
        result = sleef_mulsign(zero_or_inf, yisodd ? x : 1.0f);
    }
    if (x != x || y != y)
        result = NAN;
    if (y == 0.0f || x == 1.0f)
        result = 1.0f;
    return result;
}

static void powf_loop(float *out, const float *x, const float *y, idx_t count, idx_t y_step)
{
    for (idx_t i = 0; i < count; i++)
        out[i] = sleef_powf(x[i], y[i * y_step]);
}

#ifdef GRADSH_X86
/* The same loop where the CPU has FMA: fmaf then is one instruction (the same result) */
__attribute__((target("fma"))) static void powf_loop_fma(float *out, const float *x,
                                                          const float *y, idx_t count,
                                                          idx_t y_step)
{
    for (idx_t i = 0; i < count; i++)
        out[i] = sleef_powf(x[i], y[i * y_step]);
}
#endif

/* sleef_powf(out, x, y, count, y_step): out[i] = powf(x[i], y[i * y_step]) (y_step 0: one y) */
static PyObject *py_sleef_powf(PyObject *self, PyObject *args)
{
    Py_buffer out, x, y;
    idx_t count, y_step;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*y*nn", &out, &x, &y, &count, &y_step))
        return NULL;
    int ok = holds(&out, count, "out") && holds(&x, count, "x")
             && holds(&y, y_step ? count : 1, "y");
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
#ifdef GRADSH_X86
        if (__builtin_cpu_supports("fma"))
            powf_loop_fma(out.buf, x.buf, y.buf, count, y_step);
        else
#endif
            powf_loop(out.buf, x.buf, y.buf, count, y_step);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    return ok ? Py_NewRef(Py_None) : NULL;
}
