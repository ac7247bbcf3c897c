"""A 2-layer MLP trained with SGD: the benchmark's Python program, run by `python` with PyTorch
and by `gradsh run --quiet` (which serves `import torch`) alike.

Sizes come from the environment (MLP_BATCH, MLP_HIDDEN, MLP_STEPS; 64 inputs, 10 classes). The
training loop is one top-level statement (a `for`), timed here; the program prints one JSON line:
seconds and page faults per step, and the last loss, whose bits show whether both sides computed
the same thing.
"""

import json
import os
import resource
import time

import torch
import torch.nn.functional as F

batch = int(os.environ.get("MLP_BATCH", "64"))
hidden = int(os.environ.get("MLP_HIDDEN", "128"))
steps = int(os.environ.get("MLP_STEPS", "200"))

torch.set_num_threads(1)
torch.manual_seed(0)
x = torch.randn(batch, 64)
target = torch.randint(0, 10, (batch,))
model = torch.nn.Sequential(torch.nn.Linear(64, hidden), torch.nn.ReLU(),
                            torch.nn.Linear(hidden, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for _ in range(2):  # warm-up
    opt.zero_grad()
    loss = F.cross_entropy(model(x), target)
    loss.backward()
    opt.step()

faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
start = time.perf_counter()
for _ in range(steps):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), target)
    loss.backward()
    opt.step()
seconds = (time.perf_counter() - start) / steps
faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / steps

print(json.dumps({"seconds": seconds, "faults": faults, "loss": loss.item().hex()}))
