"""float32 convolution forward against PyTorch 2.13's bits (vecmath/conv.py): oneDNN's direct
kernel (input channels in blocks of 16, one fused chain per block over kernel rows, columns
and channels, the blocks added, the bias after the first) and slow_conv2d's MKL product for a
small single sample; padding, stride, dilation, 1x1 kernels and conv1d; oneDNN's backward
(data, weights and bias) and slow_conv2d's; the compiled path and the NumPy emulation alike,
and CNN layers at training sizes (batch 16 and 64) through the compiled path."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import blas, conv, native, sgemm

F32 = np.float32

CASES = [((2, 3, 8, 8), (4, 3, 3, 3), 1, 1, 1, True), ((2, 20, 7, 7), (6, 20, 3, 3), 1, 2, 1, True),
         ((4, 1, 28, 28), (8, 1, 5, 5), 0, 1, 1, False), ((2, 40, 6, 6), (5, 40, 3, 3), 2, 1, 1, True),
         ((1, 40, 5, 5), (3, 40, 2, 2), 0, 1, 1, True), ((1, 3, 8, 8), (4, 3, 3, 3), 1, 1, 1, True),
         ((1, 3, 8, 8), (4, 3, 3, 3), 1, 1, 1, False), ((3, 16, 6, 6), (8, 16, 1, 1), 0, 1, 1, True),
         ((2, 8, 9, 9), (4, 8, 3, 3), 0, 1, 2, True), ((2, 33, 6, 5), (17, 33, 2, 3), 1, 1, 1, True)]


@pytest.mark.parametrize("x_shape, w_shape, padding, stride, dilation, bias", CASES, ids=str)
def test_conv2d_forward_is_torchs(torch: Any, one_thread: None, x_shape: tuple[int, ...],
                                  w_shape: tuple[int, ...], padding: int, stride: int,
                                  dilation: int, bias: bool) -> None:
    rng = np.random.default_rng(sum(x_shape) + sum(w_shape))
    x, w = rng.standard_normal(x_shape).astype(F32), rng.standard_normal(w_shape).astype(F32)
    b = rng.standard_normal(w_shape[0]).astype(F32) if bias else None
    outs = [module.nn.functional.conv2d(
        module.from_numpy(x), module.from_numpy(w),
        None if b is None else module.from_numpy(b), stride=stride, padding=padding,
        dilation=dilation).numpy() for module in (torch, gtorch)]
    assert outs[0].shape == outs[1].shape
    assert (outs[0].view(np.uint32) == outs[1].view(np.uint32)).all()


def test_conv1d_forward_is_torchs(torch: Any) -> None:
    x = np.random.default_rng(0).standard_normal((2, 3, 10)).astype(F32)
    w = np.random.default_rng(1).standard_normal((4, 3, 3)).astype(F32)
    outs = [module.nn.functional.conv1d(module.from_numpy(x), module.from_numpy(w)).numpy()
            for module in (torch, gtorch)]
    assert (outs[0].view(np.uint32) == outs[1].view(np.uint32)).all()


def test_big_pointwise_conv1d_is_mkls(torch: Any, one_thread: None) -> None:
    """A 1x1 Conv1d on one sample (a Transformer's position-wise feed-forward) is slow_conv2d:
    one MKL sgemm per sample. Past the emulation's bound too, where MKL is loaded, its products
    are torch's: output and the three gradients (from a transposed input, as the FFN's)."""
    if not blas.available():
        pytest.skip("MKL is not loaded: products this big go through NumPy")
    rng = np.random.default_rng(11)
    arrays = [rng.standard_normal(s).astype(F32) for s in ((1, 5, 512), (2048, 512, 1), (2048,))]
    dy = rng.standard_normal((1, 2048, 5)).astype(F32)
    results = []
    for module in (torch, gtorch):
        x, w, b = (module.from_numpy(a.copy()).requires_grad_() for a in arrays)
        y = module.nn.functional.conv1d(x.transpose(1, 2), w, b)
        y.backward(module.from_numpy(dy))
        results.append([y.detach().numpy()] + [t.grad.numpy() for t in (x, w, b)])
    for theirs, ours in zip(*results, strict=True):
        assert theirs.shape == ours.shape
        assert (theirs.view(np.uint32) == ours.view(np.uint32)).all()


POINTWISE = [((4, 64, 32, 32), (128, 64, 1, 1), 2), ((2, 40, 8, 8), (8, 40, 1, 1), 2),
             ((16, 40, 4, 4), (8, 40, 1, 1), 1), ((2, 600, 4, 4), (8, 600, 1, 1), 2),
             ((2, 300, 6, 6), (20, 300, 1, 1), 3), ((16, 8, 4, 4), (600, 8, 1, 1), 1),
             ((16, 64, 16, 16), (32, 64, 1, 1), 1)]


@pytest.mark.parametrize("x_shape, w_shape, stride", POINTWISE, ids=str)
def test_pointwise_conv2d_is_onednns_1x1_kernel(torch: Any, one_thread: None,
                                                monkeypatch: pytest.MonkeyPatch,
                                                x_shape: tuple[int, ...],
                                                w_shape: tuple[int, ...], stride: int) -> None:
    """A 1x1 convolution without padding whose stride divides the input (a ResNet shortcut) runs
    oneDNN's 1x1 kernels: the forward in chains over 256 input channels from the bias, the
    weight gradient a chain per sample, the input gradient in chains over 256 output
    channels. (The time bound lifted: the NumPy emulation too, where the kernels are not
    built.)"""
    monkeypatch.setattr(sgemm, "EXACT_MAX_US", 1e9)
    _assert_gradients_are_torchs(torch, x_shape, w_shape, 0, stride)


GROUPED = [((4, 24, 8, 8), (24, 8, 3, 3), 1, 1, 3, False),
           ((4, 24, 8, 8), (24, 8, 3, 3), 2, 1, 3, True),
           ((4, 64, 8, 8), (64, 32, 3, 3), 1, 1, 2, True),
           ((4, 32, 8, 8), (32, 1, 3, 3), 1, 1, 32, True),
           ((4, 40, 8, 8), (40, 1, 3, 3), 2, 1, 40, True),
           ((2, 16, 7, 7), (16, 1, 5, 5), 1, 2, 16, True),
           ((2, 24, 8, 8), (24, 8, 1, 1), 1, 0, 3, True),
           ((16, 24, 4, 4), (24, 8, 1, 1), 1, 0, 3, True),
           ((2, 96, 4, 4), (48, 48, 1, 1), 1, 0, 2, True)]


@pytest.mark.parametrize("x_shape, w_shape, stride, padding, groups, bias", GROUPED, ids=str)
def test_grouped_conv2d_forward_is_onednns(torch: Any, one_thread: None,
                                          monkeypatch: pytest.MonkeyPatch,
                                          x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                                          stride: int, padding: int, groups: int,
                                          bias: bool) -> None:
    """Grouped convolutions (RegNet, ResNeXt) run each group as a convolution of its own (a
    1x1 group adds its bias after the chains); depthwise ones (MobileNet) oneDNN's depthwise
    kernel, each output a chain over the kernel positions from the bias. (The time bound
    lifted: the NumPy emulation too, where the kernels are not built.)"""
    monkeypatch.setattr(sgemm, "EXACT_MAX_US", 1e9)
    rng = np.random.default_rng(sum(x_shape) + groups)
    x, w = rng.standard_normal(x_shape).astype(F32), rng.standard_normal(w_shape).astype(F32)
    b = rng.standard_normal(w_shape[0]).astype(F32) if bias else None
    outs = [module.nn.functional.conv2d(
        module.from_numpy(x), module.from_numpy(w), None if b is None else module.from_numpy(b),
        stride=stride, padding=padding, groups=groups).numpy() for module in (torch, gtorch)]
    assert (outs[0].view(np.uint32) == outs[1].view(np.uint32)).all()


@pytest.mark.parametrize("x_shape, w_shape, groups",
                         [((4, 24, 8, 8), (24, 8, 3, 3), 3), ((4, 64, 8, 8), (64, 32, 3, 3), 2),
                          ((4, 48, 4, 4), (48, 8, 3, 3), 6)], ids=str)
def test_grouped_conv2d_gradients_are_onednns(torch: Any, one_thread: None,
                                              monkeypatch: pytest.MonkeyPatch,
                                              x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                                              groups: int) -> None:
    """A grouped convolution (stride 1, several channels a group): each group's input and
    weight gradients are oneDNN's backward kernels on its own channels, the bias gradient the
    whole output gradient's."""
    monkeypatch.setattr(sgemm, "EXACT_MAX_US", 1e9)
    rng = np.random.default_rng(sum(x_shape))
    arrays = [rng.standard_normal(s).astype(F32) for s in (x_shape, w_shape, w_shape[:1])]
    results = []
    for module in (torch, gtorch):
        x, w, b = (module.from_numpy(a.copy()).requires_grad_() for a in arrays)
        y = module.nn.functional.conv2d(x, w, b, padding=1, groups=groups)
        dy = np.random.default_rng(7).standard_normal(tuple(y.shape)).astype(F32)
        y.backward(module.from_numpy(dy))
        results.append([y.detach().numpy()] + [t.grad.numpy() for t in (x, w, b)])
    for theirs, ours in zip(*results, strict=True):
        assert (theirs.view(np.uint32) == ours.view(np.uint32)).all()


