# Corpus program modelled on the Q&A guide to torch.nn.utils.vector_to_parameters
# (https://runebook.dev/ru/docs/pytorch/generated/torch.nn.utils.vector_to_parameters) and
# "PyTorch Flatten Parameters" (https://www.codegenes.net/blog/pytorch-flatten-parameters):
# parameters_to_vector against the manual torch.cat of p.view(-1), a flat gradient vector, a
# step written back with vector_to_parameters, and the errors for a wrong length or a
# non-tensor. Changed: a small MLP with a seed.
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
vec = parameters_to_vector(model.parameters())
print(vec)
print(vec.shape, vec.requires_grad, type(vec.grad_fn).__name__)
manual = torch.cat([p.view(-1) for p in model.parameters()])
print(torch.equal(vec, manual), type(manual.grad_fn).__name__)
print(sum(p.numel() for p in model.parameters()))

x = torch.randn(5, 2)
y = torch.randn(5, 1)
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
flat_grad = parameters_to_vector(p.grad for p in model.parameters())
print(flat_grad)
print(torch.cat([p.grad.flatten() for p in model.parameters()]).norm(), flat_grad.norm())

# one gradient step on the flat vector, written back
with torch.no_grad():
    new_vec = vec - 0.1 * flat_grad
    vector_to_parameters(new_vec, model.parameters())
for name, p in model.named_parameters():
    print(name, p.data, p.requires_grad, p.is_leaf)
print(nn.functional.mse_loss(model(x), y).item() < loss.item())

# vec stays a differentiable function of the parameters
v2 = parameters_to_vector(model.parameters())
print(v2.grad_fn.name() if v2.grad_fn else None)
(v2 ** 2).sum().backward()
print(model[0].bias.grad)

# zeros, then random, parameters
vector_to_parameters(torch.zeros(9), model.parameters())
print(model(x).squeeze())
vector_to_parameters(torch.arange(9.), model.parameters())
print(model[0].weight, model[2].bias)
try:
    vector_to_parameters(torch.zeros(5), model.parameters())
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    vector_to_parameters([0.0] * 9, model.parameters())
except TypeError as e:
    print("TypeError:", e)
try:
    parameters_to_vector([torch.ones(2), torch.ones(2, dtype=torch.float64)])
except Exception as e:
    print(type(e).__name__ + ":", e)
print(parameters_to_vector([torch.ones(2, 2), torch.zeros(3)]))
