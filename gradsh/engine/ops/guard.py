"""PyTorch's argument errors: the guard every public function and method wears."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import autocast, exceptions, limits
from gradsh.engine.dtypes import BAREBONES_UNSIGNED, DType
from gradsh.engine.exceptions import TorchTypeError
from gradsh.engine.ops.arguments import (OperandTypeError, _type_name, check_scalar_int,
                                         python_scalar)
from gradsh.engine.ops import torch_function
from gradsh.engine.ops.out import OUT_FUNCTIONS, call_with_out
from gradsh.engine.ops.unsigned_kernels import UNSIGNED_KERNELS
from gradsh.engine.ops.signatures import (call_key, deprecated_call, explain, has_overloads,
                                         scalar_positions)
from gradsh.engine.tensor import Tensor

__all__ = ["guarded", "alias", "unguarded", "reads_numpy_data"]


def _describe(value: Any) -> str:
    """An argument's type as PyTorch's argument parser names it."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, DType):
        return "torch.dtype"
    if isinstance(value, list):
        return "list of [" + ", ".join(_describe(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "tuple of (" + ", ".join(_describe(v) for v in value) + ")"
    return _type_name(value)


def _invalid_arguments(name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                       method: bool = False) -> TorchTypeError:
    """PyTorch's "received an invalid combination of arguments": with its list of overloads
    for the functions that have several (ops/signatures.py), else the types alone."""
    if has_overloads(name, method):
        error = explain(name, method, args, kwargs)
        if error is not None:
            return error
    parts = [_describe(a) for a in args] + [f"{k}={_describe(v)}" for k, v in kwargs.items()]
    return TorchTypeError(
        f"{name}() received an invalid combination of arguments - got ({', '.join(parts)})")


# PyTorch's names for the first two arguments of its native functions, which a call may give
# as keywords (torch.sum(input=x), torch.max(input=x, other=y)) where gradsh's Python
# signature names them otherwise (a, b, dim): such a keyword becomes the positional argument.
_POSITIONAL_NAMES = (("input", 0), ("other", 1), ("mat2", 1), ("vec", 1), ("tensor", 1))
_POSITIONAL_KEYS = frozenset(name for name, _ in _POSITIONAL_NAMES)


def _positional_params(function: Callable[..., Any]) -> tuple[str, ...]:
    try:
        params = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return ()
    return tuple(p.name for p in params
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def _keywords_as_positions(params: tuple[str, ...], given: tuple[Any, ...],
                           kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """`input=`, `other=` (`mat2=`, `vec=`, `tensor=`) moved to their places where the
    implementation has no such parameter and the arguments before them are all given."""
    kwargs = dict(kwargs)
    for keyword, position in _POSITIONAL_NAMES:
        if keyword in kwargs and keyword not in params and len(given) == position:
            given = given + (kwargs.pop(keyword),)
    return given, kwargs


class _Parsing:
    """How many calls of functions with several overloads are under way: only the outermost
    is the user's (`x.max()` calls max(x, None, False) itself, which PyTorch would refuse)."""

    depth = 0


def _refuse_as_torch(name: str, method: bool, args: tuple[Any, ...],
                     kwargs: dict[str, Any]) -> None:
    """Raise PyTorch's argument error for a call none of its overloads takes."""
    refused = explain(name, method, args[1:] if method else args, kwargs)
    if refused is not None:
        raise refused from None


def _as_torch_parses(name: str, method: bool, args: tuple[Any, ...], kwargs: dict[str, Any]
                     ) -> tuple[tuple[Any, ...], dict[str, Any]] | None:
    """None for a call one of PyTorch's overloads takes; the call rewritten for one it
    deprecated (torch.add(x, 2, y)); else PyTorch's argument error is raised."""
    given = args[1:] if method else args
    refused = explain(name, method, given, kwargs)
    if refused is None:
        return None
    rewritten = deprecated_call(name, method, given, kwargs)
    if rewritten is None:
        raise refused from None
    return (args[:1] + rewritten[0] if method else rewritten[0]), rewritten[1]


_ARGUMENT_ERRORS = (TypeError, ValueError, AttributeError, IndexError, KeyError, OverflowError,
                    ZeroDivisionError)


# The NumPy names PyTorch's argument parser accepts for its own (`x.sum(axis=0)`)
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}


_INT_LOW, _INT_END = -(1 << 63), 1 << 63
# the functions whose int parameters are int64 (sizes, bounds), not Scalars: PyTorch's parser
# unpacks them with THPUtils_unpackLong
_INT64_PARAMETERS = frozenset({"randint", "randint_like", "randperm", "view", "reshape",
                               "expand", "narrow", "select", "repeat", "tile", "manual_seed"})


def _refuse_big_int(name: str, value: int) -> None:
    """PyTorch's parser on a Python int beyond int64: an int64 parameter takes none; a
    Scalar one below 2**64 (arguments.check_scalar_int)."""
    if name in _INT64_PARAMETERS:
        raise exceptions.TorchValueError("Overflow when unpacking long long")
    check_scalar_int(value)


def _python_keywords(kwargs: dict[str, Any], name: str = "") -> dict[str, Any]:
    """Keyword arguments with NumPy scalars read as Python numbers and NumPy's keyword names
    as PyTorch's (a Python int beyond what PyTorch's parser takes refused)."""
    for value in kwargs.values():
        if value.__class__ is int and not _INT_LOW <= value < _INT_END:
            _refuse_big_int(name, value)
    for value in kwargs.values():
        if isinstance(value, np.generic):
            kwargs = {k: python_scalar(v) for k, v in kwargs.items()}
            break
    if "axis" in kwargs or "keepdims" in kwargs:
        kwargs = {_NUMPY_NAMES.get(k, k): v for k, v in kwargs.items()}
    return kwargs


def _operand_error(name: str, error: OperandTypeError, args: tuple[Any, ...],
                   method: bool) -> TorchTypeError:
    """PyTorch's words for an operand of the wrong type, naming its position."""
    for i, value in enumerate(args):
        if value is error.value and i > 0:
            return TorchTypeError(f"{name}(): argument 'other' (position {i if method else i + 1})"
                                  f" must be Tensor, not {_type_name(value)}")
    return error


def _method_position(name: str, error: TorchTypeError, given: tuple[Any, ...]) -> TorchTypeError:
    """A function's "argument 'other' (position 2) must be Tensor, not float" as its method
    form words it: the tensor is self there, so the position counts from the next argument.
    (Only where the function's position names the value the message names: `given` has self
    first, so given[N - 1] is the function's argument N.)"""
    text = str(error)
    head = f"{name}(): argument '"
    if not text.startswith(head):
        return error
    match = _POSITION.match(text, len(head))
    if match is None or int(match.group(1)) < 2 or int(match.group(1)) > len(given):
        return error
    if not text.endswith(f", not {_type_name(given[int(match.group(1)) - 1])}"):
        return error
    return TorchTypeError(f"{text[:match.start(1)]}{int(match.group(1)) - 1}"
                          f"{text[match.end(1):]}")


_DIM_TYPE = "dim must be an int, got "
# What takes one int dim (no list of dims): an unexpected keyword is reported after the dim
_INT_DIM = frozenset({"cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "argmax",
                      "argmin", "mode", "median", "nanmedian", "kthvalue", "aminmax"})


def _dim_type_error(name: str, error: TorchTypeError, given: tuple[Any, ...],
                    keywords: dict[str, Any], method: bool) -> TorchTypeError:
    """wrap_dim's "dim must be an int, got list" as PyTorch's parser words it: naming the
    function, and the position where dim was given by position."""
    kind = str(error)[len(_DIM_TYPE):]
    if "dim" in keywords and _type_name(keywords["dim"]) == kind:
        return TorchTypeError(f"{name}(): argument 'dim' must be int, not {kind}")
    for i, value in enumerate(given):
        if i and isinstance(value, (list, tuple)) and _type_name(value) == kind:
            return TorchTypeError(f"{name}(): argument 'dim' (position {i if method else i + 1}) "
                                  f"must be int, not {kind}")
    return error


_MISSING = re.compile(r"missing 1 required positional argument: '(\w+)'$")
_TAKES = re.compile(r"takes (\d+) positional arguments? but (\d+) (?:was|were) given$")


def _python_signature_error(name: str, text: str, method: bool,
                            keywords: dict[str, Any]) -> TorchTypeError | None:
    """Python's own argument errors for a function PyTorch has one signature of, in the words
    of PyTorch's parser (`cumsum() missing 1 required positional arguments: "dim"`, `aminmax()
    takes 0 positional arguments but 1 was given`, counted without self for a method)."""
    dim = keywords.get("dim")
    if name in _INT_DIM and isinstance(dim, (list, tuple)):
        return TorchTypeError(f"{name}(): argument 'dim' must be int, not {_type_name(dim)}")
    match = _MISSING.search(text)
    if match is not None and match.group(1) in ("dim", "other"):
        return TorchTypeError(f'{name}() missing 1 required positional arguments: '
                              f'"{match.group(1)}"')
    match = _TAKES.search(text)
    if match is not None:
        takes, given = (int(n) - method for n in match.groups())
        return TorchTypeError(f"{name}() takes {takes} positional argument"
                              f"{'' if takes == 1 else 's'} but {given} "
                              f"{'was' if given == 1 else 'were'} given")
    return None


_POSITION = re.compile(r"[^']*' \(position (\d+)\)")


# What reads no element of its tensors (views and metadata): allowed on a view of any size,
# such as `ones(1).expand(10**6, 10**6)`, whose other operations limits.check_reads refuses.
_READS_NOTHING = frozenset({
    "view", "view_as", "expand", "expand_as", "broadcast_to", "t", "T", "mT", "H", "transpose",
    "swapaxes", "swapdims", "permute", "movedim", "moveaxis", "unsqueeze", "squeeze", "narrow",
    "select", "slice", "split", "chunk", "unbind", "diagonal", "as_strided", "unflatten",
    "size", "stride", "dim", "ndimension", "numel", "nelement", "element_size",
    "is_contiguous", "storage_offset", "data_ptr", "detach", "detach_", "requires_grad_",
    "retain_grad", "register_hook", "is_floating_point", "is_complex", "is_signed",
    "get_device", "is_same_size", "dim_order", "untyped_storage", "is_set_to", "real",
    "index",  # (t[key]: a view, or a gather whose result ops.indexing checks)
})


# What makes no result as large as its largest tensor: reductions, in-place changes, and the
# casts and copies that return their input when there is nothing to do (those check their own
# copies). Every other operation is refused before it runs when a result that large would pass
# gradsh's memory limit (limits.check); ops that make more than that check their own sizes.
_SMALL_RESULT = frozenset({
    "sum", "nansum", "mean", "nanmean", "prod", "max", "min", "amax", "amin", "aminmax",
    "argmax", "argmin", "all", "any", "count_nonzero", "norm", "std", "var", "std_mean",
    "var_mean", "logsumexp", "median", "nanmedian", "kthvalue", "mode", "dist", "dot", "vdot",
    "trace", "item", "equal", "allclose", "det", "slogdet", "logdet", "backward", "tolist",
    "numpy", "to", "float", "double", "half", "bfloat16", "long", "int", "short", "char", "byte",
    "bool", "type", "type_as", "cpu", "cuda", "contiguous", "bincount", "histc", "apply_", "map_",
    "iadd", "isub", "imul", "itruediv", "ipow", "iand", "ior", "ixor", "contains",
})


# The memory an operation takes at its peak, as a multiple of its largest tensor's size, where
# that is more than its result: float32 softmax's bit-exact kernels, sorting's index arrays...
# (measured with tracemalloc on a million elements).
_TEMPORARIES = {
    "softmax": 18, "log_softmax": 18, "softmin": 18, "kthvalue": 19, "topk": 9, "unique": 8,
    "max_pool1d": 8, "max_pool2d": 8, "var": 4, "std": 4, "var_mean": 4, "std_mean": 4,
    "cumsum": 4, "cumprod": 4, "sort": 4, "argsort": 4, "msort": 4, "dropout": 5,
    "masked_select": 4, "scatter": 3, "scatter_add": 3, "logsumexp": 3, "norm": 2,
    "median": 2, "nanmedian": 2, "mse_loss": 3, "cross_entropy": 3,
}


def _check_memory(t: Tensor, sized: bool, temporaries: int) -> None:
    """Refuse an operation on `t` whose result (`sized`: as large as `t`) and working
    memory (`temporaries` times `t`, all told) would pass gradsh's memory limit. On the meta
    device an operation takes no memory."""
    if t.device == "meta":
        return
    data = t._data
    if sized:
        extra = max(temporaries - 1, 0) * data.nbytes
        limits.check(data.shape, data.itemsize, extra=extra)
    else:
        limits.reserve(temporaries * data.nbytes,
                       f"the working memory of an operation on a tensor of {data.size:,} "
                       "elements")


# The operators' `func` under __torch_function__, by PyTorch's names (the guard's name is the
# dunder name stripped): the commutative reflections are the plain methods.
_DISPATCH_NAMES = {
    "mul": "mul", "rmul": "mul", "add": "add", "radd": "add", "sub": "sub",
    "rsub": "__rsub__", "truediv": "div", "rtruediv": "__rdiv__", "pow": "pow",
    "rpow": "__rpow__", "mod": "remainder", "rmod": "__rmod__", "floordiv": "__floordiv__",
    "rfloordiv": "__rfloordiv__", "matmul": "matmul", "rmatmul": "__rmatmul__",
    "eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__",
    "ge": "__ge__", "and": "__and__", "or": "__or__", "xor": "__xor__", "iadd": "__iadd__",
    "isub": "__isub__", "imul": "__imul__", "itruediv": "__itruediv__",
}


def _dispatch_function(name: str, method: bool,
                       guarded: Callable[..., Any]) -> Callable[..., Any]:
    """What a __torch_function__ receives as `func`: the Tensor method (Tensor.mul for
    `t * 2`, as PyTorch passes it), else the operation under its public name."""
    if method:
        name = _DISPATCH_NAMES.get(name, name)
        found = getattr(Tensor, name, None) if not name.startswith("__") else None
        if callable(found):
            return found  # type: ignore[no-any-return]

    def operation(*args: Any, **kwargs: Any) -> Any:
        return guarded(*args, **kwargs)

    operation.__name__ = operation.__qualname__ = name
    return operation


# The operators' guards by the function whose kernel PyTorch names refusing unsigned tensors
_OPERATOR_FUNCTIONS = {
    "radd": "add", "iadd": "add", "rsub": "sub", "isub": "sub", "lshift": "bitwise_left_shift",
    "rlshift": "bitwise_left_shift", "ilshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift", "rrshift": "bitwise_right_shift",
    "irshift": "bitwise_right_shift", "rpow": "pow", "ipow": "pow", "mod": "remainder",
    "rmod": "remainder", "imod": "remainder", "floordiv": "floor_divide",
    "rfloordiv": "floor_divide", "ifloordiv": "floor_divide", "rmatmul": "matmul",
    "invert": "bitwise_not",
}
_UNSIGNED_NP = {dtype.np: dtype for dtype in BAREBONES_UNSIGNED}
# (NumPy's native dtypes are singletons: `is` tests them, cheaper than a lookup)
_U16, _U32, _U64 = (dtype.np for dtype in sorted(BAREBONES_UNSIGNED, key=lambda d: d.itemsize))


def _refuse_unsigned(kernel: str, dtype: np.dtype) -> None:
    """PyTorch's error for an op it has no kernel of for uint16, uint32 and uint64 tensors
    (the guards test each tensor's dtype, about 40 ns, for the ops the table lists only)."""
    raise exceptions.TorchNotImplementedError(
        f"\"{kernel}\" not implemented for '{_UNSIGNED_NP[dtype].short}'")


# The Tensor methods torch/_tensor.py defines in Python (Python's own argument errors name
# them `Tensor.norm()`); the others are TensorBase's, checked by PyTorch's parser
_PYTHON_METHODS = frozenset({
    "dim_order", "is_shared", "istft", "lu", "module_load", "norm", "resize", "resize_as",
    "share_memory_", "split", "stft", "storage", "storage_type", "to_sparse_coo", "unflatten",
    "unique", "unique_consecutive"})


def _guard(name: str, function: Callable[..., Any], *, method: bool,
           tensor_first: bool, numpy_data: bool = False,
           operator: bool = False) -> Callable[..., Any]:
    """`function` with PyTorch's argument errors: a non-tensor where a tensor must be, or any
    argument the implementation cannot take, is a TypeError naming the argument types.
    NumPy scalars become Python numbers first, except for a function that reads them as data
    (`numpy_data`: torch.tensor(np.float64(2.5)) keeps float64). A binary `operator` answers
    NotImplemented instead of any TypeError, as PyTorch's do, so that Python tries the other
    operand: `t * ndarray` is NumPy's multiplication, `t == "a"` is False. A function that
    takes `out=` in PyTorch (ops/out.py) takes it here, the method forms never."""

    scalar = np.generic
    takes_out = not method and name in OUT_FUNCTIONS
    overloaded = not operator and has_overloads(name, method)
    accepted: set[tuple[Any, ...]] = set()  # the kinds of positional calls an overload takes
    scalar_at = scalar_positions(name, method) if overloaded else frozenset()
    reads = name not in _READS_NOTHING
    max_reads, measured = limits.MAX_READS, limits.MEASURED_FROM
    sized = reads and name not in _SMALL_RESULT and not name.endswith("_")
    temporaries = _TEMPORARIES.get(name, 0)

    params: list[tuple[str, ...]] = []  # the implementation's, read at the first keyword call
    autocasts = name in autocast.LOWER_PRECISION or name in autocast.FP32
    unsigned_kernel = UNSIGNED_KERNELS.get(_OPERATOR_FUNCTIONS.get(name, name))

    dispatch_as: list[Callable[..., Any]] = []  # `func` for a subclass's __torch_function__
    subclasses = torch_function.State  # (active once a program defines a dispatching subclass)

    def guarded(*given: Any, **kwargs: Any) -> Any:
        if subclasses.active and not subclasses.disabled:
            if not dispatch_as:
                dispatch_as.append(_dispatch_function(name, method, guarded))
            try:
                handled = torch_function.dispatch(dispatch_as[0], given, kwargs)
            except TypeError as error:
                if operator and str(error).startswith(torch_function.DISPATCH_FAILED):
                    return NotImplemented
                raise
            if handled is not torch_function.NOT_HANDLED:
                return handled
        if autocasts and autocast.Autocast.dtype is not None:
            target = autocast.policy_of(name)
            if target is not None:
                given, kwargs = autocast.cast_arguments(target, given, kwargs)
        if kwargs and not _POSITIONAL_KEYS.isdisjoint(kwargs):
            if not params:
                params.append(_positional_params(function))
            moved, rest = _keywords_as_positions(params[0], given, kwargs)
            if len(moved) > len(given):
                # PyTorch's parser judges the call as written (its errors name the keywords)
                if overloaded and not _Parsing.depth:
                    _as_torch_parses(name, method, given, kwargs)
                return guarded(*moved, **rest)
        if tensor_first and (not given or not isinstance(given[0], Tensor)):
            if not given:
                raise TorchTypeError(f"{name}() missing 1 required positional arguments: "
                                     '"input"')
            if overloaded:  # no overload takes the call: the parser lists them
                raise _invalid_arguments(name, given, kwargs, method)
            raise TorchTypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{_describe(given[0])}"
            )
        args, keywords = given, kwargs
        # One loop over the arguments, every operation's path (not any(), not two loops):
        # a view too large to ever read is refused at once (limits.check_reads); NumPy
        # scalars read as PyTorch's argument parser reads them (see python_scalar):
        # `t * np.float32(2)`, `torch.zeros(np.int64(3))`.
        for value in given:
            if value.__class__ is Tensor or isinstance(value, Tensor):
                if unsigned_kernel is not None:
                    kind = value._data.dtype
                    if kind is _U16 or kind is _U32 or kind is _U64:
                        _refuse_unsigned(unsigned_kernel, kind)
                if reads:
                    data = value._data
                    if data.size > max_reads and value.device != "meta":
                        limits.check_reads(data.size, data.shape)
                    if data.nbytes >= measured and (sized or temporaries):
                        _check_memory(value, sized, temporaries)
            elif not numpy_data and args is given and isinstance(value, scalar):
                args = tuple(map(python_scalar, given))
            elif value.__class__ is int and not _INT_LOW <= value < _INT_END and \
                    not numpy_data:
                _refuse_big_int(name, value)
        if kwargs and not numpy_data:
            kwargs = _python_keywords(kwargs, name)
        if overloaded:
            return parsed_call(args, kwargs, given, keywords)
        try:
            if takes_out and "out" in kwargs:
                return call_with_out(name, function, args, kwargs)
            return function(*args, **kwargs)
        except _ARGUMENT_ERRORS as error:
            return argument_error(error, args, given, keywords)

    def parsed_call(args: tuple[Any, ...], kwargs: dict[str, Any], given: tuple[Any, ...],
                    keywords: dict[str, Any]) -> Any:
        """A function with several overloads in PyTorch: the user's call (not another op's
        call inside gradsh) is checked as PyTorch's parser checks it. Keywords and strings
        are where gradsh's Python signatures take what its overloads do not
        (x.sum(keepdim=True), x.sum(0, "x")): the parser decides first; an error gradsh
        finds afterwards is the parser's where no overload takes the call."""
        if _Parsing.depth:
            try:
                return function(*args, **kwargs)
            except _ARGUMENT_ERRORS as error:
                return argument_error(error, args, given, keywords)
        # A positional call is matched once per kind of arguments (signatures.call_key): the
        # common call costs a key and a set lookup, not a parse of every overload.
        key = None if kwargs else call_key(args[1:] if method else args, scalar_at)
        if key is None or key not in accepted:
            rewritten = _as_torch_parses(name, method, args, kwargs)
            if rewritten is not None:
                args, kwargs = rewritten
            elif key is not None and len(accepted) < 256:
                accepted.add(key)
        _Parsing.depth += 1
        try:
            if takes_out and "out" in kwargs:
                return call_with_out(name, function, args, kwargs)
            try:
                return function(*args, **kwargs)
            except _ARGUMENT_ERRORS as error:
                return argument_error(error, args, given, keywords)
        except exceptions.TorchError:
            _refuse_as_torch(name, method, args, kwargs)
            raise
        finally:
            _Parsing.depth -= 1

    def argument_error(error: Exception, args: tuple[Any, ...], given: tuple[Any, ...],
                       keywords: dict[str, Any]) -> Any:
        """NotImplemented for an operator, else the error in PyTorch's words."""
        torch_error = isinstance(error, exceptions.TorchError)
        if operator and (isinstance(error, TypeError) or not torch_error):
            return NotImplemented
        if isinstance(error, OperandTypeError):
            raise _operand_error(name, error, args, method) from None
        if torch_error:
            if isinstance(error, TorchTypeError):
                if str(error).startswith(_DIM_TYPE):
                    raise _dim_type_error(name, error, given, keywords, method) from None
                if method:
                    raise _method_position(name, error, given)
            raise error
        if not overloaded and isinstance(error, TypeError):
            parser_error = _python_signature_error(name, str(error), method, keywords)
            if parser_error is not None:
                raise parser_error from None
        if "got an unexpected keyword argument" in str(error):
            # no overload takes the keyword: PyTorch's parser says so in Python's words (a
            # method PyTorch writes in Python: Python's, which names the class)
            keyword = str(error).split("got an unexpected keyword argument ")[-1]
            qualified = f"Tensor.{name}" if method and name in _PYTHON_METHODS else name
            raise TorchTypeError(f"{qualified}() got an unexpected keyword argument {keyword}"
                                 ) from None
        raise _invalid_arguments(name, given[1:] if method else given, keywords,
                                 method) from error

    def binary(self: Any, other: Any = _ABSENT, *more: Any, **kwargs: Any) -> Any:
        """`guarded` for a binary operator, with its common call (a tensor and a tensor or a
        Python number) checked here without packing the arguments."""
        kind = other.__class__
        if more or kwargs or not (kind is float or kind is Tensor or kind is int) or \
                not isinstance(self, Tensor) or (autocasts and autocast.Autocast.dtype) or \
                subclasses.active:
            if other is _ABSENT:
                return guarded(self, *more, **kwargs)
            return guarded(self, other, *more, **kwargs)
        if reads:  # as in guarded
            data = self._data
            if data.size > max_reads and self.device != "meta":
                limits.check_reads(data.size, data.shape)
            if data.nbytes >= measured and (sized or temporaries):
                _check_memory(self, sized, temporaries)
            if kind is Tensor:
                data = other._data
                if data.size > max_reads and other.device != "meta":
                    limits.check_reads(data.size, data.shape)
                if data.nbytes >= measured and (sized or temporaries):
                    _check_memory(other, sized, temporaries)
        if unsigned_kernel is not None:
            for value in (self, other) if kind is Tensor else (self,):
                dtype = value._data.dtype
                if dtype is _U16 or dtype is _U32 or dtype is _U64:
                    _refuse_unsigned(unsigned_kernel, dtype)
        try:
            return function(self, other)
        except _ARGUMENT_ERRORS as error:
            return argument_error(error, (self, other), (self, other), kwargs)

    public = binary if operator and not tensor_first and not numpy_data else guarded
    if public is binary:  # what the C fast path of `*` and `+` needs of it (engine/fastpath.py)
        binary.recover = lambda error, a, b: argument_error(  # type: ignore[attr-defined]
            error, (a, b), (a, b), {})
        binary.read_limits = (max_reads, measured)  # type: ignore[attr-defined]
    public.__name__ = name
    public.__qualname__ = public.__name__
    public.__doc__ = function.__doc__
    public.__wrapped__ = function  # type: ignore[attr-defined]
    return public


_ABSENT: Any = object()  # a binary operator called without its second operand


# The guarded function -> the function itself (what the method table wraps in its own guard).
_UNGUARDED: dict[Callable[..., Any], tuple[Callable[..., Any], bool, bool]] = {}


def guarded(function: Callable[..., Any] | None = None, *, name: str | None = None,
            tensor_first: bool = True, numpy_data: bool = False) -> Any:
    """Decorator: a public function with PyTorch's argument errors (see `_guard`), named
    `name` (by default its own name) in them.

    `tensor_first`: the first argument must be a Tensor (torch.exp(1) is a TypeError). Not so
    for the arithmetic that takes a number first (torch.add(2, x), sub, mul, div and their
    aliases, floor_divide, remainder), pow, where, cat, stack, creation and autograd
    functions.

    `numpy_data`: the function reads NumPy scalars as data, with their dtype (torch.tensor).
    """

    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        result = _guard(name or function.__name__, function, method=False,
                        tensor_first=tensor_first, numpy_data=numpy_data)
        _UNGUARDED[result] = (function, tensor_first, numpy_data)
        return result

    return wrap if function is None else wrap(function)


def alias(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Another public name for a guarded function (torch.clip for torch.clamp): its argument
    errors say `name`, as PyTorch's do."""
    raw, tensor_first, numpy_data = _UNGUARDED[function]
    return guarded(raw, name=name, tensor_first=tensor_first, numpy_data=numpy_data)


def prefixed_names(namespace: dict[str, Any], prefix: str, names: Any) -> dict[str, Any]:
    """The guarded functions of a submodule namespace renamed as PyTorch names them there
    (torch.special.expit is special_expit, torch.linalg.det linalg_det): their __name__ and
    argument errors. Functions already so named, and unguarded ones, are left as they are."""
    renamed = {}
    for name in names:
        function = namespace.get(name)
        if function in _UNGUARDED and function.__name__ != prefix + name:
            renamed[name] = alias(function, prefix + name)
    return renamed


def reads_numpy_data(function: Callable[..., Any]) -> bool:
    """Whether a guarded function reads NumPy scalars as data (see `guarded`)."""
    entry = _UNGUARDED.get(function)
    return entry is not None and entry[2]


def unguarded(function: Callable[..., Any]) -> Callable[..., Any]:
    """The function a `guarded` one wraps (any other function as it is)."""
    entry = _UNGUARDED.get(function)
    return function if entry is None else entry[0]
