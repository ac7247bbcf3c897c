# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch recipe
# "Extension points in nn.Module for load_state_dict and tensor subclasses", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/recipes_source/recipes/swap_tensors.py
# Like the original: torch.utils.swap_tensors exchanges two tensors of different sizes in
# place; a Linear layer's weight replaced out of place by a new nn.Parameter leaves the
# optimizer holding the old one (its param_groups show the stale value).
# Differences: our own code; the __torch_dispatch__ subclass sections are left out; we also
# swap a leaf that requires grad with a plain tensor and backpropagate through the swapped
# tensor, and swap two Parameters; seeded.
import torch

torch.manual_seed(0)

first = torch.arange(2)
second = torch.arange(3)
print(f"before: first={first} second={second}")
torch.utils.swap_tensors(first, second)
print(f"after:  first={first} second={second}")

layer = torch.nn.Linear(1, 2, bias=False)
opt = torch.optim.SGD(layer.parameters())
print("layer weight:", layer.weight)
print("optimizer holds:", opt.param_groups[0]["params"])
layer.weight = torch.nn.Parameter(3 * layer.weight)
print("layer weight after reassignment:", layer.weight)
print("optimizer still holds:", opt.param_groups[0]["params"])
print("same object:", opt.param_groups[0]["params"][0] is layer.weight)

leaf = torch.ones(2, requires_grad=True)
plain = torch.linspace(0.0, 1.0, 4)
torch.utils.swap_tensors(leaf, plain)
print(leaf, leaf.requires_grad, plain, plain.requires_grad, plain.is_leaf)
(plain * 5).sum().backward()
print("grad of the swapped leaf:", plain.grad, "other:", leaf.grad)

p = torch.nn.Parameter(torch.zeros(2, 2))
q = torch.nn.Parameter(torch.randn(2))
torch.utils.swap_tensors(p, q)
print(p)
print(q)
