# Corpus program, written for gradsh (no code copied). Modelled on Aladdin Persson's
# Machine-Learning-Collection, ML/Pytorch/Basics/pytorch_rnn_gru_lstm.py (MIT):
# https://github.com/aladdinpersson/Machine-Learning-Collection/blob/master/ML/Pytorch/Basics/pytorch_rnn_gru_lstm.py
# Like the original: MNIST rows as a sequence (input_size 28, sequence_length 28), RNN, RNN_GRU
# and RNN_LSTM classes (batch_first, two layers, zero h0/c0, the whole output sequence reshaped
# into one fc layer of hidden_size * sequence_length), CrossEntropyLoss, Adam(lr=0.005),
# data.squeeze(1), check_accuracy printing "Checking accuracy on ... data" and
# "Got {num_correct} / {num_samples} with accuracy ..." (num_correct is a tensor).
# Differences: synthetic 28x28 "digits" (a class-dependent bright row plus noise), 192 training
# and 64 test images, hidden_size 16, one epoch per model, all three models trained (the
# original picks one), losses printed every 3 batches; the dataset's .train flag is an
# attribute of our TensorDataset stand-in; seeded.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
input_size = 28
hidden_size = 16
num_layers = 2
num_classes = 10
sequence_length = 28
learning_rate = 0.005
batch_size = 64
num_epochs = 1


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.rnn = nn.RNN(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size * sequence_length, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
        out, _ = self.rnn(x, h0)
        out = out.reshape(out.shape[0], -1)
        return self.fc(out)


class RNN_GRU(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(RNN_GRU, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.gru = nn.GRU(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size * sequence_length, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
        out, _ = self.gru(x, h0)
        out = out.reshape(out.shape[0], -1)
        return self.fc(out)


class RNN_LSTM(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(RNN_LSTM, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size * sequence_length, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
        out, _ = self.lstm(x, (h0, c0))
        out = out.reshape(out.shape[0], -1)
        return self.fc(out)


def make_digits(n):
    labels = torch.randint(0, num_classes, (n,))
    images = 0.2 * torch.rand(n, 1, 28, 28)
    for i, label in enumerate(labels.tolist()):
        images[i, 0, 2 + 2 * label, :] += 0.8
    return images, labels


class Digits(TensorDataset):
    def __init__(self, n, train):
        super().__init__(*make_digits(n))
        self.train = train


train_dataset = Digits(192, train=True)
test_dataset = Digits(64, train=False)
train_loader = DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True)
test_loader = DataLoader(dataset=test_dataset, batch_size=batch_size, shuffle=True)


def check_accuracy(loader, model):
    if loader.dataset.train:
        print("Checking accuracy on training data")
    else:
        print("Checking accuracy on test data")
    num_correct = 0
    num_samples = 0
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            x = x.to(device=device).squeeze(1)
            y = y.to(device=device)
            scores = model(x)
            _, predictions = scores.max(1)
            num_correct += (predictions == y).sum()
            num_samples += predictions.size(0)
        print(f"Got {num_correct} / {num_samples} with accuracy "
              f"{float(num_correct)/float(num_samples)*100:.2f}")
    model.train()


for cls in (RNN, RNN_GRU, RNN_LSTM):
    model = cls(input_size, hidden_size, num_layers, num_classes).to(device)
    print(model)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=learning_rate)
    for epoch in range(num_epochs):
        for batch_idx, (data, targets) in enumerate(train_loader):
            data = data.to(device=device).squeeze(1)
            targets = targets.to(device=device)
            scores = model(data)
            loss = criterion(scores, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"{cls.__name__} batch {batch_idx} loss {loss.item()}")
    check_accuracy(train_loader, model)
    check_accuracy(test_loader, model)
