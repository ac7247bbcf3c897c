/* gradsh's compiled kernels: MKL's general sgemm kernel (one fused multiply-add chain per
 * output over each k block, in k order) computed the way a BLAS computes a product: operands
 * packed into contiguous panels, a register tile of MR rows by two vectors of outputs. */
/* Part of _native.c (included there after its common definitions: idx_t, INLINE, IVDEP,
 * GRADSH_X86, _native_elementwise.h's numpy_nan); not a header of its own.
 *
 * Only the order of operations on each output is the contract: its chain starts at 0 (or at
 * the output's value, `from_c`), takes fmaf(a[i, k], b[k, j], acc) for k in order and is
 * rounded to float32 at every step, so how many outputs run at once, which operand is packed
 * or broadcast, and whether the vectors run along the rows or the columns of the output
 * (C = A B or its transpose C' = B' A', the same chains) change no bit. A chain may also be
 * stored and picked up again (from_c), the accumulator being float32 throughout. */

/* The product and its blocks: element (i, j) of each operand at p[i * rows + j * cols]. */
typedef struct {
    float *c;
    idx_t crs, ccs;
    const float *a;
    idx_t ars, aks;
    const float *b;
    idx_t bks, bcs;
    idx_t m, n;
    const idx_t *bounds; /* k blocks as pairs k0, k1 */
    idx_t count;         /* 0: one empty block (a zero product) */
    int from_c;          /* each chain continues from c's value (blocks then split freely) */
    const float *start;  /* fused into the first block: fma(beta, start, its chains) */
    idx_t srs, scs;
    float beta, alpha;
    int scale; /* the chains times alpha before anything else */
    float *apack, *bpack;
    uint8_t *done; /* scratch: a flag per k of a piece */
    /* Gathered operands (NULL: strided): a's element (i, k) at a[a_rows[i] + a_ks[k]], b's
     * (k, j) at b[b_ks[k] + b_cols[j]] (a convolution's windows, read without a copy). */
    const idx_t *a_rows, *a_ks, *b_ks, *b_cols;
    const idx_t *c_rows, *c_cols; /* a gathered output: (i, j) at c[c_rows[i] + c_cols[j]] */
} Gemm;

/* Where output (i, j) lies. */
INLINE float *gemm_out(const Gemm *g, idx_t i, idx_t j)
{
    return g->c_rows ? g->c + g->c_rows[i] + g->c_cols[j] : g->c + i * g->crs + j * g->ccs;
}

/* Whether the tile at (i0, j0) of mr whole rows lies as rows of consecutive floats, evenly
 * spaced (their step in *ldc): then the tile reads and writes the output directly. */
INLINE int gemm_out_direct(const Gemm *g, idx_t i0, idx_t j0, idx_t mr, int NR, idx_t *ldc)
{
    if (!g->c_rows) {
        *ldc = g->crs;
        return g->ccs == 1;
    }
    const idx_t *rows = g->c_rows + i0, *cols = g->c_cols + j0;
    *ldc = mr > 1 ? rows[1] - rows[0] : 0;
    for (idx_t l = 1; l < NR; l++)
        if (cols[l] != cols[0] + l)
            return 0;
    for (idx_t r = 2; r < mr; r++)
        if (rows[r] != rows[0] + r * *ldc)
            return 0;
    return 1;
}

/* What a tile does after its chains (per output, in this order): times alpha (scale); on the
 * first block fma(beta, start, it) (start given); on the later blocks c + it (add). */
typedef struct {
    int from_c, scale, add;
    float alpha, beta;
    const float *s; /* the tile's first start value, or NULL */
    idx_t srs;      /* start's row step; its column step is 1 (vector) or 0 (broadcast) */
    int s_vec;
} Epi;

typedef void (*Micro)(int, idx_t, const float *, const float *, float *, idx_t, const Epi *);

/* Inlined into gemm_body, where NR and MR are constants: the whole rows' copies then compile
 * to a few vector moves rather than calls to memcpy. */

/* dst[i * ds + j] = src[j][i] for an 8 x 8 block (8 rows of 8 consecutive floats each):
 * a transposing copy (no arithmetic, so no bit depends on it) in AVX's registers, for the
 * packers that read across rows. */
