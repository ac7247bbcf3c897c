# Corpus program, written for gradsh (no code copied). Modelled on the Stack Overflow
# questions about "UserWarning: Using a target size (torch.Size([N])) that is different to
# the input size (torch.Size([N, 1]))" and "The size of tensor a must match the size of
# tensor b at non-singleton dimension 1" (summarised at http://www.kouhan.cn/en/article/00050409):
# a regression net outputs (N, 1) and the target is (N,), MSELoss broadcasts to (N, N) and
# trains towards the mean; the warning goes to stderr and the loss differs from the right
# one; the fixes (target.unsqueeze(1), output.squeeze(1), view(-1, 1)); a CNN-style output
# of 10 classes against a 133-wide one-hot target raising the size error.
# Differences: our own code; seeded; warning text is stderr and not part of stdout.
import torch
import torch.nn as nn

torch.manual_seed(0)
N = 8
x = torch.randn(N, 3)
y = x @ torch.tensor([1.0, -2.0, 0.5]) + 0.1
model = nn.Linear(3, 1)
criterion = nn.MSELoss()
out = model(x)
print(out.shape, y.shape)
wrong = criterion(out, y)
right = criterion(out, y.unsqueeze(1))
print(round(wrong.item(), 4), round(right.item(), 4))
print(((out - y) ** 2).shape)
print(torch.allclose(wrong, ((out - y) ** 2).mean()))
print(torch.allclose(right, criterion(out.squeeze(1), y)), torch.allclose(right, criterion(out, y.view(-1, 1))))

opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(50):
    opt.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    opt.step()
pred = model(x).detach().squeeze(1)
print(round(pred.std().item(), 3), round(y.std().item(), 3))
print(round(pred.mean().item(), 3), round(y.mean().item(), 3))

logits = torch.randn(4, 10)
onehot = torch.zeros(4, 133)
try:
    criterion(logits, onehot)
except RuntimeError as e:
    print("RuntimeError:", e)
l1 = nn.L1Loss()(torch.zeros(3, 1), torch.ones(3))
print(l1)
bce = nn.BCELoss()
try:
    bce(torch.sigmoid(torch.randn(4, 1)), torch.ones(4))
except ValueError as e:
    print("ValueError:", e)
print(nn.SmoothL1Loss()(torch.zeros(2, 1), torch.ones(2)))
