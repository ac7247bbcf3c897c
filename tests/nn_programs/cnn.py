"""A small CNN with batch norm, pooling and dropout: train/eval behaviour and losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, 3)
        self.drop = nn.Dropout(0.25)
        self.fc = nn.Linear(8 * 2 * 2, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv1(x))), 2)
        x = F.avg_pool2d(F.relu(self.conv2(x)), 1)
        x = F.adaptive_avg_pool2d(x, (2, 2))
        return self.fc(self.drop(torch.flatten(x, 1)))


model = CNN()
print(model)
data = torch.randn(6, 1, 8, 8)
target = torch.tensor([0, 1, 2, 0, 1, 2])
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    out = model(data)
    loss = F.cross_entropy(out, target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", out.grad_fn.__class__.__name__)
print(model.bn.running_mean, model.bn.num_batches_tracked)
model.eval()
with torch.no_grad():
    a = model(data)
    b = model(data)
print(torch.equal(a, b), a.requires_grad)
e = model(data)
print(e.requires_grad, e.grad_fn.__class__.__name__)
print(F.log_softmax(a, dim=1).argmax(1))
