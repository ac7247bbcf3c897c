/* gradsh's compiled kernels: the matrix products other than the general kernel (MKL's sgemv
 * and sdot orders, its small dot kernel, ATen's small bmm loop), as vecmath/sgemm.py emulates
 * them; the general kernel is _native_gemm.h. */
/* Part of _native.c (included there after its common definitions: idx_t, INLINE, IVDEP,
 * GRADSH_X86); not a header of its own. */

/* acc[l] = fma(x[l], y[l], acc[l]) for l < count (one 16-lane step). */
INLINE void lanes_fma(float *acc, const float *x, const float *y, idx_t count)
{
    for (idx_t l = 0; l < count; l++)
        acc[l] = fmaf(x[l], y[l], acc[l]);
}

/* The horizontal sum of 16 lanes: lane l + lane l+8, then +4, +2, +1. */
INLINE float tree16(const float *lanes)
{
    float t[8];
    for (int l = 0; l < 8; l++)
        t[l] = lanes[l] + lanes[l + 8];
    for (int half = 4; half >= 1; half /= 2)
        for (int l = 0; l < half; l++)
            t[l] = t[l] + t[l + half];
    return t[0];
}

/* MKL's dot-product kernel on one output (sgemm.py _dot_lanes): `accumulators` (1 or 2) sets
 * of 16 lanes, pairs of vectors alternating; `peel` leaves the first product out until last. */
INLINE float dot_lanes_one(const float *x, const float *y, idx_t k, int accumulators, int peel)
{
    float acc[2][16];
    memset(acc, 0, sizeof acc);
    idx_t first = peel ? 1 : 0, span = k - first;
    const float *xs = x + first, *ys = y + first;
    idx_t vectors = span / 16, paired = vectors - vectors % accumulators;
    for (idx_t v = 0; v < paired; v++)
        lanes_fma(acc[v % accumulators], xs + 16 * v, ys + 16 * v, 16);
    if (accumulators == 2)
        for (int l = 0; l < 16; l++)
            acc[0][l] = acc[0][l] + acc[1][l];
    for (idx_t s = 16 * paired; s < span; s += 16)
        lanes_fma(acc[0], xs + s, ys + s, span - s < 16 ? span - s : 16);
    float out = tree16(acc[0]);
    if (peel) {
        float first_product = x[0] * y[0];
        out = out + first_product;
    }
    return out;
}

/* out[i, j] = the dot kernel on a's row i and bt's row j (sgemm.py _dot_rows): even rows two
 * accumulators, odd rows one. */
INLINE void dot_rows_body(float *out, const float *a, const float *bt, idx_t m, idx_t n, idx_t k,
                          int peel)
{
    for (idx_t i = 0; i < m; i++)
        for (idx_t j = 0; j < n; j++)
            out[i * n + j] = dot_lanes_one(a + i * k, bt + j * k, k, i % 2 == 0 ? 2 : 1, peel);
}

/* sgemv's four-row form on one output (sgemm.py _gemv_rows4). */
INLINE float gemv4_one(const float *x, const float *y, idx_t k)
{
    float total = x[0] * y[0];
    float acc[16];
    idx_t vectors = (k - 1) / 16, rest = k - 1 - 16 * vectors;
    if (vectors) {
        memset(acc, 0, sizeof acc);
        acc[0] = total;
        for (idx_t v = 0; v < vectors; v++)
            lanes_fma(acc, x + 1 + 16 * v, y + 1 + 16 * v, 16);
        total = tree16(acc);
    }
    if (rest) {
        memset(acc, 0, sizeof acc);
        acc[0] = total;
        lanes_fma(acc, x + 1 + 16 * vectors, y + 1 + 16 * vectors, rest);
        total = tree16(acc);
    }
    return total;
}

/* MKL's sgemv on rows contiguous along k (sgemm.py _gemv): four rows at a time, the last
 * m % 4 through the dot kernel with the first product peeled. */
INLINE void gemv_body(float *out, const float *a, const float *bt, idx_t m, idx_t n, idx_t k)
{
    idx_t full = m - m % 4;
    for (idx_t i = 0; i < full; i++)
        for (idx_t j = 0; j < n; j++)
            out[i * n + j] = gemv4_one(a + i * k, bt + j * k, k);
    dot_rows_body(out + full * n, a + full * k, bt, m - full, n, k, 1);
}

