"""What training scripts from repositories reach for at their top, against PyTorch: torch.pi
and kin, torch.distributed and DistributedDataParallel without a process group, torch.amp's
GradScaler (and torch.cuda.amp's deprecated spellings) and autocast where PyTorch disables it,
and DataLoader's pin_memory warning on a machine without accelerators."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import gradsh.torch as gt


def _raises_same(torch, call) -> None:
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(Exception) as ours:
        call(gt)
    assert type(ours.value).__name__.replace("Torch", "") == type(theirs.value).__name__
    assert str(ours.value) == str(theirs.value)


@pytest.fixture
def no_cuda(monkeypatch):
    """gradsh without a cuda:0, as the PyTorch CPU build it is compared with (another test in
    the same process may have turned the simulated one on)."""
    from gradsh.torch import cuda

    monkeypatch.setattr(cuda, "is_available", lambda: False)


def _warnings(call) -> list[tuple[str, str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("name", ["pi", "e", "inf", "nan", "newaxis"])
def test_math_constants_are_torchs(torch, name: str) -> None:
    ours, theirs = getattr(gt, name), getattr(torch, name)
    assert type(ours) is type(theirs)
    assert repr(ours) == repr(theirs)


def test_masked_fill_with_minus_torch_inf(torch) -> None:
    def run(lib):
        scores = lib.arange(9.0).reshape(3, 3)
        mask = lib.triu(lib.ones(3, 3), diagonal=1).bool()
        return lib.softmax(scores.masked_fill(mask, -lib.inf), dim=-1)

    np.testing.assert_array_equal(run(gt).numpy(), run(torch).numpy())


def test_distributed_without_a_process_group(torch) -> None:
    import torch.distributed as tdist

    from gradsh.torch import distributed as gdist

    assert gdist.is_available() == tdist.is_available()
    assert gdist.is_initialized() == tdist.is_initialized()
    for name in ("get_rank", "get_world_size", "barrier"):
        _raises_same(torch, lambda lib, name=name: getattr(lib.distributed, name)())
    _raises_same(torch, lambda lib: lib.distributed.destroy_process_group())
    assert gt.distributed is gdist  # an attribute of torch, as PyTorch's is after import torch


def test_init_process_group_needs_torchruns_variables(torch, monkeypatch) -> None:
    monkeypatch.delenv("RANK", raising=False)
    _raises_same(torch, lambda lib: lib.distributed.init_process_group(backend="gloo"))


def test_distributed_data_parallel_needs_a_group(torch) -> None:
    _raises_same(torch, lambda lib: lib.nn.parallel.DistributedDataParallel(lib.nn.Linear(2, 2)))


def _scaled_steps(lib, scaler_args: dict, poison_at: int | None = None):
    """A few steps of the GradScaler recipe; a gradient is made infinite at step `poison_at`."""
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 1)
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    scaler = lib.amp.GradScaler(**scaler_args)
    record = []
    for step in range(4):
        x = lib.arange(6.0).reshape(2, 3) / (step + 1)
        loss = model(x).pow(2).mean()
        scaled = scaler.scale(loss)
        scaled.backward()
        if step == poison_at:
            model.weight.grad[0, 0] = float("inf")
        scaler.unscale_(opt)
        grad = model.weight.grad.clone()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
        record.append((scaled.item(), grad.tolist(), model.weight.detach().tolist(),
                       scaler.get_scale()))
    return record, scaler.state_dict(), scaler.is_enabled()


@pytest.mark.parametrize("poison_at", [None, 1])
@pytest.mark.parametrize("args", [{"device": "cpu"},
                                  {"device": "cpu", "init_scale": 8.0, "growth_interval": 2},
                                  {"device": "cpu", "enabled": False}])
def test_grad_scaler_on_the_cpu_matches_torch(torch, args: dict, poison_at) -> None:
    # repr: a disabled scaler lets the infinite gradient through, and NaN != NaN
    assert repr(_scaled_steps(gt, args, poison_at)) == repr(_scaled_steps(torch, args, poison_at))


def test_grad_scaler_for_cuda_without_cuda_warns_and_passes_through(torch, no_cuda) -> None:
    def make(lib):
        return lib.amp.GradScaler("cuda")

    assert _warnings(lambda: make(gt)) == _warnings(lambda: make(torch))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = make(gt), make(torch)
    assert (ours.is_enabled(), ours.get_scale(), ours.state_dict()) == (
        theirs.is_enabled(), theirs.get_scale(), theirs.state_dict())
    loss = gt.tensor(2.0)
    assert ours.scale(loss) is loss


def test_grad_scaler_misuse_errors_match_torch(torch) -> None:
    def unscale_twice(lib):
        model = lib.nn.Linear(2, 1)
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        scaler = lib.amp.GradScaler("cpu")
        scaler.scale(model(lib.ones(1, 2)).sum()).backward()
        scaler.unscale_(opt)
        scaler.unscale_(opt)

    _raises_same(torch, unscale_twice)


def test_cuda_amp_spellings_warn_as_torchs(torch, no_cuda) -> None:
    def scaler(lib):
        return lib.cuda.amp.GradScaler(enabled=False)

    def autocast(lib):
        with lib.cuda.amp.autocast():
            pass

    for call in (scaler, autocast):
        ours = _warnings(lambda call=call: call(gt))
        theirs = _warnings(lambda call=call: call(torch))
        assert ours == theirs


@pytest.mark.parametrize("args", [("cuda",), ("cpu", None, False)])
def test_autocast_where_torch_disables_it(torch, no_cuda, args: tuple) -> None:
    def run(lib):
        with lib.autocast(*args):
            return (lib.ones(2, 2) @ lib.ones(2, 2)).dtype

    ours, theirs = _warnings(lambda: run(gt)), _warnings(lambda: run(torch))
    assert ours == theirs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert str(run(gt)) == str(run(torch))


def test_dataloader_pin_memory_warns_without_an_accelerator(torch, no_cuda) -> None:
    def run(lib):
        data = lib.utils.data.TensorDataset(lib.arange(4.0))
        return [batch[0].tolist() for batch in lib.utils.data.DataLoader(data, batch_size=3,
                                                                         pin_memory=True)]

    assert _warnings(lambda: run(gt)) == _warnings(lambda: run(torch))


RESIZE = {
    "same_numel": lambda lib: lib.arange(12.0).resize_(3, 4),
    "smaller_then_back": lambda lib: lib.arange(12.0).resize_(2, 2).resize_(3, 4),
    "size_object": lambda lib: lib.arange(4).resize_(lib.Size([2, 2])),
    "same_shape_keeps_strides": lambda lib: lib.arange(6.0).reshape(2, 3).t().resize_(3, 2),
    "resize_as_": lambda lib: lib.zeros(2).resize_as_(lib.zeros(1, 2)),
}


@pytest.mark.parametrize("name", list(RESIZE))
def test_resize_matches_torch(torch, name: str) -> None:
    ours, theirs = RESIZE[name](gt), RESIZE[name](torch)
    assert (ours.shape, ours.stride(), ours.tolist()) == (
        theirs.shape, theirs.stride(), theirs.tolist())


def test_resize_writes_through_to_the_memory_it_shares(torch) -> None:
    """The Atcold tensor tutorial's steps: r = torch.Tensor(t) shares t's memory, resize_
    reshapes r over it (growing back within it), and r.zero_() clears t's first elements."""
    def run(lib):
        t = lib.arange(12.0)
        r = lib.Tensor(t)
        same = r is t
        r.resize_(3, 4)
        r.resize_(2, 2)
        r.resize_(5)
        r.zero_()
        grown = lib.arange(3.0)
        grown.resize_(5)
        return same, t.tolist(), r.shape, t._version, grown[:3].tolist()

    assert run(gt) == run(torch)


