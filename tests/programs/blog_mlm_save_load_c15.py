# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Save and Load Your PyTorch Models" (Adrian Tam, 2023):
# https://machinelearningmastery.com/save-and-load-your-pytorch-models/
# Like the post: an iris-style classifier (Linear(4, 8) -> ReLU -> Linear(8, 3)) trained with
# Adam and CrossEntropyLoss; model.state_dict() printed (an OrderedDict of tensors); the
# state dict saved with torch.save and loaded into a fresh model with load_state_dict
# (the returned <All keys matched successfully>), outputs compared; torch.save of the whole
# model object and torch.load(weights_only=False) of it; saving to and loading from an
# io.BytesIO buffer; the state dict's tensors kept as they are by copying only references
# (so training afterwards changes them) versus copy.deepcopy.
# Differences: synthetic iris-like data; 50 full-batch epochs; files written into a
# temporary directory; a seed.
import copy
import io
import os
import tempfile

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
means = torch.tensor([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.5, 2.0]])
X = torch.cat([means[c] + 0.3 * torch.randn(30, 4) for c in range(3)])
y = torch.arange(3).repeat_interleave(30)

model = nn.Sequential(
    nn.Linear(4, 8),
    nn.ReLU(),
    nn.Linear(8, 3),
)
loss_fn = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=0.01)
for epoch in range(50):
    y_pred = model(X)
    loss = loss_fn(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("final loss", loss.item())
print(model.state_dict())
print(type(model.state_dict()).__name__, list(model.state_dict().keys()))

tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "iris-model.pth")
torch.save(model.state_dict(), path)
new_model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
print(new_model.load_state_dict(torch.load(path)))
with torch.no_grad():
    print(torch.equal(model(X), new_model(X)), new_model(X[:2]))

whole = os.path.join(tmp, "iris-model-full.pth")
torch.save(model, whole)
loaded = torch.load(whole, weights_only=False)
print(loaded)
print(torch.equal(loaded[0].weight, model[0].weight), loaded[0].weight.requires_grad)

buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 50}, buffer)
buffer.seek(0)
checkpoint = torch.load(buffer)
print(sorted(checkpoint.keys()), checkpoint["epoch"])
print(checkpoint["optimizer"]["param_groups"])
print(checkpoint["optimizer"]["state"][0]["step"], checkpoint["optimizer"]["state"][3]["exp_avg"])
opt2 = optim.Adam(new_model.parameters(), lr=0.01)
opt2.load_state_dict(checkpoint["optimizer"])
print(opt2.state_dict()["param_groups"][0]["lr"], opt2.state[new_model[2].bias]["exp_avg_sq"])

shallow = model.state_dict()
deep = copy.deepcopy(model.state_dict())
for epoch in range(5):
    loss = loss_fn(model(X), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(torch.equal(shallow["2.bias"], model[2].bias), torch.equal(deep["2.bias"], model[2].bias))
print(deep["2.bias"], model[2].bias.data)
try:
    new_model.load_state_dict({"0.weight": torch.zeros(8, 4)})
except RuntimeError as e:
    print("RuntimeError:", e)
print(new_model.load_state_dict({"0.weight": torch.zeros(8, 4)}, strict=False))
