/* The optimizers' per-parameter updates in one pass each (gradsh/torch/optim/_fused.py): every
 * element goes through the same float32 operations, in the same order and with the same
 * roundings, as the chain of in-place ops PyTorch's single-tensor Adam, RMSprop, Adagrad and SGD
 * make (and gradsh's NumPy path, torch/optim/_kernels.py, makes): a plain * + / and sqrt where
 * ATen's kernel rounds each step, fmaf where it fuses (add with alpha, lerp, addcmul). The
 * scalars arrive already rounded to float32, as ATen's kernels take them.
 * Part of _native.c (included after its common definitions); not a header of its own. */

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
/* None of these changes a value: sqrtf without errno, selects that may evaluate both sides
 * (no-trapping-math), the loops unswitched on the update's options (O3), and still no
 * contraction. So each option's loop vectorises. */
#pragma GCC optimize("O3", "no-math-errno", "no-trapping-math", "fp-contract=off")
#endif

#define OPT_MAXIMIZE 1   /* the gradient negated */
#define OPT_L2 2         /* grad.add(param, alpha=weight_decay) */
#define OPT_DECOUPLED 4  /* param.mul_(1 - lr * weight_decay) first (AdamW) */
#define OPT_AMSGRAD 8    /* torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq) */
#define OPT_CENTERED 16  /* RMSprop's grad_avg */
#define OPT_MOMENTUM 32  /* RMSprop's momentum buffer */
#define OPT_NESTEROV 64  /* SGD's nesterov */

/* MKL's float32 sqrt (vmsSqrt, VML_HA), which ATen's sqrt calls, as vecmath/vml.py computes
 * it: from y = VRSQRT14PS(m) for m = x / 4**k in [1, 4), s = m * y, one Newton step
 * fma(fma(-s, s, m), 0.5 * y, s), times 2**k. VRSQRT14PS's 17-bit significands come from
 * vml.py's table (set_sqrt_table), so the result is the same on every CPU. */
static int32_t rsqrt14_table[1 << 16];
static int rsqrt14_ready;

INLINE float vml_sqrt(float x)
{
    /* Bit steps only (no frexp or ldexp calls), so that the loops vectorise. A subnormal x is
     * scaled by 2**64 first (exact), its 2**k by 2**-32 after. */
    int tiny = x < 0x1p-126f;
    float scaled = tiny ? x * 0x1p64f : x;
    uint32_t bits;
    memcpy(&bits, &scaled, sizeof bits);
    int32_t unbiased = (int32_t)((bits >> 23) & 0xFF) - 127;
    uint32_t odd = (uint32_t)unbiased & 1, fraction = bits & 0x7FFFFF;
    uint32_t m_bits = fraction | ((127 + odd) << 23); /* x / 4**k, k = floor(unbiased / 2) */
    float m;
    memcpy(&m, &m_bits, sizeof m);
    int32_t sig = rsqrt14_table[(odd << 15) | (fraction >> 8)];
    sig = (fraction == 0 && odd == 0) ? (1 << 17) : sig;
    float y = (float)sig * 0x1p-17f;
    float s = m * y;
    float d = fmaf(-s, s, m);
    float r = fmaf(d, 0.5f * y, s); /* in [1, 2]: times 2**k by its exponent field */
    uint32_t r_bits;
    memcpy(&r_bits, &r, sizeof r_bits);
    r_bits += (uint32_t)((unbiased >> 1) - (tiny ? 32 : 0)) << 23;
    memcpy(&r, &r_bits, sizeof r);
    /* zeros, infinity and NaN as IEEE's sqrt (x + x: itself, a NaN quieted); negative: MKL's */
    int special = !(x > 0.0f) || x == INFINITY;
    return special ? (x < 0.0f ? NAN : x + x) : r;
}

/* The gradient as the update sees it: negated (maximize), plus weight_decay * param fused. */
INLINE float opt_grad(float g, float p, int flags, float weight_decay)
{
    if (flags & OPT_MAXIMIZE)
        g = -g;
    if (flags & OPT_L2)
        g = fmaf(p, weight_decay, g);
    return g;
}

/* lerp_(self, end, w) as ATen: from the nearer end, one fused step. */
INLINE float opt_lerp(float self, float end, float w, float w_minus_1, int low)
{
    float diff = end - self;
    return low ? fmaf(diff, w, self) : fmaf(diff, w_minus_1, end);
}

