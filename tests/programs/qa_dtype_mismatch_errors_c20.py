# Corpus program modelled on the Stack Overflow / Q&A family around "RuntimeError: expected
# scalar type Long but found Float" and "mat1 and mat2 must have the same dtype"
# (https://learn.biosrag.com/ai/experiences/mismatch-long-and-float.html, and
# https://openillumi.com/en/en-pytorch-float-long-cast-error-fix): integer literals make Long
# inputs that nn.Linear rejects, NLLLoss/CrossEntropyLoss want Long class targets while
# BCEWithLogitsLoss wants float ones, and the one-line fixes (.float(), .long(), dtype=).
# Changed: every error is caught and printed; the fixed training step runs with a seed.
import torch
import torch.nn as nn

torch.manual_seed(0)
data = torch.tensor([[1, 0], [0, 1], [1, 1]])
target = torch.tensor([[1], [0], [1]])
print(data.dtype, target.dtype)
model = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
try:
    model(data)
except RuntimeError as e:
    print("RuntimeError:", e)

data = data.float()
out = model(data)
try:
    nn.MSELoss()(out, target)
except RuntimeError as e:
    print("RuntimeError:", e)
print(nn.MSELoss()(out, target.float()))

try:
    nn.BCEWithLogitsLoss()(out.squeeze(), target.squeeze())
except RuntimeError as e:
    print("RuntimeError:", e)
print(nn.BCEWithLogitsLoss()(out.squeeze(), target.squeeze().float()))

logits = torch.randn(4, 3)
labels = torch.tensor([0., 2., 1., 1.])
for loss_fn in (nn.NLLLoss(), nn.CrossEntropyLoss()):
    try:
        x = torch.log_softmax(logits, 1) if isinstance(loss_fn, nn.NLLLoss) else logits
        print(loss_fn(x, labels))
    except RuntimeError as e:
        print(type(loss_fn).__name__, "RuntimeError:", e)
print(nn.NLLLoss()(torch.log_softmax(logits, 1), labels.long()))
print(nn.CrossEntropyLoss()(logits, labels.long()))
try:
    nn.CrossEntropyLoss()(logits, labels.int())
except RuntimeError as e:
    print("RuntimeError:", e)

a = torch.arange(6).reshape(2, 3)
b = torch.randn(3, 2)
for f in (torch.mm, torch.matmul):
    try:
        f(a, b)
    except RuntimeError as e:
        print(f.__name__, "RuntimeError:", e)
print(torch.mm(a.float(), b))
print(torch.mm(a, b.long()))
try:
    torch.mm(b.double(), a.float())
except RuntimeError as e:
    print("RuntimeError:", e)
emb = nn.Embedding(10, 2)
try:
    emb(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
print(emb(torch.tensor([1, 2])).shape)
conv = nn.Conv1d(1, 1, 2)
try:
    conv(torch.ones(1, 1, 4, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)

# the fixed loop
opt = torch.optim.SGD(model.parameters(), lr=0.1)
target = target.float()
for step in range(5):
    opt.zero_grad()
    loss = nn.MSELoss()(model(data), target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
x = torch.tensor([1, 2, 3])
print(x / 2, x // 2, x * 0.5, (x * 0.5).dtype, x.to(torch.float16) / 3)
