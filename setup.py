"""The optional compiled kernels (gradsh/engine/vecmath/_native.c), calls into MKL (_blas.c) and
the engine's C fast path (gradsh/engine/_fastpath.c); everything else is in pyproject.toml.
Without a C compiler the build of the extensions fails quietly (optional=True) and gradsh uses
its Python and NumPy code for the same results and bits."""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# No contraction and no fast-math: every float32 operation of the kernels is the IEEE one the
# C source spells (fmaf where MKL fuses, * and + where it does not).
_UNIX_FLAGS = ["-O2", "-ftree-vectorize", "-fvect-cost-model=dynamic", "-ffp-contract=off"]
_MSVC_FLAGS = ["/O2", "/fp:strict"]


class _BuildExt(build_ext):
    def build_extensions(self) -> None:
        flags = _MSVC_FLAGS if self.compiler.compiler_type == "msvc" else _UNIX_FLAGS
        for extension in self.extensions:
            extension.extra_compile_args = flags
        super().build_extensions()


setup(
    ext_modules=[Extension("gradsh.engine.vecmath._native", ["gradsh/engine/vecmath/_native.c"],
                           depends=["gradsh/engine/vecmath/_native_products.h",
                                    "gradsh/engine/vecmath/_native_elementwise.h",
                                    "gradsh/engine/vecmath/_native_rounded.h",
                                    "gradsh/engine/vecmath/_native_sort.h",
                                    "gradsh/engine/vecmath/_native_losses.h",
                                    "gradsh/engine/vecmath/_native_gemm.h",
                                    "gradsh/engine/vecmath/_native_optim.h",
                                    "gradsh/engine/vecmath/_native_sleef64.h",
                                    "gradsh/engine/vecmath/_native_sleef64_gamma.h",
                                    "gradsh/engine/vecmath/_native_sleef64_calls.h",
                                    "gradsh/engine/vecmath/_native_glibc32.h",
                                    "gradsh/engine/vecmath/_native_sleef_powf.h"],
                           optional=True),
                 # thin calls into MKL where the mkl package is installed (vecmath/blas.py)
                 Extension("gradsh.engine.vecmath._blas", ["gradsh/engine/vecmath/_blas.c"],
                           optional=True),
                 # the engine's per-operation work: Tensor._make, Function.apply (fastpath.py)
                 Extension("gradsh.engine._fastpath", ["gradsh/engine/_fastpath.c"],
                           depends=["gradsh/engine/_fastpath_forward.h",
                                    "gradsh/engine/_fastpath_operators.h",
                                    "gradsh/engine/_fastpath_sweep.h",
                                    "gradsh/engine/_fastpath_saved.h",
                                    "gradsh/engine/_fastpath_origin.h",
                                    "gradsh/engine/_fastpath_call.h",
                                    "gradsh/engine/_fastpath_builtin.h"], optional=True)],
    cmdclass={"build_ext": _BuildExt},
)