/* torch.maximum: NaN wins. */
INLINE float opt_max(float a, float b)
{
    return a != a ? a : (b != b ? b : (a > b ? a : b));
}

/* Each update in two passes over a block of at most OPT_BLOCK elements (L1-resident), around
 * the square root of the block: _pre writes the state and the values whose root is taken (arg),
 * _post reads the roots and writes the parameter (it recomputes what it needs from what _pre
 * left: the same float32 operations on the same values, so the bits are those of one pass). The
 * roots come from MKL's vmsSqrt itself where Python handed its address (set_mkl_sqrt: the op's
 * own sqrt, on CPUs where vml_sqrt's model is not VML's path), else from vml_sqrt. */

/* s[0..]: decay (AdamW's 1 - lr*wd, or Adam's weight_decay), 1 - beta1, (1 - beta1) - 1, beta2,
 * 1 - beta2, sqrt of bias correction 2, eps, -step_size. */
INLINE void adam_pre(const float *p, const float *g, float *m, float *v, float *vmax,
                     idx_t count, int flags, const float *s, const int amsgrad, float *arg)
{
    const float decay = s[0], w = s[1], w1 = s[2], beta2 = s[3], c2 = s[4];
    const int low = fabsf(w) < 0.5f;
    IVDEP for (idx_t i = 0; i < count; i++) {
        float param = p[i];
        if (flags & OPT_DECOUPLED)
            param = param * decay;
        float grad = opt_grad(g[i], param, flags & ~OPT_DECOUPLED, decay);
        float avg = opt_lerp(m[i], grad, w, w1, low);
        float sq = fmaf(c2 * grad, grad, v[i] * beta2);
        m[i] = avg;
        v[i] = sq;
        if (amsgrad) {
            sq = opt_max(vmax[i], sq);
            vmax[i] = sq;
        }
        arg[i] = sq;
    }
}

INLINE void adam_post(float *p, const float *m, const float *root, idx_t count, int flags,
                      const float *s)
{
    const float decay = s[0], bc2 = s[5], eps = s[6], step = s[7];
    IVDEP for (idx_t i = 0; i < count; i++) {
        float param = p[i];
        if (flags & OPT_DECOUPLED)
            param = param * decay;
        float denom = root[i] / bc2 + eps;
        p[i] = param + (step * m[i]) / denom;
    }
}

/* s[0..]: weight_decay, alpha, 1 - alpha, (1 - alpha) - 1, eps, momentum, -lr. */
INLINE void rmsprop_pre(const float *p, const float *g, float *sq, float *gavg, idx_t count,
                        int flags, const float *s, const int centered, float *arg)
{
    const float wd = s[0], alpha = s[1], c = s[2], c1 = s[3];
    const int low = fabsf(c) < 0.5f;
    IVDEP for (idx_t i = 0; i < count; i++) {
        float grad = opt_grad(g[i], p[i], flags, wd);
        float square = fmaf(c * grad, grad, sq[i] * alpha);
        sq[i] = square;
        if (centered) {
            float ga = opt_lerp(gavg[i], grad, c, c1, low);
            gavg[i] = ga;
            arg[i] = fmaf(-ga, ga, square); /* addcmul_(ga, ga, value=-1) on a clone */
        } else {
            arg[i] = square;
        }
    }
}

INLINE void rmsprop_post(float *p, const float *g, float *buf, const float *root, idx_t count,
                         int flags, const float *s, const int momentum)
{
    const float wd = s[0], eps = s[4], mom = s[5], lr = s[6];
    IVDEP for (idx_t i = 0; i < count; i++) {
        float grad = opt_grad(g[i], p[i], flags, wd);
        float avg = root[i] + eps;
        if (momentum) {
            float b = buf[i] * mom + grad / avg; /* addcdiv_ with value 1: 1 * grad exact */
            buf[i] = b;
            p[i] = fmaf(b, lr, p[i]);           /* param.add_(buf, alpha=-lr) */
        } else {
            p[i] = p[i] + (lr * grad) / avg;
        }
    }
}

/* s[0..]: weight_decay, eps, -clr. */
INLINE void adagrad_pre(const float *p, const float *g, float *sum, idx_t count, int flags,
                        const float *s, float *arg)
{
    const float wd = s[0];
    IVDEP for (idx_t i = 0; i < count; i++) {
        float grad = opt_grad(g[i], p[i], flags, wd);
        float total = fmaf(grad, grad, sum[i]); /* addcmul_(grad, grad, value=1) */
        sum[i] = total;
        arg[i] = total;
    }
}

