# Corpus program modelled on GitHub issues whose programs hit "Boolean value of Tensor with more
# than one value is ambiguous", each repro kept with the fix its thread gave:
# GLCNet's chained comparison `0 < box_pid_label < 1` (https://github.com/ZhengPeng7/GLCNet/issues/5,
# fixed as (0 < x) * (x < 1)); ComfyUI's `if node_data['sigma_start'] >= timesteps >=
# node_data['sigma_end']` (https://github.com/Comfy-Org/ComfyUI/issues/5627); snefy's
# `if not (extra_input == 0)` (https://github.com/RussellTsuchida/snefy/issues/1); CortexNet's
# `self.first and bottom_up or ...` (https://github.com/Atcold/pytorch-CortexNet/issues/10);
# torchattacks' `if items not in stack` on a list holding tensors
# (https://github.com/RjDuan/AdvDrop/issues/22); and PyTorch's own "Fix far-fetched Boolean
# ambiguity for byte tensor with one value in it" (https://github.com/pytorch/pytorch/issues/3652),
# plus the empty-tensor case ("no values").
# Changed: the models around each line are replaced by small literal tensors; errors caught and
# printed. Written for gradsh.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except RuntimeError as e:
        print(label, "->", e)


box_pid_label = torch.tensor([0.5, 1.0, 0.2, -1.0])
attempt("0 < x < 1", lambda: 0 < box_pid_label < 1)
attempt("(0 < x) * (x < 1)", lambda: (0 < box_pid_label) * (box_pid_label < 1))
attempt("(0 < x) & (x < 1)", lambda: ((0 < box_pid_label) & (box_pid_label < 1)).nonzero())

node_data = {"sigma_start": 14.6, "sigma_end": 0.03}
for timesteps in (torch.tensor([0.5]), torch.tensor([0.5, 20.0]), torch.tensor(3.0)):
    attempt(f"sigma window {timesteps.tolist()}",
            lambda t=timesteps: "in" if node_data["sigma_start"] >= t >= node_data["sigma_end"]
            else "out")
    attempt("  .all()", lambda t=timesteps: bool(((node_data["sigma_start"] >= t)
                                                  & (t >= node_data["sigma_end"])).all()))

extra_input = torch.tensor([0.0, 2.0])
attempt("if not (x == 0)", lambda: "nonzero" if not (extra_input == 0) else "zero")
attempt("(x == 0).all()", lambda: bool((extra_input == 0).all()))
attempt("x.eq(0).any()", lambda: extra_input.eq(0).any())

torch.manual_seed(0)
first = False
bottom_up = torch.randn(2, 2).abs()
attempt("first and x or y", lambda: first and bottom_up or torch.zeros(2))
attempt("x if first else y", lambda: bottom_up if first else torch.zeros(2))

a, b = torch.ones(2), torch.zeros(2)
stack = [a]
attempt("b not in [a]", lambda: b not in stack)
attempt("a in [a]", lambda: a in stack)
attempt("id-based", lambda: any(b is item for item in stack))
attempt("one-element in", lambda: torch.tensor(1.0) in [torch.tensor(2.0), torch.tensor(1.0)])

attempt("bool(byte [1])", lambda: bool(torch.ByteTensor([1])))
attempt("bool(byte [0])", lambda: bool(torch.tensor([0], dtype=torch.uint8)))
attempt("bool(byte [1, 0])", lambda: bool(torch.tensor([1, 0], dtype=torch.uint8)))
attempt("bool([[nan]])", lambda: bool(torch.tensor([[float("nan")]])))
attempt("bool(empty)", lambda: bool(torch.tensor([])))
attempt("if boxes (empty)", lambda: "some" if torch.zeros(0, 4) else "none")
attempt("len(empty)", lambda: len(torch.zeros(0, 4)) > 0)
attempt("numel", lambda: torch.zeros(0, 4).numel() > 0)
attempt("is_nonzero", lambda: torch.tensor([3]).is_nonzero())
attempt("is_nonzero empty", lambda: torch.tensor([]).is_nonzero())
attempt("max(a, b)", lambda: max(torch.tensor([1, 5]), torch.tensor([3, 2])))
attempt("torch.maximum", lambda: torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2])))
attempt("while loss > 0", lambda: [0 for _ in range(1) if torch.tensor([0.2, 0.1]) > 0])
