"""PyTorch's argument parser for the functions with several overloads: whether a call matches
one, and the error text when none does ("received an invalid combination of arguments - got
(...), but expected one of: ...", or the one plausible overload's own complaint).

The overloads are the texts PyTorch prints (signature_table.py). Matching follows
FunctionSignature::parse (python_arg_parser.cpp); the error follows PythonArgParser::print_error
and format_invalid_args (invalid_arguments.cpp), quirks included: that formatter reparses the
printed texts naively, so `*` and `= None` defaults count as arguments when it decides which
overloads to annotate with "didn't match because ...", and keywords come out in the order of
its hash map (reversed insertion order for the few a call has).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchTypeError, warn
from gradsh.engine.ops.arguments import _type_name
from gradsh.engine.pytypes import Device, Size
from gradsh.engine.random import Generator
from gradsh.engine.ops.signature_table import DEPRECATED, NULLABLE, OVERLOADS, Overloads
from gradsh.engine.tensor import Tensor, _once

__all__ = ["has_overloads", "explain", "deprecated_call", "call_key", "scalar_positions"]

# python_arg_parser's should_allow_numbers_as_tensors: a Python number passes for a Tensor
_NUMBERS_AS_TENSORS = frozenset({
    "add", "add_", "div", "div_", "divide", "divide_", "mul", "mul_", "multiply", "multiply_",
    "sub", "sub_", "subtract", "subtract_", "true_divide", "true_divide_", "to", "copy_",
    "floor_divide", "floor_divide_",
})
_MISSING = object()


@dataclass(frozen=True)
class _Param:
    type: str
    name: str
    optional: bool  # has a default
    allow_none: bool  # the default is None
    keyword_only: bool


@dataclass(frozen=True)
class _Signature:
    text: str
    params: tuple[_Param, ...]
    min_args: int
    max_pos_args: int

    @property
    def max_args(self) -> int:
        return len(self.params)


def _signature(text: str, nullable: frozenset[str]) -> _Signature:
    params: list[_Param] = []
    keyword_only = False
    for part in filter(None, text[1:-1].split(", ")):
        if part == "*":
            keyword_only = True
            continue
        declaration, _, default = part.partition(" = ")
        kind, _, name = declaration.rpartition(" ")
        allow_none = default == "None" or name in nullable
        params.append(_Param(kind, name, bool(default), allow_none, keyword_only))
    positional = sum(not p.keyword_only for p in params)
    return _Signature(text, tuple(params), sum(not p.optional for p in params), positional)


_PARSED: dict[tuple[str, bool, bool], tuple[_Signature, ...]] = {}


def _overloads(name: str, method: bool, deprecated: bool = False) -> tuple[_Signature, ...]:
    key = (name, method, deprecated)
    found = _PARSED.get(key)
    if found is None:
        table: dict[str, Overloads] = DEPRECATED if deprecated else OVERLOADS
        texts = table.get(name, ((), ()))[1 if method else 0]
        nullable = NULLABLE.get(name, frozenset())
        found = _PARSED[key] = tuple(_signature(t, nullable) for t in texts)
    return found


def has_overloads(name: str, method: bool) -> bool:
    """Whether PyTorch gives `name` (in this form) several overloads gradsh knows."""
    return bool(OVERLOADS.get(name, ((), ()))[1 if method else 0])


def explain(name: str, method: bool, args: tuple[Any, ...],
            kwargs: dict[str, Any]) -> TorchTypeError | None:
    """PyTorch's error for a call no overload of `name` takes, or None when one does. `args`
    without `self` for a method."""
    signatures = _overloads(name, method)
    for signature in signatures:
        if _parse(signature, name, args, kwargs, raise_error=False):
            return _unpack_error(signature, name, args, kwargs)
    count = len(args) + len(kwargs)
    plausible = [s for s in signatures if s.min_args <= count <= s.max_args]
    if len(plausible) == 1:
        try:
            _parse(plausible[0], name, args, kwargs, raise_error=True)
        except TorchTypeError as error:
            return error
    return TorchTypeError(_invalid_combination(f"{name}()", args, kwargs,
                                               [s.text for s in signatures]))


def deprecated_call(name: str, method: bool, args: tuple[Any, ...], kwargs: dict[str, Any]
                    ) -> tuple[tuple[Any, ...], dict[str, Any]] | None:
    """The call in the form of the overload PyTorch keeps, when it matches one of `name`'s
    deprecated overloads (`torch.add(x, 2, y)` is add(x, y, alpha=2)); else None. The first
    such call warns, once a process (TORCH_WARN_ONCE). `args` without `self` for a method."""
    for signature in _overloads(name, method, deprecated=True):
        if not _parse(signature, name, args, kwargs, raise_error=False):
            continue
        if "deprecated_overload" not in _once:
            _once.add("deprecated_overload")
            instead = "".join(f"\n\t{name}{s.text}" for s in _overloads(name, method))
            warn(f"This overload of {name} is deprecated:\n\t{name}{signature.text}\n"
                 f"Consider using one of the following signatures instead:{instead}")
        for i, param in enumerate(signature.params[:len(args)]):
            if param.type == "Number":
                return args[:i] + args[i + 1:], {**kwargs, param.name: args[i]}
        return args, kwargs
    return None


_SEQUENCES = frozenset({tuple, list})
_SCALAR_TYPES = frozenset({"Number", "int", "float", "complex"})


def scalar_positions(name: str, method: bool) -> frozenset[int]:
    """The positions at which one of `name`'s overloads takes a number, which a plain 0-dim
    Tensor may stand for: where call_key must say more of a Tensor than its type."""
    return frozenset(i for s in _overloads(name, method) for i, p in enumerate(s.params)
                     if p.type in _SCALAR_TYPES and not p.keyword_only)


def call_key(args: tuple[Any, ...], scalar_at: frozenset[int]) -> tuple[Any, ...] | None:
    """What the overload match of positional `args` depends on, to remember a match by: their
    types; at `scalar_at` (scalar_positions), whether a Tensor is a plain scalar and of which
    kind; the types in a short list. None for a list too long to be worth it."""
    key = tuple(map(type, args))
    if _SEQUENCES.isdisjoint(key):  # the common call: tensors, numbers, dtypes
        if not scalar_at:
            return key
        for i in scalar_at:
            if i < len(args) and isinstance(args[i], Tensor):
                break
        else:
            return key
    parts: list[Any] = list(key)
    for i, value in enumerate(args):
        kind = key[i]
        if kind is tuple or kind is list:
            if len(value) > 8:
                return None
            parts[i] = (kind, *map(type, value))
        elif i in scalar_at and isinstance(value, Tensor) and not value._data.ndim:
            parts[i] = (kind, value.requires_grad, value.dtype.is_floating_point)
    return tuple(parts)


# ---------------------------------------------------------------------------------------------
# FunctionSignature::parse
# ---------------------------------------------------------------------------------------------


def _parse(signature: _Signature, name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
           raise_error: bool) -> bool:
    params = signature.params
    varargs = signature.max_pos_args == 1 and params[0].type == "tuple of ints"
    if len(args) > signature.max_pos_args and not varargs:
        return _fail(raise_error, _extra_args(name, signature, len(args)))
    position = 0
    remaining = len(kwargs)
    for i, param in enumerate(params):
        keyword = False
        if position < len(args):
            if param.keyword_only:
                return _fail(raise_error, _extra_args(name, signature, len(args)))
            value = args[position]
        else:
            value = kwargs.get(param.name, _MISSING)
            keyword = bool(kwargs)
        if (value is _MISSING and param.optional) or (value is None and param.allow_none):
            pass
        elif value is _MISSING:
            missing = [f'"{p.name}"' for p in params[i:] if not p.optional]
            return _fail(raise_error, TorchTypeError(
                f"{name}() missing {len(missing)} required positional argument"
                f"{'s' if len(missing) == 1 else ''}: {', '.join(missing)}"))
        elif _matches(param, value, name):
            pass
        elif varargs and position == 0 and not keyword and _is_index(args[0]):
            position = len(args)  # view(2, 3): the positional ints are the size
            continue
        else:
            where = "" if keyword else f" (position {position + 1})"
            if (param.type == "tuple of ints" and isinstance(value, (tuple, list)) and value
                    and not _is_index(value[0])):  # the parser names the first element's type
                return _fail(raise_error, TorchTypeError(
                    f"{name}(): argument '{param.name}'{where} must be {param.type}, but found "
                    f"element of type {_py_type(value[0])} at pos 0"))
            return _fail(raise_error, TorchTypeError(
                f"{name}(): argument '{param.name}'{where} must be {param.type}, not "
                f"{_py_type(value)}"))
        if not keyword:
            position += 1
        elif value is not _MISSING:
            remaining -= 1
    if remaining > 0:
        return _fail(raise_error, _extra_kwargs(name, signature, kwargs, len(args)))
    return True


def _unpack_error(signature: _Signature, name: str, args: tuple[Any, ...],
                  kwargs: dict[str, Any]) -> TorchTypeError | None:
    """The overload chosen, PythonArgs reads its int lists, whose first element alone the
    match looked at: a later element of another type fails there."""
    params = signature.params
    for i, param in enumerate(params):
        if param.type != "tuple of ints":
            continue
        if i == 0 and signature.max_pos_args == 1 and len(args) > 1:
            values: Any = args  # view(2, "a"): the positional arguments are the list
        else:
            values = args[i] if i < len(args) and not param.keyword_only else kwargs.get(
                param.name)
        if not isinstance(values, (tuple, list)):
            continue
        for k, value in enumerate(values):
            if not _is_index(value):
                return TorchTypeError(
                    f"{name}(): argument '{param.name}' failed to unpack the object at pos "
                    f'{k + 1} with error "type must be tuple of ints,but got {_py_type(value)}"')
    return None


def _fail(raise_error: bool, error: TorchTypeError) -> bool:
    if raise_error:
        raise error
    return False


def _extra_args(name: str, signature: _Signature, given: int) -> TorchTypeError:
    most, least = signature.max_pos_args, signature.min_args
    if least != most:
        return TorchTypeError(f"{name}() takes from {least} to {most} positional arguments but "
                              f"{given} were given")
    return TorchTypeError(f"{name}() takes {most} positional argument{'' if most == 1 else 's'}"
                          f" but {given} {'was' if given == 1 else 'were'} given")


def _extra_kwargs(name: str, signature: _Signature, kwargs: dict[str, Any],
                  positional: int) -> TorchTypeError:
    names = [p.name for p in signature.params]
    for key in kwargs:
        if key not in names:
            return TorchTypeError(f"{name}() got an unexpected keyword argument '{key}'")
        if names.index(key) < positional:
            return TorchTypeError(f"{name}() got multiple values for argument '{key}'")
    return TorchTypeError("invalid keyword arguments")


# gradsh's classes under the names PyTorch's messages give theirs (tp_name)
_TORCH_TYPE_NAMES = {Tensor: "Tensor", DType: "torch.dtype", Size: "torch.Size",
                     Device: "torch.device", Generator: "torch.Generator"}


def _py_type(value: Any) -> str:
    for kind, name in _TORCH_TYPE_NAMES.items():
        if isinstance(value, kind):
            return name
    return _type_name(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_index(value: Any) -> bool:
    """An element of an int list (is_int_or_symint): an int, or a one-element integer tensor
    (`torch.randint(1, 5, (lengths.sum(),))`, `x.view(n, -1)` with n a tensor), which the
    parser reads through __index__."""
    return _is_int(value) or (isinstance(value, Tensor) and value.dtype.category == 1
                              and value.numel() == 1)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, complex, np.number, np.bool_))


def _plain_tensor_scalar(value: Any) -> bool:
    return isinstance(value, Tensor) and value.ndim == 0 and not value.requires_grad


def _matches(param: _Param, value: Any, name: str) -> bool:
    """FunctionParameter::check for the types the printed overloads use."""
    kind = param.type
    if kind == "Tensor":
        return isinstance(value, Tensor) or (name in _NUMBERS_AS_TENSORS and _is_number(value))
    if kind in ("Number", "float", "complex"):
        return _is_number(value) or _plain_tensor_scalar(value)
    if kind == "int":
        return _is_int(value) or (_plain_tensor_scalar(value)
                                  and not value.dtype.is_floating_point)
    if kind == "bool":
        return isinstance(value, (bool, np.bool_))
    if kind == "tuple of ints":
        if isinstance(value, (tuple, list)):
            return not value or _is_index(value[0])  # (PyTorch looks at the first element)
        return param.name == "dim" and _is_int(value)  # an int[1] takes one int
    if kind == "tuple of Tensors":
        return isinstance(value, (tuple, list)) and all(isinstance(v, Tensor) for v in value)
    if kind == "torch.dtype":
        return isinstance(value, DType)
    if kind == "torch.device":
        return isinstance(value, (str, Device)) or _is_int(value)
    if kind == "torch.memory_format":  # gradsh.torch's constants (torch.channels_last ...)
        return type(value).__name__ == "memory_format"
    if kind == "str":
        return isinstance(value, str)
    return kind == "object" or _py_type(value) == kind  # torch.Generator ...


# ---------------------------------------------------------------------------------------------
# format_invalid_args
# ---------------------------------------------------------------------------------------------


def _invalid_combination(function: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                         options: list[str]) -> str:
    keywords = dict(reversed(list(kwargs.items())))  # the order of its unordered_map
    head = f"{function} received an invalid combination of arguments - "
    if len(options) == 1:
        arguments = _option_arguments(options[0])
        unmatched = _unmatched_keywords(arguments, keywords)
        if unmatched:
            return head + "got unrecognized keyword arguments: " + ", ".join(unmatched)
        got = (_formatted(arguments, args, keywords) if _count_matches(arguments, args, keywords)
               else _described(args, keywords))
        return head + f"got {got}, but expected {options[0]}"
    lines = [head + f"got {_described(args, keywords)}, but expected one of:"]
    for option in options:
        lines.append(f" * {option}")
        arguments = _option_arguments(option)
        if _count_matches(arguments, args, keywords):
            unmatched = _unmatched_keywords(arguments, keywords) if keywords else []
            if unmatched:
                lines.append("      didn't match because some of the keywords were incorrect: "
                             + ", ".join(unmatched))
            else:
                lines.append("      didn't match because some of the arguments have invalid "
                             "types: " + _formatted(arguments, args, keywords))
    return "\n".join(lines) + "\n"


def _option_arguments(option: str) -> list[tuple[str, str]]:
    """(type, name) per ", "-separated part, split at the last space, as _parseOption does:
    "*" is an argument, "bool keepdim = False" is of type "bool keepdim =" named "False"."""
    return [(part[:part.rfind(" ")] if " " in part else part, part[part.rfind(" ") + 1:])
            for part in option[1:-1].split(", ")]


def _count_matches(arguments: list[tuple[str, str]], args: tuple[Any, ...],
                   keywords: dict[str, Any]) -> bool:
    return len(arguments) == len(args) + len(keywords)


def _unmatched_keywords(arguments: list[tuple[str, str]], keywords: dict[str, Any]) -> list[str]:
    start = max(len(arguments) - len(keywords), 0)
    names = [name for _, name in arguments[start:]]
    return [key for key in keywords if key not in names]


def _type_matches(kind: str, value: Any) -> bool:
    """invalid_arguments.cpp's is_matching: Python type names, "float" and "int" widened."""
    name = _py_type(value)
    if kind == "float":
        return name in ("float", "int", "long")
    if kind == "int":
        return name in ("int", "long")
    return name == kind


def _formatted(arguments: list[tuple[str, str]], args: tuple[Any, ...],
               keywords: dict[str, Any]) -> str:
    """Each argument's type, between "!" where it does not match (_formattedArgDesc)."""
    parts = []
    for i in range(len(args) + len(keywords)):
        kind, name = arguments[i]
        keyword = i >= len(args)
        value = keywords.get(name) if keyword else args[i]
        text = (f"{name}=" if keyword else "") + _described_one(value)
        parts.append(text if _type_matches(kind, value) else f"!{text}!")
    return "(" + ", ".join(parts) + ("" if args else ", " if parts else "") + ")"


def _described_one(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_py_type(v) for v in value)
        if isinstance(value, tuple):
            return f"tuple of ({inner}{',' if len(value) == 1 else ''})"
        return f"list of [{inner}]"
    return _py_type(value)


def _described(args: tuple[Any, ...], keywords: dict[str, Any]) -> str:
    """The types given (_argDesc): a trailing ", " when there are only keywords."""
    parts = [_py_type(a) for a in args] + [f"{k}={_py_type(v)}" for k, v in keywords.items()]
    return "(" + ", ".join(parts) + ("" if args else ", " if parts else "") + ")"
