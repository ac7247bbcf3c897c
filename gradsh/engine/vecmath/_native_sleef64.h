/* SLEEF's double-precision routines as ATen's AVX-512 `Vectorized<double>` calls them
 * (Sleef_expd8_u10, Sleef_log1pd8_u10, ...), one lane at a time, bit for bit.
 *
 * SLEEF computes every lane alone, so a scalar port is exact where it repeats each lane's
 * operations: the same constants and operation order as sleefsimddp.c's AVX-512 build, where
 * every multiply-add is fused (`fma` here) and every other step is one IEEE operation (the
 * extension is compiled with -ffp-contract=off, so `*` and `+` are never fused behind our
 * back). The AVX-512 instructions SLEEF's helper uses (vgetexp, vgetmant, vfixupimm,
 * vcvtpd2dq) are spelled out below. Checked against the routines libtorch_cpu exports on
 * millions of inputs (tests/test_float64_bits.py compares the tensor ops with torch).
 *
 * Part of _native.c (included after its common definitions), continued by
 * _native_sleef64_gamma.h (erf, lgamma); _native_sleef64_calls.h has the entry points that
 * vecmath/sleef_double.py calls. */

typedef struct {
    double x, y; /* x + y, |y| <= ulp(x) / 2 */
} dd_t;

