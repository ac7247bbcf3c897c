"""Functions added for the corpus programs, against PyTorch: bincount, searchsorted,
bucketize, histc, tril/triu_indices, F.gumbel_softmax, nn.utils.get_total_norm, the RNG state
bytes and fork_rng, torch.utils.checkpoint, and torch.load's weights_only refusal."""

from __future__ import annotations

import io

import numpy as np
import pytest

import gradsh.torch as gt


def _same(ours, theirs) -> None:
    assert str(ours.dtype) == str(theirs.dtype)
    assert list(ours.shape) == list(theirs.shape)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def _raises_same(torch, call) -> None:
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(Exception) as ours:
        call(gt)
    assert type(ours.value).__name__.replace("Torch", "") in (
        type(theirs.value).__name__, f"Torch{type(theirs.value).__name__}")
    assert str(ours.value) == str(theirs.value)


BINCOUNT = {
    "plain": lambda lib: lib.bincount(lib.tensor([0, 1, 1, 3, 7])),
    "minlength": lambda lib: lib.bincount(lib.tensor([2, 2]), minlength=6),
    "float_weights": lambda lib: lib.bincount(lib.tensor([0, 1, 1]),
                                              weights=lib.tensor([0.5, 0.25, 2.0])),
    "int_weights": lambda lib: lib.bincount(lib.tensor([0, 1, 1]), lib.tensor([1, 2, 3])),
    "empty_weighted": lambda lib: lib.bincount(lib.tensor([], dtype=lib.long),
                                               weights=lib.tensor([]), minlength=2),
    "method": lambda lib: lib.tensor([4, 0, 4], dtype=lib.int32).bincount(),
}


@pytest.mark.parametrize("name", list(BINCOUNT))
def test_bincount_matches_torch(torch, name: str) -> None:
    _same(BINCOUNT[name](gt), BINCOUNT[name](torch))


@pytest.mark.parametrize("call", [
    lambda lib: lib.bincount(lib.tensor([-1, 2])),
    lambda lib: lib.bincount(lib.tensor([[1, 2]])),
    lambda lib: lib.bincount(lib.tensor([1.0, 2.0])),
    lambda lib: lib.bincount(lib.tensor([1, 2]), weights=lib.ones(3)),
    lambda lib: lib.bincount(lib.tensor([1, 2]), minlength=-1),
])
def test_bincount_errors_match_torch(torch, call) -> None:
    _raises_same(torch, call)


SEARCH = {
    "sorted_1d": lambda lib: lib.searchsorted(lib.tensor([1, 3, 5, 7, 9]),
                                              lib.tensor([[3, 6, 9], [0, 10, 5]])),
    "rows_right": lambda lib: lib.searchsorted(lib.tensor([[1, 3, 5], [2, 4, 6]]),
                                               lib.tensor([[3, 6], [2, 7]]), right=True),
    "side_int32": lambda lib: lib.searchsorted(lib.tensor([1.0, 2.0, 2.0]), lib.tensor([2.0]),
                                               side="right", out_int32=True),
    "scalar": lambda lib: lib.searchsorted(lib.tensor([1.0, 3.0]), 2.0),
    "sorter": lambda lib: lib.searchsorted(lib.tensor([9, 1, 5]), lib.tensor([4, 6]),
                                           sorter=lib.tensor([1, 2, 0])),
    "bucketize": lambda lib: lib.bucketize(lib.tensor([[3, 6, 9], [3, 6, 9]]),
                                           lib.tensor([1, 3, 5, 7, 9]), right=True),
    "bucketize_scalar": lambda lib: lib.bucketize(3, lib.tensor([1, 3, 5])),
    "tril": lambda lib: lib.tril_indices(4, 3, -1),
    "triu": lambda lib: lib.triu_indices(3, 5, 1, dtype=lib.int32),
    "triu_empty": lambda lib: lib.triu_indices(0, 3),
}


@pytest.mark.parametrize("name", list(SEARCH))
def test_search_and_indices_match_torch(torch, name: str) -> None:
    _same(SEARCH[name](gt), SEARCH[name](torch))


