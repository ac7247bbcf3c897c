# Corpus program modelled on the Stack Overflow question "How to do gradient clipping in
# pytorch?" (https://stackoverflow.com/questions/54716377) and its answers:
# torch.nn.utils.clip_grad_norm_ (returns the total norm before clipping), clip_grad_value_,
# clipping during backward with p.register_hook(lambda grad: torch.clamp(grad, -v, v)), the
# norm_type=inf variant, error_if_nonfinite with a NaN gradient, and get_total_norm.
# Changed: a small model, a seed, a gradient made large on purpose; the error is caught and
# printed. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(6, 3) * 10
y = torch.randn(6, 1) * 10


def grads():
    model.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()


grads()
norms = [p.grad.norm().item() for p in model.parameters()]
print([round(n, 4) for n in norms])
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total)
print(torch.stack([p.grad.norm() for p in model.parameters()]).norm())

grads()
print(nn.utils.clip_grad_norm_(model.parameters(), max_norm=2.0, norm_type=float("inf")))
print(max(p.grad.abs().max().item() for p in model.parameters()))

grads()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
print(model[2].weight.grad)
print(model[0].bias.grad)

clip_value = 0.25
handles = [p.register_hook(lambda grad: torch.clamp(grad, -clip_value, clip_value))
           for p in model.parameters()]
grads()
print(model[2].weight.grad)
print(model[2].bias.grad)
for h in handles:
    h.remove()
grads()
print(model[2].bias.grad)

grads()
model[0].weight.grad[0, 0] = float("nan")
try:
    nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(e)
print(nn.utils.clip_grad_norm_(model.parameters(), 1.0))
grads()
gs = [p.grad for p in model.parameters()]
print(nn.utils.get_total_norm(gs, norm_type=2.0))
print(nn.utils.clip_grad_norm_(model[0].weight, 0.1), model[0].weight.grad.norm())
print(nn.utils.clip_grad_norm_([], 1.0))
