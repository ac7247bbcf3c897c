# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum threads
# about per-layer learning rates and adding parameters to an optimizer (e.g.
# https://discuss.pytorch.org/t/different-learning-rate-for-a-specific-layer/33670 and the
# "Per-parameter options" section of https://pytorch.org/docs/stable/optim.html): parameter
# groups as dicts with their own lr (the backbone at 1e-4, the head at 1e-2), defaults
# filling the other options, optimizer.add_param_group for a newly unfrozen layer,
# param_groups printed, zero_grad(set_to_none=True) leaving .grad None, the state created by
# the first step (momentum buffers, Adam's exp_avg), and the errors for a parameter in two
# groups and for an empty parameter list.
# Differences: our own code and model; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
backbone = list(model[0].parameters())
head = list(model[4].parameters())
optimizer = torch.optim.SGD([{"params": backbone, "lr": 1e-4},
                             {"params": head}], lr=1e-2, momentum=0.9)
for i, group in enumerate(optimizer.param_groups):
    print(i, group["lr"], group["momentum"], len(group["params"]), sorted(group.keys()))
optimizer.add_param_group({"params": model[2].parameters(), "lr": 5e-3})
print(len(optimizer.param_groups), [g["lr"] for g in optimizer.param_groups])
x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
optimizer.step()
state = optimizer.state_dict()
print(sorted(state.keys()), sorted(state["state"].keys()))
print(state["param_groups"][2]["params"], state["state"][0]["momentum_buffer"].shape)
optimizer.zero_grad(set_to_none=True)
print(model[0].weight.grad is None)
optimizer.zero_grad(set_to_none=False)
print(model[0].weight.grad)

adam = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.99))
nn.functional.cross_entropy(model(x), y).backward()
adam.step()
s = adam.state[model[4].bias]
print(sorted(s.keys()), s["step"], s["exp_avg"].shape)
print(adam.param_groups[0]["betas"], adam.defaults["eps"])
for g in adam.param_groups:
    g["lr"] = g["lr"] * 0.5
print(adam.param_groups[0]["lr"])
try:
    torch.optim.SGD([{"params": backbone}, {"params": backbone}], lr=0.1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print("ValueError:", e)
try:
    optimizer.add_param_group({"params": head})
except ValueError as e:
    print("ValueError:", e)
print(optimizer)
