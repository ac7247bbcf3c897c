"""torch.__config__: the build description PyTorch 2.13's CPU wheel prints (show) and its
threading summary (parallel_info), with this process's thread counts and environment."""

from __future__ import annotations

import os

_MKL = ("Intel(R) oneAPI Math Kernel Library Version 2024.2-Product Build 20240605 for Intel(R) "
        "64 architecture applications")
_ONEDNN = "Intel(R) MKL-DNN v3.12.0 (Git Hash 80afa71049cd69a3df32adcccb623b12cd7baa22)"
_OPENMP = "OpenMP 201511 (a.k.a. OpenMP 4.5)"
_SETTINGS = (
    "BLAS_INFO=mkl, BUILD_TYPE=Release, COMMIT_SHA=cf30153c4c131c8164ee7798e5022d810682e2cb, "
    "CUDA_FLAGS= -DLIBCUDACXX_ENABLE_SIMPLIFIED_COMPLEX_OPERATIONS -Xfatbin -compress-all  "
    "-Wno-deprecated-gpu-targets --expt-extended-lambda -DCUB_WRAPPED_NAMESPACE=at_cuda_detail "
    "-DDISABLE_CUSPARSE_DEPRECATED -DCUDA_HAS_FP16=1 -D__CUDA_NO_HALF_OPERATORS__ "
    "-D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ "
    "-D__CUDA_NO_BFLOAT16_CONVERSIONS__ -DC10_NODEPRECATED, "
    "CXX_COMPILER=/opt/rh/gcc-toolset-13/root/usr/bin/c++, CXX_FLAGS= "
    "-fvisibility-inlines-hidden -DUSE_PTHREADPOOL -DNDEBUG -DUSE_KINETO -DUSE_FBGEMM "
    "-DUSE_PYTORCH_QNNPACK -DSYMBOLICATE_MOBILE_DEBUG_HANDLE -O2 -fPIC -DC10_NODEPRECATED -Wall "
    "-Wextra -Werror=return-type -Werror=non-virtual-dtor -Werror=range-loop-construct "
    "-Werror=bool-operation -Wnarrowing -Wno-missing-field-initializers -Wno-unknown-pragmas "
    "-Wno-unused-parameter -Wno-strict-overflow -Wno-strict-aliasing -Wno-stringop-overflow "
    "-Wsuggest-override -Wno-psabi -Wno-error=old-style-cast -faligned-new "
    "-Wno-maybe-uninitialized -fno-math-errno -fno-trapping-math -Werror=format "
    "-Wno-dangling-reference -Wno-error=dangling-reference -Wno-stringop-overflow, "
    "LAPACK_INFO=mkl, PERF_WITH_AVX=1, PERF_WITH_AVX2=1, TORCH_VERSION=2.13.0, USE_CUDA=0, "
    "USE_CUDNN=OFF, USE_CUSPARSELT=OFF, USE_GFLAGS=OFF, USE_GLOG=OFF, USE_GLOO=ON, USE_MKL=ON, "
    "USE_MKLDNN=ON, USE_MPI=OFF, USE_NCCL=OFF, USE_NNPACK=ON, USE_OPENMP=ON, USE_ROCM=OFF, "
    "USE_ROCM_KERNEL_ASSERT=OFF, USE_XCCL=OFF, USE_XPU=OFF, ")


def show() -> str:
    """The build configuration, as `torch.__config__.show()` of the CPU wheel prints it."""
    lines = ["PyTorch built with:", "  - GCC 13.3", "  - C++ Version: 202002", f"  - {_MKL}",
             f"  - {_ONEDNN}", f"  - {_OPENMP}", "  - LAPACK is enabled (usually provided by MKL)",
             "  - NNPACK is enabled", f"  - CPU capability usage: {_capability()}",
             f"  - Build settings: {_SETTINGS}"]
    return "\n".join(lines) + "\n"


def parallel_info() -> str:
    """ATen's threading summary: the intra- and inter-op thread counts in use now."""
    from gradsh.torch import get_num_interop_threads, get_num_threads

    threads = get_num_threads()
    lines = ["ATen/Parallel:", f"\tat::get_num_threads() : {threads}",
             f"\tat::get_num_interop_threads() : {get_num_interop_threads()}", _OPENMP,
             f"\tomp_get_max_threads() : {threads}", _MKL, f"\tmkl_get_max_threads() : {threads}",
             _ONEDNN, f"std::thread::hardware_concurrency() : {os.cpu_count() or 1}",
             "Environment variables:"]
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        lines.append(f"\t{name} : {os.environ.get(name, '[not set]')}")
    lines.append("ATen parallel backend: OpenMP")
    return "\n".join(lines) + "\n"


def _capability() -> str:
    """ATen's CPU capability: AVX512 needs the F, BW, VL and DQ extensions (read from
    /proc/cpuinfo; DEFAULT where it cannot be read)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            flags = next((line.split(":", 1)[1].split() for line in info
                          if line.startswith("flags")), [])
    except OSError:
        return "DEFAULT"
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= set(flags):
        return "AVX512"
    return "AVX2" if "avx2" in flags else "DEFAULT"