#ifdef GRADSH_X86
__attribute__((target("avx2"))) static void transpose8(const float *const *src, float *dst,
                                                       idx_t ds)
{
    __m256 r[8], t[8], u[8];
    for (int i = 0; i < 8; i++)
        r[i] = _mm256_loadu_ps(src[i]);
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 2; i++) {
        u[4 * i] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[4 * i + 1] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; i++) {
        _mm256_storeu_ps(dst + i * ds, _mm256_permute2f128_ps(u[i], u[i + 4], 0x20));
        _mm256_storeu_ps(dst + (i + 4) * ds, _mm256_permute2f128_ps(u[i], u[i + 4], 0x31));
    }
}
#endif

/* Whether the 8 offsets from `at` are consecutive (a gathered operand's run along k). */
INLINE int run_of_8(const idx_t *at)
{
    for (int i = 1; i < 8; i++)
        if (at[i] != at[0] + i)
            return 0;
    return 1;
}

/* dst[k * ds + l] = base[ks[k] + cols[l]] for k < kc, l < count (a gathered operand's panel
 * rows): where `simd` and 8 consecutive k run together, 8 x 8 blocks through transpose8;
 * returns the multiple of 8 of columns it did for each k in such runs (done[k] set), the
 * caller copying the rest. */
INLINE idx_t gathered_blocks(const float *base, const idx_t *ks, const idx_t *cols, float *dst,
                             idx_t ds, idx_t kc, idx_t count, int simd, uint8_t *done)
{
    memset(done, 0, (size_t)kc);
#ifdef GRADSH_X86
    idx_t wide = count - count % 8;
    if (!simd || wide == 0)
        return 0;
    for (idx_t k = 0; k + 8 <= kc; k++) {
        if (!run_of_8(ks + k))
            continue;
        for (idx_t l = 0; l < wide; l += 8) {
            const float *src[8];
            for (int i = 0; i < 8; i++)
                src[i] = base + ks[k] + cols[l + i];
            transpose8(src, dst + k * ds + l, ds);
        }
        memset(done + k, 1, 8);
        k += 7;
    }
    return wide;
#else
    (void)base, (void)ks, (void)cols, (void)dst, (void)ds, (void)count, (void)simd;
    return 0;
#endif
}

/* The 8 x 8 blocks of a transposing copy dst[i * ds + j] = src[j * ss + i], i < rows, j <
 * cols, through transpose8 where `simd` (an AVX level); returns how many of the rows and
 * columns it did (multiples of 8), the caller copying the rest. */
INLINE void transposed_blocks(const float *src, idx_t ss, float *dst, idx_t ds, idx_t rows,
                              idx_t cols, int simd, idx_t *rows_done, idx_t *cols_done)
{
    *rows_done = *cols_done = 0;
#ifdef GRADSH_X86
    if (simd && rows >= 8 && cols >= 8) {
        *rows_done = rows - rows % 8;
        *cols_done = cols - cols % 8;
        for (idx_t j = 0; j < *cols_done; j += 8)
            for (idx_t i = 0; i < *rows_done; i += 8) {
                const float *rows8[8];
                for (int r = 0; r < 8; r++)
                    rows8[r] = src + (j + r) * ss + i;
                transpose8(rows8, dst + i * ds + j, ds);
            }
    }
#else
    (void)src, (void)ss, (void)dst, (void)ds, (void)rows, (void)cols, (void)simd;
#endif
}

/* a's rows i0..i0+mr, k0..k0+kc, as a panel [kc][MR] (rows past mr zero). */
INLINE void pack_a(float *ap, const float *a, idx_t ars, idx_t aks, idx_t i0, idx_t mr,
                   idx_t k0, idx_t kc, int MR, int simd)
{
    if (ars == 1 && mr == MR) {
        for (idx_t k = 0; k < kc; k++)
            memcpy(ap + k * MR, a + i0 + (k0 + k) * aks, (size_t)MR * sizeof(float));
        return;
    }
    idx_t done_k = 0, done_r = 0;
    if (aks == 1) /* rows contiguous along k: 8 x 8 blocks transposed in registers */
        transposed_blocks(a + i0 * ars + k0, ars, ap, MR, kc, mr, simd, &done_k, &done_r);
    for (idx_t r = 0; r < mr; r++) {
        const float *row = a + (i0 + r) * ars + k0 * aks;
        for (idx_t k = r < done_r ? done_k : 0; k < kc; k++)
            ap[k * MR + r] = row[k * aks];
    }
    for (idx_t r = mr; r < MR; r++)
        for (idx_t k = 0; k < kc; k++)
            ap[k * MR + r] = 0;
}

