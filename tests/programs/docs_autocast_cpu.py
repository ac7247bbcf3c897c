# Corpus program, written for gradsh (no code copied). Modelled on torch.autocast's docstring
# (torch/amp/autocast_mode.py: "CPU Training Example" and "CPU Inference Example", the notes on
# which ops autocast to bfloat16 and which to float32, nested regions and the decorator form)
# and on the torch.amp documentation's GradScaler usage (scale, step, update):
# https://pytorch.org/docs/stable/amp.html
# Differences: a small MLP on synthetic data, three epochs; a GradScaler("cpu") where the docs
# use CUDA's (the CUDA spellings warn on a CPU build, stderr not compared); seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


data = [(torch.randn(16, 20), torch.randint(0, 4, (16,))) for _ in range(4)]
model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

# CPU training: the forward pass in bfloat16 where autocast chooses it
for epoch in range(3):
    total = 0.0
    for input, target in data:
        optimizer.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            output = model(input)
            loss = loss_fn(output, target)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / len(data):.6f}", output.dtype, loss.dtype,
          model.fc1.weight.grad.dtype)

# which ops ran in which precision
x = torch.randn(3, 20)
with torch.autocast(device_type="cpu"):
    h = model.fc1(x)
    print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"), h.dtype,
          h.grad_fn, [type(n).__name__ if n else None for n, _ in h.grad_fn.next_functions])
    print((h @ h.T).dtype, h.relu().dtype, h.sum().dtype, F.mse_loss(h, torch.zeros(3, 32)).dtype,
          torch.cat([h, torch.zeros(1, 32)]).dtype, h.double().mm(h.double().T).dtype)
    with torch.autocast(device_type="cpu", enabled=False):
        print("nested, disabled:", model.fc1(x).dtype, torch.mm(h.float(), h.float().T).dtype)
print(torch.is_autocast_enabled("cpu"), model.fc1(x).dtype)

# inference, and the decorator form
model.eval()
with torch.no_grad(), torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    for input, _ in data[:2]:
        output = model(input)
        print(output[0], output.argmax(1))


@torch.autocast(device_type="cpu")
def predict(inp):
    return model(inp)


print(predict(x).dtype, predict(x).float().softmax(1))

# loss scaling: scale, step (skipped when a gradient is not finite), update
model.train()
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 10, growth_interval=2)
for step, (input, target) in enumerate(data):
    optimizer.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        loss = loss_fn(model(input), target)
    if step == 1:
        loss = loss * float("inf")
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    print(step, f"{loss.item():.5f}", scaler.get_scale(), model.fc2.bias)
print(scaler.state_dict())
