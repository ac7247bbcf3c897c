# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "How to implement accumulated gradient?" (https://discuss.pytorch.org/t/how-to-implement-accumulated-gradient/3822:
# divide each loss by accumulation_steps, call backward every iteration, step and zero_grad
# every accumulation_steps) and the Stack Overflow question "Gradient accumulation in
# PyTorch" (https://stackoverflow.com/questions/62067400: is accumulating over micro-batches
# the same as one large batch?).
# Differences: our own code; the accumulated gradient is compared with the gradient of the
# full batch (allclose, and the largest difference in units of float32 epsilon is not
# printed since its exact value depends on summation order); training with and without
# accumulation compared by their losses; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 1))
criterion = nn.MSELoss()
X = torch.randn(32, 10)
Y = torch.randn(32, 1)

model.zero_grad()
criterion(model(X), Y).backward()
full_grads = [p.grad.clone() for p in model.parameters()]

accumulation_steps = 4
model.zero_grad()
for i, (xb, yb) in enumerate(zip(X.chunk(accumulation_steps), Y.chunk(accumulation_steps))):
    loss = criterion(model(xb), yb) / accumulation_steps
    loss.backward()
    print(i, f"{loss.item():.6f}", f"{model[2].bias.grad.item():.6f}")
acc_grads = [p.grad for p in model.parameters()]
print([torch.allclose(a, f, atol=1e-6) for a, f in zip(acc_grads, full_grads)])

model.zero_grad()
for xb, yb in zip(X.chunk(4), Y.chunk(4)):
    criterion(model(xb), yb).backward()
print(torch.allclose(model[2].bias.grad / 4, full_grads[3], atol=1e-6))

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
data = list(zip(X.split(4), Y.split(4)))
model.zero_grad()
for i, (inputs, labels) in enumerate(data):
    predictions = model(inputs)
    loss = criterion(predictions, labels)
    loss = loss / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
        model.zero_grad()
        with torch.no_grad():
            print(f"step after batch {i + 1}: full loss {criterion(model(X), Y).item():.5f}")
print(model[0].weight.grad)
