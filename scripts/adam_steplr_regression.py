"""A small linear regression trained with Adam, a StepLR schedule and a shuffling DataLoader."""

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
x = torch.linspace(-1, 1, 24).unsqueeze(1)
y = 3 * x - 0.5 + 0.1 * torch.randn(24, 1)
loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)

w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.Adam([w, b], lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
print(opt)

for epoch in range(30):
    for xb, yb in loader:
        opt.zero_grad()
        loss = ((xb @ w + b - yb) ** 2).mean()
        loss.backward()
        opt.step()
    scheduler.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1:2d}  loss {loss.item():.4f}  lr {scheduler.get_last_lr()[0]:.4f}")

print(w, b)
opt.param_groups[0]["lr"] = 0.01  # param groups are plain dicts
print(opt.state_dict()["param_groups"][0]["lr"], opt.state[w]["step"])
