"""The torch.nn helper modules that custom layers and checkpoint code import by their private
paths: nn.modules.utils (_pair and friends, consume_prefix_in_state_dict_if_present),
nn.common_types, nn.utils.fusion (conv/linear + BatchNorm folded, to the bit),
nn.utils.stateless.functional_call, and torch.types, against PyTorch."""

from __future__ import annotations

import importlib
import re
import warnings

import numpy as np
import pytest

import gradsh.torch as g


def _module(lib, name):
    """torch.<name> of PyTorch, or gradsh.torch.<name>."""
    prefix = "torch" if lib.__name__ == "torch" else "gradsh.torch"
    return importlib.import_module(f"{prefix}.{name}")


def _normalisers(lib):
    u = _module(lib, "nn.modules.utils")
    out = [u._pair(3), u._pair((1, 2)), u._single(4), u._triple([1, 2, 3]), u._quadruple(0),
           u._ntuple(5)(1), u._pair.__name__, u._ntuple(2).__name__, u._triple.__name__,
           u._reverse_repeat_tuple((1, 2, 3), 2), u._list_with_default([None, 3], [1, 2, 5, 7]),
           u._list_with_default(4, [1]), u.__all__]
    try:
        u._list_with_default([None, 3], [5])
    except ValueError as error:
        out.append(str(error))
    return out


def test_argument_normalisers(torch):
    assert _normalisers(g) == _normalisers(torch)


def _consumed(lib):
    u = _module(lib, "nn.modules.utils")
    state = lib.nn.DataParallel(lib.nn.Sequential(lib.nn.Linear(2, 2))).state_dict()
    u.consume_prefix_in_state_dict_if_present(state, "module.")
    plain = {"module.a": 1, "b.module.c": 2, "module.": 3}
    u.consume_prefix_in_state_dict_if_present(plain, "module.")
    return list(state), sorted(state._metadata), plain


def test_consume_prefix_in_state_dict(torch):
    assert _consumed(g) == _consumed(torch)


def test_type_aliases(torch):
    def names(lib):
        """The aliases as printed, gradsh's classes named as `gradsh run` names them."""
        ct, ty = _module(lib, "nn.common_types"), _module(lib, "types")
        shown = [str(getattr(ct, n)) for n in
                 ("_size_2_t", "_size_any_t", "_size_3_opt_t", "_ratio_2_t", "_tensor_list_t")]
        shown += [str(getattr(ty, n)) for n in ("Number", "_Number", "_size", "FileLike")]
        return [re.sub(r"gradsh\.[\w.]*\.(\w+)", r"torch.\1", s) for s in shown]

    assert names(g) == names(torch)


def _fused(lib, transpose):
    """conv (or transposed conv) + BatchNorm2d and linear + BatchNorm1d, trained a little so
    the running statistics are not trivial, then fused: the fused parameters and outputs."""
    fusion = _module(lib, "nn.utils.fusion")
    rng = np.random.default_rng(0)
    lib.manual_seed(0)
    conv = (lib.nn.ConvTranspose2d(3, 4, 3) if transpose else lib.nn.Conv2d(3, 4, 3, bias=False))
    model = lib.nn.Sequential(conv, lib.nn.BatchNorm2d(4))
    x = lib.tensor(rng.standard_normal((2, 3, 6, 6)).astype(np.float32))
    model(x)
    model(x * 2 + 1)
    model.eval()
    fused = fusion.fuse_conv_bn_eval(model[0], model[1], transpose=transpose)
    linear, bn = lib.nn.Linear(5, 3), lib.nn.BatchNorm1d(3)
    bn(linear(lib.tensor(rng.standard_normal((8, 5)).astype(np.float32))))
    linear.eval()
    bn.eval()
    fused_linear = fusion.fuse_linear_bn_eval(linear, bn)
    errors = []
    for bad in (lambda: fusion.fuse_linear_bn_eval(linear.train(), bn),
                lambda: fusion.fuse_linear_bn_eval(lib.nn.Linear(5, 2).eval(), bn)):
        try:
            bad()
        except AssertionError as error:
            errors.append(str(error))
    with lib.no_grad():
        outputs = [fused(x), fused_linear(lib.ones(2, 5))]
    arrays = [t.detach().numpy().copy() for t in
              (fused.weight, fused.bias, fused_linear.weight, fused_linear.bias, *outputs)]
    return (arrays, type(fused.weight).__name__, fused.weight.requires_grad,
            fused.bias.requires_grad, errors)


@pytest.mark.parametrize("transpose", [False, True])
def test_fusion_bits(torch, one_thread, transpose):
    ours, theirs = _fused(g, transpose), _fused(torch, transpose)
    assert ours[1:] == theirs[1:]
    for a, b in zip(ours[0], theirs[0], strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def test_stateless_functional_call_warns_and_calls(torch):
    def call(lib):
        stateless = _module(lib, "nn.utils.stateless")
        linear = lib.nn.Linear(2, 3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = stateless.functional_call(
                linear, {"weight": lib.ones(3, 2), "bias": lib.arange(3.0)}, (lib.ones(1, 2),))
        return out.tolist(), [(w.category.__name__, str(w.message)) for w in caught]

    assert call(g) == call(torch)


def _conv_subclass(lib):
    """A custom layer subclassing _ConvNd with PyTorch's positional signature (LNets'
    StandardConv2d), and the errors of wrong calls to the public constructors."""
    utils, conv = _module(lib, "nn.modules.utils"), _module(lib, "nn.modules.conv")

    class StandardConv2d(conv._ConvNd):
        def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0):
            pair = utils._pair
            super().__init__(in_channels, out_channels, pair(kernel_size), pair(stride),
                             pair(padding), pair(1), False, pair(0), 1, True, "zeros")

        def forward(self, x):
            return lib.nn.functional.conv2d(x, self.weight, self.bias, self.stride,
                                            self.padding)

    lib.manual_seed(0)
    layer = StandardConv2d(2, 3, 3, padding=1)
    transposed = lib.nn.ConvTranspose2d(2, 3, 3, stride=2, output_padding=1)
    out = [repr(layer), layer.transposed, layer.output_padding, layer.weight.detach().numpy(),
           layer(lib.ones(1, 2, 4, 4)).detach().numpy(), layer._reversed_padding_repeated_twice,
           repr(transposed), transposed.transposed, tuple(transposed.weight.shape),
           isinstance(lib.nn.Conv1d(1, 1, 1), conv._ConvNd),
           isinstance(transposed, conv._ConvTransposeNd)]
    for bad in (lambda: lib.nn.Conv2d(3), lambda: lib.nn.ConvTranspose2d(3, k=2),
                lambda: lib.nn.Conv1d(4, 4, 3, groups=0),
                lambda: conv._ConvNd(3, 2, (3,), (1,), (0,), (1,), False, (0,), 1, True),
                lambda: lib.nn.ConvTranspose1d(2, 2, 3, padding_mode="reflect")):
        try:
            bad()
        except (TypeError, ValueError) as error:
            out.append((type(error).__name__, str(error)))
    return out


def test_convnd_signature_for_subclasses(torch, one_thread):
    ours, theirs = _conv_subclass(g), _conv_subclass(torch)
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b)
        else:
            assert a == b
