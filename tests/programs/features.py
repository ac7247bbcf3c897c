"""Write FEATURES.md: the torch features each corpus program uses, and how many programs use each.

    python tests/programs/features.py          # rewrite FEATURES.md
    python tests/programs/features.py --check  # exit 1 if FEATURES.md is out of date

A static scan of each program's source (Python's ast): every torch name it reaches through
its imports (`nn.Linear`, `F.cross_entropy`, `optim.SGD`, `torch.autograd.grad`, ...), the
notable options passed to them (`optim.SGD(momentum)`, `DataLoader(shuffle)`,
`backward(retain_graph)`), subclasses of nn.Module and autograd.Function, and the
autograd-related tensor attributes and methods (`.grad_fn`, `.retain_grad()`, `.numpy()`,
...). Plain tensor creation and arithmetic are left out: every program needs those.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402  (the folder is put on sys.path just above)

OUTPUT = corpus.HERE / "FEATURES.md"

# torch.* names that count as features (prefixes); any other torch.* function is a basic
# tensor op, listed separately.
FEATURE_PREFIXES = (
    "torch.nn", "torch.optim", "torch.utils", "torch.autograd", "torch.cuda", "torch.backends",
    "torch.device", "torch.manual_seed", "torch.no_grad", "torch.enable_grad",
    "torch.set_grad_enabled", "torch.inference_mode", "torch.is_grad_enabled",
    "torch.is_inference_mode_enabled", "torch.is_anomaly_enabled", "torch.save", "torch.load",
    "torch.from_numpy", "torch.set_default_device", "torch.LongTensor", "torch.FloatTensor",
    "torch.Tensor", "torch.functional",
)
# Tensor attributes and methods that matter for autograd, in-place semantics or interop.
TENSOR_FEATURES = {
    "backward", "grad", "grad_fn", "next_functions", "is_leaf", "retain_grad", "retains_grad",
    "requires_grad", "requires_grad_", "detach", "detach_", "data", "numpy", "item",
    "register_hook", "register_post_accumulate_grad_hook", "_version", "_saved_self",
    "_saved_result", "_saved_other", "_raw_saved_self", "register_hooks", "zero_", "clone",
    "cuda", "to", "double", "index_add_", "index_copy_", "random_", "sin_", "cos_",
    "unsqueeze_", "mul_", "add_", "data_ptr", "state_dict", "load_state_dict", "parameters",
    "named_parameters", "zero_grad", "step", "train", "eval", "apply", "param_groups",
    "get_last_lr", "register_forward_hook", "register_full_backward_hook",
}
# Keyword options worth naming, per callee (last name component).
OPTIONS = {
    "SGD": {"momentum", "nesterov", "weight_decay", "dampening"},
    "Adam": {"weight_decay", "amsgrad", "betas"},
    "DataLoader": {"shuffle", "drop_last", "num_workers"},
    "backward": {"retain_graph", "create_graph", "gradient", "inputs"},
    "grad": {"retain_graph", "create_graph", "grad_outputs", "allow_unused"},
    "zero_grad": {"set_to_none"},
    "MSELoss": {"reduction", "size_average"},
    "CrossEntropyLoss": {"reduction", "weight", "label_smoothing"},
    "nll_loss": {"reduction"},
    "Embedding": {"padding_idx", "max_norm"},
    "BatchNorm1d": {"affine"},
    "Conv2d": {"stride", "padding", "dilation", "groups"},
    "jacobian": {"create_graph", "vectorize"},
    "hessian": {"create_graph"},
    "vjp": {"create_graph"},
    "jvp": {"create_graph"},
    "vhp": {"create_graph"},
    "hvp": {"create_graph"},
    "load_state_dict": {"strict"},
    "load": {"weights_only"},
    "clamp": {"min", "max"},
}
SHORT = (("torch.nn.functional.", "F."), ("torch.nn.", "nn."), ("torch.optim.lr_scheduler.",
         "lr_scheduler."), ("torch.optim.", "optim."), ("torch.utils.data.", "data."))


def _short(name: str) -> str:
    for prefix, short in SHORT:
        if name.startswith(prefix):
            return short + name[len(prefix):]
    return name


class _Scan(ast.NodeVisitor):
    def __init__(self) -> None:
        self.alias: dict[str, str] = {}
        self.found: set[str] = set()

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name.split(".")[0] == "torch":
                if a.asname:
                    self.alias[a.asname] = a.name
                else:
                    self.alias["torch"] = "torch"

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and node.module.split(".")[0] == "torch":
            for a in node.names:
                self.alias[a.asname or a.name] = f"{node.module}.{a.name}"

    def qualified(self, node: ast.expr) -> str | None:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.alias:
            return ".".join([self.alias[node.id], *reversed(parts)])
        return None

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = self.qualified(node)
        if name is not None:
            self.found.add(name)
        else:
            if node.attr in TENSOR_FEATURES:
                self.found.add(f".{node.attr}")
            self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.alias:
            self.found.add(self.alias[node.id])

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        callee = self.qualified(func)
        last = (callee or "").rsplit(".", 1)[-1] or (
            func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
        keys = {k.arg for k in node.keywords if k.arg} & OPTIONS.get(last, set())
        if last == "backward" and node.args:
            keys.add("gradient")
        label = callee or (f".{last}" if isinstance(func, ast.Attribute) else None)
        if keys and label:
            self.found.add(f"{label}({', '.join(sorted(keys))})")
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for base in node.bases:
            name = self.qualified(base)
            if name:
                self.found.add(f"subclass {_short(name)}")
        for stmt in node.body:
            self.visit(stmt)


def _is_feature(found: str) -> bool:
    if found.startswith(("subclass ", ".")):
        return True
    base = found.split("(", 1)[0]
    return base.startswith(FEATURE_PREFIXES) and base not in {
        "torch.nn", "torch.optim", "torch.autograd", "torch.utils.data", "torch.nn.functional",
        "torch.optim.lr_scheduler", "torch.autograd.functional", "torch.functional"}


def scan(name: str) -> tuple[list[str], list[str]]:
    """(features, basic torch functions) of one program."""
    tree = ast.parse((corpus.HERE / f"{name}.py").read_text(encoding="utf-8"))
    visitor = _Scan()
    visitor.visit(tree)
    torch_names = {f for f in visitor.found if f != "torch"}
    features = sorted({_short(f) for f in torch_names if _is_feature(f)})
    basic = sorted({f for f in torch_names if not _is_feature(f) and f.startswith("torch.")
                    and "(" not in f})
    return features, basic


def render() -> str:
    scans = {name: scan(name) for name in corpus.program_names()}
    per_program = {name: feats for name, (feats, _) in scans.items()}
    counts = Counter(f for feats in per_program.values() for f in feats)
    basic = Counter(b for _, names in scans.values() for b in names)
    lines = [
        "# Torch features used by the corpus",
        "",
        "Generated by `python tests/programs/features.py` from the programs' sources (a static",
        "scan: torch names reached through imports, notable keyword options, Module/Function",
        "subclasses, autograd-related tensor attributes). Plain tensor creation and arithmetic",
        "are listed separately at the end. `.name` is an attribute or method of a tensor, module",
        "or optimizer (the scan does not know which); `x(opt)` means the option is passed.",
        f"{len(per_program)} programs, {len(counts)} features.",
        "",
        "## How many programs use each feature",
        "",
        "| feature | programs |",
        "|---|---|",
    ]
    for feat, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"| `{feat}` | {n} |")
    lines += ["", "## Per program", ""]
    for name, feats in per_program.items():
        lines.append(f"- **{name}**: " + ", ".join(f"`{f}`" for f in feats))
    lines += ["", "## Other torch functions used (plain tensor ops), with program counts", ""]
    lines.append(", ".join(f"`{b}` {n}" for b, n in sorted(basic.items(),
                                                        key=lambda kv: (-kv[1], kv[0]))))
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print("FEATURES.md is out of date: run python tests/programs/features.py")
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
