# Corpus program, written for gradsh (no code copied). Modelled on the MNIST-style CNNs of
# small GitHub course repositories (e.g. the Net of https://github.com/pytorch/examples/blob/main/mnist/main.py:
# conv1(1, 32, 3) -> ReLU -> conv2(32, 64, 3) -> ReLU -> max_pool2d(2) -> Dropout(0.25) ->
# flatten -> fc1 -> ReLU -> Dropout(0.5) -> fc2 -> log_softmax, trained with F.nll_loss and
# tested with the "Test set: Average loss: ..., Accuracy: .../... (..%)" line) on synthetic
# 12x12 "digits": a vertical bar, a horizontal bar or a cross, with noise.
# Differences: our own code and data; smaller channels; 3 epochs; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(1)


def make_data(n):
    labels = torch.randint(0, 3, (n,))
    imgs = torch.zeros(n, 1, 12, 12)
    for i, lab in enumerate(labels.tolist()):
        if lab in (0, 2):
            imgs[i, 0, :, 5:7] = 1.0
        if lab in (1, 2):
            imgs[i, 0, 5:7, :] = 1.0
    imgs += 0.3 * torch.randn_like(imgs)
    return imgs, labels


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(8 * 4 * 4, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


train_loader = DataLoader(TensorDataset(*make_data(192)), batch_size=32, shuffle=True)
test_loader = DataLoader(TensorDataset(*make_data(96)), batch_size=48)
model = Net()
print(model)
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
for epoch in range(1, 4):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        if batch_idx % 3 == 0:
            print(f"Train Epoch: {epoch} [{batch_idx * len(data)}/{len(train_loader.dataset)} "
                  f"({100. * batch_idx / len(train_loader):.0f}%)]\tLoss: {loss.item():.4f}")
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for data, target in test_loader:
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_loader.dataset)
    print(f"\nTest set: Average loss: {test_loss:.4f}, Accuracy: {correct}/{len(test_loader.dataset)} "
          f"({100. * correct / len(test_loader.dataset):.0f}%)\n")
    scheduler.step()
print(model.conv1.weight.grad.shape, scheduler.get_last_lr())