@pytest.mark.parametrize("seed", range(8))
def test_histc_matches_torch_on_random_data(torch, seed: int) -> None:
    """The linear-interpolation bin (in the input's precision) decides values near an edge."""
    rng = np.random.default_rng(seed)
    data = (rng.standard_normal(500) * (seed + 1)).astype(np.float32)
    data[:20] = np.linspace(-1, 1, 20)  # values on bin edges
    for kwargs in ({"bins": 7}, {"bins": 10, "min": -1, "max": 1}, {"bins": 3, "min": -0.3,
                                                                      "max": 0.9}):
        for dtype in ("float32", "float64"):
            ours = gt.histc(gt.tensor(data.astype(dtype)), **kwargs)
            theirs = torch.histc(torch.tensor(data.astype(dtype)), **kwargs)
            _same(ours, theirs)


@pytest.mark.parametrize("call", [
    lambda lib: lib.histc(lib.tensor([1, 2]), bins=2),
    lambda lib: lib.histc(lib.tensor([1.0, 2.0]), bins=2, min=3, max=1),
    lambda lib: lib.searchsorted(lib.tensor([[1, 2]]), lib.tensor([1])),
    lambda lib: lib.bucketize(lib.tensor([1]), lib.tensor([[1, 2]])),
])
def test_binning_errors_match_torch(torch, call) -> None:
    _raises_same(torch, call)


@pytest.mark.parametrize("hard", [False, True])
def test_gumbel_softmax_draws_and_gradient_match_torch(torch, hard: bool) -> None:
    def run(lib):
        lib.manual_seed(3)
        logits = lib.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0]], requires_grad=True)
        y = lib.nn.functional.gumbel_softmax(logits, tau=0.7, hard=hard)
        (y * lib.tensor([1.0, -2.0, 3.0])).sum().backward()
        return y, logits.grad

    for ours, theirs in zip(run(gt), run(torch)):
        _same(ours, theirs)


def test_get_total_norm_and_clip_grads_with_norm_match_torch(torch) -> None:
    def run(lib):
        p = lib.nn.Parameter(lib.tensor([3.0, 4.0]))
        q = lib.nn.Parameter(lib.tensor([12.0]))
        p.grad, q.grad = lib.tensor([3.0, 4.0]), lib.tensor([12.0])
        total = lib.nn.utils.get_total_norm([p.grad, q.grad])
        lib.nn.utils.clip_grads_with_norm_([p, q], 1.0, total)
        inf = lib.nn.utils.get_total_norm([p.grad, q.grad], norm_type=float("inf"))
        return total, p.grad, q.grad, inf

    for ours, theirs in zip(run(gt), run(torch)):
        _same(ours, theirs)


def test_rng_state_has_torch_layout(torch) -> None:
    """The bytes of get_rng_state are PyTorch's after seeding, drawing floats and doubles
    (which caches a normal sample), and set_rng_state replays the stream."""
    def states(lib):
        lib.manual_seed(5)
        out = [lib.get_rng_state()]
        lib.rand(3)
        out.append(lib.get_rng_state())
        lib.randn(1, dtype=lib.float64)
        out.append(lib.get_rng_state())
        lib.set_rng_state(out[1])
        out.append(lib.rand(700))
        return out

    for ours, theirs in zip(states(gt), states(torch)):
        _same(ours, theirs)


def test_fork_rng_restores_the_global_stream() -> None:
    gt.manual_seed(42)
    with gt.random.fork_rng():
        gt.randn(3)
    after = gt.randn(3)
    gt.manual_seed(42)
    assert gt.equal(after, gt.randn(3))


@pytest.mark.parametrize("reentrant", [True, False])
def test_checkpoint_gives_the_plain_gradients_with_dropout(torch, reentrant: bool) -> None:
    """The recomputation sees the forward's random state, so dropout masks agree."""
    def run(lib, use_checkpoint):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(4, 6), lib.nn.Dropout(0.5), lib.nn.ReLU())  # no tanh: MKL's differs
        x = lib.randn(3, 4, requires_grad=True)
        lib.manual_seed(1)
        if use_checkpoint:
            y = lib.utils.checkpoint.checkpoint(net, x, use_reentrant=reentrant)
        else:
            y = net(x)
        y.sum().backward()
        return y, x.grad, net[0].weight.grad, type(y.grad_fn).__name__

    ours, plain, theirs = run(gt, True), run(gt, False), run(torch, True)
    for a, b, c in zip(ours[:3], plain[:3], theirs[:3]):
        _same(a, b)  # exactly the plain run's values; torch's up to Linear's matmul last bits
        np.testing.assert_allclose(a.detach().numpy(), c.detach().numpy(), rtol=1e-5, atol=1e-6)
    assert ours[3] == theirs[3]


