"""PyTorch 2.13's printed overloads of the functions and Tensor methods that have several:
what "received an invalid combination of arguments ... but expected one of:" lists, in
PyTorch's order (python_arg_parser's FunctionSignature::toString). Data only, harvested from
torch by tests/test_error_texts.py (which checks it); see ops/signatures.py."""

from __future__ import annotations

Overloads = tuple[tuple[str, ...], tuple[str, ...]]  # (function form, method form)

# std, var: the same overloads
_STD: Overloads = (
    (
        "(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, "
        "Tensor out = None)",
        "(Tensor input, tuple of ints dim = None, *, Number correction = None, "
        "bool keepdim = False, Tensor out = None)",
        "(Tensor input, bool unbiased = True)",
    ),
    (
        "(tuple of ints dim, bool unbiased = True, bool keepdim = False)",
        "(tuple of ints dim = None, *, Number correction = None, bool keepdim = False)",
        "(bool unbiased = True)",
    ),
)
# max, min: the same overloads
_MAX: Overloads = (
    (
        "(Tensor input, *, Tensor out = None)",
        "(Tensor input, Tensor other, *, Tensor out = None)",
        "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)",
    ),
    (
        "()",
        "(Tensor other)",
        "(int dim, bool keepdim = False)",
    ),
)
# add, sub: the same overloads
_ADD: Overloads = (
    (
        "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",
    ),
    (
        "(Tensor other, *, Number alpha = 1)",
    ),
)
# clamp, clip: the same overloads
_CLAMP: Overloads = (
    (
        "(Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)",
        "(Tensor input, Number min = None, Number max = None, *, Tensor out = None)",
    ),
    (
        "(Tensor min = None, Tensor max = None)",
        "(Number min = None, Number max = None)",
    ),
)
# the comparisons and fmod: a tensor or a number as other (a number first is no overload)
_COMPARE: Overloads = (
    (
        "(Tensor input, Tensor other, *, Tensor out = None)",
        "(Tensor input, Number other, *, Tensor out = None)",
    ),
    (
        "(Tensor other)",
        "(Number other)",
    ),
)
# rand, randn: the same overloads
_RAND: Overloads = (
    (
        "(tuple of ints size, *, torch.Generator generator, Tensor out = None, "
        "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
        "bool pin_memory = False, bool requires_grad = False)",
        "(tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, "
        "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
        "bool requires_grad = False)",
    ),
    (),
)
# eq, gt, lt, ge, le, ne, fmod: the same overloads
_EQ: Overloads = (
    (
        "(Tensor input, Tensor other, *, Tensor out = None)",
        "(Tensor input, Number other, *, Tensor out = None)",
    ),
    (
        "(Tensor other)",
        "(Number other)",
    ),
)
# all, any: the same overloads
_ALL: Overloads = (
    (
        "(Tensor input, *, Tensor out = None)",
        "(Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None)",
        "(Tensor input, int dim, bool keepdim = False, *, Tensor out = None)",
    ),
    (
        "()",
        "(tuple of ints dim = None, bool keepdim = False)",
        "(int dim, bool keepdim = False)",
    ),
)
# rand_like, randn_like: the same overloads
_RAND_LIKE: Overloads = (
    (
        "(Tensor input, *, torch.Generator generator, torch.memory_format memory_format = None, "
        "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
        "bool pin_memory = False, bool requires_grad = False)",
        "(Tensor input, *, torch.memory_format memory_format = None, torch.dtype dtype = None, "
        "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
        "bool requires_grad = False)",
    ),
    (),
)
# add_, sub_: the same overloads
_ADD_INPLACE: Overloads = (
    (),
    (
        "(Tensor other, *, Number alpha = 1)",
    ),
)
# addcmul, addcdiv: the same overloads
_ADDCMUL: Overloads = (
    (
        "(Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, Tensor out = None)",
    ),
    (
        "(Tensor tensor1, Tensor tensor2, *, Number value = 1)",
    ),
)
# std_mean, var_mean: the same overloads
_STD_MEAN: Overloads = (
    (
        "(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)",
        "(Tensor input, tuple of ints dim = None, *, Number correction = None, "
        "bool keepdim = False)",
        "(Tensor input, bool unbiased = True)",
    ),
    (),
)

