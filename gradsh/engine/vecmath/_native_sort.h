/* gradsh's compiled kernels: libstdc++'s std::sort (introsort: median-of-three quicksort down
 * to runs of 16, heapsort past the depth limit, then insertion sort), as ATen's CPU sort_kernel
 * runs it for stable=False, on (key, index) pairs compared by key only: ascending with NaN
 * last, descending with NaN first (KeyValueCompAsc / KeyValueCompDesc). Where keys tie, the
 * order the indices end in is this algorithm's, which vecmath/stdsort.py also emulates in
 * Python, step for step. */
/* Part of _native.c (included after its common definitions); not a header of its own. */

#define SORT_THRESHOLD 16

#define DEFINE_STD_SORT(SUFFIX, KEY, LESS)                                                       \
    typedef struct { KEY key; int64_t index; } Pair_##SUFFIX;                                    \
                                                                                                 \
    static inline int less_##SUFFIX(const Pair_##SUFFIX *a, const Pair_##SUFFIX *b, int desc)    \
    {                                                                                            \
        KEY x = a->key, y = b->key;                                                              \
        return LESS(x, y, desc);                                                                 \
    }                                                                                            \
                                                                                                 \
    static void swap_##SUFFIX(Pair_##SUFFIX *a, Pair_##SUFFIX *b)                                \
    {                                                                                            \
        Pair_##SUFFIX t = *a;                                                                    \
        *a = *b;                                                                                 \
        *b = t;                                                                                  \
    }                                                                                            \
                                                                                                 \
    static void push_heap_##SUFFIX(Pair_##SUFFIX *first, idx_t hole, idx_t top,                  \
                                   Pair_##SUFFIX value, int desc)                                \
    {                                                                                            \
        idx_t parent = (hole - 1) / 2;                                                           \
        while (hole > top && less_##SUFFIX(first + parent, &value, desc)) {                      \
            first[hole] = first[parent];                                                         \
            hole = parent;                                                                       \
            parent = (hole - 1) / 2;                                                             \
        }                                                                                        \
        first[hole] = value;                                                                     \
    }                                                                                            \
                                                                                                 \
    static void adjust_heap_##SUFFIX(Pair_##SUFFIX *first, idx_t hole, idx_t len,                \
                                     Pair_##SUFFIX value, int desc)                              \
    {                                                                                            \
        idx_t top = hole, child = hole;                                                          \
        while (child < (len - 1) / 2) {                                                          \
            child = 2 * (child + 1);                                                             \
            if (less_##SUFFIX(first + child, first + (child - 1), desc))                         \
                child--;                                                                         \
            first[hole] = first[child];                                                          \
            hole = child;                                                                        \
        }                                                                                        \
        if ((len & 1) == 0 && child == (len - 2) / 2) {                                          \
            child = 2 * (child + 1);                                                             \
            first[hole] = first[child - 1];                                                      \
            hole = child - 1;                                                                    \
        }                                                                                        \
        push_heap_##SUFFIX(first, hole, top, value, desc);                                       \
    }                                                                                            \
                                                                                                 \
    static void heap_sort_##SUFFIX(Pair_##SUFFIX *first, idx_t len, int desc)                    \
    {                                                                                            \
        if (len >= 2)                                                                            \
            for (idx_t parent = (len - 2) / 2;; parent--) {                                      \
                adjust_heap_##SUFFIX(first, parent, len, first[parent], desc);                   \
                if (parent == 0)                                                                 \
                    break;                                                                       \
            }                                                                                    \
        while (len > 1) {                                                                        \
            len--;                                                                               \
            Pair_##SUFFIX value = first[len];                                                    \
            first[len] = first[0];                                                               \
            adjust_heap_##SUFFIX(first, 0, len, value, desc);                                    \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    static void median_to_first_##SUFFIX(Pair_##SUFFIX *result, Pair_##SUFFIX *a,               \
                                         Pair_##SUFFIX *b, Pair_##SUFFIX *c, int desc)           \
    {                                                                                            \
        if (less_##SUFFIX(a, b, desc)) {                                                         \
            if (less_##SUFFIX(b, c, desc))                                                       \
                swap_##SUFFIX(result, b);                                                        \
            else if (less_##SUFFIX(a, c, desc))                                                  \
                swap_##SUFFIX(result, c);                                                        \
            else                                                                                 \
                swap_##SUFFIX(result, a);                                                        \
        } else if (less_##SUFFIX(a, c, desc)) {                                                  \
            swap_##SUFFIX(result, a);                                                            \
        } else if (less_##SUFFIX(b, c, desc)) {                                                  \
            swap_##SUFFIX(result, c);                                                            \
        } else {                                                                                 \
            swap_##SUFFIX(result, b);                                                            \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    static void introsort_##SUFFIX(Pair_##SUFFIX *first, Pair_##SUFFIX *last, idx_t depth,      \
                                   int desc)                                                     \
    {                                                                                            \
        while (last - first > SORT_THRESHOLD) {                                                  \
            if (depth == 0) {                                                                    \
                heap_sort_##SUFFIX(first, last - first, desc);                                   \
                return;                                                                          \
            }                                                                                    \
            depth--;                                                                             \
            median_to_first_##SUFFIX(first, first + 1, first + (last - first) / 2, last - 1,     \
                                     desc);                                                      \
            Pair_##SUFFIX *lo = first + 1, *hi = last;                                           \
            for (;;) {                                                                           \
                while (less_##SUFFIX(lo, first, desc))                                           \
                    lo++;                                                                        \
                hi--;                                                                            \
                while (less_##SUFFIX(first, hi, desc))                                           \
                    hi--;                                                                        \
                if (!(lo < hi))                                                                  \
                    break;                                                                       \
                swap_##SUFFIX(lo, hi);                                                           \
                lo++;                                                                            \
            }                                                                                    \
            introsort_##SUFFIX(lo, last, depth, desc); /* depth <= 2 log2 n: bounded */          \
            last = lo;                                                                           \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    static void linear_insert_##SUFFIX(Pair_##SUFFIX *last, int desc)                            \
    {                                                                                            \
        Pair_##SUFFIX value = *last;                                                             \
        Pair_##SUFFIX *next = last - 1;                                                          \
        while (less_##SUFFIX(&value, next, desc)) {                                              \
            *last = *next;                                                                       \
            last = next;                                                                         \
            next--;                                                                              \
        }                                                                                        \
        *last = value;                                                                           \
    }                                                                                            \
                                                                                                 \
    static void insertion_sort_##SUFFIX(Pair_##SUFFIX *first, Pair_##SUFFIX *last, int desc)     \
    {                                                                                            \
        if (first == last)                                                                       \
            return;                                                                              \
        for (Pair_##SUFFIX *i = first + 1; i != last; i++) {                                     \
            if (less_##SUFFIX(i, first, desc)) {                                                 \
                Pair_##SUFFIX value = *i;                                                        \
                memmove(first + 1, first, (size_t)(i - first) * sizeof *first);                  \
                *first = value;                                                                  \
            } else {                                                                             \
                linear_insert_##SUFFIX(i, desc);                                                 \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    static void std_sort_##SUFFIX(Pair_##SUFFIX *first, idx_t n, int desc)                       \
    {                                                                                            \
        if (n < 2)                                                                               \
            return;                                                                              \
        idx_t lg = 0;                                                                            \
        while (((idx_t)1 << (lg + 1)) <= n)                                                      \
            lg++;                                                                                \
        introsort_##SUFFIX(first, first + n, 2 * lg, desc);                                      \
        if (n > SORT_THRESHOLD) {                                                                \
            insertion_sort_##SUFFIX(first, first + SORT_THRESHOLD, desc);                        \
            for (Pair_##SUFFIX *i = first + SORT_THRESHOLD; i != first + n; i++)                 \
                linear_insert_##SUFFIX(i, desc);                                                 \
        } else {                                                                                 \
            insertion_sort_##SUFFIX(first, first + n, desc);                                     \
        }                                                                                        \
    }

/* KeyValueCompAsc / KeyValueCompDesc: NaN is the largest value. */
#define SORT_LESS_FLOAT(x, y, desc)                                                              \
    ((desc) ? ((isnan(x) && !isnan(y)) || (x) > (y)) : ((!isnan(x) && isnan(y)) || (x) < (y)))
#define SORT_LESS_INT(x, y, desc) ((desc) ? (x) > (y) : (x) < (y))

DEFINE_STD_SORT(f64, double, SORT_LESS_FLOAT)
DEFINE_STD_SORT(i64, int64_t, SORT_LESS_INT)

/* std_sort(keys, order, n, descending): keys n float64 (kind "f") or int64 (kind "i"); order
 * the n int64 indices to permute with them (ATen starts from 0 .. n-1): both rewritten in
 * std::sort's final order. */
static PyObject *py_std_sort(PyObject *self, PyObject *args)
{
    Py_buffer keys, order;
    const char *kind;
    idx_t n;
    int descending;
    (void)self;
    if (!PyArg_ParseTuple(args, "sw*w*np", &kind, &keys, &order, &n, &descending))
        return NULL;
    int floating = strcmp(kind, "f") == 0;
    int ok = (floating || strcmp(kind, "i") == 0) && n >= 0
             && keys.len >= n * (idx_t)sizeof(double) && order.len >= n * (idx_t)sizeof(int64_t);
    void *pairs = ok ? PyMem_Malloc((size_t)(n ? n : 1) * sizeof(Pair_f64)) : NULL;
    if (ok && pairs == NULL) {
        PyErr_NoMemory();
        ok = 0;
    }
    if (ok) {
        int64_t *indices = order.buf;
        Py_BEGIN_ALLOW_THREADS
        if (floating) {
            Pair_f64 *p = pairs;
            const double *k = keys.buf;
            for (idx_t i = 0; i < n; i++)
                p[i].key = k[i], p[i].index = indices[i];
            std_sort_f64(p, n, descending);
            double *out = keys.buf;
            for (idx_t i = 0; i < n; i++)
                out[i] = p[i].key, indices[i] = p[i].index;
        } else {
            Pair_i64 *p = pairs;
            const int64_t *k = keys.buf;
            for (idx_t i = 0; i < n; i++)
                p[i].key = k[i], p[i].index = indices[i];
            std_sort_i64(p, n, descending);
            int64_t *out = keys.buf;
            for (idx_t i = 0; i < n; i++)
                out[i] = p[i].key, indices[i] = p[i].index;
        }
        Py_END_ALLOW_THREADS
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "std_sort: bad kind or sizes");
    }
    PyMem_Free(pairs);
    PyBuffer_Release(&keys);
    PyBuffer_Release(&order);
    return ok ? Py_NewRef(Py_None) : NULL;
}