DEPTHWISE = [((4, 32, 6, 6), 3, 1, 1), ((4, 32, 2, 2), 3, 1, 1), ((4, 32, 8, 8), 3, 2, 1),
             ((4, 20, 7, 7), 5, 1, 2), ((2, 16, 6, 6), 3, 1, 0)]


@pytest.mark.parametrize("x_shape, kernel, stride, padding", DEPTHWISE, ids=str)
def test_depthwise_conv2d_input_gradient_is_onednns(torch: Any, one_thread: None,
                                                    x_shape: tuple[int, ...], kernel: int,
                                                    stride: int, padding: int) -> None:
    """A depthwise convolution's (MobileNet's) input gradient: oneDNN's depthwise kernel, each
    input element a chain from 0 over the kernel positions row by row."""
    rng = np.random.default_rng(sum(x_shape))
    c = x_shape[1]
    x = rng.standard_normal(x_shape).astype(F32)
    w = rng.standard_normal((c, 1, kernel, kernel)).astype(F32)
    grads = []
    for module in (torch, gtorch):
        tx = module.from_numpy(x.copy()).requires_grad_()
        y = module.nn.functional.conv2d(tx, module.from_numpy(w), stride=stride,
                                        padding=padding, groups=c)
        dy = np.random.default_rng(7).standard_normal(tuple(y.shape)).astype(F32)
        y.backward(module.from_numpy(dy))
        grads.append(tx.grad.numpy())
    assert (grads[0].view(np.uint32) == grads[1].view(np.uint32)).all()