def test_resize_errors_match_torch(torch) -> None:
    _raises_same(torch, lambda lib: lib.ones(2, requires_grad=True).resize_(3))


def test_legacy_tensor_of_a_tensor_is_a_view(torch) -> None:
    def run(lib):
        t = lib.arange(3.0)
        r = lib.Tensor(t)
        r.add_(1)
        leaf = lib.ones(2, requires_grad=True)
        alias = lib.Tensor(leaf)
        ints = lib.Tensor(lib.arange(3))
        return (r is t, t.tolist(), t._version, alias.grad_fn.name(), alias.is_leaf,
                str(ints.dtype), lib.FloatTensor(t) is t)

    assert run(gt) == run(torch)


def test_programs_can_hang_attributes_on_tensors(torch) -> None:
    """fast.ai's "from foundations" lessons keep gradients in `inp.g = ...`; PyTorch's tensors
    take any attribute (a detached or computed tensor starts without them)."""
    import copy

    def run(lib):
        t = lib.ones(2, requires_grad=True)
        t.g = 2.0 * t.detach()
        copied = copy.deepcopy(t)
        return (t.g.tolist(), sorted(vars(t)), (t * 1).__dict__, t.detach().__dict__,
                copied.g.tolist(), hasattr(t, "h"))

    assert run(gt) == run(torch)


@pytest.mark.parametrize("call", [
    lambda lib: lib.allclose(lib.ones(2), None),
    lambda lib: lib.allclose(lib.ones(2), 1.0),
    lambda lib: lib.ones(2).allclose(None),
    lambda lib: lib.equal(lib.ones(2), None),
    lambda lib: lib.ones(2).equal([1.0, 1.0]),
])
def test_allclose_and_equal_name_a_non_tensor_other(torch, call) -> None:
    """fast.ai's test_near(w1.grad, ...) with a gradient that is None: PyTorch's text."""
    _raises_same(torch, call)


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2).to("cuda:1"),
    lambda lib: lib.nn.Linear(2, 2).to(lib.device("cuda:1")),
    lambda lib: lib.zeros(2, device=lib.device("cuda", 2)),
])
def test_another_cuda_index_without_cuda_fails_as_torchs(torch, call) -> None:
    """rasbt's notebooks pick DEVICE = 'cuda:1': PyTorch's CPU build refuses every index alike."""
    from gradsh.engine import backend

    if backend.sim_cuda_enabled() or backend.cuda_available():
        pytest.skip("gradsh has a cuda:0 here")
    backend.use_torch_errors(True)  # as `gradsh run` has them (pyrun)
    try:
        _raises_same(torch, call)
    finally:
        backend.use_torch_errors(False)
