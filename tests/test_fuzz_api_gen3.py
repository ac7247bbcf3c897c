"""The differential fuzzer's third set of areas (tests/fuzz_api/gen3.py: nn modules, optimizers
and lr schedulers, special values, linear algebra, data and distributions): the cases it found
and gradsh fixed, and one fixed seed's batch of those areas, each run under PyTorch and under
gradsh.torch in this process and compared as printed text."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz_api"))

import fuzz  # noqa: E402

# Shrunk cases the fuzzer found, each a program over `torch` (lines split on "\n").
REGRESSIONS = {
    # linalg: a matrix A's singular error has no batch prefix; solve_ex's info is A's batch
    "solve_singular_matrix_with_batched_b": "for A, B in ((torch.zeros(3, 3), torch.ones(2, 3, 2)),"
                                            " (torch.zeros(1, 3, 3), torch.ones(2, 3, 1)), "
                                            "(torch.stack([torch.eye(3), torch.zeros(3, 3)]), "
                                            "torch.ones(3, 2))):\n"
                                            "    print(torch.linalg.solve_ex(A, B)[1])\n"
                                            "    try:\n        torch.linalg.solve(A, B)\n"
                                            "    except Exception as e:\n"
                                            "        print(type(e).__name__, e)",
    # reductions and special values
    "kthvalue_0d_bool": "print(torch.tensor(True).kthvalue(1), torch.tensor(False).kthvalue(1, 0, "
                        "True))\nprint(torch.tensor([True, False]).kthvalue(1))",
    "dist_integers": "print(torch.dist(torch.tensor([127, 32767], dtype=torch.int16), "
                     "torch.tensor([1, 1], dtype=torch.int16)))",
    "dist_bool": "print(torch.dist(torch.tensor([True]), torch.tensor([False])))",
    "dist_int_float": "print(torch.dist(torch.tensor([1, 2]), torch.tensor([1.0, 4.0])))",
    "allclose_dtypes": "print(torch.allclose(torch.tensor([1, 2], dtype=torch.int16), "
                       "torch.tensor([1.0, 2.0])))",
    "allclose_broadcast": "print(torch.allclose(torch.ones(3), torch.ones(2)))",
    "nextafter_half_equal": "for dt in (torch.float16, torch.bfloat16):\n"
                            "    print(torch.nextafter(torch.tensor([-0.0, 0.0, 1.0], dtype=dt), "
                            "torch.tensor([0.0, -0.0, 1.0], dtype=dt)))",
    "histc_overflowing_position": "print(torch.tensor([3.4e38, 65520.0, 65504.0]).histc(4), "
                                  "torch.tensor([3.4e38, 1e-40, 89.0]).histc(4))",
    "histc_overflowing_range": "print(torch.tensor([-3.4e38, 3.4e38, 0.0]).histc(4), "
                               "torch.tensor([60000.0, -60000.0, 1.0], dtype=torch.float16)"
                               ".histc(4), torch.tensor([1.0, 2.0], dtype=torch.float64)"
                               ".histc(3, min=-3.4e38, max=3.4e38))",
    "std_mean_half_in_float": "x = torch.tensor([65504.0, 0.0, 0.5, 1e-45], dtype=torch.float16)\n"
                              "print(torch.std_mean(x), torch.var_mean(x, 0))\n"
                              "y = torch.tensor([[60000.0, -60000.0], [1.0, 2.0]], "
                              "dtype=torch.bfloat16)\nprint(torch.std_mean(y, dim=0))",
    "var_mean_infinity_welford": "x = torch.tensor([100.0, 0.0, float('inf'), 0.0])\n"
                                 "print(torch.std_mean(x), torch.var_mean(x.view(2, 2), 1), "
                                 "torch.var_mean(x.half()), torch.var_mean(torch.tensor("
                                 "[0.0, float('inf')])))",
    "norm_nuc": "x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.5, 0.0]])\n"
                "print(torch.norm(x, 'nuc'), x.norm(p='nuc', keepdim=True))\n"
                "torch.norm(torch.ones(3), 'nuc')",
    "norm_fro_three_dims": "torch.norm(torch.ones(2, 2, 3), 'fro', dim=(0, 1, 2))",
    "norm_nuc_all_dims_3d": "torch.norm(torch.ones(2, 2, 3), 'nuc')",
    "trapezoid_bool": "torch.trapezoid(torch.tensor([True, False]))",
    "cumulative_trapezoid_bool": "torch.cumulative_trapezoid(torch.tensor([True]))",
    "nan_to_num_bfloat16": "x = torch.tensor([-float('inf'), 1.0, float('inf'), float('nan')],"
                           " dtype=torch.bfloat16)\nprint(x.nan_to_num(), x.nan_to_num(nan=0.0, "
                           "posinf=1e4, neginf=-1e4), torch.nan_to_num(x, 2.5, 1e39, -1e39))",
    "nextafter_promotes": "print(torch.nextafter(torch.tensor([1.0, 0.0], dtype=torch.float64), "
                          "torch.tensor([2.0, -1.0], dtype=torch.float16)), torch.nextafter("
                          "torch.tensor(1.0, dtype=torch.float64), torch.tensor([2.0])), "
                          "torch.nextafter(torch.tensor([1.0]).half(), torch.tensor([2.0])"
                          ".bfloat16()))\ntorch.nextafter(torch.tensor([1]), torch.tensor([2]))",
    "clamp_bool_both_tensor_bounds": "x = torch.tensor([True, False])\n"
                                     "print(torch.clamp(x, min=x), x.clamp(max=x), "
                                     "x.clone().clamp_(x), torch.clamp(x, min=x.int()))\n"
                                     "try:\n    x.clone().clamp_(x, x)\nexcept Exception as e:\n"
                                     "    print(e)\ntorch.clamp(x, min=x, max=x)",
    # modules
    "lazy_state_dict_uninitialized": "m = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 2), "
                                     "torch.nn.LazyLinear(2))\nprint(m.state_dict())\n"
                                     "print(torch.nn.LazyBatchNorm1d().state_dict())",
    # linear algebra
    "tensordot_dims_named_as_given": "torch.tensordot(torch.ones(2, 3), torch.ones(2, 3), "
                                     "dims=1)",
    "tensordot_negative_dims": "torch.tensordot(torch.ones(2, 3), torch.ones(2, 3), "
                               "dims=([-1], [-2]))",
    "tensordot_size_one_broadcasts": "a = torch.tensor([[[[1.0], [2.0]]], [[[2.0], [1.0]]]], "
                                     "requires_grad=True)\nb = torch.tensor([[[[0.0, 1.5]]], "
                                     "[[[-1.5, 1.5]]]], requires_grad=True)\n"
                                     "r = torch.tensordot(a, b, dims=1)\nr.sum().backward()\n"
                                     "print(r.shape, a.grad, b.grad)",
    "eigh_integer_kernel": "torch.linalg.eigh(torch.tensor([[1, 2], [3, 4]], dtype=torch.int32))",
    "cross_dim_named_as_given": "torch.cross(torch.ones(2, 2), torch.ones(2, 2), dim=-1)",
    "baddbmm_batch1_one_dim": "torch.baddbmm(torch.zeros(1), torch.ones(3), torch.ones(2, 3, 4))",
    "baddbmm_batch2_one_dim": "torch.baddbmm(torch.zeros(1), torch.ones(1, 2, 2), torch.ones(2))",
    "baddbmm_input_expand": "torch.baddbmm(torch.zeros(2, 3, 4), torch.ones(2, 3, 4), "
                            "torch.ones(2, 4, 5))",
    "baddbmm_input_dtype": "torch.baddbmm(torch.zeros(1), torch.ones(1, 2, 3).double(), "
                           "torch.ones(1, 3, 1).double())",
    "baddbmm_batch_dtypes": "torch.baddbmm(torch.zeros(1), torch.ones(1, 2, 3), "
                            "torch.ones(1, 3, 1).double())",
    "addbmm_input_expand_first": "torch.addbmm(torch.zeros(2, 3, 5), torch.ones(2, 3, 4), "
                                 "torch.ones(2, 4, 5))",
    "addbmm_batch_count": "torch.addbmm(torch.zeros(1), torch.ones(2, 2, 3), torch.ones(3, 3, 1))",
    "addbmm_bmm_sizes": "torch.addbmm(torch.zeros(1), torch.ones(2, 2, 3), torch.ones(2, 4, 1))",
    "addbmm_dtypes": "torch.addbmm(torch.zeros(1).double(), torch.ones(2, 2, 3), "
                     "torch.ones(2, 3, 1).double())",
    "chain_matmul_dims": "import warnings\nwarnings.simplefilter('ignore')\n"
                         "torch.chain_matmul(torch.ones(2, 2, 2), torch.ones(2, 2))",
    "chain_matmul_sizes": "import warnings\nwarnings.simplefilter('ignore')\n"
                          "torch.chain_matmul(torch.ones(2, 3), torch.ones(2, 3))",
    "chain_matmul_three": "import warnings\nwarnings.simplefilter('ignore')\n"
                          "print(torch.chain_matmul(torch.randn(5, 1), torch.randn(1, 6), "
                          "torch.randn(6, 2)).tolist())",
    "triangular_solve": "import warnings\nwarnings.simplefilter('ignore')\n"
                        "A = torch.tensor([[2.0, 1.0], [0.0, 3.0]])\nb = torch.tensor([[1.0], "
                        "[2.0]])\nprint(torch.triangular_solve(b, A), b.triangular_solve(A, "
                        "False, True))\nprint(torch.triangular_solve(torch.ones(3, 2, 1), A, "
                        "transpose=True, unitriangular=True))\n"
                        "torch.triangular_solve(b.double(), A)",
    # float16 products: one rounding of the float32 sum and the bias
    "addmm_half_bias_once": "torch.manual_seed(0)\na = torch.randn(6, 7).half()\n"
                            "b = torch.randn(7, 5).half()\nc = torch.randn(5).half()\n"
                            "print(torch.addmm(c, a, b), torch.addmm(c, a, b, beta=0.5, "
                            "alpha=2))",
    "linear_half": "import torch.nn as nn\nm = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), "
                   "nn.Linear(4, 2))\nx = torch.tensor([[-1.5, -2.0, 0.0], [1.0, 0.0, -2.0]])\n"
                   "m.half(); print(m(x.half()))",
    # optimizers
    "optimizer_duplicate_parameter_index": "w = torch.ones(2, requires_grad=True)\n"
                                           "import warnings\nwarnings.simplefilter('ignore')\n"
                                           "opt = torch.optim.SGD([w, w], lr=0.1)\n"
                                           "print(opt.state_dict()['param_groups'][0]['params'])",
}



def test_linear_half_many_shapes(torch):
    """F.linear and addmm in float16 against PyTorch over random shapes: addmm with a row-major
    mat2 in every element; F.linear (ATen's transposed gemm, whose float32 summation order is
    not matched yet) in all but a few elements in a thousand."""
    import numpy as np

    import gradsh.torch as gtorch
    from conftest import pinned_threads

    differing = total = 0
    with pinned_threads(torch, 1):
        for seed in range(30):
            gen_ = torch.Generator().manual_seed(seed)
            n, k, m = (int(v) for v in torch.randint(1, 24, (3,), generator=gen_))
            a, b, c = (torch.randn(*s, generator=gen_).half() for s in ((n, k), (k, m), (m,)))
            ga, gb, gc = (gtorch.tensor(t.numpy()) for t in (a, b, c))
            assert np.array_equal(torch.addmm(c, a, b).numpy().view(np.int16),
                                  gtorch.addmm(gc, ga, gb).numpy().view(np.int16))
            ours = gtorch.nn.functional.linear(ga, gb.t().contiguous(), gc).numpy()
            theirs = torch.nn.functional.linear(a, b.t().contiguous(), c).numpy()
            differing += int((ours.view(np.int16) != theirs.view(np.int16)).sum())
            total += ours.size
    assert differing <= max(3, total // 500), (differing, total)


# The fixed seed's batch of gen3's areas: mismatches still there (case number: cause), a strict
# list: a case that passes must leave it.
SEED, CASES = 75, 250
KNOWN: dict[int, str] = {}


sides, test_fixed_case, test_fixed_seed_batch = fuzz.test_parts(
    REGRESSIONS, SEED, CASES, ["gen3"], KNOWN)