BACKWARD = [((2, 3, 8, 8), (4, 3, 3, 3), 1, 1), ((2, 20, 7, 7), (6, 20, 3, 3), 1, 2),
            ((3, 16, 6, 6), (20, 16, 2, 2), 0, 1), ((2, 5, 9, 9), (3, 5, 3, 3), 2, 3),
            ((4, 1, 12, 12), (6, 1, 5, 5), 0, 1), ((2, 40, 5, 5), (17, 40, 3, 3), 1, 1),
            # strided: all output channels in one chain, per kernel column when the stride
            # divides the width
            ((2, 3, 12, 12), (20, 3, 3, 3), 1, 2), ((2, 20, 9, 9), (17, 20, 5, 5), 2, 2),
            # slow_conv2d (one small sample, or 1x1 kernels): MKL's products, col2im, at::sum
            ((1, 3, 12, 12), (8, 3, 3, 3), 1, 2), ((1, 16, 10, 10), (32, 16, 3, 3), 1, 1),
            ((4, 8, 6, 6), (5, 8, 1, 1), 0, 1), ((1, 4, 9, 9), (3, 4, 2, 2), 0, 1)]


@pytest.mark.parametrize("x_shape, w_shape, padding, stride", BACKWARD, ids=str)
def test_conv2d_backward_is_torchs(torch: Any, one_thread: None, x_shape: tuple[int, ...],
                                   w_shape: tuple[int, ...], padding: int, stride: int) -> None:
    """oneDNN's backward data (output channels in blocks of 16, each a chain over kernel rows,
    columns and channels, blocks added), weights (one chain over samples, rows, columns) and
    bias (a float sum in the same order)."""
    _assert_gradients_are_torchs(torch, x_shape, w_shape, padding, stride)