INLINE uint64_t d2u(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

INLINE double u2d(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* vcvtpd2dq with round to nearest even: INT_MIN for nan and out-of-range values. */
INLINE int32_t d_rint_i32(double d)
{
    double r = rint(d);
    return (r >= -2147483648.0 && r <= 2147483647.0) ? (int32_t)r : INT32_MIN;
}

/* vcvttpd2dq: truncation, INT_MIN for nan and out-of-range values. */
INLINE int32_t d_trunc_i32(double d)
{
    return (d > -2147483649.0 && d < 2147483648.0) ? (int32_t)d : INT32_MIN;
}

/* 2**q as the bits (q + 0x3ff) << 52, in 32-bit integer arithmetic as SLEEF's vpow2i. */
INLINE double d_pow2i(int32_t q)
{
    uint32_t high = ((uint32_t)q + 0x3ffu) << 20;
    return u2d((uint64_t)high << 32);
}

/* vldexp2: d * 2**e in two multiplications. */
INLINE double ldexp2k(double d, int32_t e)
{
    int32_t half = e >> 1;
    return d * d_pow2i(half) * d_pow2i((int32_t)((uint32_t)e - (uint32_t)half));
}

/* vldexp3: q added to the exponent field of d (no range checks). */
INLINE double ldexp3k(double d, int32_t q)
{
    return u2d(d2u(d) + ((uint64_t)((uint32_t)q << 20) << 32));
}

/* vgetexppd: floor(log2 |d|) as a double (subnormals exact); -inf at 0, +inf at inf. */
INLINE double d_getexp(double d)
{
    if (d != d)
        return d;
    if (d == 0)
        return -INFINITY;
    if (isinf(d))
        return INFINITY;
    int e;
    frexp(d, &e);
    return (double)(e - 1);
}

/* vgetmantpd with the interval [0.75, 1.5) and a negative sign giving nan. */
INLINE double d_getmant(double d)
{
    if (d != d || d < 0 || (d == 0 && signbit(d)))
        return NAN;
    if (isinf(d))
        return 1.0;
    int e;
    double f = frexp(d, &e);
    return f < 0.75 ? f * 2 : f;
}

INLINE double d_mulsign(double x, double y)
{
    return u2d(d2u(x) ^ (d2u(y) & 0x8000000000000000ull));
}

INLINE double d_or_nan(int mask, double x)
{
    return mask ? u2d(~0ull) : x;
}

/* ---- double-double arithmetic (SLEEF's dd.h, FMA flavour) ---- */

INLINE dd_t dd(double x, double y)
{
    dd_t r = {x, y};
    return r;
}

INLINE dd_t dd_neg(dd_t a) { return dd(-a.x, -a.y); }

INLINE dd_t dd_normalize(dd_t t)
{
    double s = t.x + t.y;
    return dd(s, (t.x - s) + t.y);
}

INLINE dd_t dd_scale(dd_t d, double s) { return dd(d.x * s, d.y * s); }

INLINE dd_t dd_add_d_d(double x, double y)
{
    double s = x + y;
    return dd(s, (x - s) + y);
}

INLINE dd_t dd_add2_d_d(double x, double y)
{
    double s = x + y, v = s - x;
    return dd(s, (x - (s - v)) + (y - v));
}

INLINE dd_t dd_add_dd_d(dd_t x, double y)
{
    double s = x.x + y;
    return dd(s, ((x.x - s) + y) + x.y);
}

INLINE dd_t dd_add2_dd_d(dd_t x, double y)
{
    double s = x.x + y, v = s - x.x;
    double w = (x.x - (s - v)) + (y - v);
    return dd(s, w + x.y);
}

INLINE dd_t dd_add_d_dd(double x, dd_t y)
{
    double s = x + y.x;
    return dd(s, ((x - s) + y.x) + y.y);
}

INLINE dd_t dd_add2_d_dd(double x, dd_t y)
{
    double s = x + y.x, v = s - x;
    return dd(s, ((x - (s - v)) + (y.x - v)) + y.y);
}

INLINE dd_t dd_add_dd_dd(dd_t x, dd_t y)
{
    double s = x.x + y.x;
    return dd(s, (((x.x - s) + y.x) + x.y) + y.y);
}

INLINE dd_t dd_add2_dd_dd(dd_t x, dd_t y)
{
    double s = x.x + y.x, v = s - x.x;
    double t = (x.x - (s - v)) + (y.x - v);
    return dd(s, t + (x.y + y.y));
}

INLINE dd_t dd_sub_dd_dd(dd_t x, dd_t y)
{
    double s = x.x - y.x;
    double t = ((x.x - s) - y.x) + x.y;
    return dd(s, t - y.y);
}

INLINE dd_t dd_div(dd_t n, dd_t d)
{
    double t = 1.0 / d.x;
    double s = n.x * t;
    double u = fma(t, n.x, -s);
    double v = fma(-d.y, t, fma(-d.x, t, 1.0));
    return dd(s, fma(s, v, fma(n.y, t, u)));
}

INLINE dd_t dd_mul_d_d(double x, double y)
{
    double s = x * y;
    return dd(s, fma(x, y, -s));
}

INLINE dd_t dd_squ(dd_t x)
{
    double s = x.x * x.x;
    return dd(s, fma(x.x + x.x, x.y, fma(x.x, x.x, -s)));
}

INLINE dd_t dd_mul_dd_dd(dd_t x, dd_t y)
{
    double s = x.x * y.x;
    return dd(s, fma(x.x, y.y, fma(x.y, y.x, fma(x.x, y.x, -s))));
}

INLINE dd_t dd_mul_dd_d(dd_t x, double y)
{
    double s = x.x * y;
    return dd(s, fma(x.y, y, fma(x.x, y, -s)));
}

INLINE dd_t dd_rec(dd_t d)
{
    double s = 1.0 / d.x;
    return dd(s, s * fma(-d.y, s, fma(-d.x, s, 1.0)));
}

INLINE dd_t dd_rec_d(double d)
{
    double s = 1.0 / d;
    return dd(s, s * fma(-d, s, 1.0));
}

INLINE dd_t dd_sel(int o, dd_t a, dd_t b) { return o ? a : b; }

/* ---- Estrin's scheme, as SLEEF's POLYn macros nest their fused steps ---- */

#define MLA(x, y, z) fma((x), (y), (z))
#define P2(x, c1, c0) MLA(x, c1, c0)
#define P3(x, x2, c2, c1, c0) MLA(x2, c2, MLA(x, c1, c0))
#define P4(x, x2, c3, c2, c1, c0) MLA(x2, MLA(x, c3, c2), MLA(x, c1, c0))
#define P5(x, x2, x4, c4, c3, c2, c1, c0) MLA(x4, c4, P4(x, x2, c3, c2, c1, c0))
#define P6(x, x2, x4, c5, c4, c3, c2, c1, c0) MLA(x4, P2(x, c5, c4), P4(x, x2, c3, c2, c1, c0))
#define P7(x, x2, x4, c6, c5, c4, c3, c2, c1, c0)                                                  \
    MLA(x4, P3(x, x2, c6, c5, c4), P4(x, x2, c3, c2, c1, c0))
#define P8(x, x2, x4, c7, c6, c5, c4, c3, c2, c1, c0)                                              \
    MLA(x4, P4(x, x2, c7, c6, c5, c4), P4(x, x2, c3, c2, c1, c0))
#define P9(x, x2, x4, x8, c8, c7, c6, c5, c4, c3, c2, c1, c0)                                      \
    MLA(x8, c8, P8(x, x2, x4, c7, c6, c5, c4, c3, c2, c1, c0))
#define P10(x, x2, x4, x8, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0)                                 \
    MLA(x8, P2(x, c9, c8), P8(x, x2, x4, c7, c6, c5, c4, c3, c2, c1, c0))
#define P16(x, x2, x4, x8, cf, ce, cd, cc, cb, ca, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0)         \
    MLA(x8, P8(x, x2, x4, cf, ce, cd, cc, cb, ca, c9, c8), P8(x, x2, x4, c7, c6, c5, c4, c3, c2, c1, c0))
#define P21(x, x2, x4, x8, x16, d4, d3, d2, d1, d0, cf, ce, cd, cc, cb, ca, c9, c8, c7, c6, c5, c4, \
            c3, c2, c1, c0)                                                                        \
    MLA(x16, P5(x, x2, x4, d4, d3, d2, d1, d0),                                                    \
        P16(x, x2, x4, x8, cf, ce, cd, cc, cb, ca, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0))

#define SLEEF_L2U .69314718055966295651160180568695068359375
#define SLEEF_L2L .28235290563031577122588448175013436025525412068e-12
#define SLEEF_R_LN2 1.442695040888963407359924681001892137426645954152985934135449406931
#define SLEEF_LOG_DBL_MAX 709.782712893384
#define SLEEF_LN2_DD dd(0.693147180559945286226764, 2.319046813846299558417771e-17)

/* ---- exp ---- */

/* Sleef_expd8_u10 (xexp). */
INLINE double sleef_exp(double d)
{
    double u = rint(d * SLEEF_R_LN2);
    int32_t q = d_rint_i32(u);
    double s = fma(u, -SLEEF_L2U, d);
    s = fma(u, -SLEEF_L2L, s);
    double s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
    u = P10(s, s2, s4, s8, +0.2081276378237164457e-8, +0.2511210703042288022e-7,
            +0.2755762628169491192e-6, +0.2755723402025388239e-5, +0.2480158687479686264e-4,
            +0.1984126989855865850e-3, +0.1388888888914497797e-2, +0.8333333333314938210e-2,
            +0.4166666666666602598e-1, +0.1666666666666669072e+0);
    u = fma(u, s, 0.5);
    u = fma(u, s, 1.0);
    u = fma(u, s, 1.0);
    u = ldexp2k(u, q);
    if (d > SLEEF_LOG_DBL_MAX)
        u = INFINITY;
    if (d < -1000)
        u = 0.0;
    return u;
}

/* expk2: e**d of a double-double, as a double-double (sinh, cosh, tanh, expm1). */
INLINE dd_t sleef_expk2(dd_t d)
{
    double u = (d.x + d.y) * SLEEF_R_LN2;
    double dq = rint(u);
    int32_t q = d_rint_i32(dq);
    dd_t s = dd_add2_dd_d(d, dq * -SLEEF_L2U);
    s = dd_add2_dd_d(s, dq * -SLEEF_L2L);
    dd_t s2 = dd_squ(s), s4 = dd_squ(s2);
    double s8 = s4.x * s4.x;
    u = P10(s.x, s2.x, s4.x, s8, +0.1602472219709932072e-9, +0.2092255183563157007e-8,
            +0.2505230023782644465e-7, +0.2755724800902135303e-6, +0.2755731892386044373e-5,
            +0.2480158735605815065e-4, +0.1984126984148071858e-3, +0.1388888888886763255e-2,
            +0.8333333333333347095e-2, +0.4166666666666669905e-1);
    dd_t t = dd_add_d_dd(0.5, dd_mul_dd_d(s, +0.1666666666666666574e+0));
    t = dd_add_d_dd(1.0, dd_mul_dd_dd(t, s));
    t = dd_add_d_dd(1.0, dd_mul_dd_dd(t, s));
    t = dd_add_dd_dd(t, dd_mul_dd_d(s4, u));
    t = dd(ldexp2k(t.x, q), ldexp2k(t.y, q));
    if (d.x < -1000)
        t = dd(0.0, 0.0);
    return t;
}

/* expk: e**d of a double-double, rounded to a double (pow, erf). */
INLINE double sleef_expk(dd_t d)
{
    double u = (d.x + d.y) * SLEEF_R_LN2;
    double dq = rint(u);
    int32_t q = d_rint_i32(dq);
    dd_t s = dd_add2_dd_d(d, dq * -SLEEF_L2U);
    s = dd_add2_dd_d(s, dq * -SLEEF_L2L);
    s = dd_normalize(s);
    double s2 = s.x * s.x, s4 = s2 * s2, s8 = s4 * s4;
    u = P10(s.x, s2, s4, s8, 2.51069683420950419527139e-08, 2.76286166770270649116855e-07,
            2.75572496725023574143864e-06, 2.48014973989819794114153e-05,
            0.000198412698809069797676111, 0.0013888888939977128960529,
            0.00833333333332371417601081, 0.0416666666665409524128449,
            0.166666666666666740681535, 0.500000000000000999200722);
    dd_t t = dd_add_d_dd(1.0, s);
    t = dd_add_dd_dd(t, dd_mul_dd_d(dd_squ(s), u));
    u = ldexp2k(t.x + t.y, q);
    return d.x < -1000 ? 0.0 : u;
}

/* Sleef_expm1d8_u10 (xexpm1). */
INLINE double sleef_expm1(double a)
{
    dd_t d = dd_add2_dd_d(sleef_expk2(dd(a, 0.0)), -1.0);
    double x = d.x + d.y;
    if (a > 709.782712893383996732223)
        x = INFINITY;
    if (a < -36.736800569677101399113302437)
        x = -1.0;
    if (a == 0 && signbit(a))
        x = -0.0;
    return x;
}

/* Sleef_sinhd8_u10, Sleef_coshd8_u10 (xsinh, xcosh): (e**|x| -+ e**-|x|) / 2. */
INLINE double sleef_sinh_cosh(double x, int cosh_)
{
    double y = fabs(x);
    dd_t d = sleef_expk2(dd(y, 0.0));
    d = cosh_ ? dd_add_dd_dd(d, dd_rec(d)) : dd_sub_dd_dd(d, dd_rec(d));
    y = (d.x + d.y) * 0.5;
    if (fabs(x) > 710 || y != y)
        y = INFINITY;
    if (!cosh_)
        y = d_mulsign(y, x);
    return d_or_nan(x != x, y);
}

/* Sleef_tanhd8_u10 (xtanh). */
INLINE double sleef_tanh(double x)
{
    double y = fabs(x);
    dd_t d = sleef_expk2(dd(y, 0.0));
    dd_t e = dd_rec(d);
    d = dd_div(dd_add2_dd_dd(d, dd_neg(e)), dd_add2_dd_dd(d, e));
    y = d.x + d.y;
    if (fabs(x) > 18.714973875 || y != y)
        y = 1.0;
    y = d_mulsign(y, x);
    return d_or_nan(x != x, y);
}

/* Sleef_exp2d8_u10 (xexp2). */
INLINE double sleef_exp2(double d)
{
    double u = rint(d);
    int32_t q = d_rint_i32(u);
    double s = d - u;
    double s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
    u = P10(s, s2, s4, s8, +0.4434359082926529454e-9, +0.7073164598085707425e-8,
            +0.1017819260921760451e-6, +0.1321543872511327615e-5, +0.1525273353517584730e-4,
            +0.1540353045101147808e-3, +0.1333355814670499073e-2, +0.9618129107597600536e-2,
            +0.5550410866482046596e-1, +0.2402265069591012214e+0);
    u = fma(u, s, +0.6931471805599452862e+0);
    u = fma(u, s, 1.0);
    u = ldexp2k(u, q);
    if (d >= 1024)
        u = INFINITY;
    if (d < -2000)
        u = 0.0;
    return u;
}

/* ---- log ---- */

/* Sleef_logd8_u10 (xlog_u1, AVX-512 branch: vgetexp, vgetmant, vfixupimm). */
INLINE double sleef_log(double d)
{
    double e = d_getexp(d * (1.0 / 0.75));
    if (isinf(e) && e > 0)
        e = 1024.0;
    double m = d_getmant(d);
    dd_t x = dd_div(dd_add2_d_d(-1.0, m), dd_add2_d_d(1.0, m));
    double x2 = x.x * x.x, x4 = x2 * x2, x8 = x4 * x4;
    double t = P7(x2, x4, x8, 0.1532076988502701353e+0, 0.1525629051003428716e+0,
                  0.1818605932937785996e+0, 0.2222214519839380009e+0, 0.2857142932794299317e+0,
                  0.3999999999635251990e+0, 0.6666666666667333541e+0);
    dd_t s = dd_mul_dd_d(SLEEF_LN2_DD, e);
    s = dd_add_dd_dd(s, dd_scale(x, 2.0));
    s = dd_add_dd_d(s, (x2 * x.x) * t);
    double r = s.x + s.y;
    /* vfixupimm: +0/-0 -> -inf, -inf -> nan, +inf -> +inf, negative -> nan */
    if (d == 0)
        return -INFINITY;
    if (isinf(d))
        return d > 0 ? INFINITY : NAN;
    if (d < 0)
        return NAN;
    return r;
}

/* Sleef_log1pd8_u10 (xlog1p, AVX-512 branch). */
INLINE double sleef_log1p(double d)
{
    double dp1 = d + 1.0;
    double e = d_getexp(dp1 * (1.0 / 0.75));
    if (isinf(e) && e > 0)
        e = 1024.0;
    double t = ldexp3k(1.0, -d_rint_i32(e));
    double m = fma(d, t, t - 1.0);
    dd_t s = dd_mul_dd_d(SLEEF_LN2_DD, e);
    dd_t x = dd_div(dd(m, 0.0), dd_add_d_d(2.0, m));
    double x2 = x.x * x.x, x4 = x2 * x2, x8 = x4 * x4;
    t = P7(x2, x4, x8, 0.1532076988502701353e+0, 0.1525629051003428716e+0,
           0.1818605932937785996e+0, 0.2222214519839380009e+0, 0.2857142932794299317e+0,
           0.3999999999635251990e+0, 0.6666666666667333541e+0);
    s = dd_add_dd_dd(s, dd_scale(x, 2.0));
    s = dd_add_dd_d(s, (x2 * x.x) * t);
    double r = s.x + s.y;
    if (!(d <= 0x1.c7b1f3cac7433p+1019))
        r = sleef_log(d);
    if (d < -1 || d != d)
        r = NAN;
    if (d == -1)
        r = -INFINITY;
    if (d == 0 && signbit(d))
        r = -0.0;
    return r;
}

/* logk: log of a double as a double-double (pow). */
INLINE dd_t sleef_logk(double d)
{
    double e = d_getexp(d * (1.0 / 0.75));
    if (isinf(e) && e > 0)
        e = 1024.0;
    double m = d_getmant(d);
    dd_t x = dd_div(dd_add2_d_d(-1.0, m), dd_add2_d_d(1.0, m));
    dd_t x2 = dd_squ(x);
    double x4 = x2.x * x2.x, x8 = x4 * x4, x16 = x8 * x8;
    double t = P9(x2.x, x4, x8, x16, 0.116255524079935043668677, 0.103239680901072952701192,
                  0.117754809412463995466069, 0.13332981086846273921509,
                  0.153846227114512262845736, 0.181818180850050775676507,
                  0.222222222230083560345903, 0.285714285714249172087875,
                  0.400000000000000077715612);
    dd_t c = dd(0.666666666666666629659233, 3.80554962542412056336616e-17);
    dd_t s = dd_mul_dd_d(SLEEF_LN2_DD, e);
    s = dd_add_dd_dd(s, dd_scale(x, 2.0));
    x = dd_mul_dd_dd(x2, x);
    s = dd_add_dd_dd(s, dd_mul_dd_dd(x, c));
    x = dd_mul_dd_dd(x2, x);
    return dd_add_dd_dd(s, dd_mul_dd_d(x, t));
}

/* logk2: log of a double-double (lgamma, atanh, asinh); the exponent from vgetexp. */
INLINE dd_t sleef_logk2(dd_t d)
{
    int32_t e = d_rint_i32(d_getexp(d.x * (1.0 / 0.75)));
    dd_t m = dd(ldexp2k(d.x, -e), ldexp2k(d.y, -e));
    dd_t x = dd_div(dd_add2_dd_d(m, -1.0), dd_add2_dd_d(m, 1.0));
    dd_t x2 = dd_squ(x);
    double x4 = x2.x * x2.x, x8 = x4 * x4;
    double t = P7(x2.x, x4, x8, 0.13860436390467167910856, 0.131699838841615374240845,
                  0.153914168346271945653214, 0.181816523941564611721589,
                  0.22222224632662035403996, 0.285714285511134091777308,
                  0.400000000000914013309483);
    t = fma(t, x2.x, 0.666666666666664853302393);
    dd_t s = dd_mul_dd_d(SLEEF_LN2_DD, (double)e);
    s = dd_add_dd_dd(s, dd_scale(x, 2.0));
    return dd_add_dd_dd(s, dd_mul_dd_d(dd_mul_dd_dd(x2, x), t));
}

/* Sleef_atanhd8_u10 (xatanh): log((1 + |x|) / (1 - |x|)) / 2 in double-double, x's sign. */
INLINE double sleef_atanh(double x)
{
    double y = fabs(x);
    dd_t d = sleef_logk2(dd_div(dd_add2_d_d(1.0, y), dd_add2_d_d(1.0, -y)));
    y = d_or_nan(y > 1.0, y == 1.0 ? INFINITY : (d.x + d.y) * 0.5);
    y = d_mulsign(y, x);
    y = d_or_nan(isinf(x) || y != y, y);
    return d_or_nan(x != x, y);
}

INLINE dd_t dd_sqrt(dd_t d)
{
    double t = sqrt(d.x + d.y);
    return dd_scale(dd_mul_dd_dd(dd_add2_dd_dd(d, dd_mul_d_d(t, t)), dd_rec_d(t)), 0.5);
}

/* Sleef_hypotd8_u05 (xhypot_u05). */
INLINE double sleef_hypot(double x, double y)
{
    x = fabs(x);
    y = fabs(y);
    double min = x < y ? x : y, n = min; /* vminpd, vmaxpd (nan handled below) */
    double max = x > y ? x : y, d = max;
    if (max < 0x1p-1022) {
        n *= (double)((uint64_t)1 << 54);
        d *= (double)((uint64_t)1 << 54);
    }
    dd_t t = dd_div(dd(n, 0.0), dd(d, 0.0));
    t = dd_mul_dd_d(dd_sqrt(dd_add2_dd_d(dd_squ(t), 1.0)), max);
    double r = t.x + t.y;
    if (r != r)
        r = INFINITY;
    if (min == 0)
        r = max;
    if (x != x || y != y)
        r = NAN;
    if (x == INFINITY || y == INFINITY)
        r = INFINITY;
    return r;
}

/* ---- pow ---- */

INLINE int d_is_int(double y) { return rint(y) == y; }

/* visodd: y / 2 not an integer (never for |y| >= 2**53, infinities or nan). */
INLINE int d_is_odd(double y) { return rint(y * 0.5) != y * 0.5; }

/* Sleef_powd8_u10 (xpow). */
INLINE double sleef_pow(double x, double y)
{
    int yisint = d_is_int(y);
    int yisodd = d_is_odd(y) && yisint;
    dd_t d = dd_mul_dd_d(sleef_logk(fabs(x)), y);
    double result = sleef_expk(d);
    if (d.x > SLEEF_LOG_DBL_MAX)
        result = INFINITY;
    result *= x > 0 ? 1.0 : (yisint ? (yisodd ? -1.0 : 1.0) : NAN);
    double efx = d_mulsign(fabs(x) - 1, y);
    if (isinf(y))
        result = efx < 0 ? 0.0 : (efx == 0 ? 1.0 : INFINITY);
    if (isinf(x) || x == 0)
        result = d_mulsign((signbit(y) != 0) ^ (x == 0) ? 0.0 : INFINITY, yisodd ? x : 1.0);
    result = d_or_nan(x != x || y != y, result);
    if (y == 0 || x == 1)
        result = 1.0;
    return result;
}

/* ---- atan2 ---- */

INLINE dd_t sleef_atan2k_u1(dd_t y, dd_t x)
{
    int32_t q = x.x < 0 ? -2 : 0;
    if (x.x < 0)
        x = dd(-x.x, -x.y); /* the sign bits flipped (vxor) */
    if (x.x < y.x)
        q += 1;
    int p = x.x < y.x;
    dd_t s = p ? dd_neg(x) : y;
    dd_t t = p ? y : x;
    s = dd_div(s, t);
    t = dd_normalize(dd_squ(s));
    double t2 = t.x * t.x, t4 = t2 * t2, t8 = t4 * t4;
    double u = P16(t.x, t2, t4, t8, 1.06298484191448746607415e-05,
                   -0.000125620649967286867384336, 0.00070557664296393412389774,
                   -0.00251865614498713360352999, 0.00646262899036991172313504,
                   -0.0128281333663399031014274, 0.0208024799924145797902497,
                   -0.0289002344784740315686289, 0.0359785005035104590853656,
                   -0.041848579703592507506027, 0.0470843011653283988193763,
                   -0.0524914210588448421068719, 0.0587946590969581003860434,
                   -0.0666620884778795497194182, 0.0769225330296203768654095,
                   -0.0909090442773387574781907);
    u = fma(u, t.x, 0.111111108376896236538123);
    u = fma(u, t.x, -0.142857142756268568062339);
    u = fma(u, t.x, 0.199999999997977351284817);
    u = fma(u, t.x, -0.333333333333317605173818);
    t = dd_add_dd_dd(s, dd_mul_dd_d(dd_mul_dd_dd(s, t), u));
    return dd_add_dd_dd(dd_mul_dd_d(dd(1.570796326794896557998982, 6.12323399573676603586882e-17),
                                    (double)q), t);
}

/* visinf2: where d is infinite, m with d's sign bit or-ed in; 0 elsewhere. */
INLINE double d_isinf2(double d, double m)
{
    return isinf(d) ? u2d((d2u(d) & 0x8000000000000000ull) | d2u(m)) : 0.0;
}

/* Sleef_atan2d8_u10 (xatan2_u1). */
INLINE double sleef_atan2(double y, double x)
{
    if (fabs(x) < 5.5626846462680083984e-309) {
        x *= (double)((uint64_t)1 << 53);
        y *= (double)((uint64_t)1 << 53);
    }
    dd_t d = sleef_atan2k_u1(dd(fabs(y), 0.0), dd(x, 0.0));
    double r = d_mulsign(d.x + d.y, x);
    if (isinf(x) || x == 0)
        r = M_PI / 2 - d_isinf2(x, d_mulsign(M_PI / 2, x));
    if (isinf(y))
        r = M_PI / 2 - d_isinf2(x, d_mulsign(M_PI / 4, x));
    if (y == 0)
        r = signbit(x) ? M_PI : 0.0;
    return d_or_nan(x != x || y != y, d_mulsign(r, y));
}
