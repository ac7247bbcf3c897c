"""default_collate and default_convert: samples into batches as PyTorch builds them
(torch/utils/data/_utils/collate.py): tensors stacked, numbers and NumPy arrays made tensors,
tuples, lists, dicts and namedtuples collated field by field."""

from __future__ import annotations

import collections.abc
import copy
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import dtypes, ops
from gradsh.engine.tensor import Tensor

__all__ = ["collate", "default_collate", "default_collate_fn_map", "default_convert"]

np_str_obj_array_pattern = re.compile(r"[SaUO]")

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
    "found {}"
)

CollateMap = dict[Any, Callable[..., Any]]


def _as_tensor(data: Any) -> Tensor:
    from gradsh.torch._functions import as_tensor

    return as_tensor(data)


def default_convert(data: Any) -> Any:
    """Without batching: NumPy arrays and scalars become tensors, containers are converted
    element by element, anything else is left as it is."""
    elem_type = type(data)
    if isinstance(data, Tensor):
        return data
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if (elem_type.__name__ == "ndarray"
                and np_str_obj_array_pattern.search(data.dtype.str) is not None):
            return data
        return _as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update({key: default_convert(data[key]) for key in data})
                return clone
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:
            return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]  # a list, as PyTorch returns
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, d in enumerate(data):
                    clone[i] = default_convert(d)
                return clone
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


def collate(batch: Any, *, collate_fn_map: CollateMap | None = None) -> Any:
    """One batch from a list of samples, by the type of the first sample."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                  for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map)
                           for samples in zip(*batch, strict=False)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch, strict=False))
        columns = [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
        if isinstance(elem, tuple):
            return columns  # a list, as PyTorch returns
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                clone = copy.copy(elem)
                for i, column in enumerate(columns):
                    clone[i] = column
                return clone
            return elem_type(columns)
        except TypeError:
            return columns
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def collate_tensor_fn(batch: Any, *, collate_fn_map: CollateMap | None = None) -> Tensor:
    return ops.stack(list(batch), 0)


def collate_numpy_array_fn(batch: Any, *, collate_fn_map: CollateMap | None = None) -> Any:
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([_as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch: Any, *, collate_fn_map: CollateMap | None = None) -> Tensor:
    return _as_tensor(np.asarray(batch))


def collate_float_fn(batch: Any, *, collate_fn_map: CollateMap | None = None) -> Tensor:
    return ops.tensor(list(batch), dtype=dtypes.float64)


def collate_int_fn(batch: Any, *, collate_fn_map: CollateMap | None = None) -> Tensor:
    return ops.tensor(list(batch))


def collate_str_fn(batch: Any, *, collate_fn_map: CollateMap | None = None) -> Any:
    return batch


default_collate_fn_map: CollateMap = {
    Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def default_collate(batch: Any) -> Any:
    """The DataLoader's default collate_fn."""
    return collate(batch, collate_fn_map=default_collate_fn_map)
