/* glibc 2.36's float32 expf, logf (their x86-64 FMA builds) and log1pf (fdlibm's, plain float
 * arithmetic): what ATen's scalar paths call through std::exp, std::log and std::log1p (a
 * loop's tail, strided input, 0-d tensors, and kernels with no vector form such as
 * binary_cross_entropy's). vecmath/libm.py and vecmath/fdlibm.py compute the same in NumPy;
 * here each element is one call, the fused steps of the FMA builds written as fma(), so the
 * bits do not depend on the CPU (fma() is exact with or without the instruction).
 * Part of _native.c (included there after _native_elementwise.h's to_bits/from_bits and
 * _native_sleef64.h's d2u/u2d); not a header of its own. */

/* __exp2f_data.tab: bits of 2^(i/32), minus i << 47 */
static const uint64_t GLIBC_EXP2F_TAB[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};

/* __logf_data.tab: {1/c, log(c)} for 16 subintervals of [0x3f330000, 2 * 0x3f330000) */
static const double GLIBC_LOGF_INVC[16] = {
    0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010b0p+0, 0x1.3c995b0b80385p+0,
    0x1.30d190c8864a5p+0, 0x1.25e227b0b8ea0p+0, 0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0,
    0x1.0953f419900a7p+0, 0x1.0000000000000p+0, 0x1.e608cfd9a47acp-1, 0x1.ca4b31f026aa0p-1,
    0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1, 0x1.767dcf5534862p-1,
};
static const double GLIBC_LOGF_LOGC[16] = {
    -0x1.57bf7808caadep-2, -0x1.2bef0a7c06ddbp-2, -0x1.01eae7f513a67p-2, -0x1.b31d8a68224e9p-3,
    -0x1.6574f0ac07758p-3, -0x1.1aa2bc79c8100p-3, -0x1.a4e76ce8c0e5ep-4, -0x1.1973c5a611cccp-4,
    -0x1.252f438e10c1ep-5, 0x0.0p+0, 0x1.aa5aa5df25984p-5, 0x1.c5e53aa362eb4p-4,
    0x1.526e57720db08p-3, 0x1.bc2860d224770p-3, 0x1.1058bc8a07ee1p-2, 0x1.4043057b6ee09p-2,
};

/* e_expf.c, its FMA build */
static float glibc_expf(float x)
{
    const double invln2n = 0x1.71547652b82fep+5, shift = 0x1.8p+52;
    const double c0 = 0x1.c6af84b912394p-20, c1 = 0x1.ebfce50fac4f3p-13,
                 c2 = 0x1.62e42ff0c52d6p-6;
    uint32_t abstop = (to_bits(x) >> 20) & 0x7ff;
    if (abstop >= 0x42b) { /* |x| >= 88, infinities and NaN */
        if (to_bits(x) == 0xff800000u)
            return 0.0f;
        if (abstop >= 0x7f8)
            return x + x;
        if (x > 0x1.62e42ep6f)
            return INFINITY;
        if (x < -0x1.9fe368p6f)
            return 0.0f;
    }
    double xd = (double)x;
    double kd = fma(invln2n, xd, shift);
    uint64_t ki = d2u(kd);
    kd -= shift;
    double r = fma(invln2n, xd, -kd);
    double s = u2d(GLIBC_EXP2F_TAB[ki % 32] + (ki << 47));
    double z = fma(c0, r, c1);
    double r2 = r * r;
    double y = fma(c2, r, 1.0);
    y = fma(z, r2, y);
    return (float)(y * s);
}

/* e_logf.c, its FMA build */
static float glibc_logf(float x)
{
    const double ln2 = 0x1.62e42fefa39efp-1;
    const double a0 = -0x1.00ea348b88334p-2, a1 = 0x1.5575b0be00b6ap-2,
                 a2 = -0x1.ffffef20a4123p-2;
    uint32_t ix = to_bits(x);
    if (ix == 0x3f800000u)
        return 0.0f;
    if (ix - 0x00800000u >= 0x7f800000u - 0x00800000u) { /* x < 0x1p-126, inf or NaN */
        if (ix * 2 == 0)
            return -INFINITY;
        if (ix == 0x7f800000u)
            return x;
        if ((ix & 0x80000000u) || ix * 2 >= 0xff000000u)
            return (x - x) / (x - x);
        ix = to_bits(x * 0x1p23f) - (23u << 23); /* a subnormal: normalised */
    }
    uint32_t tmp = ix - 0x3f330000u;
    int i = (int)((tmp >> 19) % 16);
    int32_t k = (int32_t)tmp >> 23;
    uint32_t iz = ix - (tmp & 0xff800000u);
    double z = (double)from_bits(iz);
    double r = fma(z, GLIBC_LOGF_INVC[i], -1.0);
    double y0 = fma((double)k, ln2, GLIBC_LOGF_LOGC[i]);
    double r2 = r * r;
    double y = fma(a1, r, a2);
    y = fma(a0, r2, y);
    y = fma(y, r2, y0 + r);
    return (float)y;
}