# name -> (function form, method form); () where PyTorch has no such form or only one overload
OVERLOADS: dict[str, Overloads] = {
    "sum": (
        (
            "(Tensor input, *, torch.dtype dtype = None)",
            "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None)",
        ),
        (
            "(*, torch.dtype dtype = None)",
            "(tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)",
        ),
    ),
    "mean": (
        (
            "(Tensor input, *, torch.dtype dtype = None, Tensor out = None)",
            "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None)",
        ),
        (
            "(*, torch.dtype dtype = None)",
            "(tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)",
        ),
    ),
    "std": _STD,
    "var": _STD,
    "max": _MAX,
    "min": _MAX,
    "prod": (
        (
            "(Tensor input, *, torch.dtype dtype = None)",
            "(Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None)",
        ),
        (
            "(*, torch.dtype dtype = None)",
            "(int dim, bool keepdim = False, *, torch.dtype dtype = None)",
        ),
    ),
    "add": _ADD,
    "sub": _ADD,
    "div": (
        (
            "(Tensor input, Tensor other, *, Tensor out = None)",
            "(Tensor input, Tensor other, *, str rounding_mode, Tensor out = None)",
            "(Tensor input, Number other, *, str rounding_mode)",
        ),
        (
            "(Tensor other)",
            "(Tensor other, *, str rounding_mode)",
            "(Number other, *, str rounding_mode)",
        ),
    ),
    "pow": (
        (
            "(Tensor input, Tensor exponent, *, Tensor out = None)",
            "(Number self, Tensor exponent, *, Tensor out = None)",
            "(Tensor input, Number exponent, *, Tensor out = None)",
        ),
        (
            "(Tensor exponent)",
            "(Number exponent)",
        ),
    ),
    "clamp": _CLAMP,
    "clip": _CLAMP,
    **{name: _COMPARE for name in ("eq", "ne", "lt", "le", "gt", "ge", "greater",
                                   "greater_equal", "less", "less_equal", "not_equal", "fmod")},
    "clamp_min": (
        (
            "(Tensor input, Tensor min, *, Tensor out = None)",
            "(Tensor input, Number min, *, Tensor out = None)",
        ),
        (
            "(Tensor min)",
            "(Number min)",
        ),
    ),
    "clamp_max": (
        (
            "(Tensor input, Tensor max, *, Tensor out = None)",
            "(Tensor input, Number max, *, Tensor out = None)",
        ),
        (
            "(Tensor max)",
            "(Number max)",
        ),
    ),
    "view": (
        (),
        (
            "(torch.dtype dtype)",
            "(tuple of ints size)",
        ),
    ),
    "squeeze": (
        (
            "(Tensor input)",
            "(Tensor input, int dim)",
            "(Tensor input, tuple of ints dim)",
        ),
        (
            "()",
            "(int dim)",
            "(tuple of ints dim)",
        ),
    ),
    "rand": _RAND,
    "randn": _RAND,
    "randint": (
        (
            "(int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
            "(int high, tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, "
            "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
            "bool requires_grad = False)",
            "(int low, int high, tuple of ints size, *, torch.Generator generator, "
            "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
            "torch.device device = None, bool pin_memory = False, bool requires_grad = False)",
            "(int low, int high, tuple of ints size, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
        ),
        (),
    ),
    "linspace": (
        (
            "(Tensor start, Tensor end, int steps, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
            "(Number start, Tensor end, int steps, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
            "(Tensor start, Number end, int steps, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
            "(Number start, Number end, int steps, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
        ),
        (),
    ),
    "logspace": (
        (
            "(Tensor start, Tensor end, int steps, float base = 10.0, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
            "(Number start, Tensor end, int steps, float base = 10.0, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
            "(Tensor start, Number end, int steps, float base = 10.0, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
            "(Number start, Number end, int steps, float base = 10.0, *, Tensor out = None, "
            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)",
        ),
        (),
    ),
    "where": (
        (
            "(Tensor condition)",
            "(Tensor condition, Tensor input, Tensor other, *, Tensor out = None)",
            "(Tensor condition, Number self, Tensor other)",
            "(Tensor condition, Tensor input, Number other)",
            "(Tensor condition, Number self, Number other)",
        ),
        (
            "(Tensor condition, Tensor other)",
            "(Tensor condition, Number other)",
        ),
    ),
    "sort": (
        (
            "(Tensor input, *, bool stable, int dim = -1, bool descending = False, "
            "tuple of Tensors out = None)",
            "(Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None)",
        ),
        (
            "(*, bool stable, int dim = -1, bool descending = False)",
            "(int dim = -1, bool descending = False)",
        ),
    ),
    "masked_fill": (
        (
            "(Tensor input, Tensor mask, Tensor value)",
            "(Tensor input, Tensor mask, Number value)",
        ),
        (
            "(Tensor mask, Tensor value)",
            "(Tensor mask, Number value)",
        ),
    ),
    "eq": _EQ,
    "gt": _EQ,
    "lt": _EQ,
    "ge": _EQ,
    "le": _EQ,
    "ne": _EQ,
    "mm": (
        (
            "(Tensor input, Tensor mat2, *, Tensor out = None)",
            "(Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out = None)",
        ),
        (),
    ),
    "to": (
        (),
        (
            "(torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
            "bool copy = False, *, torch.memory_format memory_format = None)",
            "(torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
            "torch.memory_format memory_format = None)",
            "(Tensor tensor, bool non_blocking = False, bool copy = False, *, "
            "torch.memory_format memory_format = None)",
        ),
    ),
    "type": (
        (),
        (
            "(object dtype = None, bool non_blocking = False, *, "
            "torch.memory_format memory_format = None)",
        ),
    ),
    "all": _ALL,
    "any": _ALL,
    "median": (
        (
            "(Tensor input)",
            "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)",
        ),
        (
            "()",
            "(int dim, bool keepdim = False)",
        ),
    ),
    "nonzero": (
        (),
        (
            "()",
            "(*, bool as_tuple)",
        ),
    ),
    "narrow": (
        (
            "(Tensor input, int dim, Tensor start, int length)",
            "(Tensor input, int dim, int start, int length)",
        ),
        (
            "(int dim, Tensor start, int length)",
            "(int dim, int start, int length)",
        ),
    ),
    "rand_like": _RAND_LIKE,
    "randn_like": _RAND_LIKE,
    "fill_": (
        (
            "(Tensor input, Tensor value)",
            "(Tensor input, Number value)",
        ),
        (
            "(Tensor value)",
            "(Number value)",
        ),
    ),
    "add_": _ADD_INPLACE,
    "sub_": _ADD_INPLACE,
    "div_": (
        (),
        (
            "(Tensor other)",
            "(Tensor other, *, str rounding_mode)",
            "(Number other, *, str rounding_mode)",
        ),
    ),
    "clamp_": (
        (
            "(Tensor input, Tensor min = None, Tensor max = None)",
            "(Tensor input, Number min = None, Number max = None)",
        ),
        (
            "(Tensor min = None, Tensor max = None)",
            "(Number min = None, Number max = None)",
        ),
    ),
    "scatter": (
        (
            "(Tensor input, int dim, Tensor index, Tensor src, *, Tensor out = None)",
            "(Tensor input, int dim, Tensor index, Tensor src, *, str reduce, Tensor out = None)",
            "(Tensor input, int dim, Tensor index, Number value, *, Tensor out = None)",
            "(Tensor input, int dim, Tensor index, Number value, *, str reduce, Tensor out = None)",
        ),
        (
            "(int dim, Tensor index, Tensor src)",
            "(int dim, Tensor index, Tensor src, *, str reduce)",
            "(int dim, Tensor index, Number value)",
            "(int dim, Tensor index, Number value, *, str reduce)",
        ),
    ),
    "remainder": (
        (
            "(Tensor input, Tensor other, *, Tensor out = None)",
            "(Number self, Tensor other)",
            "(Tensor input, Number other, *, Tensor out = None)",
        ),
        (
            "(Tensor other)",
            "(Number other)",
        ),
    ),
    "fmod": _EQ,
    "lerp": (
        (
            "(Tensor input, Tensor end, Tensor weight, *, Tensor out = None)",
            "(Tensor input, Tensor end, Number weight, *, Tensor out = None)",
        ),
        (
            "(Tensor end, Tensor weight)",
            "(Tensor end, Number weight)",
        ),
    ),
    "addcmul": _ADDCMUL,
    "addcdiv": _ADDCMUL,
    "addcmul_": ((), _ADDCMUL[1]),
    "addcdiv_": ((), _ADDCMUL[1]),
    "randperm": (
        (
            "(int n, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, "
            "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
            "bool requires_grad = False)",
            "(int n, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
            "torch.device device = None, bool pin_memory = False, bool requires_grad = False)",
        ),
        (),
    ),
    "bernoulli": (
        (
            "(Tensor input, *, torch.Generator generator = None, Tensor out = None)",
            "(Tensor input, float p, *, torch.Generator generator = None)",
        ),
        (
            "(*, torch.Generator generator = None)",
            "(float p, *, torch.Generator generator = None)",
        ),
    ),
    "tensor_split": (
        (
            "(Tensor input, tuple of ints indices, int dim = 0)",
            "(Tensor input, Tensor tensor_indices_or_sections, int dim = 0)",
            "(Tensor input, int sections, int dim = 0)",
        ),
        (
            "(tuple of ints indices, int dim = 0)",
            "(Tensor tensor_indices_or_sections, int dim = 0)",
            "(int sections, int dim = 0)",
        ),
    ),
    "count_nonzero": (
        (
            "(Tensor input, int dim = None)",
            "(Tensor input, tuple of ints dim)",
        ),
        (
            "(int dim = None)",
            "(tuple of ints dim)",
        ),
    ),
    "std_mean": _STD_MEAN,
    "var_mean": _STD_MEAN,
}