/* MKL's sdot (sgemm.py _sdot). */
INLINE float sdot_body(const float *x, const float *y, idx_t k)
{
    float acc[4][16];
    memset(acc, 0, sizeof acc);
    idx_t vectors = k / 16, v = 0;
    while (vectors - v >= 4) {
        for (int j = 0; j < 4; j++)
            lanes_fma(acc[j], x + 16 * (v + j), y + 16 * (v + j), 16);
        v += 4;
    }
    if (vectors - v >= 2) {
        lanes_fma(acc[0], x + 16 * v, y + 16 * v, 16);
        lanes_fma(acc[1], x + 16 * (v + 1), y + 16 * (v + 1), 16);
        v += 2;
    }
    for (idx_t s = 16 * v; s < k; s += 16)
        lanes_fma(acc[0], x + s, y + s, k - s < 16 ? k - s : 16);
    float t[16];
    for (int l = 0; l < 16; l++) {
        float left = acc[0][l] + acc[1][l], right = acc[2][l] + acc[3][l];
        t[l] = left + right;
    }
    for (int l = 0; l < 8; l++)
        t[l] = t[l] + t[l + 8];
    for (int l = 0; l < 4; l++)
        t[l] = t[l] + t[l + 4];
    float left = t[0] + t[1], right = t[2] + t[3];
    return left + right;
}

/* MKL's sgemv on a matrix contiguous along the outputs (sgemm.py _axpy): y[j] (holding the
 * start) += sum_k x[k] * rows[k, j] in its pattern of eight; outputs past the last whole
 * 16-vector one fused chain. */
INLINE void axpy_body(float *y, const float *x, const float *rows, idx_t k, idx_t n)
{
    idx_t wide = n - n % 16, eights = k - k % 8;
    for (idx_t base = 0; base < eights; base += 8) {
        const float *r = rows + base * n;
        const float *r0 = r, *r1 = r + n, *r2 = r + 2 * n, *r3 = r + 3 * n, *r4 = r + 4 * n,
                    *r5 = r + 5 * n, *r6 = r + 6 * n, *r7 = r + 7 * n;
        const float *xb = x + base;
        IVDEP for (idx_t j = 0; j < wide; j++) {
            float acc = fmaf(r6[j], xb[6], y[j]);
            acc = fmaf(r4[j], xb[4], acc);
            float v = r7[j] * xb[7];
            v = fmaf(r5[j], xb[5], v);
            acc = acc + v;
            float w0 = r2[j] * xb[2], w1 = r3[j] * xb[3];
            w0 = fmaf(r0[j], xb[0], w0);
            w1 = fmaf(r1[j], xb[1], w1);
            w0 = w0 + w1;
            y[j] = acc + w0;
        }
    }
    for (idx_t i = eights; i < k; i++) {
        const float *ri = rows + i * n;
        float xi = x[i];
        IVDEP for (idx_t j = 0; j < wide; j++)
            y[j] = fmaf(ri[j], xi, y[j]);
    }
    for (idx_t i = 0; i < k; i++) {
        const float *ri = rows + i * n;
        float xi = x[i];
        for (idx_t j = wide; j < n; j++)
            y[j] = fmaf(xi, ri[j], y[j]);
    }
}

/* ATen's small bmm loop (sgemm.py _unfused_chain): out = sum over k in order of the rounded
 * products, each added with its own rounding; out starts at zero. */
INLINE void unfused_body(float *out, const float *a, const float *b, idx_t batch, idx_t m,
                         idx_t n, idx_t k)
{
    memset(out, 0, (size_t)(batch * m * n) * sizeof(float));
    for (idx_t t = 0; t < batch; t++) {
        const float *at = a + t * m * k, *bt = b + t * k * n;
        float *ot = out + t * m * n;
        for (idx_t i = 0; i < m; i++)
            for (idx_t kk = 0; kk < k; kk++) {
                float x = at[i * k + kk];
                const float *bk = bt + kk * n;
                float *o = ot + i * n;
                IVDEP for (idx_t j = 0; j < n; j++) {
                    float p = x * bk[j];
                    o[j] = o[j] + p;
                }
            }
    }
}