def _assert_gradients_are_torchs(torch: Any, x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                                 padding: int, stride: int, dilation: int = 1,
                                 transposed: int | None = None) -> None:
    """conv2d's output and its three gradients (conv_transpose2d's with `transposed`, its
    output padding), gradsh's bits against torch's (one thread)."""
    rng = np.random.default_rng(sum(x_shape))
    channels = w_shape[:1] if transposed is None else w_shape[1:2]
    arrays = [rng.standard_normal(s).astype(F32) for s in (x_shape, w_shape, channels)]
    results = []
    for module in (torch, gtorch):
        x, w, b = (module.from_numpy(a.copy()).requires_grad_() for a in arrays)
        functional = module.nn.functional
        if transposed is None:
            y = functional.conv2d(x, w, b, stride=stride, padding=padding,
                                  dilation=dilation)
        else:
            y = functional.conv_transpose2d(x, w, b, stride=stride, padding=padding,
                                            output_padding=transposed)
        dy = np.random.default_rng(7).standard_normal(tuple(y.shape)).astype(F32)
        y.backward(module.from_numpy(dy))
        results.append([y.detach().numpy()] + [t.grad.numpy() for t in (x, w, b)])
    for theirs, ours in zip(*results, strict=True):
        assert theirs.shape == ours.shape
        assert (theirs.view(np.uint32) == ours.view(np.uint32)).all()


DILATED = [((2, 3, 12, 12), (4, 3, 3, 3), 2, 2), ((4, 20, 8, 8), (24, 20, 3, 3), 2, 2),
           ((3, 33, 9, 11), (5, 33, 2, 3), 1, 3), ((2, 40, 10, 10), (20, 40, 3, 3), 0, 2)]


@pytest.mark.parametrize("x_shape, w_shape, padding, dilation", DILATED, ids=str)
def test_dilated_conv2d_backward_is_torchs(torch: Any, one_thread: None, x_shape: tuple[int, ...],
                                           w_shape: tuple[int, ...], padding: int,
                                           dilation: int) -> None:
    """A dilated convolution's gradients (stride 1): the same oneDNN chains, the kernel
    positions spread out."""
    _assert_gradients_are_torchs(torch, x_shape, w_shape, padding, 1, dilation)


# oneDNN's layers (more than one sample, or strided): (x, w, padding, stride)
ONEDNN = [((4, 1, 12, 12), (8, 1, 3, 3), 0, 1), ((2, 3, 11, 11), (6, 3, 5, 5), 2, 1),
          ((2, 32, 7, 7), (18, 32, 3, 3), 1, 1), ((2, 3, 12, 12), (20, 3, 3, 3), 1, 2),
          ((2, 20, 9, 9), (17, 20, 5, 5), 2, 2), ((3, 17, 6, 7), (5, 17, 2, 3), 0, 1)]


@pytest.mark.parametrize("path", ["compiled", "emulated"])
@pytest.mark.parametrize("x_shape, w_shape, padding, stride", ONEDNN, ids=str)
def test_onednn_kernels_both_paths_are_torchs(torch: Any, one_thread: None,
                                              request: pytest.FixtureRequest,
                                              monkeypatch: pytest.MonkeyPatch, path: str,
                                              x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                                              padding: int, stride: int) -> None:
    """vecmath/conv.py's four oneDNN kernels, once through the compiled chains and once through
    the NumPy emulation (its time bound lifted): torch's bits both times."""
    if path == "compiled":
        request.getfixturevalue("kernels")  # skipped (or failed in CI) where not built
    monkeypatch.setattr(conv, "_compiled", lambda *_: path == "compiled")
    monkeypatch.setattr(sgemm, "EXACT_MAX_US", 1e9)
    rng = np.random.default_rng(sum(w_shape))
    x, w = rng.standard_normal(x_shape).astype(F32), rng.standard_normal(w_shape).astype(F32)
    b = rng.standard_normal(w_shape[0]).astype(F32)
    tx, tw, tb = (torch.from_numpy(a.copy()).requires_grad_() for a in (x, w, b))
    y = torch.nn.functional.conv2d(tx, tw, tb, stride=stride, padding=padding)
    gy = rng.standard_normal(tuple(y.shape)).astype(F32)
    y.backward(torch.from_numpy(gy))
    pad, step, one = (padding, padding), (stride, stride), (1, 1)
    ours = [conv.onednn_forward(x, w, b, pad, step, one),
            conv.onednn_backward_data(gy, w, x_shape, pad, step, one),
            conv.onednn_backward_weights(x, gy, w_shape, pad, step, one),
            conv.onednn_backward_bias(gy)]
    for theirs, mine in zip([y.detach(), tx.grad, tw.grad, tb.grad], ours, strict=True):
        assert mine is not None
        assert (theirs.numpy().view(np.uint32) == mine.view(np.uint32)).all()


