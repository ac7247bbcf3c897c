/* gradsh's compiled kernels: fp.fma32 element-wise, ATen's float32 cascade sum and SLEEF's
 * expf and logf, as vecmath/fp.py, functions/cascade_sum.py and vecmath/sleef.py emulate them. */
/* Part of _native.c (included there after its common definitions: idx_t, INLINE, IVDEP,
 * GRADSH_X86); not a header of its own. */

/* x with its quiet bit set, as a conversion to float64 and back leaves a NaN. */
static float quieted(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits |= 0x00400000u;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* One NaN for a NaN result whatever the instruction set (fmaf's choice depends on the
 * instruction form): that of (a * b) + c computed in that order, as fp.fma32's NumPy steps do
 * in NumPy's scalar loops: the first NaN operand (quieted); for an invalid operation (0 * inf,
 * inf - inf), x86's default NaN (negative, quiet). */
static float numpy_nan(float a, float b, float c)
{
    const uint32_t default_nan = 0xFFC00000u;
    float out;
    if (a != a)
        return quieted(a);
    if (b != b)
        return quieted(b);
    if (!((isinf(a) && b == 0) || (a == 0 && isinf(b))) && c != c)
        return quieted(c);
    memcpy(&out, &default_nan, sizeof out);
    return out;
}

/* out[i] = fmaf(a[i], b[i], c[i]) (vecmath/fp.py fma32), NaNs as fma32 makes them; an operand
 * of step 0 is one value broadcast over all; `out` is none of them. */
INLINE void fma_apart(float *out, const float *a, const float *b, const float *c, idx_t count,
                      idx_t a_step, idx_t b_step, idx_t c_step)
{
    int nans = 0;
    if (a_step && b_step && c_step) {
        IVDEP for (idx_t i = 0; i < count; i++)
            out[i] = fmaf(a[i], b[i], c[i]);
    } else if (a_step && c_step) {
        const float scale = *b; /* x + alpha * y: the optimizers' and add's scaled form */
        IVDEP for (idx_t i = 0; i < count; i++)
            out[i] = fmaf(a[i], scale, c[i]);
    } else {
        for (idx_t i = 0; i < count; i++)
            out[i] = fmaf(a[i * a_step], b[i * b_step], c[i * c_step]);
    }
    for (idx_t i = 0; i < count; i++) /* (a vector pass; the fix-up below only on a NaN) */
        nans |= out[i] != out[i];
    if (!nans)
        return;
    for (idx_t i = 0; i < count; i++)
        if (out[i] != out[i])
            out[i] = numpy_nan(a[i * a_step], b[i * b_step], c[i * c_step]);
}

#define FMA_BLOCK 256 /* floats of an in-place fma's buffer (1 KiB, in L1) */

/* fma_apart, where `out` may also be `c` itself, all `count` of it (an optimizer's update,
 * c + alpha * a written into c): then each block goes through a buffer, so that a NaN's
 * fix-up still reads c's own value. */
INLINE void fma_body(float *out, const float *a, const float *b, const float *c, idx_t count,
                     idx_t a_step, idx_t b_step, idx_t c_step)
{
    if (out != c || !c_step) {
        fma_apart(out, a, b, c, count, a_step, b_step, c_step);
        return;
    }
    float block[FMA_BLOCK];
    for (idx_t start = 0; start < count; start += FMA_BLOCK) {
        idx_t n = count - start < FMA_BLOCK ? count - start : FMA_BLOCK;
        fma_apart(block, a + start * a_step, b + start * b_step, c + start, n, a_step, b_step, 1);
        memcpy(out + start, block, (size_t)n * sizeof(float));
    }
}

/* ATen's float32 cascade sum (SumKernel.cpp; functions/cascade_sum.py emulates it): the same
 * adds in the same order for each output, so the same bits. */

#define SUM_COLUMNS 32 /* multi_row_sum's widest row: 4 vectors of 8 floats (AVX2's 32 bytes) */
#define SUM_WIDTH 8    /* the sum kernel's vector: 32 bytes (compiled for AVX2 everywhere) */

/* multi_row_sum: out[c] = the cascade over the rows r < n of x[r * rs + c * cs], c < columns:
 * chunks of `step` rows into level 0, flushed into level 1 after each chunk, level 1 into 2
 * every step chunks, 2 into 3 every step**2; then ((l0 + l1) + l2) + l3. */
