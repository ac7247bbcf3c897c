# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "01-basics/feedforward_neural_network" (MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/01-basics/feedforward_neural_network/main.py
# Like the original: NeuralNet(input_size, hidden_size, num_classes) with fc1 -> nn.ReLU -> fc2,
# .to(device) with device chosen by torch.cuda.is_available(), CrossEntropyLoss, Adam, the
# per-step loss line, a no_grad accuracy loop with torch.max(outputs.data, 1) and .item() sums,
# and the state_dict saved.
# Differences: our own code; synthetic 8x8 inputs labelled by a small random teacher network
# instead of MNIST; hidden_size=32, 800/200 samples, 4 epochs, a seed; the checkpoint goes to
# an io.BytesIO and its keys and shapes are printed.
import io

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
input_size, hidden_size, num_classes = 64, 32, 10
num_epochs, batch_size, learning_rate = 4, 40, 0.01

teacher = nn.Sequential(nn.Linear(input_size, 16), nn.Tanh(), nn.Linear(16, num_classes))


def make_split(n):
    images = torch.rand(n, 8, 8)
    with torch.no_grad():
        labels = teacher(images.reshape(n, -1)).argmax(1)
    return TensorDataset(images, labels)


train_loader = DataLoader(make_split(800), batch_size=batch_size, shuffle=True)
test_loader = DataLoader(make_split(200), batch_size=batch_size, shuffle=False)


class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super(NeuralNet, self).__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        out = self.fc1(x)
        out = self.relu(out)
        out = self.fc2(out)
        return out


model = NeuralNet(input_size, hidden_size, num_classes).to(device)
print(model)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        images = images.reshape(-1, 8 * 8).to(device)
        labels = labels.to(device)
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 10 == 0:
            print('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'
                  .format(epoch + 1, num_epochs, i + 1, total_step, loss.item()))

with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        images = images.reshape(-1, 8 * 8).to(device)
        labels = labels.to(device)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    print('Accuracy of the network on the {} test images: {} %'.format(total, 100 * correct / total))

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
for key, value in torch.load(buffer).items():
    print(key, tuple(value.shape), value.dtype)
