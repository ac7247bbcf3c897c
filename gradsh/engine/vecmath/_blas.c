/* Thin calls into MKL (libmkl_rt of the `mkl` package, loaded by vecmath/mkl.py): sgemm_,
 * sgemv_, sdot_ and the VML routines, with the arguments vecmath/blas.py and vecmath/mkl.py
 * compute. The same calls go through ctypes where this optional extension was not built; this
 * one costs a fraction of a microsecond a call instead of ten. It holds only the routines'
 * addresses (bind), taken from the library that Python loaded. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef void (*sgemm_fn)(const char *, const char *, const int *, const int *, const int *,
                         const float *, const float *, const int *, const float *, const int *,
                         const float *, float *, const int *);
typedef void (*sgemv_fn)(const char *, const int *, const int *, const float *, const float *,
                         const int *, const float *, const int *, const float *, float *,
                         const int *);
typedef float (*sdot_fn)(const int *, const float *, const int *, const float *, const int *);
typedef void (*vml_fn)(int, const void *, void *, long long);

static sgemm_fn sgemm_p;
static sgemv_fn sgemv_p;
static sdot_fn sdot_p;

/* bind(sgemm, sgemv, sdot): the routines' addresses (ctypes' view of libmkl_rt). */
static PyObject *bind(PyObject *self, PyObject *args)
{
    unsigned long long gemm, gemv, dot;
    (void)self;
    if (!PyArg_ParseTuple(args, "KKK", &gemm, &gemv, &dot))
        return NULL;
    sgemm_p = (sgemm_fn)(uintptr_t)gemm;
    sgemv_p = (sgemv_fn)(uintptr_t)gemv;
    sdot_p = (sdot_fn)(uintptr_t)dot;
    Py_RETURN_NONE;
}

/* The address of a float array's first element (any strides); writable for outputs. */
static int address(PyObject *array, Py_buffer *view, int writable)
{
    int flags = PyBUF_STRIDED_RO | PyBUF_FORMAT;
    if (writable)
        flags |= PyBUF_WRITABLE;
    if (PyObject_GetBuffer(array, view, flags) < 0)
        return 0;
    if (view->itemsize != 4 || strcmp(view->format, "f") != 0) {
        PyErr_SetString(PyExc_ValueError, "_blas: float32 arrays only");
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

/* gemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc): sgemm_ (column-major),
 * a, b, c arrays whose first elements are BLAS's. */
static PyObject *gemm(PyObject *self, PyObject *args)
{
    int ta, tb, m, n, k, lda, ldb, ldc;
    float alpha, beta;
    PyObject *ao, *bo, *co;
    Py_buffer a, b, c;
    (void)self;
    if (sgemm_p == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_blas: not bound");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "ppiiifOiOifOi", &ta, &tb, &m, &n, &k, &alpha, &ao, &lda,
                          &bo, &ldb, &beta, &co, &ldc))
        return NULL;
    if (!address(ao, &a, 0))
        return NULL;
    if (!address(bo, &b, 0)) {
        PyBuffer_Release(&a);
        return NULL;
    }
    if (!address(co, &c, 1)) {
        PyBuffer_Release(&a);
        PyBuffer_Release(&b);
        return NULL;
    }
    char ca = ta ? 'T' : 'N', cb = tb ? 'T' : 'N';
    Py_BEGIN_ALLOW_THREADS
    sgemm_p(&ca, &cb, &m, &n, &k, &alpha, a.buf, &lda, b.buf, &ldb, &beta, c.buf, &ldc);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&c);
    Py_RETURN_NONE;
}

/* gemv(trans, m, n, alpha, a, lda, x, incx, beta, y, incy): sgemv_. */
static PyObject *gemv(PyObject *self, PyObject *args)
{
    int t, m, n, lda, incx, incy;
    float alpha, beta;
    PyObject *ao, *xo, *yo;
    Py_buffer a, x, y;
    (void)self;
    if (sgemv_p == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_blas: not bound");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "piifOiOifOi", &t, &m, &n, &alpha, &ao, &lda, &xo, &incx, &beta,
                          &yo, &incy))
        return NULL;
    if (!address(ao, &a, 0))
        return NULL;
    if (!address(xo, &x, 0)) {
        PyBuffer_Release(&a);
        return NULL;
    }
    if (!address(yo, &y, 1)) {
        PyBuffer_Release(&a);
        PyBuffer_Release(&x);
        return NULL;
    }
    char ct = t ? 'T' : 'N';
    Py_BEGIN_ALLOW_THREADS
    sgemv_p(&ct, &m, &n, &alpha, a.buf, &lda, x.buf, &incx, &beta, y.buf, &incy);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&a);
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    Py_RETURN_NONE;
}

/* dot(n, x, incx, y, incy): sdot_, a Python float (the float32 value). */
static PyObject *dot(PyObject *self, PyObject *args)
{
    int n, incx, incy;
    PyObject *xo, *yo;
    Py_buffer x, y;
    float value;
    (void)self;
    if (sdot_p == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_blas: not bound");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iOiOi", &n, &xo, &incx, &yo, &incy))
        return NULL;
    if (!address(xo, &x, 0))
        return NULL;
    if (!address(yo, &y, 0)) {
        PyBuffer_Release(&x);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    value = sdot_p(&n, x.buf, &incx, y.buf, &incy);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    return PyFloat_FromDouble((double)value);
}

/* vml(routine, n, x, y, mode): a VML routine's address and its arguments (float32 or float64
 * arrays whose first n elements are contiguous). */
static PyObject *vml(PyObject *self, PyObject *args)
{
    unsigned long long routine;
    int n;
    long long mode;
    PyObject *xo, *yo;
    Py_buffer x, y;
    (void)self;
    if (!PyArg_ParseTuple(args, "KiOOL", &routine, &n, &xo, &yo, &mode))
        return NULL;
    if (PyObject_GetBuffer(xo, &x, PyBUF_STRIDED_RO) < 0)
        return NULL;
    if (PyObject_GetBuffer(yo, &y, PyBUF_STRIDED | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&x);
        return NULL;
    }
    vml_fn fn = (vml_fn)(uintptr_t)routine;
    Py_BEGIN_ALLOW_THREADS
    fn(n, x.buf, y.buf, mode);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS, "bind(sgemm, sgemv, sdot): the routines' addresses"},
    {"gemm", gemm, METH_VARARGS, "sgemm_ with BLAS's arguments"},
    {"gemv", gemv, METH_VARARGS, "sgemv_ with BLAS's arguments"},
    {"dot", dot, METH_VARARGS, "sdot_ with BLAS's arguments"},
    {"vml", vml, METH_VARARGS, "vml(routine, n, x, y, mode): a VML routine"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_blas", NULL, -1, methods};

PyMODINIT_FUNC PyInit__blas(void) { return PyModule_Create(&module); }
