"""Every nn layer against PyTorch from the same seed: initial parameters bit for bit, repr,
outputs, grad_fn graphs (three levels deep), and the gradients of inputs and parameters."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.nn_parity import run_layer

r = np.random.default_rng(0)


def rn(*s: int, dt: Any = np.float32) -> np.ndarray:
    return r.standard_normal(s).astype(dt)


IDS = np.array([[1, 2, 1], [9, 0, 2]])
EVAL = {"train": False}

CASES: dict[str, tuple[Any, ...]] = {
    "linear": (lambda t: t.nn.Linear(3, 4), [rn(5, 3)]),
    "linear3d": (lambda t: t.nn.Linear(3, 4), [rn(2, 5, 3)]),
    "linear1d": (lambda t: t.nn.Linear(3, 4), [rn(3)]),
    "linear_nobias": (lambda t: t.nn.Linear(3, 4, bias=False), [rn(5, 3)]),
    "identity": (lambda t: t.nn.Identity(3, foo=1), [rn(5, 3)]),
    "bilinear": (lambda t: t.nn.Bilinear(3, 2, 4), [rn(5, 3), rn(5, 2)]),
    "conv2d": (lambda t: t.nn.Conv2d(3, 4, 3), [rn(2, 3, 7, 7)]),
    "conv2d_s2p1": (lambda t: t.nn.Conv2d(3, 4, 3, stride=2, padding=1), [rn(2, 3, 7, 6)]),
    "conv2d_dil": (lambda t: t.nn.Conv2d(3, 4, (3, 2), dilation=2, bias=False),
                   [rn(2, 3, 9, 8)]),
    "conv2d_groups": (lambda t: t.nn.Conv2d(4, 6, 3, groups=2), [rn(2, 4, 5, 5)]),
    "conv2d_same": (lambda t: t.nn.Conv2d(3, 4, 4, padding="same"), [rn(2, 3, 6, 6)]),
    "conv2d_unbatched": (lambda t: t.nn.Conv2d(3, 4, 3), [rn(3, 5, 5)]),
    "conv1d": (lambda t: t.nn.Conv1d(3, 4, 3, stride=2, padding=1), [rn(2, 3, 9)]),
    "conv1d_unbatched": (lambda t: t.nn.Conv1d(3, 4, 3), [rn(3, 9)]),
    "conv_transpose2d": (lambda t: t.nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1,
                                                        output_padding=1), [rn(2, 3, 4, 5)]),
    "conv_transpose2d_groups": (lambda t: t.nn.ConvTranspose2d(4, 6, (3, 2), groups=2,
                                                               dilation=2, bias=False),
                                [rn(2, 4, 3, 3)]),
    "conv_transpose1d": (lambda t: t.nn.ConvTranspose1d(3, 2, 4, stride=2), [rn(2, 3, 5)]),
    "conv_transpose2d_unbatched": (lambda t: t.nn.ConvTranspose2d(2, 3, 2), [rn(2, 3, 3)]),
    "maxpool2d": (lambda t: t.nn.MaxPool2d(2), [rn(2, 3, 6, 6)]),
    "maxpool2d_3s2p1": (lambda t: t.nn.MaxPool2d(3, 2, 1), [rn(2, 3, 7, 7)]),
    "maxpool2d_ceil": (lambda t: t.nn.MaxPool2d(2, ceil_mode=True), [rn(2, 3, 5, 5)]),
    "maxpool2d_dilation": (lambda t: t.nn.MaxPool2d(2, dilation=2), [rn(1, 2, 6, 6)]),
    "maxpool1d": (lambda t: t.nn.MaxPool1d(3, 2), [rn(2, 3, 9)]),
    "avgpool2d": (lambda t: t.nn.AvgPool2d(2), [rn(2, 3, 6, 6)]),
    "avgpool2d_pad": (lambda t: t.nn.AvgPool2d(3, 2, 1), [rn(2, 3, 7, 7)]),
    "avgpool2d_pad_nocount": (lambda t: t.nn.AvgPool2d(3, 2, 1, count_include_pad=False),
                              [rn(2, 3, 7, 7)]),
    "avgpool2d_ceil": (lambda t: t.nn.AvgPool2d(3, 2, 1, ceil_mode=True), [rn(2, 3, 6, 6)]),
    "avgpool1d": (lambda t: t.nn.AvgPool1d(2), [rn(2, 3, 8)]),
    "adaptive2d": (lambda t: t.nn.AdaptiveAvgPool2d((3, 2)), [rn(2, 3, 7, 5)]),
    "adaptive2d_1": (lambda t: t.nn.AdaptiveAvgPool2d(1), [rn(2, 3, 7, 5)]),
    "adaptive1d": (lambda t: t.nn.AdaptiveAvgPool1d(3), [rn(2, 3, 7)]),
    "bn2d": (lambda t: t.nn.BatchNorm2d(3), [rn(4, 3, 5, 5)]),
    "bn2d_eval": (lambda t: t.nn.BatchNorm2d(3), [rn(4, 3, 5, 5)], EVAL),
    "bn1d": (lambda t: t.nn.BatchNorm1d(3), [rn(4, 3)]),
    "bn1d_3d_cumulative": (lambda t: t.nn.BatchNorm1d(3, momentum=None), [rn(4, 3, 6)]),
    "bn_noaffine": (lambda t: t.nn.BatchNorm2d(3, affine=False), [rn(4, 3, 2, 2)]),
    "bn_nostats_eval": (lambda t: t.nn.BatchNorm2d(3, track_running_stats=False),
                        [rn(4, 3, 2, 2)], EVAL),
    "layernorm": (lambda t: t.nn.LayerNorm(5), [rn(4, 3, 5)]),
    "layernorm_2d_noaffine": (lambda t: t.nn.LayerNorm((3, 5), elementwise_affine=False),
                              [rn(4, 3, 5)]),
    "groupnorm": (lambda t: t.nn.GroupNorm(2, 4), [rn(3, 4, 5)]),
    "embedding": (lambda t: t.nn.Embedding(10, 3), [IDS]),
    "embedding_padding": (lambda t: t.nn.Embedding(10, 3, padding_idx=1), [IDS]),
    "embedding_max_norm": (lambda t: t.nn.Embedding(10, 3, max_norm=1.0), [IDS]),
    "embedding_freq": (lambda t: t.nn.Embedding(10, 3, scale_grad_by_freq=True), [IDS]),
    "dropout": (lambda t: t.nn.Dropout(0.3), [rn(4, 5)]),
    "dropout_eval": (lambda t: t.nn.Dropout(0.3), [rn(4, 5)], EVAL),
    "dropout2d": (lambda t: t.nn.Dropout2d(0.5), [rn(4, 5, 2, 2)]),
    "dropout1d": (lambda t: t.nn.Dropout1d(0.5), [rn(4, 5, 3)]),
    "alphadropout": (lambda t: t.nn.AlphaDropout(0.5), [rn(4, 5)]),
    "flatten": (lambda t: t.nn.Flatten(), [rn(2, 3, 4)]),
    "unflatten": (lambda t: t.nn.Unflatten(1, (2, 2)), [rn(3, 4)]),
    "rnn": (lambda t: t.nn.RNN(4, 5), [rn(3, 2, 4)]),
    "rnn_relu_2layers": (lambda t: t.nn.RNN(4, 5, 2, nonlinearity="relu"), [rn(3, 2, 4)]),
    "rnn_batch_first": (lambda t: t.nn.RNN(4, 5, batch_first=True), [rn(2, 3, 4)]),
    "rnn_unbatched": (lambda t: t.nn.RNN(4, 5), [rn(3, 4)]),
    "rnn_bidirectional": (lambda t: t.nn.RNN(4, 5, num_layers=2, bidirectional=True),
                          [rn(3, 2, 4)]),
    "gru": (lambda t: t.nn.GRU(4, 5, num_layers=2), [rn(3, 2, 4)]),
    "gru_hidden": (lambda t: t.nn.GRU(4, 5), [rn(3, 2, 4), rn(1, 2, 5)]),
    "lstm64": (lambda t: t.nn.LSTM(4, 5).double(), [rn(3, 2, 4, dt=np.float64)]),
    "lstm64_nobias": (lambda t: t.nn.LSTM(4, 5, bias=False).double(),
                      [rn(3, 2, 4, dt=np.float64)]),
    "lstm64_dropout": (lambda t: t.nn.LSTM(4, 5, num_layers=2, dropout=0.5).double(),
                       [rn(3, 2, 4, dt=np.float64)]),
    "lstm64_batch_first": (lambda t: t.nn.LSTM(4, 5, batch_first=True).double(),
                           [rn(2, 3, 4, dt=np.float64)]),
    # float32: PyTorch's oneDNN path (one MkldnnRnnLayerBackward0 per layer and direction)
    "lstm": (lambda t: t.nn.LSTM(4, 5), [rn(3, 2, 4)]),
    "lstm_nobias": (lambda t: t.nn.LSTM(4, 5, bias=False), [rn(3, 2, 4)]),
    "lstm_deep_bidirectional": (lambda t: t.nn.LSTM(4, 5, num_layers=2, bidirectional=True,
                                                    dropout=0.5), [rn(6, 3, 4)]),
    "lstm_batch_first": (lambda t: t.nn.LSTM(4, 5, batch_first=True), [rn(2, 3, 4)]),
    "lstm_unbatched": (lambda t: t.nn.LSTM(4, 5, num_layers=2), [rn(3, 4)]),
    "gru_batch_first": (lambda t: t.nn.GRU(4, 5, batch_first=True), [rn(2, 3, 4)]),
    "rnncell": (lambda t: t.nn.RNNCell(4, 5), [rn(2, 4), rn(2, 5)]),
    "lstmcell": (lambda t: t.nn.LSTMCell(4, 5), [rn(2, 4)]),
    "grucell": (lambda t: t.nn.GRUCell(4, 5), [rn(2, 4), rn(2, 5)]),
    "prelu": (lambda t: t.nn.PReLU(3), [rn(2, 3, 4)]),
    "glu": (lambda t: t.nn.GLU(), [rn(3, 4)]),
    "threshold": (lambda t: t.nn.Threshold(0.1, 20.0), [rn(3, 4)]),
    "softmax2d": (lambda t: t.nn.Softmax2d(), [rn(2, 3, 2, 2)]),
}
_ACTIVATIONS = ("ReLU LeakyReLU ELU GELU SiLU Mish Sigmoid Tanh Softplus Hardtanh ReLU6 SELU CELU "
                "Hardswish Hardsigmoid Softsign Tanhshrink LogSigmoid Hardshrink Softshrink")
for _act in _ACTIVATIONS.split():
    CASES[_act] = (lambda t, a=_act: getattr(t.nn, a)(), [rn(3, 4) * 3])
for _act in ("Softmax", "LogSoftmax", "Softmin"):
    CASES[_act] = (lambda t, a=_act: getattr(t.nn, a)(dim=1), [rn(3, 4)])


@pytest.mark.parametrize("name", list(CASES))
def test_layer_matches_torch(torch: Any, name: str) -> None:
    build, inputs, *options = CASES[name]
    run_layer(torch, build, inputs, depth=3, rtol=1e-4, atol=1e-5,
              **(options[0] if options else {}))


@pytest.mark.parametrize("reverse", [False, True])
def test_the_onednn_lstm_layer_backward_is_the_derivative(reverse: bool) -> None:
    """MkldnnRnnLayerBackward0's backpropagation through time against float64 finite
    differences, for every input (sequence, weights, biases, initial states) and output."""
    import gradsh.torch as gtorch
    from gradsh.engine.functions.rnn import MkldnnRnnLayerBackward0

    g = np.random.default_rng(3)

    def t(*shape: int) -> Any:
        return gtorch.from_numpy(g.standard_normal(shape)).requires_grad_()

    inputs = (t(4, 2, 3), t(8, 3), t(8, 2), t(8), t(8), t(2, 2), t(2, 2))

    def layer(*args: Any) -> Any:
        return MkldnnRnnLayerBackward0.apply_all(*args, reverse=reverse)

    assert gtorch.autograd.gradcheck(layer, inputs, eps=1e-6, atol=1e-5)


def test_hooks_and_retain_grad_on_the_outputs_of_a_several_output_node(torch: Any) -> None:
    """An LSTM's output and h_n come from one MkldnnRnnLayerBackward0 (svd's U, S, Vh from one
    node): each output keeps its own hooks and retained gradient, as in PyTorch."""
    import gradsh.torch as gtorch

    results = []
    for m in (torch, gtorch):
        m.manual_seed(0)
        lstm = m.nn.LSTM(3, 4)
        out, (h, c) = lstm(m.randn(5, 2, 3))
        out.retain_grad()
        h.retain_grad()
        seen: list[Any] = []
        out.register_hook(lambda g: seen.append(tuple(g.shape)))
        c.register_hook(lambda g: g * 0)  # c_n's gradient replaced: the weights see none of it
        (out.sum() * 2 + h.sum() + c.sum()).backward()
        u, s, _ = m.linalg.svd(m.randn(3, 3, dtype=m.float64, requires_grad=True))
        s.retain_grad()
        u.register_hook(lambda g: g * 0)
        (u.sum() + s.sum()).backward()
        results.append((out.retains_grad, out.grad.numpy(), h.grad.numpy(), seen,
                        lstm.weight_hh_l0.grad.numpy(), s.grad.numpy()))
    expected, got = results
    assert got[0] is expected[0] is True and got[3] == expected[3]
    for e, g in zip(expected[1:3] + expected[4:], got[1:3] + got[4:], strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)
def test_pad_sequence_and_unpad_sequence_match_torch(torch: Any) -> None:
    """nn.utils.rnn.pad_sequence (time- or batch-first, left or right, CopySlices history,
    gradients back to each sequence) and unpad_sequence, against PyTorch; and its errors."""
    import gradsh.torch as gt
    arrays = [np.arange(6.0, dtype=np.float32).reshape(2, 3), np.ones((3, 3), np.float32),
              np.full((1, 3), 7.0, np.float32)]
    outcomes = []
    for lib in (torch, gt):
        seqs = [lib.tensor(a, requires_grad=True) for a in arrays]
        rnn = lib.nn.utils.rnn
        padded = rnn.pad_sequence(seqs)
        left = rnn.pad_sequence(seqs, batch_first=True, padding_value=-1.0, padding_side="left")
        (padded.sum() * 2 + (left * left).sum()).backward()
        lengths = lib.tensor([2, 3, 1])
        back = rnn.unpad_sequence(rnn.pad_sequence(seqs).detach(), lengths)
        ints = rnn.pad_sequence([lib.tensor([1, 2]), lib.tensor([3])], batch_first=True)
        errors = []
        for bad in ([], [seqs[0], lib.ones(2, 4)], ):
            try:
                rnn.pad_sequence(bad)
            except RuntimeError as error:
                errors.append(str(error))
        try:
            rnn.pad_sequence(seqs, padding_side="middle")
        except RuntimeError as error:
            errors.append(str(error))
        outcomes.append((padded.tolist(), type(padded.grad_fn).__name__, left.tolist(),
                         [s.grad.tolist() for s in seqs], [b.tolist() for b in back],
                         ints.tolist(), str(ints.dtype), errors))
    assert outcomes[1] == outcomes[0]
@pytest.mark.parametrize("kwargs", [{}, {"num_layers": 2}, {"bidirectional": True},
                                    {"batch_first": True, "bias": False},
                                    {"num_layers": 2, "bidirectional": True}])
def test_float32_lstm_is_one_onednn_node_per_layer(torch: Any, kwargs: dict) -> None:
    """A float32 LSTM records PyTorch's MkldnnRnnLayerBackward0 per layer and direction (edges
    to input, weights, biases, hx, cx); its gradients equal the composed graph's (the float64
    path, and oneDNN switched off) and PyTorch's."""
    import gradsh.torch as gt
    from gradsh.engine.ops import rnn as rnn_ops
    rng = np.random.default_rng(4)
    x = rng.standard_normal((5, 2, 3)).astype(np.float32)
    if kwargs.get("batch_first"):
        x = x.transpose(1, 0, 2).copy()
    runs = []
    for lib, mkldnn in ((torch, True), (gt, True), (gt, False)):
        lib.manual_seed(0)
        model = lib.nn.LSTM(3, 4, **kwargs)
        rnn_ops.MKLDNN.enabled = mkldnn
        try:
            inp = lib.tensor(x, requires_grad=True)
            out, (h, c) = model(inp)
            (out.sum() + (h * h).sum() + c.sum() * 3).backward()
        finally:
            rnn_ops.MKLDNN.enabled = True
        node = out.grad_fn
        names = [type(node).__name__] + [type(f).__name__ if f is not None else None
                                         for f, _ in node.next_functions]
        grads = [p.grad.numpy() for p in model.parameters()] + [inp.grad.numpy()]
        runs.append((names, grads, out.detach().numpy()))
    (their_names, theirs, their_out), (names, ours, out), (_, composed, _) = runs
    assert names == their_names
    np.testing.assert_allclose(out, their_out, rtol=1e-5, atol=1e-6)
    for a, b, c in zip(theirs, ours, composed, strict=True):
        np.testing.assert_allclose(b, c, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5)


