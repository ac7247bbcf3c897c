# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "Clip gradient norm from chatbot tutorial" (https://discuss.pytorch.org/t/clip-gradient-norm-from-chatbot-tutorial/35106/2)
# and the gradient-clipping exercise at https://crackedaicode.com/problems/gradient-clipping:
# the global L2 norm of all gradients sqrt(sum g^2), computed by hand and compared with the
# total norm nn.utils.clip_grad_norm_ returns (before clipping), the gradients scaled by
# max_norm / (norm + 1e-6) only when the norm exceeds max_norm, norm_type=inf and 1,
# clip_grad_value_, and the error_if_nonfinite option on an infinite gradient.
# Differences: our own code and model; seeded; values rounded.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
x = torch.randn(16, 4) * 10
loss = model(x).pow(2).sum()
loss.backward()

manual = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))
print(round(manual.item(), 3))
before = [p.grad.clone() for p in model.parameters()]
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(type(total).__name__, total.dtype, round(total.item(), 3))
after = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))
print(round(after.item(), 4))
ratio = [(a / b).mean().item() for a, b in zip((p.grad for p in model.parameters()), before)]
print(all(abs(r - ratio[0]) < 1e-4 for r in ratio), round(ratio[0] * total.item(), 3))

total2 = nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
print(round(total2.item(), 4))
model.zero_grad()
model(x).sum().backward()
inf_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type=float("inf"))
print(round(inf_norm.item(), 3), round(max(p.grad.abs().max().item() for p in model.parameters()), 4))
model.zero_grad()
model(x).sum().backward()
l1 = nn.utils.clip_grad_norm_(model.parameters(), max_norm=100.0, norm_type=1)
print(round(l1.item(), 2))
model.zero_grad()
model(x).sum().backward()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)
print(max(p.grad.abs().max().item() for p in model.parameters()))
single = torch.tensor([3.0, 4.0], requires_grad=True)
single.grad = torch.tensor([3.0, 4.0])
print(nn.utils.clip_grad_norm_(single, 1.0), single.grad)
w = torch.ones(2, requires_grad=True)
w.grad = torch.tensor([float("inf"), 1.0])
try:
    nn.utils.clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(nn.utils.clip_grad_norm_([w], 1.0), w.grad)
empty = nn.utils.clip_grad_norm_([], 1.0)
print(empty)
print(nn.utils.get_total_norm([torch.tensor([3.0, 4.0]), torch.tensor([12.0])]))