INLINE void adagrad_post(float *p, const float *g, const float *root, idx_t count, int flags,
                         const float *s)
{
    const float wd = s[0], eps = s[1], clr = s[2];
    IVDEP for (idx_t i = 0; i < count; i++) {
        float grad = opt_grad(g[i], p[i], flags, wd);
        p[i] = p[i] + (clr * grad) / (root[i] + eps);
    }
}

/* The kernels' square roots of a block: MKL's vmsSqrt where set, else vml_sqrt's model. */
typedef void (*optim_vml_fn)(int, const float *, float *, long long);
static optim_vml_fn mkl_sqrt;
static long long mkl_sqrt_mode;
#define OPT_BLOCK 2048

INLINE void optim_roots(const float *arg, float *root, idx_t count)
{
    if (mkl_sqrt) {
        mkl_sqrt((int)count, arg, root, mkl_sqrt_mode);
    } else {
        IVDEP for (idx_t i = 0; i < count; i++)
            root[i] = vml_sqrt(arg[i]);
    }
}

/* The blocks of an update: `at` the first element of each, `k` its size. */
#define OPT_BLOCKS(n, BODY)                                                                      \
    do {                                                                                         \
        float arg[OPT_BLOCK], root[OPT_BLOCK];                                                   \
        for (idx_t at = 0; at < (n); at += OPT_BLOCK) {                                          \
            idx_t k = (n) - at < OPT_BLOCK ? (n) - at : OPT_BLOCK;                               \
            BODY                                                                                 \
        }                                                                                        \
    } while (0)

/* SGD with a momentum buffer already made; s[0..]: weight_decay, momentum, 1 - dampening, -lr. */
INLINE void sgd_body(float *p, const float *g, float *buf, idx_t count, int flags,
                     const float *s)
{
    const float wd = s[0], mom = s[1], damp = s[2], lr = s[3];
    IVDEP for (idx_t i = 0; i < count; i++) {
        float grad = opt_grad(g[i], p[i], flags, wd);
        float b = fmaf(grad, damp, buf[i] * mom); /* buf.mul_(momentum).add_(grad, alpha=...) */
        buf[i] = b;
        float step = (flags & OPT_NESTEROV) ? fmaf(b, mom, grad) : b;
        p[i] = fmaf(step, lr, p[i]);              /* param.add_(step, alpha=-lr) */
    }
}

/* The options that add a stored stream are constants of each instance (their loops have no
 * branch); the others are selects inside one loop. */
#define OPTIM_LEVEL(SUFFIX, ATTRIBUTE)                                                           \
    ATTRIBUTE static void adam_##SUFFIX(float *p, const float *g, float *m, float *v,           \
                                        float *vmax, idx_t n, int flags, const float *s)         \
    {                                                                                            \
        OPT_BLOCKS(n, {                                                                          \
            if (flags & OPT_AMSGRAD)                                                             \
                adam_pre(p + at, g + at, m + at, v + at, vmax + at, k, flags, s, 1, arg);        \
            else                                                                                 \
                adam_pre(p + at, g + at, m + at, v + at, NULL, k, flags, s, 0, arg);             \
            optim_roots(arg, root, k);                                                           \
            adam_post(p + at, m + at, root, k, flags, s);                                        \
        });                                                                                      \
    }                                                                                            \
    ATTRIBUTE static void rmsprop_##SUFFIX(float *p, const float *g, float *sq, float *ga,      \
                                           float *buf, idx_t n, int flags, const float *s)       \
    {                                                                                            \
        OPT_BLOCKS(n, {                                                                          \
            if (flags & OPT_CENTERED)                                                            \
                rmsprop_pre(p + at, g + at, sq + at, ga + at, k, flags, s, 1, arg);              \
            else                                                                                 \
                rmsprop_pre(p + at, g + at, sq + at, NULL, k, flags, s, 0, arg);                 \
            optim_roots(arg, root, k);                                                           \
            if (flags & OPT_MOMENTUM)                                                            \
                rmsprop_post(p + at, g + at, buf + at, root, k, flags, s, 1);                    \
            else                                                                                 \
                rmsprop_post(p + at, g + at, NULL, root, k, flags, s, 0);                        \
        });                                                                                      \
    }                                                                                            \
    ATTRIBUTE static void adagrad_##SUFFIX(float *p, const float *g, float *sum, idx_t n,       \
                                           int flags, const float *s)                            \
    {                                                                                            \
        OPT_BLOCKS(n, {                                                                          \
            adagrad_pre(p + at, g + at, sum + at, k, flags, s, arg);                             \
            optim_roots(arg, root, k);                                                           \
            adagrad_post(p + at, g + at, root, k, flags, s);                                     \
        });                                                                                      \
    }                                                                                            \
    ATTRIBUTE static void sgd_##SUFFIX(float *p, const float *g, float *buf, idx_t n, int flags, \
                                       const float *s)                                           \
    { sgd_body(p, g, buf, n, flags, s); }

