# Corpus program, written for gradsh (no code copied). Modelled on the documentation of
# torch.nn.utils.clip_grad_norm_ and clip_grad_value_, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/nn/utils/clip_grad.py
# and the common training-loop use ("clip after backward, before optimizer.step()", as in
# pytorch/examples word_language_model). Like the docs: the total norm over all parameters'
# gradients viewed as one vector is returned (a tensor), max_norm with norm_type 2, 1 and
# inf, gradients scaled only when the norm exceeds max_norm, clip_grad_value_ clamping each
# element to [-clip_value, clip_value], a single tensor accepted in place of an iterable,
# and error_if_nonfinite.
# Differences: our own code and values; every gradient and norm is printed; seeded.
import torch
from torch import nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(5, 3)


def fresh_grads():
    model.zero_grad()
    (model(x) * 10).pow(2).sum().backward()


fresh_grads()
before = [p.grad.clone() for p in model.parameters()]
norm = clip_grad_norm_(model.parameters(), max_norm=1.0)
print(norm)
after = torch.cat([p.grad.flatten() for p in model.parameters()])
print(f"{after.norm().item():.4f}")
print(torch.allclose(model[2].bias.grad, before[3] * (1.0 / (norm + 1e-6))))

fresh_grads()
print(clip_grad_norm_(model.parameters(), max_norm=1e6))
print(torch.equal(model[0].weight.grad, before[0]))

for norm_type in (1, float("inf"), 3.0):
    fresh_grads()
    total = clip_grad_norm_(model.parameters(), max_norm=2.0, norm_type=norm_type)
    print(norm_type, f"{total.item():.3f}",
          f"{torch.cat([p.grad.flatten() for p in model.parameters()]).norm(norm_type).item():.4f}")

fresh_grads()
clip_grad_value_(model.parameters(), clip_value=0.5)
print(model[2].weight.grad)
print(model[0].bias.grad)

w = torch.tensor([3.0, 4.0], requires_grad=True)
(w * w).sum().backward()
print(w.grad, clip_grad_norm_(w, 5.0), w.grad)

bad = torch.tensor([1.0, 2.0], requires_grad=True)
bad.grad = torch.tensor([float("inf"), 1.0])
print(clip_grad_norm_([bad], 1.0))
try:
    clip_grad_norm_([bad], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)

none_grad = nn.Linear(2, 2)
print(clip_grad_norm_(none_grad.parameters(), 1.0))

opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    total = clip_grad_norm_(model.parameters(), 0.25)
    opt.step()
    print(step, f"{loss.item():.5f}", f"{total.item():.5f}")