/* Panels p0..p0+pb of b's rows k0..k0+kc, each as [kc][NR] (columns past n zero), one after
 * the other. Row by row across all the panels where b's rows are consecutive floats (a long
 * stretch of each row read at once: the prefetchers follow it), column by column where its
 * columns are; a gathered b's panels as runs of consecutive columns, each copied whole. */
INLINE void pack_b_block(const Gemm *g, float *bp, idx_t k0, idx_t kc, idx_t p0, idx_t pb,
                         int NR, int simd, uint8_t *done)
{
    idx_t at[GEMM_PANELS][64], length[GEMM_PANELS][64], runs[GEMM_PANELS] = {0};
    idx_t whole[GEMM_PANELS] = {0};
    for (idx_t p = 0; p < pb; p++) {
        idx_t j0 = (p0 + p) * NR, nr = g->n - j0 < NR ? g->n - j0 : NR;
        const idx_t *c = g->b_cols ? g->b_cols + j0 : NULL;
        runs[p] = 0;
        for (idx_t l = 0; l < nr; l++) {
            idx_t column = c ? c[l] : (j0 + l) * g->bcs;
            idx_t before = l == 0 ? 0 : c ? c[l - 1] : (j0 + l - 1) * g->bcs;
            if (runs[p] && column == before + 1) {
                length[p][runs[p] - 1]++;
            } else {
                at[p][runs[p]] = l;
                length[p][runs[p]++] = 1;
            }
        }
        whole[p] = runs[p] == 1 && nr == NR;
        if (g->b_ks && simd && 4 * runs[p] > nr) { /* short runs: read down 8 k at a time */
            float *panel = bp + p * kc * NR;
            idx_t wide = gathered_blocks(g->b, g->b_ks + k0, c, panel, NR, kc, nr, simd, done);
            for (idx_t k = 0; k < kc; k++) {
                const float *row = g->b + g->b_ks[k0 + k];
                for (idx_t l = done[k] ? wide : 0; l < NR; l++)
                    panel[k * NR + l] = l < nr ? row[c[l]] : 0;
            }
            runs[p] = 0; /* done */
            whole[p] = 0;
        }
        if (!g->b_ks && runs[p] > 1) { /* b's columns are consecutive: read them down */
            float *panel = bp + p * kc * NR;
            idx_t done_k = 0, done_l = 0;
            if (g->bks == 1)
                transposed_blocks(g->b + k0 + j0 * g->bcs, g->bcs, panel, NR, kc, nr, simd,
                                  &done_k, &done_l);
            for (idx_t l = 0; l < NR; l++) {
                const float *column = g->b + k0 * g->bks + (j0 + l) * g->bcs;
                for (idx_t k = l < done_l ? done_k : 0; k < kc; k++)
                    panel[k * NR + l] = l < nr ? column[k * g->bks] : 0;
            }
            runs[p] = 0; /* done */
            whole[p] = 0;
        }
    }
    for (idx_t k = 0; k < kc; k++) {
        const float *row = g->b + (g->b_ks ? g->b_ks[k0 + k] : (k0 + k) * g->bks);
        for (idx_t p = 0; p < pb; p++) {
            idx_t j0 = (p0 + p) * NR;
            const idx_t *c = g->b_cols ? g->b_cols + j0 : NULL;
            float *to = bp + p * kc * NR + k * NR;
            if (whole[p]) {
                memcpy(to, row + (c ? c[0] : j0 * g->bcs), (size_t)NR * sizeof(float));
                continue;
            }
            if (!runs[p])
                continue;
            for (idx_t run = 0; run < runs[p]; run++) {
                idx_t l0 = at[p][run];
                const float *from = row + (c ? c[l0] : (j0 + l0) * g->bcs);
                for (idx_t l = 0; l < length[p][run]; l++)
                    to[l0 + l] = from[l];
            }
            idx_t nr = g->n - j0 < NR ? g->n - j0 : NR;
            for (idx_t l = nr; l < NR; l++)
                to[l] = 0;
        }
    }
}