/* s_log1pf.c (fdlibm, converted to float by Cygnus) */
static float fdlibm_log1pf(float x)
{
    const float ln2_hi = 6.9313812256e-01f, ln2_lo = 9.0580006145e-06f;
    const float lp1 = 6.6666668653e-01f, lp2 = 4.0000000596e-01f, lp3 = 2.8571429849e-01f,
                lp4 = 2.2222198546e-01f, lp5 = 1.8183572590e-01f, lp6 = 1.5313838422e-01f,
                lp7 = 1.4798198640e-01f;
    float hfsq, f = 0.0f, c = 0.0f, s, z, r, u;
    int32_t k = 1, hu = 0;
    int32_t hx = (int32_t)to_bits(x);
    int32_t ax = hx & 0x7fffffff;
    if (hx < 0x3ed413d7) { /* x < 0.41422 */
        if (ax >= 0x3f800000) /* x <= -1.0 */
            return x == -1.0f ? -INFINITY : (x - x) / (x - x);
        if (ax < 0x31000000) /* |x| < 2**-29 */
            return ax < 0x24800000 ? x : x - x * x * 0.5f;
        if (hx > 0 || hx <= (int32_t)0xbe95f61fu) { /* -0.2929 < x < 0.41422 */
            k = 0;
            f = x;
            hu = 1;
        }
    } else if (hx >= 0x7f800000) {
        return x + x;
    }
    if (k != 0) {
        if (hx < 0x5a000000) {
            u = 1.0f + x;
            hu = (int32_t)to_bits(u);
            k = (hu >> 23) - 127;
            c = k > 0 ? 1.0f - (u - x) : x - (u - 1.0f); /* the rounding of 1 + x */
            c /= u;
        } else {
            u = x;
            hu = (int32_t)to_bits(u);
            k = (hu >> 23) - 127;
            c = 0.0f;
        }
        hu &= 0x007fffff;
        if (hu < 0x3504f7) {
            u = from_bits((uint32_t)hu | 0x3f800000u); /* u normalised */
        } else {
            k += 1;
            u = from_bits((uint32_t)hu | 0x3f000000u); /* u/2 normalised */
            hu = (0x00800000 - hu) >> 2;
        }
        f = u - 1.0f;
    }
    hfsq = 0.5f * f * f;
    if (hu == 0) { /* |f| < 2**-20 */
        if (f == 0.0f) {
            if (k == 0)
                return 0.0f;
            c += (float)k * ln2_lo;
            return (float)k * ln2_hi + c;
        }
        r = hfsq * (1.0f - 0.66666666666666666f * f);
        if (k == 0)
            return f - r;
        return (float)k * ln2_hi - ((r - ((float)k * ln2_lo + c)) - f);
    }
    s = f / (2.0f + f);
    z = s * s;
    r = z * (lp1 + z * (lp2 + z * (lp3 + z * (lp4 + z * (lp5 + z * (lp6 + z * lp7))))));
    if (k == 0)
        return f - (hfsq - s * (hfsq + r));
    return (float)k * ln2_hi - ((hfsq - (s * (hfsq + r) + ((float)k * ln2_lo + c))) - f);
}

/* glibc32(which, out, x, count): out[i] = expf (0), logf (1) or log1pf (2) of x[i] */
static PyObject *py_glibc32(PyObject *self, PyObject *args)
{
    static float (*const FUNCTIONS[])(float) = {glibc_expf, glibc_logf, fdlibm_log1pf};
    Py_buffer out, x;
    int which;
    idx_t count;
    (void)self;
    if (!PyArg_ParseTuple(args, "iw*y*n", &which, &out, &x, &count))
        return NULL;
    int ok = holds(&out, count, "out") && holds(&x, count, "x");
    if (ok && (which < 0 || which > 2)) {
        PyErr_SetString(PyExc_ValueError, "glibc32: which is 0, 1 or 2");
        ok = 0;
    }
    if (ok) {
        float (*function)(float) = FUNCTIONS[which];
        float *o = out.buf;
        const float *v = x.buf;
        Py_BEGIN_ALLOW_THREADS
        for (idx_t i = 0; i < count; i++)
            o[i] = function(v[i]);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&x);
    return ok ? Py_NewRef(Py_None) : NULL;
}
