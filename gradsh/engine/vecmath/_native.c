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

/* Four rows by `width` columns of the chains (the portable copy's tile). */
static void chain_tile_portable(float *out, const float *a, const float *b, idx_t n, idx_t lda,
                                idx_t k0, idx_t k1)
{
    for (int r = 0; r < 4; r++)
        for (idx_t k = k0; k < k1; k++) {
            float x = a[r * lda + k];
            for (idx_t j = 0; j < 4; j++)
                out[r * n + j] = fmaf(x, b[k * n + j], out[r * n + j]);
        }
}

#ifdef GRADSH_X86
/* The same tiles with the accumulators in vector registers: vfmadd is fmaf on every lane. */
#define TILE_ROWS(LOAD, STORE, SET1, FMA, VEC, W)                                                \
    VEC c00 = LOAD(out), c01 = LOAD(out + W), c10 = LOAD(out + n), c11 = LOAD(out + n + W);      \
    VEC c20 = LOAD(out + 2 * n), c21 = LOAD(out + 2 * n + W);                                    \
    VEC c30 = LOAD(out + 3 * n), c31 = LOAD(out + 3 * n + W);                                    \
    for (idx_t k = k0; k < k1; k++) {                                                            \
        VEC b0 = LOAD(b + k * n), b1 = LOAD(b + k * n + W), x;                                   \
        x = SET1(a[k]);                                                                          \
        c00 = FMA(x, b0, c00);                                                                   \
        c01 = FMA(x, b1, c01);                                                                   \
        x = SET1(a[lda + k]);                                                                    \
        c10 = FMA(x, b0, c10);                                                                   \
        c11 = FMA(x, b1, c11);                                                                   \
        x = SET1(a[2 * lda + k]);                                                                \
        c20 = FMA(x, b0, c20);                                                                   \
        c21 = FMA(x, b1, c21);                                                                   \
        x = SET1(a[3 * lda + k]);                                                                \
        c30 = FMA(x, b0, c30);                                                                   \
        c31 = FMA(x, b1, c31);                                                                   \
    }                                                                                            \
    STORE(out, c00), STORE(out + W, c01), STORE(out + n, c10), STORE(out + n + W, c11);          \
    STORE(out + 2 * n, c20), STORE(out + 2 * n + W, c21);                                        \
    STORE(out + 3 * n, c30), STORE(out + 3 * n + W, c31);

__attribute__((target("avx2,fma"))) static void chain_tile_avx2(
    float *out, const float *a, const float *b, idx_t n, idx_t lda, idx_t k0, idx_t k1)
{
    TILE_ROWS(_mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, _mm256_fmadd_ps, __m256, 8)
}

__attribute__((target("avx512f"))) static void chain_tile_avx512(
    float *out, const float *a, const float *b, idx_t n, idx_t lda, idx_t k0, idx_t k1)
{
    TILE_ROWS(_mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, __m512, 16)
}
#endif

typedef void (*Tile)(float *, const float *, const float *, idx_t, idx_t, idx_t, idx_t);

/* out[i, j] = fused chain over k in [k0, k1) of a[i, k] * b[k, j], from out[i, j]. a: rows of
 * lda floats; b: rows of n floats; out: m x n. Tiles of four rows by `width` columns (a
 * constant per instruction set: what its registers hold), then the edges a row at a time. */
INLINE void chain_body(float *out, const float *a, const float *b, idx_t m, idx_t n, idx_t lda,
                       idx_t k0, idx_t k1, Tile tile, idx_t width)
{
    idx_t rows = m - m % 4, columns = n - n % width;
    for (idx_t j = 0; j < columns; j += width)  /* a panel of b stays in cache over the rows */
        for (idx_t i = 0; i < rows; i += 4)
            tile(out + i * n + j, a + i * lda, b + j, n, lda, k0, k1);
    for (idx_t i = 0; i < m; i++) {
        idx_t from = i < rows ? columns : 0;
        if (from == n)
            continue;
        float *o = out + i * n;
        const float *ai = a + i * lda;
        for (idx_t k = k0; k < k1; k++) {
            const float *bk = b + k * n;
            float x = ai[k];
            IVDEP for (idx_t j = from; j < n; j++)
                o[j] = fmaf(x, bk[j], o[j]);
        }
    }
}

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
 * of step 0 is one value broadcast over all. */
INLINE void fma_body(float *out, const float *a, const float *b, const float *c, idx_t count,
                     idx_t a_step, idx_t b_step, idx_t c_step)
{
    if (a_step && b_step && c_step) {
        IVDEP for (idx_t i = 0; i < count; i++)
            out[i] = fmaf(a[i], b[i], c[i]);
    } else {
        for (idx_t i = 0; i < count; i++)
            out[i] = fmaf(a[i * a_step], b[i * b_step], c[i * c_step]);
    }
    for (idx_t i = 0; i < count; i++)
        if (out[i] != out[i])
            out[i] = numpy_nan(a[i * a_step], b[i * b_step], c[i * c_step]);
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

/* float32 from its bits. */
static float from_bits(uint32_t bits)
{
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
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

/* Round half to even to int32 (cvtps2dq, fp.rint_i32): NaN and out of range give INT_MIN. */
INLINE int32_t rint_i32(float x)
{
    float r = nearbyintf(x);
    return fabsf(r) < 2147483648.0f ? (int32_t)r : INT32_MIN;
}

INLINE float expf_one(float d)
{
    const float c0 = (float)0.000198527617612853646278381, c1 = (float)0.00139304355252534151077271,
                c2 = (float)0.00833336077630519866943359, c3 = (float)0.0416664853692054748535156,
                c4 = (float)0.166666671633720397949219, c5 = 0.5f;
    int32_t q = rint_i32(d * (float)1.442695040888963407359924681001892137);
    float qf = (float)q;
    float s = fmaf(qf, -(float)0.693145751953125, d);
    s = fmaf(qf, -(float)1.428606765330187045e-06, s);
    float u = fmaf(c0, s, c1);
    u = fmaf(u, s, c2);
    u = fmaf(u, s, c3);
    u = fmaf(u, s, c4);
    u = fmaf(u, s, c5);
    u = 1.0f + fmaf(s * s, u, s);
    u = ldexp2(u, q);
    if (d < -104.0f)
        u = 0.0f;
    if (100.0f < d)
        u = INFINITY;
    return u;
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
