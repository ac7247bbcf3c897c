# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch recipes "What
# is a state_dict in PyTorch" and "Saving and loading models", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/recipes_source/recipes/what_is_state_dict.py
# https://github.com/pytorch/tutorials/blob/main/beginner_source/saving_loading_models.py
# Like the originals: a small CNN, printing every model.state_dict() entry with its size and
# the optimizer's state_dict (state and param_groups); torch.save / torch.load of a
# state_dict and load_state_dict into a fresh model, then model.eval(); a checkpoint dict with
# epoch, model and optimizer state and a loss.
# Differences: our own code; the files are an in-memory io.BytesIO, not a path on disk;
# load_state_dict's error text for a missing key is printed; seeded.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class TinyCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.bn = nn.BatchNorm2d(16)
        self.fc1 = nn.Linear(16 * 5 * 5, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.bn(self.conv2(x))))
        return self.fc1(torch.flatten(x, 1))


model = TinyCNN()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

print("Model's state_dict:")
for key, value in model.state_dict().items():
    print(key, "\t", value.size())

x = torch.randn(4, 3, 32, 32)
target = torch.tensor([1, 0, 3, 9])
loss = F.cross_entropy(model(x), target)
optimizer.zero_grad()
loss.backward()
optimizer.step()

print("Optimizer's state_dict:")
for key, value in optimizer.state_dict().items():
    if key == "state":
        print(key, "\t", {k: {n: t.shape for n, t in v.items()} for k, v in value.items()})
    else:
        print(key, "\t", value)

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
restored = TinyCNN()
print(restored.load_state_dict(torch.load(buffer, weights_only=True)))
restored.eval()
model.eval()
with torch.no_grad():
    print(torch.allclose(model(x), restored(x)))
print(restored.bn.running_mean)
print(restored.bn.num_batches_tracked)

checkpoint = io.BytesIO()
torch.save({"epoch": 1, "model_state_dict": model.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(), "loss": loss.item()}, checkpoint)
checkpoint.seek(0)
ckpt = torch.load(checkpoint, weights_only=True)
model2 = TinyCNN()
opt2 = optim.SGD(model2.parameters(), lr=0.5)
model2.load_state_dict(ckpt["model_state_dict"])
opt2.load_state_dict(ckpt["optimizer_state_dict"])
print(ckpt["epoch"], ckpt["loss"], opt2.param_groups[0]["lr"], opt2.param_groups[0]["momentum"])
model2.train()

partial = {k: v for k, v in model.state_dict().items() if not k.startswith("fc1")}
try:
    TinyCNN().load_state_dict(partial)
except RuntimeError as e:
    print("RuntimeError:", e)
result = TinyCNN().load_state_dict(partial, strict=False)
print(result.missing_keys, result.unexpected_keys)