# CNN layers at training sizes: MNIST's two (pytorch/examples), CIFAR-like and LeNet's
CNN = [((64, 1, 28, 28), (32, 1, 3, 3), 0, 1), ((64, 32, 26, 26), (64, 32, 3, 3), 0, 1),
       ((16, 3, 32, 32), (16, 3, 5, 5), 2, 1), ((16, 16, 14, 14), (32, 16, 5, 5), 0, 2),
       ((16, 64, 8, 8), (64, 64, 3, 3), 1, 1), ((16, 6, 14, 14), (16, 6, 5, 5), 0, 1),
       ((16, 32, 15, 15), (64, 32, 3, 3), 1, 2)]


@pytest.mark.parametrize("x_shape, w_shape, padding, stride", CNN, ids=str)
def test_cnn_layers_are_torchs(torch: Any, one_thread: None, kernels: Any, x_shape: tuple[int, ...],
                               w_shape: tuple[int, ...], padding: int, stride: int) -> None:
    """Over the NumPy emulation's time bound, the compiled path still gives torch's bits."""
    _assert_gradients_are_torchs(torch, x_shape, w_shape, padding, stride)


# oneDNN's deconvolution: (x, w (C_in, C_out, kh, kw), padding, stride, output_padding)
TRANSPOSED = [((2, 8, 7, 7), (8, 4, 3, 3), 1, 2, 0), ((2, 8, 7, 7), (8, 4, 3, 3), 1, 2, 1),
              ((4, 20, 6, 6), (20, 6, 3, 3), 0, 1, 0), ((4, 32, 5, 5), (32, 16, 4, 4), 1, 2, 0),
              ((16, 16, 7, 7), (16, 3, 4, 4), 1, 2, 0), ((16, 16, 7, 7), (16, 1, 4, 4), 1, 2, 0)]


@pytest.mark.parametrize("x_shape, w_shape, padding, stride, extra", TRANSPOSED, ids=str)
def test_conv_transpose2d_is_torchs(torch: Any, one_thread: None, x_shape: tuple[int, ...],
                                    w_shape: tuple[int, ...], padding: int, stride: int,
                                    extra: int) -> None:
    """conv_transpose2d through oneDNN's kernels: the output by the backward-data chains (bias
    after), the input gradient by the forward's, the weight gradient by the weight kernel with
    input and output swapped, the bias gradient per sample under 4 output channels."""
    _assert_gradients_are_torchs(torch, x_shape, w_shape, padding, stride, transposed=extra)


@pytest.mark.parametrize("shape", [(1, 64, 32, 5), (2, 64, 32, 5), (3, 16, 8, 7)])
def test_slow_conv_input_gradient_from_a_transposed_gradient(torch: Any, one_thread: None,
                                                             shape: tuple[int, ...]) -> None:
    """A position-wise Conv1d(kernel_size=1) between transposes (a Transformer's feed-forward
    net): the output gradient arrives transposed, and slow_conv2d's backward makes it
    contiguous before MKL's sgemm. (Given the transposed layout instead, MKL on an AMD EPYC
    returned other bits for 11 of 320 input-gradient elements; Intel's did not differ.)"""
    n, c, o, length = shape
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal((n, length, c)).astype(np.float32)
    w = rng.standard_normal((o, c, 1)).astype(np.float32)
    gy = rng.standard_normal((n, length, o)).astype(np.float32)
    grads = []
    for lib in (torch, gtorch):
        xt, wt = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
        lib.nn.functional.conv1d(xt.transpose(1, 2), wt).transpose(1, 2).backward(lib.tensor(gy))
        grads.append((xt.grad.numpy(), wt.grad.numpy()))
    for ours, theirs in zip(grads[1], grads[0], strict=True):
        assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("per_group", [(4, 4), (4, 8), (8, 4), (4, 12), (12, 12), (16, 4),
                                       (24, 8), (16, 8), (8, 16)], ids=str)
