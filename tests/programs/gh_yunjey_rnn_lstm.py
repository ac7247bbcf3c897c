# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "02-intermediate/recurrent_neural_network" and "bidirectional_recurrent_neural_network" (MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/02-intermediate/recurrent_neural_network/main.py
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/02-intermediate/bidirectional_recurrent_neural_network/main.py
# Like the originals: images read row by row as sequences (reshape(-1, sequence_length,
# input_size)), a many-to-one nn.LSTM(batch_first=True) with zero h0/c0 made in forward, the
# last time step out[:, -1, :] into a Linear; the bidirectional one with num_layers*2 initial
# states and a Linear(hidden_size*2, ...); CrossEntropyLoss, Adam, the per-step loss line and
# the no_grad test accuracy.
# Differences: our own code; synthetic 8x8 "images" whose class is the row holding the
# brightest stripe (4 classes: rows 0-1, 2-3, 4-5, 6-7) instead of MNIST; hidden_size=16,
# num_layers=2, 160/80 samples, 2 epochs each, a seed; both models in one program.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
sequence_length, input_size, hidden_size, num_layers, num_classes = 8, 8, 16, 2, 4
batch_size, num_epochs, learning_rate = 16, 2, 0.01


def make_split(n):
    images = torch.rand(n, 1, 8, 8) * 0.5
    labels = torch.randint(0, num_classes, (n,))
    rows = labels * 2 + torch.randint(0, 2, (n,))
    images[torch.arange(n), 0, rows, :] += 0.5
    return TensorDataset(images, labels)


train_loader = DataLoader(make_split(160), batch_size=batch_size, shuffle=True)
test_loader = DataLoader(make_split(80), batch_size=batch_size, shuffle=False)


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
        out, _ = self.lstm(x, (h0, c0))
        return self.fc(out[:, -1, :])


class BiRNN(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(BiRNN, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True,
                            bidirectional=True)
        self.fc = nn.Linear(hidden_size * 2, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers * 2, x.size(0), self.hidden_size).to(device)
        c0 = torch.zeros(self.num_layers * 2, x.size(0), self.hidden_size).to(device)
        out, _ = self.lstm(x, (h0, c0))
        return self.fc(out[:, -1, :])


def train_and_test(model):
    print(model)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    total_step = len(train_loader)
    for epoch in range(num_epochs):
        for i, (images, labels) in enumerate(train_loader):
            images = images.reshape(-1, sequence_length, input_size).to(device)
            labels = labels.to(device)
            outputs = model(images)
            loss = criterion(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if (i + 1) % 5 == 0:
                print('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'
                      .format(epoch + 1, num_epochs, i + 1, total_step, loss.item()))
    model.eval()
    with torch.no_grad():
        correct = 0
        total = 0
        for images, labels in test_loader:
            images = images.reshape(-1, sequence_length, input_size).to(device)
            outputs = model(images)
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
        print('Test Accuracy of the model on the {} test images: {} %'.format(total, 100 * correct / total))


train_and_test(RNN(input_size, hidden_size, num_layers, num_classes).to(device))
train_and_test(BiRNN(input_size, hidden_size, num_layers, num_classes).to(device))