/* pack_a from a gathered a. */
INLINE void pack_a_gathered(float *ap, const float *a, const idx_t *rows, const idx_t *ks,
                            idx_t i0, idx_t mr, idx_t k0, idx_t kc, int MR, int simd,
                            uint8_t *done)
{
    idx_t wide = gathered_blocks(a, ks + k0, rows + i0, ap, MR, kc, mr, simd, done);
    for (idx_t k = 0; k < kc; k++) {
        const float *column = a + ks[k0 + k];
        for (idx_t r = done[k] ? wide : 0; r < mr; r++)
            ap[k * MR + r] = column[rows[i0 + r]];
        for (idx_t r = mr; r < MR; r++)
            ap[k * MR + r] = 0;
    }
}

/* The tile's epilogue on one output (the scalar form of the vector one). */
INLINE float epilogue_one(float v, const float *c, const Epi *e, const float *s)
{
    if (e->scale)
        v = v * e->alpha;
    if (s) {
        float part = v;
        v = fmaf(e->beta, *s, part);
        if (v != v)
            v = numpy_nan(e->beta, *s, part);
    } else if (e->add) {
        v = *c + v;
    }
    return v;
}

/* One tile of mr x nr outputs at (i0, j0) from the packed panels, through a contiguous copy
 * of the tile when it is cut short or c is not contiguous along its columns. */
INLINE void gemm_tile(const Gemm *g, const Epi *block, Micro micro, int MR, int NR, idx_t i0,
                      idx_t j0, idx_t kc, const float *ap, const float *bp, float *t)
{
    idx_t mr = g->m - i0 < MR ? g->m - i0 : MR, nr = g->n - j0 < NR ? g->n - j0 : NR, ldc;
    const float *s = block->s ? g->start + i0 * g->srs + j0 * g->scs : NULL;
    if (nr == NR && (!s || g->scs <= 1) && gemm_out_direct(g, i0, j0, mr, NR, &ldc)) {
        Epi e = *block;
        e.s = s;
        micro((int)mr, kc, ap, bp, gemm_out(g, i0, j0), ldc, &e);
        return;
    }
    Epi raw = {block->from_c, 0, 0, 0, 0, NULL, 0, 0};
    for (idx_t r = 0; r < mr; r++)
        for (idx_t l = 0; l < NR; l++)
            t[r * NR + l] = block->from_c && l < nr ? *gemm_out(g, i0 + r, j0 + l) : 0;
    micro((int)mr, kc, ap, bp, t, NR, &raw);
    for (idx_t r = 0; r < mr; r++)
        for (idx_t l = 0; l < nr; l++) {
            float *o = gemm_out(g, i0 + r, j0 + l);
            *o = epilogue_one(t[r * NR + l], o, block, s ? s + r * g->srs + l * g->scs : NULL);
        }
}

/* The whole product: per k block (or piece of a chain) and slice of a's rows (GEMM_TILES
 * tiles: the packing buffers stay a few megabytes whatever the product), a's rows packed,
 * then b's panels packed a few at a time, each held in cache over all of the slice's tiles. */