OPTIM_LEVEL(portable, )
#ifdef GRADSH_X86
OPTIM_LEVEL(avx2, __attribute__((target("avx2,fma"))))
OPTIM_LEVEL(avx512, __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma,"
                                           "prefer-vector-width=512"))))
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* The instruction set of the kernels in use: 0 portable, 1 AVX2, 2 AVX-512. */
static int optim_level(void)
{
#ifdef GRADSH_X86
    if (strcmp(current->name, "avx512f") == 0)
        return 2;
    if (strcmp(current->name, "avx2") == 0)
        return 1;
#endif
    return 0;
}

/* set_sqrt_table(table): VRSQRT14PS's 65,536 significands (int32), vml._SIGNIFICAND17. */
static PyObject *py_set_sqrt_table(PyObject *self, PyObject *args)
{
    Py_buffer table;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*", &table))
        return NULL;
    int ok = table.len == (Py_ssize_t)sizeof rsqrt14_table;
    if (ok) {
        memcpy(rsqrt14_table, table.buf, sizeof rsqrt14_table);
        rsqrt14_ready = 1;
    } else {
        PyErr_SetString(PyExc_ValueError, "set_sqrt_table: 65,536 int32 expected");
    }
    PyBuffer_Release(&table);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* vml_sqrt(out, x, count): out = vmsSqrt(x), float32 (the tests compare it with vml.sqrt). */
static PyObject *py_vml_sqrt(PyObject *self, PyObject *args)
{
    Py_buffer out, x;
    idx_t count;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*n", &out, &x, &count))
        return NULL;
    int ok = rsqrt14_ready && holds(&out, count, "out") && holds(&x, count, "x");
    if (ok) {
        float *o = out.buf;
        const float *v = x.buf;
        for (idx_t i = 0; i < count; i++)
            o[i] = vml_sqrt(v[i]);
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "vml_sqrt: no table set");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&x);
    return ok ? Py_NewRef(Py_None) : NULL;
}

/* set_mkl_sqrt(address, mode): the kernels take their square roots from the VML routine at
 * `address` (vmsSqrt, called with `mode` on blocks); address 0: vml_sqrt's model again. */
static PyObject *py_set_mkl_sqrt(PyObject *self, PyObject *args)
{
    unsigned long long address;
    long long mode;
    (void)self;
    if (!PyArg_ParseTuple(args, "KL", &address, &mode))
        return NULL;
    mkl_sqrt = (optim_vml_fn)(uintptr_t)address;
    mkl_sqrt_mode = mode;
    return Py_NewRef(Py_None);
}

/* optim_sqrt(out, x, count): the square roots the kernels take (MKL's routine where set). */
static PyObject *py_optim_sqrt(PyObject *self, PyObject *args)
{
    Py_buffer out, x;
    idx_t count;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*n", &out, &x, &count))
        return NULL;
    int ok = (rsqrt14_ready || mkl_sqrt) && holds(&out, count, "out") && holds(&x, count, "x");
    if (ok) {
        float *o = out.buf;
        const float *v = x.buf;
        Py_BEGIN_ALLOW_THREADS
        for (idx_t at = 0; at < count; at += OPT_BLOCK)
            optim_roots(v + at, o + at, count - at < OPT_BLOCK ? count - at : OPT_BLOCK);
        Py_END_ALLOW_THREADS
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "optim_sqrt: no table set");
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&x);
    return ok ? Py_NewRef(Py_None) : NULL;
}

#define OPTIM_MAX_BUFFERS 5
#define OPTIM_MAX_SCALARS 8

/* optim_step(kind, buffers, count, flags, scalars): kind "adam" (param, grad, exp_avg,
 * exp_avg_sq[, max_exp_avg_sq]), "rmsprop" (param, grad, square_avg[, grad_avg][, buf]),
 * "adagrad" (param, grad, sum) or "sgd" (param, grad, momentum_buffer); every buffer of count
 * float32, written in place but grad. */