# PyTorch's deprecated overloads (tools/autograd/deprecated.yaml): taken, with a warning, but
# never listed in an error; the Number moves to the keyword of the same name in the overload kept
_ADD_DEPRECATED: Overloads = (
    ("(Tensor input, Number alpha, Tensor other, *, Tensor out = None)",),
    ("(Number alpha, Tensor other)",),
)
_ADDCMUL_DEPRECATED: Overloads = (
    ("(Tensor input, Number value, Tensor tensor1, Tensor tensor2, *, Tensor out = None)",),
    ("(Number value, Tensor tensor1, Tensor tensor2)",),
)
DEPRECATED: dict[str, Overloads] = {
    "add": _ADD_DEPRECATED, "sub": _ADD_DEPRECATED,
    "add_": ((), _ADD_DEPRECATED[1]), "sub_": ((), _ADD_DEPRECATED[1]),
    "addcmul": _ADDCMUL_DEPRECATED, "addcdiv": _ADDCMUL_DEPRECATED,
    "addcmul_": ((), _ADDCMUL_DEPRECATED[1]), "addcdiv_": ((), _ADDCMUL_DEPRECATED[1]),
}

# Parameters that take None though their printed overloads show no default (an `int[1]? dim`
# prints as "tuple of ints dim"), from the operators' schemas
NULLABLE: dict[str, frozenset[str]] = {
    "sum": frozenset({"dim"}), "mean": frozenset({"dim"}), "std": frozenset({"dim"}),
    "var": frozenset({"dim"}), "div": frozenset({"rounding_mode"}),
    "rand": frozenset({"generator"}), "randn": frozenset({"generator"}),
    "randint": frozenset({"generator"}), "sort": frozenset({"stable"}),
    "to": frozenset({"dtype"}), "all": frozenset({"dim"}), "any": frozenset({"dim"}),
    "rand_like": frozenset({"generator"}), "randn_like": frozenset({"generator"}),
    "div_": frozenset({"rounding_mode"}), "randperm": frozenset({"generator"}),
    "count_nonzero": frozenset({"dim"}), "std_mean": frozenset({"dim"}),
    "var_mean": frozenset({"dim"}),
}
