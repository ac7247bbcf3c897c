"""The differential fuzzer's fourth set of areas (tests/fuzz_api/gen4.py: shape functions,
Python interop, autograd extensions, more of torch.nn.functional): the cases it found and
gradsh fixed, and one fixed seed's batch of those areas, each run under PyTorch and under
gradsh.torch in this process and compared as printed text."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz_api"))

import fuzz  # noqa: E402

_DOUBLE_IN_PLACE = ("class Double_(torch.autograd.Function):\n    @staticmethod\n"
                    "    def forward(ctx, x):\n        x.mul_(2)\n        ctx.mark_dirty(x)\n"
                    "        return x\n    @staticmethod\n    def backward(ctx, g):\n"
                    "        return g * 2\n")

# Shrunk cases the fuzzer found, each a program over `torch` (lines split on "\n").
REGRESSIONS = {
    # shapes: strides, storage offsets, error texts
    "view_size_one_strides": "x = torch.arange(4.0)[::2][:1]\n"
                             "print(x.view(1, -1).stride(), x.unsqueeze(-1).stride(), "
                             "x.unsqueeze(0).stride())\ny = torch.arange(2.0).reshape(1, 2).t()\n"
                             "print(y.unflatten(0, (1, -1)).stride(), y.reshape(1, 2, 1).stride(),"
                             " y.unsqueeze(1).stride())\nw = torch.ones(3, 1, 2)[:, :, :1]\n"
                             "print(w.view(3, 1).stride(), w.squeeze(1).stride(), "
                             "w.permute(2, 0, 1).view(3).stride())",
    "flip_keeps_dense_strides": "x = torch.arange(18.0).reshape(2, 1, 3, 3).permute(1, 0, 3, 2)\n"
                                "print(x.flip(1).stride(), torch.arange(2.0)[::2].flip(0).stride(),"
                                " torch.arange(12.0).reshape(3, 4, 1, 1).transpose(0, -1)"
                                ".flip(-2).stride())",
    "rot90_flip_then_transpose": "x = torch.arange(16.0).reshape(4, 4)\nfor k in range(-1, 5):\n"
                                 "    print(k, torch.rot90(x, k).stride(), torch.rot90(x[1:], k, "
                                 "(1, 0)).stride())",
    "rot90_dims_as_given": "torch.rot90(torch.ones(1, 4), 3, (-2, 0))",
    "split_sizes_dim_as_given": "torch.ones(2, 3).split([3, 1], -1)",
    "movedim_repeated_dims": "x = torch.ones(2, 3, 4)\n"
                             "for src, dst in (((1, 2), (2, -1)), ((1, -2), (0, 1))):\n    try:\n"
                             "        torch.movedim(x, src, dst)\n    except Exception as e:\n"
                             "        print(e)",
    "repeat_interleave_output_size": "x = torch.ones(2, 3)\n"
                                     "for f in (lambda: x.repeat_interleave(2, output_size=5), "
                                     "lambda: x.repeat_interleave(torch.tensor([1, 2]), dim=0, "
                                     "output_size=4), lambda: torch.repeat_interleave("
                                     "torch.tensor([1, 2]), output_size=4)):\n    try:\n"
                                     "        print(f())\n    except Exception as e:\n"
                                     "        print(e)\nprint(x.repeat_interleave(torch.tensor("
                                     "[1, 2]), dim=0, output_size=3))",
    "as_strided_storage_bounds": "b = torch.arange(9.0).reshape(3, 3)\ntry:\n"
                                 "    b.as_strided((2,), (1,), 9)\nexcept Exception as e:\n"
                                 "    print(e)\nb.half().t().as_strided((3, 2), (1, 6), 1)",
    "as_strided_of_strided_input": "b = torch.arange(24.0).reshape(4, 2, 3).requires_grad_()\n"
                                   "x = b.transpose(0, -1)\n"
                                   "for args in (((2, 2), (1, 2), 1), ((2,), (1,), 3), "
                                   "((2, 2), (0, 1), 2)):\n    r = x[1:].as_strided(*args)\n"
                                   "    (r * torch.arange(1.0, r.numel() + 1).reshape(r.shape))"
                                   ".sum().backward()\n    print(r, r.storage_offset(), b.grad)"
                                   "\n    b.grad = None\ny = torch.arange(6.0).reshape(2, 3).t()"
                                   ".clone()\ny.as_strided((2,), (1,), 1).fill_(-1)\nprint(y)",
    "storage_offset_of_strided_views": "b = torch.arange(16.0).reshape(4, 4)\n"
                                       "print(b.as_strided((2, 2), (1, 2), 1).storage_offset(), "
                                       "b[1:].diagonal().storage_offset(), b[1:].unfold(0, 2, 1)"
                                       ".storage_offset(), b[1:].expand(2, 3, 4).storage_offset())",
    "empty_slice_offsets": "b = torch.arange(8.0).reshape(2, 4)\nx = b.t()\n"
                           "for r in (x.narrow(1, 2, 0), x[4:], b[1:1], *torch.tensor_split("
                           "torch.arange(16.0).reshape(2, 2, 4)[1:], [1, 1, 9], dim=2)):\n"
                           "    print(r.shape, r.stride(), r.storage_offset())",
    "is_view_is_set_to": "b = torch.arange(6.0).reshape(2, 3)\nx = b.t()\n"
                         "print(x._is_view(), torch.ones(2)._is_view(), (x * 2)._is_view(), "
                         "x.is_set_to(x), x.is_set_to(b), b.is_set_to(b.view(2, 3)))",
    "ravel_contiguous_then_view": "y = torch.arange(6.0).reshape(3, 2).t().requires_grad_()\n"
                                  "for r in (y.ravel(), torch.arange(12.0).reshape(3, 4)[:, ::2]"
                                  ".ravel(), torch.ones(2, 1).expand(2, 3).ravel()):\n"
                                  "    print(r, r.stride(), r.is_contiguous(), r._base is not "
                                  "None)",
    "adjoint_errors": "x = torch.arange(3.0)\nfor f in (lambda: x.mH, lambda: x.adjoint(), "
                      "lambda: torch.adjoint(x)):\n    try:\n        f()\n"
                      "    except Exception as e:\n        print(e)\n"
                      "print(torch.adjoint(torch.ones(2, 3)).shape)",
    "meshgrid_dtypes": "for ts in ((torch.ones(2, 2), torch.arange(3)), (torch.arange(2), "
                       "torch.ones(2)), ()):\n    try:\n"
                       "        torch.meshgrid(*ts, indexing='ij')\n"
                       "    except Exception as e:\n        print(e)",
    "diag_embed_row_major": "print(torch.diag_embed(torch.arange(2.0).reshape(2, 1), 0, 0, 1)"
                            ".stride(), torch.diag_embed(torch.ones(2, 3).t(), 0, 1, 2).stride())",
    "cat_suggested_memory_format": "x = torch.arange(4.0).reshape(2, 2, 1, 1).transpose(0, -1)\n"
                                   "z = torch.randn(2, 3, 4, 5).to(memory_format="
                                   "torch.channels_last)\nw = torch.ones(1, 2, 1, 2)"
                                   ".transpose(1, 3)\nfor r in (torch.hstack((x, x)), "
                                   "torch.cat((x, x), 0), torch.cat((z, z), 1), torch.cat((z, "
                                   "z.contiguous())), torch.cat((w, w), 1)):\n"
                                   "    print(r.shape, r.stride())",
    # Python interop
    "tensor_of_multi_element_tensors": "for data in ([torch.tensor([1, 2]), torch.tensor([3, 4])], "
                                       "[torch.tensor([1.0, 2.0])], [torch.tensor([True, False])]"
                                       "):\n    try:\n        torch.tensor(data)\n"
                                       "    except Exception as e:\n"
                                       "        print(type(e).__name__, e)\n"
                                       "torch.tensor([torch.tensor([1, 2])], dtype=torch.float32)",
    "tensor_of_numpy_bools_into_integers": "import numpy as np\nfor data in ([np.bool_(True), 2], "
                                           "[np.bool_(True), 2.5], [np.float64(1.5), True]):\n"
                                           "    try:\n        print(torch.tensor(data))\n"
                                           "    except Exception as e:\n"
                                           "        print(type(e).__name__, e)\n"
                                           "torch.tensor([np.float32(1.5), 2], dtype=torch.int32)",
    "load_bfloat16_weights_only": "import io\nbuf = io.BytesIO()\ntorch.save({'a': torch.tensor("
                                  "[1.25], dtype=torch.bfloat16), 'l': [torch.tensor(6.0).half()]}"
                                  ", buf)\nbuf.seek(0)\nprint(torch.load(buf))",
    "load_empty_tensors_weights_only": "import io\nbuf = io.BytesIO()\n"
                                       "torch.save({'w': torch.zeros(0, 3), 'b': torch.tensor([],"
                                       " dtype=torch.int64)}, buf)\nbuf.seek(0)\n"
                                       "print(torch.load(buf))",
    "deepcopy_keeps_shared_view": "import copy\nt = torch.tensor([1, 9]); v = t[::2]\n"
                                  "c = copy.deepcopy([t, v]); c[0][...] = 7; print(c)\n"
                                  "c = copy.deepcopy([v, t]); c[1][...] = 7; print(c)",
    # autograd extensions
    "vmap_empty_batch": "import torch.func as tf\nprint(tf.vmap(lambda t: t ** 2 * 3)("
                        "torch.ones(0, 2)), tf.vmap(lambda t: t.sum())(torch.ones(0, 2)))\n"
                        "print(tf.vmap(lambda a, b: a * b, in_dims=(1, None))(torch.ones(3, 0), "
                        "torch.ones(3)).shape)",
    "hvp_strict_linear_function": "import torch.autograd.functional as AF\n"
                                  "x, v = torch.tensor([-2.0, 0.0]), torch.tensor([-0.5, 1.5])\n"
                                  "for fn in (AF.hvp, AF.vhp):\n    try:\n"
                                  "        fn(lambda t: t.cumsum(0).sum(), x, v, strict=True)\n"
                                  "    except Exception as e:\n        print(e)",
    "mark_dirty_view_rebases_base": _DOUBLE_IN_PLACE
    + "x = torch.tensor([2.0, -1.0, 3.0], requires_grad=True)\n"
      "z = x * 1; y = Double_.apply(z[:1]); print(y, z)\n"
      "(z * torch.tensor([1.0, 2.0, 3.0])).sum().backward(); print(x.grad)\n"
      "Double_.apply(x[:1])",
    "hessian_jacobian_strict_texts": "import torch.autograd.functional as AF\n"
                                     "x = torch.tensor([-1.5, 0.5, 0.0])\n"
                                     "for f in (lambda t: t.cumsum(0), lambda t: t.sin()):\n"
                                     "    for call in (lambda: AF.hessian(lambda t: f(t).sum(), x,"
                                     " strict=True), lambda: AF.jacobian(f, x, create_graph=True,"
                                     " strict=True), lambda: AF.jacobian(lambda a, b: a * b, (x, "
                                     "x), create_graph=True, strict=True)):\n"
                                     "        try:\n            print(call())\n"
                                     "        except Exception as e:\n"
                                     "            print(type(e).__name__, e)",
    # nn.functional
    "area_interpolate_to_nothing": "import torch.nn.functional as F\n"
                                   "x = torch.randn(1, 2, 1, 1, requires_grad=True)\n"
                                   "r = F.interpolate(x, scale_factor=(0.5, 1.5), "
                                   "recompute_scale_factor=True, mode='area')\nprint(r)\n"
                                   "r.sum().backward()",
    "adaptive_avg_pool3d_empty_grad": "x = torch.randn(1, 1, 4, 1, 4, requires_grad=True)\n"
                                      "r = torch.nn.functional.adaptive_avg_pool3d(x, (2, 0, 2))"
                                      "\nprint(r.shape)\nr.sum().backward()",
    "sdpa_mask_and_causal": "import torch.nn.functional as F\n"
                            "q = torch.randn(1, 2, 3, 2, requires_grad=True)\n"
                            "k, v = torch.randn(1, 2, 4, 2), torch.randn(1, 2, 4, 2)\n"
                            "m = torch.tensor([[True, False, True, False]] * 3)\n"
                            "r = F.scaled_dot_product_attention(q, k, v, attn_mask=m, "
                            "is_causal=True)\nr.sum().backward()\n"
                            "print(r, q.grad, r.grad_fn.name())\n"
                            "F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=True,"
                            " dropout_p=0.5)",
}


# The fixed seed's batch of gen4's areas: mismatches still there (case number: cause), a strict
# list: a case that passes must leave it.
SEED, CASES = 104, 150
KNOWN: dict[int, str] = {
    124: "AF.hvp of softmax(x).sum(), a constant: float32 rounding noise (-2.7e-10 vs 0.0), the "
         "double backward's summation order",
}


sides, test_fixed_case, test_fixed_seed_batch = fuzz.test_parts(
    REGRESSIONS, SEED, CASES, ["gen4"], KNOWN)