static PyObject *py_optim_step(PyObject *self, PyObject *args)
{
    const char *kind;
    PyObject *buffers, *scalars;
    idx_t count;
    int flags;
    (void)self;
    if (!PyArg_ParseTuple(args, "sO!niO!", &kind, &PyTuple_Type, &buffers, &count, &flags,
                          &PyTuple_Type, &scalars))
        return NULL;
    idx_t nbuf = PyTuple_GET_SIZE(buffers), nscalar = PyTuple_GET_SIZE(scalars);
    if (nbuf < 2 || nbuf > OPTIM_MAX_BUFFERS || nscalar > OPTIM_MAX_SCALARS || count < 0) {
        PyErr_SetString(PyExc_ValueError, "optim_step: bad buffers or scalars");
        return NULL;
    }
    float s[OPTIM_MAX_SCALARS] = {0};
    for (idx_t i = 0; i < nscalar; i++) {
        s[i] = (float)PyFloat_AsDouble(PyTuple_GET_ITEM(scalars, i));
        if (s[i] == -1.0f && PyErr_Occurred())
            return NULL;
    }
    Py_buffer views[OPTIM_MAX_BUFFERS];
    float *ptr[OPTIM_MAX_BUFFERS] = {NULL};
    idx_t taken = 0;
    int ok = 1;
    for (; taken < nbuf && ok; taken++) {
        int how = taken == 1 ? PyBUF_SIMPLE : PyBUF_WRITABLE; /* the gradient is only read */
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(buffers, taken), &views[taken], how) < 0) {
            ok = 0;
            break;
        }
        ok = holds(&views[taken], count, "optim_step");
        ptr[taken] = views[taken].buf;
    }
    if (ok && !rsqrt14_ready && !mkl_sqrt) {
        PyErr_SetString(PyExc_ValueError, "optim_step: no sqrt table set");
        ok = 0;
    }
    if (ok) {
        int level = optim_level();
        if (strcmp(kind, "adam") == 0 && nbuf >= 4) {
            void (*body)(float *, const float *, float *, float *, float *, idx_t, int,
                         const float *) = adam_portable;
#ifdef GRADSH_X86
            body = level == 2 ? adam_avx512 : level == 1 ? adam_avx2 : body;
#endif
            if ((flags & OPT_AMSGRAD) && nbuf < 5)
                ok = 0;
            else {
                Py_BEGIN_ALLOW_THREADS
                body(ptr[0], ptr[1], ptr[2], ptr[3], ptr[4], count, flags, s);
                Py_END_ALLOW_THREADS
            }
        } else if (strcmp(kind, "rmsprop") == 0 && nbuf >= 3) {
            void (*body)(float *, const float *, float *, float *, float *, idx_t, int,
                         const float *) = rmsprop_portable;
#ifdef GRADSH_X86
            body = level == 2 ? rmsprop_avx512 : level == 1 ? rmsprop_avx2 : body;
#endif
            float *gavg = (flags & OPT_CENTERED) ? ptr[3] : NULL;
            float *buf = (flags & OPT_MOMENTUM) ? ptr[(flags & OPT_CENTERED) ? 4 : 3] : NULL;
            if (((flags & OPT_CENTERED) && !gavg) || ((flags & OPT_MOMENTUM) && !buf))
                ok = 0;
            else {
                Py_BEGIN_ALLOW_THREADS
                body(ptr[0], ptr[1], ptr[2], gavg, buf, count, flags, s);
                Py_END_ALLOW_THREADS
            }
        } else if ((strcmp(kind, "adagrad") == 0 || strcmp(kind, "sgd") == 0) && nbuf == 3) {
            int sgd = kind[0] == 's';
            void (*body)(float *, const float *, float *, idx_t, int, const float *)
                = sgd ? sgd_portable : adagrad_portable;
#ifdef GRADSH_X86
            if (level == 2)
                body = sgd ? sgd_avx512 : adagrad_avx512;
            else if (level == 1)
                body = sgd ? sgd_avx2 : adagrad_avx2;
#endif
            Py_BEGIN_ALLOW_THREADS
            body(ptr[0], ptr[1], ptr[2], count, flags, s);
            Py_END_ALLOW_THREADS
        } else {
            ok = 0;
        }
        if (!ok)
            PyErr_SetString(PyExc_ValueError, "optim_step: bad kind or buffers");
    }
    for (idx_t i = 0; i < taken; i++)
        PyBuffer_Release(&views[i]);
    return ok ? Py_NewRef(Py_None) : NULL;
}