INLINE void multi_sum(float *out, const float *x, idx_t n, idx_t rs, idx_t columns, idx_t cs)
{
    float acc[4][SUM_COLUMNS];
    memset(acc, 0, sizeof acc);
    int ceil_log2 = 1;
    if (n > 2)
        for (ceil_log2 = 0; ((idx_t)1 << ceil_log2) < n; ceil_log2++) {
        }
    int power = ceil_log2 / 4 > 4 ? ceil_log2 / 4 : 4;
    idx_t step = (idx_t)1 << power, mask = step - 1, i = 0;
    while (i + step <= n) {
        for (idx_t j = 0; j < step; j++, i++) {
            const float *row = x + i * rs;
            IVDEP for (idx_t c = 0; c < columns; c++)
                acc[0][c] = acc[0][c] + row[c * cs];
        }
        for (int level = 1; level < 4; level++) {
            for (idx_t c = 0; c < columns; c++) {
                acc[level][c] = acc[level][c] + acc[level - 1][c];
                acc[level - 1][c] = 0;
            }
            if (i & (mask << (level * power)))
                break;
        }
    }
    for (; i < n; i++) {
        const float *row = x + i * rs;
        for (idx_t c = 0; c < columns; c++)
            acc[0][c] = acc[0][c] + row[c * cs];
    }
    for (idx_t c = 0; c < columns; c++) {
        float total = acc[0][c] + acc[1][c];
        total = total + acc[2][c];
        out[c] = total + acc[3][c];
    }
}

/* row_sum over `n` rows of `lanes` independent columns (x[r * rs + l], l < lanes, lanes <= 8):
 * rows of 4 through multi_sum, the leftover rows, then the four partial sums. */
INLINE void row_sum(float *out, const float *x, idx_t n, idx_t rs, idx_t lanes, idx_t ls)
{
    float partial[SUM_COLUMNS];
    idx_t quads = n / 4;
    if (lanes == 1)
        multi_sum(partial, x, quads, 4 * rs, 4, rs);
    else  /* columns k * lanes + l: rows 4q + k, lane l (contiguous lanes: ls == 1) */
        multi_sum(partial, x, quads, 4 * rs, 4 * lanes, ls);
    for (idx_t l = 0; l < lanes; l++) {
        float total = partial[l];
        for (idx_t r = 4 * quads; r < n; r++)
            total = total + x[r * rs + l * ls];
        for (int k = 1; k < 4; k++)
            total = total + partial[k * lanes + l];
        out[l] = total;
    }
}

/* One output's or one group's sums of a block (cascade_sum.py _block_sums): `rows` sums along
 * size0 elements of stride s0, the rows s1 apart; `kind` is the kernel the strides selected:
 * 0 inner vectorised, 1 outer vectorised, 2 scalar inner (row_sum), 3 scalar outer. */
INLINE void block_sums_body(float *out, const float *x, idx_t rows, idx_t size0, idx_t s0,
                            idx_t s1, int kind)
{
    if (kind == 0) {
        idx_t vectors = size0 / SUM_WIDTH;
        for (idx_t r = 0; r < rows; r++) {
            const float *e = x + r * s1;
            float lanes[SUM_WIDTH], total = 0;
            row_sum(lanes, e, vectors, SUM_WIDTH * s0, SUM_WIDTH, s0);
            for (idx_t k = vectors * SUM_WIDTH; k < size0; k++)
                total = total + e[k * s0];
            for (int l = 0; l < SUM_WIDTH; l++)
                total = total + lanes[l];
            out[r] = total;
        }
        return;
    }
    if (kind == 2) {
        for (idx_t r = 0; r < rows; r++)
            row_sum(out + r, x + r * s1, size0, s0, 1, 1);
        return;
    }
    /* outer kernels: groups of 4 vectors (or 4 columns) through multi_row_sum, the rest each
     * through row_sum */
    idx_t group = kind == 1 ? 4 * SUM_WIDTH : 4, grouped = rows / group * group;
    for (idx_t r = 0; r < grouped; r += group)
        multi_sum(out + r, x + r * s1, size0, s0, group, s1);
    for (idx_t r = grouped; r < rows; r++)
        row_sum(out + r, x + r * s1, size0, s0, 1, 1);
}

/* SLEEF's expf and logf as ATen's AVX-512 Vectorized<float> calls them (vecmath/sleef.py
 * expf_u10, logf_u10: the same constants and operations, each float32 rounding the same). A NaN
 * result is left for sleef.py to make (which NaN a chain of operations passes on depends on
 * the instruction forms). */