INLINE void gemm_body(const Gemm *g, Micro micro, int MR, int NR, int simd)
{
    idx_t mtiles = (g->m + MR - 1) / MR, npanels = (g->n + NR - 1) / NR;
    float t[16 * 64];
    idx_t count = g->count ? g->count : 1;
    for (idx_t block = 0; block < count; block++) {
        idx_t k0 = g->count ? g->bounds[2 * block] : 0;
        idx_t k1 = g->count ? g->bounds[2 * block + 1] : 0;
        Epi e = {g->from_c, g->scale, block > 0 && !g->from_c, g->alpha, g->beta, NULL, g->srs,
                 g->scs == 1};
        if (block == 0 && g->start)
            e.s = g->start; /* marks the fused start; gemm_tile finds the tile's own */
        do { /* from_c: pieces of GEMM_KC; otherwise the block whole */
            idx_t kc = k1 - k0;
            if (g->from_c && kc > GEMM_KC)
                kc = GEMM_KC;
            for (idx_t q0 = 0; q0 < mtiles; q0 += GEMM_TILES) { /* a's rows a slice at a time */
                idx_t q1 = mtiles - q0 < GEMM_TILES ? mtiles : q0 + GEMM_TILES;
                for (idx_t q = q0; q < q1; q++) {
                    idx_t mr = g->m - q * MR < MR ? g->m - q * MR : MR;
                    float *ap = g->apack + (q - q0) * kc * MR;
                    if (g->a_rows)
                        pack_a_gathered(ap, g->a, g->a_rows, g->a_ks, q * MR, mr, k0, kc, MR,
                                        simd, g->done);
                    else
                        pack_a(ap, g->a, g->ars, g->aks, q * MR, mr, k0, kc, MR, simd);
                }
                for (idx_t p0 = 0; p0 < npanels; p0 += GEMM_PANELS) { /* packed as used */
                    idx_t pb = npanels - p0 < GEMM_PANELS ? npanels - p0 : GEMM_PANELS;
                    pack_b_block(g, g->bpack, k0, kc, p0, pb, NR, simd, g->done);
                    for (idx_t p = 0; p < pb; p++)
                        for (idx_t q = q0; q < q1; q++)
                            gemm_tile(g, &e, micro, MR, NR, q * MR, (p0 + p) * NR, kc,
                                      g->apack + (q - q0) * kc * MR, g->bpack + p * kc * NR, t);
                }
            }
            k0 += kc;
        } while (k0 < k1);
    }
}

/* The portable tile: scalar chains through libm's fmaf. */
#define PORTABLE_MR 4
#define PORTABLE_NR 8
static void micro_portable(int mr, idx_t kc, const float *ap, const float *bp, float *c,
                           idx_t ldc, const Epi *e)
{
    float acc[PORTABLE_MR][PORTABLE_NR];
    for (int r = 0; r < mr; r++)
        for (int l = 0; l < PORTABLE_NR; l++)
            acc[r][l] = e->from_c ? c[r * ldc + l] : 0;
    for (idx_t k = 0; k < kc; k++)
        for (int r = 0; r < mr; r++)
            for (int l = 0; l < PORTABLE_NR; l++)
                acc[r][l] = fmaf(ap[k * PORTABLE_MR + r], bp[k * PORTABLE_NR + l], acc[r][l]);
    for (int r = 0; r < mr; r++)
        for (int l = 0; l < PORTABLE_NR; l++)
            c[r * ldc + l] = epilogue_one(acc[r][l], c + r * ldc + l, e,
                                          e->s ? e->s + r * e->srs + (e->s_vec ? l : 0) : NULL);
}

#ifdef GRADSH_X86
/* The vector tiles: MR rows by two vectors of W lanes, the accumulators in registers (mr a
 * constant in each copy, so the loops over rows unroll); vfmadd is fmaf on every lane. */
