"""torch.return_types: what torch.max(x, 0), torch.sort, torch.linalg.svd ... return. PyTorch's
are structseq types (as os.stat_result): tuples with named fields, n_fields,
n_sequence_fields and n_unnamed_fields, __match_args__, no namedtuple `_fields` (code that
treats namedtuples apart, as default_collate does, does not take them for one), built from a
sequence (`torch.return_types.max((values, indices))`), pickled as (type, (tuple, {})), and
printed one field a line."""

from __future__ import annotations

import builtins
from typing import Any

__all__ = ["return_type", "ALL"]

ALL: dict[str, type] = {}  # name -> the type (torch.return_types.NAME)


def _structseq_new(cls: type, sequence: Any, fields: Any = None) -> Any:
    """PyTorch's constructor: a sequence of exactly n_fields values (and a dict, empty)."""
    try:
        values = tuple(sequence)
    except TypeError:
        raise TypeError("constructor requires a sequence") from None
    count = cls.n_fields  # type: ignore[attr-defined]
    if len(values) != count:
        raise TypeError(f"torch.return_types.{cls.__name__}() takes a {count}-sequence "
                        f"({len(values)}-sequence given)")
    if fields:
        raise TypeError(f"torch.return_types.{cls.__name__}() takes a dict as second arg, "
                        "if any")
    return tuple.__new__(cls, values)  # type: ignore[type-var]


def _readonly(self: Any, value: Any = None) -> None:
    raise AttributeError("readonly attribute")


def return_type(kind: str, fields: tuple[str, ...]) -> type:
    """The torch.return_types.`kind` type with these fields. gradsh's ops build one from the
    values themselves (`max(values, indices)`); a program, as PyTorch's, from one sequence
    (`max((values, indices))`, or pickle's `max((values, indices), {})`)."""
    if kind in ALL:
        return ALL[kind]
    count = len(fields)

    def new(cls: type, *values: Any) -> Any:
        if len(values) == count and not (count == 2 and isinstance(values[1], dict)):
            return tuple.__new__(cls, values)  # type: ignore[type-var]
        if not 1 <= len(values) <= 2:
            raise TypeError(f"torch.return_types.{kind}() takes at most 2 arguments "
                            f"({len(values)} given)")
        return _structseq_new(cls, *values)

    def representation(self: tuple[Any, ...]) -> str:
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self, strict=True))
        return f"torch.return_types.{kind}(\n{body})"

    namespace: dict[str, Any] = {
        "__module__": "torch.return_types", "__slots__": (), "__match_args__": fields,
        "n_fields": count, "n_sequence_fields": count, "n_unnamed_fields": 0,
        "__new__": new, "__repr__": representation,
        "__reduce__": lambda self: (builtins.type(self), (tuple(self), {})),
    }
    for i, field in enumerate(fields):
        namespace[field] = property(lambda self, i=i: tuple.__getitem__(self, i),
                                    _readonly, _readonly)
    ALL[kind] = builtins.type(kind, (tuple,), namespace)
    return ALL[kind]
