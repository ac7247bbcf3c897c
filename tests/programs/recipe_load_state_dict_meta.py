# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch recipe "Tips for
# Loading an nn.Module from a Checkpoint", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/recipes_source/recipes/module_load_state_dict_tips.py
# Like the original: a module of ten nn.Linear layers saved with torch.save, loaded back with
# torch.load (mmap=True too), a skeleton of the module built under `with torch.device('meta')`
# so that no memory is spent on its parameters, and load_state_dict(..., assign=True) putting
# the checkpoint's tensors in place of the meta parameters.
# Differences: our own code; the checkpoint file is in a temporary directory; the meta
# module's parameters, a no-op load without assign (its warning goes to stderr), to_empty and
# the error of Module.to on meta parameters are printed too; seeded.
import os
import tempfile
import warnings

import torch
from torch import nn

torch.manual_seed(0)


class SomeModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(1, 1) for _ in range(10)])

    def forward(self, x):
        for linear in self.linears:
            x = linear(x)
        return x


model = SomeModule()
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "checkpoint.pth")
    torch.save(model.state_dict(), path)
    state_dict = torch.load(path, mmap=True)
    plain = torch.load(path)

with torch.device("meta"):
    meta_model = SomeModule()
print(meta_model.linears[0].weight)
print(meta_model.linears[0].bias.is_meta, meta_model.linears[0].weight.requires_grad)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(meta_model.load_state_dict(plain))
print(meta_model.linears[2].bias)

print(meta_model.load_state_dict(state_dict, assign=True))
print(meta_model.linears[3].weight, meta_model.linears[3].bias.device)
print(type(meta_model.linears[3].weight).__name__)
x = torch.tensor([[0.5], [-1.0]])
print(torch.equal(meta_model(x), model(x)))

fresh = SomeModule()
print(fresh.load_state_dict(plain))
print(fresh(x))

with torch.device("meta"):
    skeleton = SomeModule()
try:
    skeleton.to("cpu")
except NotImplementedError as error:
    print("NotImplementedError:", error)
skeleton.to_empty(device="cpu")
print(skeleton.linears[0].weight.device, skeleton.linears[0].weight.shape)
with torch.no_grad():
    for linear in skeleton.linears:
        nn.init.ones_(linear.weight)
        nn.init.zeros_(linear.bias)
print(skeleton(x))