def test_grouped_conv_channel_block(torch: Any, thread_count: int,
                                    per_group: tuple[int, int]) -> None:
    """A grouped convolution runs each group as a convolution of its own with its channels in
    blocks of the largest of 16, 8, 4 dividing a group's input and output channels: the
    forward and (strides of 1) the input gradient bit for bit."""
    c, o = per_group
    rng = np.random.default_rng(c * 31 + o)
    x = rng.standard_normal((2, 2 * c, 10, 10)).astype(np.float32)
    w = rng.standard_normal((2 * o, c, 3, 3)).astype(np.float32)
    results = []
    for lib in (torch, gtorch):
        leaf = lib.from_numpy(x.copy()).requires_grad_()
        out = lib.nn.functional.conv2d(leaf, lib.from_numpy(w.copy()), padding=1, groups=2)
        out.backward(lib.from_numpy(np.cos(np.arange(out.numel())).reshape(tuple(out.shape))
                                    .astype(np.float32)))
        results.append((out.detach().numpy(), leaf.grad.numpy()))
    for theirs, ours in zip(*results):
        assert (ours == theirs).all()


@pytest.mark.skipif(not blas.available(), reason="float64 convolution is MKL's dgemm; MKL is not "
                    "loaded here")
@pytest.mark.parametrize("x_shape, w_shape, padding, stride", [
    ((4, 3, 8, 8), (16, 3, 3, 3), 1, 1), ((1, 3, 32, 32), (16, 3, 3, 3), 1, 1),
    ((8, 16, 12, 12), (32, 16, 3, 3), 0, 2), ((2, 1, 28, 28), (6, 1, 5, 5), 2, 1)])
def test_float64_conv2d_forward_is_slow_conv2ds(torch: Any, thread_count: int,
                                                 x_shape: tuple[int, ...],
                                                 w_shape: tuple[int, ...], padding: int,
                                                 stride: int) -> None:
    """oneDNN has no float64: PyTorch runs slow_conv2d (im2col, MKL's dgemm per sample)."""
    rng = np.random.default_rng(len(x_shape) + x_shape[1])
    x, w, b = (rng.standard_normal(s) for s in (x_shape, w_shape, w_shape[:1]))
    got, want = (lib.nn.functional.conv2d(lib.tensor(x), lib.tensor(w), lib.tensor(b),
                                          padding=padding, stride=stride).numpy()
                 for lib in (gtorch, torch))
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))


@pytest.mark.parametrize("x_shape, w_shape, padding, stride", BACKWARD[:3] + [
    ((16, 1, 16, 16), (32, 1, 4, 4), 1, 2), ((16, 32, 8, 8), (64, 32, 4, 4), 1, 2)], ids=str)
def test_create_graph_gradients_are_the_kernels(torch: Any, one_thread: None,
                                                x_shape: tuple[int, ...],
                                                w_shape: tuple[int, ...], padding: int,
                                                stride: int) -> None:
    """With create_graph=True the input and weight gradients are differentiable nodes, and
    their values are still the backward kernels' (PyTorch's convolution_backward gives the same
    bits either way): a gradient penalty reads them (labml's WGAN-GP)."""
    rng = np.random.default_rng(sum(x_shape) + 1)
    arrays = [rng.standard_normal(s).astype(F32) for s in (x_shape, w_shape)]
    results = []
    for module in (torch, gtorch):
        x, w = (module.from_numpy(a.copy()).requires_grad_() for a in arrays)
        y = module.nn.functional.conv2d(x, w, stride=stride, padding=padding)
        dy = module.from_numpy(np.random.default_rng(7).standard_normal(tuple(y.shape))
                               .astype(F32))
        gx, gw = module.autograd.grad(y, (x, w), dy, create_graph=True)
        assert gx.requires_grad and gw.requires_grad
        results.append([gx.detach().numpy(), gw.detach().numpy()])
    for theirs, ours in zip(*results, strict=True):
        assert (theirs.view(np.uint32) == ours.view(np.uint32)).all()
