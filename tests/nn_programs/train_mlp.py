"""A small regression MLP trained with SGD: losses, grads, model.zero_grad vs optimizer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-1, 1, 16).unsqueeze(1)
y = x.pow(2) + 0.1 * torch.randn(16, 1)
model = nn.Sequential(nn.Linear(1, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
for step in range(5):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(model[0].weight.grad is not None)
model.zero_grad()
print(model[0].weight.grad)
print(model[2].bias)
with torch.no_grad():
    print(model(torch.tensor([[0.5]])))
print(nn.utils.parameters_to_vector(model.parameters()).shape)
loss = F.mse_loss(model(x), y)
loss.backward()
total = nn.utils.clip_grad_norm_(model.parameters(), 0.1)
print(f"{total.item():.5f}", f"{nn.utils.parameters_to_vector(p.grad for p in model.parameters()).norm().item():.5f}")
nn.utils.clip_grad_value_(model.parameters(), 0.01)
print(model[0].bias.grad.abs().max())