def _empty_batch_norm(lib: Any) -> list[str]:
    seen = []
    for affine in (True, False):
        bn = lib.nn.BatchNorm1d(3, affine=affine)
        x = lib.zeros(0, 3, requires_grad=True)
        y = bn(x)
        y.sum().backward()
        seen += [repr(y), repr(x.grad), repr(bn.running_mean), repr(bn.num_batches_tracked),
                 repr(None if not affine else (bn.weight.grad, bn.bias.grad))]
        bn.eval()
        seen.append(repr(bn(lib.zeros(0, 3))))
    bn2 = lib.nn.BatchNorm2d(2)
    seen += [repr(bn2(lib.zeros(3, 2, 0, 4)).shape), repr(bn2.running_var)]
    layers = [lib.nn.InstanceNorm1d(3), lib.nn.Conv2d(3, 2, 3, padding=1), lib.nn.MaxPool2d(2),
              lib.nn.MaxPool1d(2), lib.nn.AvgPool2d(2), lib.nn.LPPool2d(2, 2),
              lib.nn.AdaptiveMaxPool2d(2), lib.nn.LayerNorm(4), lib.nn.GroupNorm(1, 3)]
    shapes = [(0, 3, 10), (0, 3, 4, 4), (0, 3, 4, 4), (0, 3, 4), (0, 3, 4, 4), (0, 3, 4, 4),
              (0, 3, 4, 4), (0, 4), (0, 3, 4, 4)]
    for layer, shape in zip(layers, shapes, strict=True):
        x = lib.zeros(shape, requires_grad=True)
        out = layer(x)
        out.sum().backward()
        seen.append(repr((out.shape, type(out.grad_fn).__name__, x.grad.shape,
                          [p.grad for p in layer.parameters()])))
    for call in (lambda: lib.nn.MaxPool2d(2)(lib.zeros(3, 0, 4, 4)),
                 lambda: lib.nn.AvgPool2d(2)(lib.zeros(0, 4, 4)),
                 lambda: lib.nn.MaxPool2d(2)(lib.zeros(0, 3, 4, 4, 4)),
                 lambda: lib.nn.AdaptiveMaxPool2d(2)(lib.zeros(3, 0, 4, 4))):
        try:
            call()
        except RuntimeError as error:
            seen.append(str(error))
    return seen


def test_layers_on_an_empty_batch(torch: Any) -> None:
    """Zero-size batches (pytorch#12013): batch norm's empty-input path (clone * weight[0] +
    bias[0], running statistics untouched; was a ZeroDivisionError), instance norm, the
    convolution's, max pooling's, adaptive max pooling's and layer norm's backward (zero
    gradients; were reshape / range errors), pooling's shape check (only a 4-D batch may be
    empty, PyTorch's words)."""
    from gradsh import torch as gtorch

    assert _empty_batch_norm(gtorch) == _empty_batch_norm(torch)
