"""One builtin of the .grad language (gradsh.builtins holds the table) and the helpers that
write its entries."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Builtin:
    name: str
    kind: str  # "function", "method", "attribute", "statement" or "constant"
    signature: str
    doc: str
    autograd: str = ""  # what it does to is_leaf / grad_fn / grad
    example: str = ""
    function: bool = False  # callable as `name(...)` / `torch.name(...)`
    method: bool = False  # callable as `x.name(...)`
    target: str = ""  # ops function name when it differs from `name`
    grad_flag: bool = False  # accepts the bare `grad` flag: `tensor(2., grad)`
    torch: str = ""  # PyTorch's spelling of the function when it is not `torch.<name>`
    home: str = "ops"  # where `target` lives: a key of HOMES (gradsh.torch.nn for classes)
    owners: tuple[str, ...] = ()  # a member's classes: "Module" (torch.nn), "Optimizer"
    # "only": Python's builtin (`len`), never reached through torch.; "fallback": torch's function
    # on a tensor, Python's builtin on other values (`sum(losses)`, `max(2, 3)`); "": torch's.
    python: str = ""

    @property
    def ops_name(self) -> str:
        return self.target or self.name

    @property
    def torch_name(self) -> str:
        """How the exporter spells a call of this function in PyTorch (`torch.relu`)."""
        return self.torch or f"torch.{self.name}"


def _fn(name: str, signature: str, doc: str, autograd: str = "", example: str = "", *,
        method: bool = True, function: bool = True, target: str = "",
        grad_flag: bool = False, torch: str = "", home: str = "ops",
        python: str = "") -> Builtin:
    return Builtin(name, "function" if function else "method", signature, doc, autograd, example,
                   function, method, target, grad_flag, torch, home, python=python)


def _attr(name: str, doc: str, example: str = "") -> Builtin:
    return Builtin(name, "attribute", f"x.{name}", doc, example=example)


def _member(name: str, owners: tuple[str, ...], signature: str, doc: str, autograd: str = "",
            example: str = "") -> Builtin:
    """A method or attribute of an nn module or an optimizer that scripts may use."""
    return Builtin(name, "member", signature, doc, autograd, example, owners=owners)


def _cls(name: str, signature: str, doc: str, autograd: str = "", example: str = "") -> Builtin:
    """A torch.nn class: `nn.Linear(3, 4)` builds a module, calling the module runs it."""
    return Builtin(name, "class", signature, doc, autograd, example, function=True,
                   torch=f"torch.nn.{name}", home="nn")


def _stmt(name: str, signature: str, doc: str, example: str = "") -> Builtin:
    return Builtin(name, "statement", signature, doc, example=example)


_OPT = ("Optimizer",)
_MOD = ("Module",)
_CREATION = "a new leaf; requires_grad only if asked (`grad` or requires_grad=True)"
_ELEMENTWISE = "the result requires grad if an input does; grad_fn {}"
_VIEW = "a view sharing storage and version counter; grad_fn {}"