def test_weights_only_load_refuses_modules_like_torch(torch) -> None:
    def run(lib):
        buffer = io.BytesIO()
        lib.save(lib.nn.Linear(2, 2), buffer)
        buffer.seek(0)
        with pytest.raises(Exception) as refused:
            lib.load(buffer)
        buffer.seek(0)
        loaded = lib.load(buffer, weights_only=False)
        return str(refused.value), type(loaded).__name__

    assert run(gt) == run(torch)
    state = {"w": gt.ones(2), "size": gt.Size([2]), "p": gt.nn.Parameter(gt.zeros(1))}
    buffer = io.BytesIO()
    gt.save(state, buffer)
    buffer.seek(0)
    assert gt.equal(gt.load(buffer)["w"], state["w"])


def _packed_run(lib, mode: str, bidirectional: bool):
    from_rnn = lib.nn.utils.rnn
    lib.manual_seed(1)
    kwargs = {"nonlinearity": "relu"} if mode == "RNN" else {}
    net = getattr(lib.nn, mode)(2, 3, num_layers=2, batch_first=True,
                                bidirectional=bidirectional, **kwargs)
    x = lib.randn(3, 4, 2, requires_grad=True)
    packed = from_rnn.pack_padded_sequence(x, lib.tensor([4, 2, 3]), batch_first=True,
                                           enforce_sorted=False)
    out, hidden = net(packed)
    h = hidden[0] if mode == "LSTM" else hidden
    padded, lengths = from_rnn.pad_packed_sequence(out, batch_first=True, total_length=5)
    (padded.sum() + h.pow(2).sum()).backward()
    names = [type(t.grad_fn).__name__ for t in (packed.data, out.data, h, padded)]
    return (packed.data, packed.batch_sizes, packed.unsorted_indices, padded, lengths, h,
            x.grad, net.weight_hh_l0.grad), names


@pytest.mark.parametrize("mode", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_packed_sequences_through_recurrent_layers_match_torch(torch, mode: str,
                                                               bidirectional: bool) -> None:
    """Values and gradients as PyTorch's packed path computes them (up to the last bits of
    MKL's matmul, sigmoid and tanh), batch sizes and indices exactly, the same grad_fn names."""
    ours, our_names = _packed_run(gt, mode, bidirectional)
    theirs, their_names = _packed_run(torch, mode, bidirectional)
    assert our_names == their_names
    for a, b in zip(ours, theirs):
        if a.dtype is gt.int64:
            _same(a, b)
        else:
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5,
                                       atol=1e-6)


def test_pack_padded_sequence_errors_match_torch(torch) -> None:
    for call in (
        lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(2, 3), [2, 3]),
        lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2), [3, 2, 1]),
        lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2), [3, 0]),
    ):
        _raises_same(torch, call)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_values_and_gradients_match_torch(torch, reduce: str,
                                                         include_self: bool) -> None:
    def run(lib):
        lib.manual_seed(0)
        a = lib.randn(3, 4).round(decimals=1).requires_grad_()  # rounding makes ties for amax
        src = lib.randn(4, 4).round(decimals=1).requires_grad_()
        index = lib.randint(0, 3, (4, 4))
        out = a.scatter_reduce(0, index, src, reduce, include_self=include_self)
        (out * lib.arange(12.0).view(3, 4)).sum().backward()
        ints = lib.tensor([[1, 5], [3, 2]]).scatter_reduce(
            1, lib.tensor([[0, 0], [1, 1]]), lib.tensor([[7, 9], [4, 4]]), reduce,
            include_self=include_self)
        return out, a.grad, src.grad, ints

    for ours, theirs in zip(run(gt), run(torch)):
        np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6)
        assert str(ours.dtype) == str(theirs.dtype)