#define MICRO(SUF, TARGET, VEC, W, MR, LOAD, STORE, SET1, FMA, ZERO, MUL, ADD, ANY_NAN)           \
    TARGET INLINE void micro_fixed_##SUF(const int mr, idx_t kc, const float *ap,                \
                                         const float *bp, float *c, idx_t ldc, const Epi *e)      \
    {                                                                                            \
        VEC acc[MR][2];                                                                          \
        _Pragma("GCC unroll 16") for (int r = 0; r < MR; r++) if (r < mr) {                      \
            acc[r][0] = e->from_c ? LOAD(c + r * ldc) : ZERO();                                  \
            acc[r][1] = e->from_c ? LOAD(c + r * ldc + W) : ZERO();                              \
        }                                                                                        \
        for (idx_t k = 0; k < kc; k++) {                                                         \
            VEC b0 = LOAD(bp), b1 = LOAD(bp + W);                                                \
            _Pragma("GCC unroll 16") for (int r = 0; r < MR; r++) if (r < mr) {                  \
                VEC x = SET1(ap[r]);                                                             \
                acc[r][0] = FMA(x, b0, acc[r][0]);                                               \
                acc[r][1] = FMA(x, b1, acc[r][1]);                                               \
            }                                                                                    \
            ap += MR;                                                                            \
            bp += 2 * W;                                                                         \
        }                                                                                        \
        VEC alpha = SET1(e->alpha), beta = SET1(e->beta);                                        \
        _Pragma("GCC unroll 16") for (int r = 0; r < MR; r++) if (r < mr) {                      \
            for (int h = 0; h < 2; h++) {                                                        \
                VEC v = acc[r][h];                                                               \
                float *o = c + r * ldc + h * W;                                                  \
                if (e->scale)                                                                    \
                    v = MUL(v, alpha);                                                           \
                if (e->s) {                                                                      \
                    const float *s = e->s + r * e->srs + (e->s_vec ? h * W : 0);                 \
                    VEC part = v, start = e->s_vec ? LOAD(s) : SET1(*s);                         \
                    v = FMA(beta, start, part);                                                  \
                    if (ANY_NAN(v)) { /* the NaN fma32 makes, whatever the instruction */        \
                        float parts[W], starts[W], out[W];                                       \
                        STORE(parts, part), STORE(starts, start), STORE(out, v);                 \
                        for (int l = 0; l < W; l++)                                              \
                            if (out[l] != out[l])                                                \
                                out[l] = numpy_nan(e->beta, starts[l], parts[l]);                \
                        v = LOAD(out);                                                           \
                    }                                                                            \
                } else if (e->add) {                                                             \
                    v = ADD(LOAD(o), v);                                                         \
                }                                                                                \
                STORE(o, v);                                                                     \
            }                                                                                    \
        }                                                                                        \
    }

#define AVX512_MR 12
#define AVX2_MR 6
#define AVX512_ANY_NAN(v) (_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q) != 0)
#define AVX2_ANY_NAN(v) (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) != 0)
MICRO(avx512, __attribute__((target("avx512f"))), __m512, 16, AVX512_MR, _mm512_loadu_ps,
      _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_setzero_ps, _mm512_mul_ps,
      _mm512_add_ps, AVX512_ANY_NAN)
MICRO(avx2, __attribute__((target("avx2,fma"))), __m256, 8, AVX2_MR, _mm256_loadu_ps,
      _mm256_storeu_ps, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_setzero_ps, _mm256_mul_ps,
      _mm256_add_ps, AVX2_ANY_NAN)

/* mr as a constant: one unrolled copy of the tile per row count. */
#define MICRO_SWITCH(SUF, TARGET)                                                                \
    TARGET static void micro_##SUF(int mr, idx_t kc, const float *ap, const float *bp,           \
                                   float *c, idx_t ldc, const Epi *e)                            \
    {                                                                                            \
        switch (mr) {                                                                            \
        case 1: micro_fixed_##SUF(1, kc, ap, bp, c, ldc, e); break;                              \
        case 2: micro_fixed_##SUF(2, kc, ap, bp, c, ldc, e); break;                              \
        case 3: micro_fixed_##SUF(3, kc, ap, bp, c, ldc, e); break;                              \
        case 4: micro_fixed_##SUF(4, kc, ap, bp, c, ldc, e); break;                              \
        case 5: micro_fixed_##SUF(5, kc, ap, bp, c, ldc, e); break;                              \
        case 6: micro_fixed_##SUF(6, kc, ap, bp, c, ldc, e); break;                              \
        case 7: micro_fixed_##SUF(7, kc, ap, bp, c, ldc, e); break;                              \
        case 8: micro_fixed_##SUF(8, kc, ap, bp, c, ldc, e); break;                              \
        case 9: micro_fixed_##SUF(9, kc, ap, bp, c, ldc, e); break;                              \
        case 10: micro_fixed_##SUF(10, kc, ap, bp, c, ldc, e); break;                            \
        case 11: micro_fixed_##SUF(11, kc, ap, bp, c, ldc, e); break;                            \
        default: micro_fixed_##SUF(12, kc, ap, bp, c, ldc, e); break;                            \
        }                                                                                        \
    }
MICRO_SWITCH(avx512, __attribute__((target("avx512f"))))
MICRO_SWITCH(avx2, __attribute__((target("avx2,fma"))))
#endif