/* float32 from its bits, and back. */
static float from_bits(uint32_t bits)
{
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

INLINE uint32_t to_bits(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

/* All ones where `flag` (a comparison's 0 or 1), else 0: a select GCC vectorises as masks
 * (a float ?: it keeps as a branch unless it may assume no floating-point traps). */
INLINE uint32_t mask_of(int flag)
{
    return 0u - (uint32_t)flag;
}

/* 2**q from its exponent bits, q wrapping as int32 arithmetic does (fp.pow2i32). */
INLINE float pow2i(int32_t q)
{
    return from_bits(((uint32_t)q + 127u) << 23);
}

/* d * 2**e in two multiplications (sleef.ldexp2). */
INLINE float ldexp2(float d, int32_t e)
{
    int32_t half = e >> 1;
    return (d * pow2i(half)) * pow2i((int32_t)((uint32_t)e - (uint32_t)half));
}

INLINE float expf_one(float d)
{
    const float c0 = (float)0.000198527617612853646278381, c1 = (float)0.00139304355252534151077271,
                c2 = (float)0.00833336077630519866943359, c3 = (float)0.0416664853692054748535156,
                c4 = (float)0.166666671633720397949219, c5 = 0.5f;
    /* q = rint(d * log2(e)) as cvtps2dq rounds it. Outside [-104, 100] the result is
     * replaced below, so d is first taken to 0 beyond 200 in size (a NaN stays NaN): then
     * |d * log2(e)| < 2**22, where adding and taking away 1.5 * 2**23 rounds half to even
     * exactly. Branch-free (masks for selects), so that the loop vectorises: the same bits as
     * the scalar form with nearbyintf and branches, checked over every float32. */
    float in = from_bits(to_bits(d) & ~mask_of(fabsf(d) > 200.0f));
    float qf = (in * (float)1.442695040888963407359924681001892137 + 12582912.0f) - 12582912.0f;
    int32_t q = (int32_t)qf;
    float s = fmaf(qf, -(float)0.693145751953125, in);
    s = fmaf(qf, -(float)1.428606765330187045e-06, s);
    float u = fmaf(c0, s, c1);
    u = fmaf(u, s, c2);
    u = fmaf(u, s, c3);
    u = fmaf(u, s, c4);
    u = fmaf(u, s, c5);
    u = 1.0f + fmaf(s * s, u, s);
    u = ldexp2(u, q);
    uint32_t bits = to_bits(u) & ~mask_of(d < -104.0f), huge = mask_of(100.0f < d);
    return from_bits((bits & ~huge) | (0x7f800000u & huge));
}

INLINE float logf_one(float d)
{
    const float ln2_hi = (float)0.69314718246459960938, ln2_lo = (float)-1.904654323148236017e-09;
    const float p0 = (float)0.3027294874, p1 = (float)0.3996108174, p2 = (float)0.6666694880;
    /* vgetexp of d / 0.75 and vgetmant of d (sleef._getexp, _getmant) */
    int k;
    float scaled = d * (float)(1.0 / 0.75);
    float mantissa = frexpf(scaled, &k);
    (void)mantissa;
    float e = scaled == 0 ? -INFINITY : isinf(scaled) ? INFINITY : (float)(k - 1);
    if (e == INFINITY)
        e = 128.0f;
    float f = frexpf(fabsf(d), &k);
    float m = f < 0.75f ? f * 2.0f : f;
    /* s = ln2 (double-float) * e */
    float s0 = ln2_hi * e;
    float s1 = fmaf(ln2_lo, e, fmaf(ln2_hi, e, -s0));
    /* xx = (m - 1) / (m + 1) in double-float */
    float n0 = -1.0f + m, nv = n0 - -1.0f;
    float n1 = (-1.0f - (n0 - nv)) + (m - nv);
    float d0 = 1.0f + m, dv = d0 - 1.0f;
    float d1 = (1.0f - (d0 - dv)) + (m - dv);
    float t = 1.0f / d0;
    float x0 = n0 * t;
    float u = fmaf(t, n0, -x0);
    float v = fmaf(-d1, t, fmaf(-d0, t, 1.0f));
    float x1 = fmaf(x0, v, fmaf(n1, t, u));
    float x2 = x0 * x0;
    float poly = fmaf(fmaf(p0, x2, p1), x2, p2);
    /* s += 2 xx, then s += x2 * xx0 * poly */
    float y0 = x0 * 2.0f, y1 = x1 * 2.0f;
    float a0 = s0 + y0;
    float a1 = (((s0 - a0) + y0) + s1) + y1;
    float w = (x2 * x0) * poly;
    float b0 = a0 + w;
    float b1 = ((a0 - b0) + w) + a1;
    float r = b0 + b1;
    if (d == 0)
        r = -INFINITY;
    if (d == INFINITY)
        r = INFINITY;
    if (d < 0)
        r = NAN;
    return r;
}

INLINE void expf_body(float *out, const float *x, idx_t count)
{
    for (idx_t i = 0; i < count; i++)
        out[i] = expf_one(x[i]);
}

INLINE void logf_body(float *out, const float *x, idx_t count)
{
    for (idx_t i = 0; i < count; i++)
        out[i] = logf_one(x[i]);
}
