"""torch.load of files real PyTorch wrote, in its zip format and its pre-1.6 legacy format
(checkpoints shipped with repositories, such as a tutorial's `model_in_gpu_0.pkl`): what gradsh
loads prints and computes as what PyTorch loads from the same file."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gt

FORMATS = [True, False]  # _use_new_zipfile_serialization: the zip format, the legacy one


def _saved(torch: Any, obj: Any, zip_format: bool) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer, _use_new_zipfile_serialization=zip_format)
    return buffer.getvalue()


def _both(torch: Any, data: bytes, **kwargs: Any) -> tuple[Any, Any]:
    return (torch.load(io.BytesIO(data), **kwargs), gt.load(io.BytesIO(data), **kwargs))


@pytest.mark.parametrize("zip_format", FORMATS)
def test_state_dict_prints_and_loads_as_in_torch(torch: Any, zip_format: bool) -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4),
                                torch.nn.Linear(4, 2))
    model(torch.randn(5, 3))  # running statistics, num_batches_tracked = 1
    theirs, ours = _both(torch, _saved(torch, model.state_dict(), zip_format))
    assert str(ours) == str(theirs)
    assert type(ours).__name__ == "OrderedDict"
    assert ours._metadata == theirs._metadata
    mine = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.BatchNorm1d(4), gt.nn.Linear(4, 2))
    assert str(mine.load_state_dict(ours)) == str(model.load_state_dict(theirs))
    mine.eval(), model.eval()
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(mine(gt.tensor(x)).detach().numpy(),
                                  model(torch.tensor(x)).detach().numpy())


@pytest.mark.parametrize("zip_format", FORMATS)
def test_views_of_one_storage_stay_views(torch: Any, zip_format: bool) -> None:
    base = torch.arange(12.0).view(3, 4)
    obj = {"base": base, "part": base[1:, ::2], "t": base.t(), "flat": base.view(-1)[3:7]}
    theirs, ours = _both(torch, _saved(torch, obj, zip_format))
    for key in obj:
        assert str(ours[key]) == str(theirs[key])
        assert ours[key].stride() == theirs[key].stride()
        assert ours[key].storage_offset() == theirs[key].storage_offset()
    theirs["base"].mul_(-1)
    ours["base"].mul_(-1)
    for key in obj:
        assert str(ours[key]) == str(theirs[key])


@pytest.mark.parametrize("zip_format", FORMATS)
def test_every_dtype(torch: Any, zip_format: bool) -> None:
    values = [[-1.5, 0.0, 2.25], [3.0, -7.0, 1.0]]
    names = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
             "uint8", "bool", "complex64", "complex128"]
    obj = [torch.tensor(values).to(getattr(torch, name)) for name in names]
    theirs, ours = _both(torch, _saved(torch, obj, zip_format))
    for mine, real in zip(ours, theirs, strict=True):
        assert str(mine.dtype) == str(real.dtype)
        assert str(mine) == str(real)


@pytest.mark.parametrize("zip_format", FORMATS)
def test_parameters_and_plain_values(torch: Any, zip_format: bool) -> None:
    torch.manual_seed(1)
    obj = {"epoch": 7, "loss": 0.25, "names": ("a", "b"), "p": torch.nn.Parameter(torch.randn(2)),
           "frozen": torch.nn.Parameter(torch.ones(1), requires_grad=False),
           "size": torch.Size([2, 3]), "dtype": torch.float16, "empty": torch.zeros(0, 3)}
    theirs, ours = _both(torch, _saved(torch, obj, zip_format))
    assert str(ours) == str(theirs)
    assert type(ours["p"]).__name__ == "Parameter" and ours["p"].requires_grad
    assert not ours["frozen"].requires_grad


@pytest.mark.parametrize("zip_format", FORMATS)
def test_whole_module(torch: Any, zip_format: bool) -> None:
    """A pickled module loads with weights_only=False and is refused, with PyTorch's text,
    under the default weights_only=True."""
    torch.manual_seed(2)
    data = _saved(torch, torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh()), zip_format)
    theirs, ours = _both(torch, data, weights_only=False)
    assert str(ours) == str(theirs)
    x = [[0.5, -1.0]]
    assert str(ours(gt.tensor(x))) == str(theirs(torch.tensor(x)))
    with pytest.raises(Exception) as real:
        torch.load(io.BytesIO(data))
    with pytest.raises(Exception) as mine:
        gt.load(io.BytesIO(data))
    assert type(mine.value).__name__ == type(real.value).__name__
    assert str(mine.value) == str(real.value)


def test_a_file_path_and_map_location(torch: Any, tmp_path: Any) -> None:
    path = tmp_path / "ckpt.pth"
    torch.save({"w": torch.arange(6).view(2, 3)}, path)
    theirs = torch.load(path, map_location="cpu")
    ours = gt.load(str(path), map_location=gt.device("cpu"))
    assert str(ours) == str(theirs)
