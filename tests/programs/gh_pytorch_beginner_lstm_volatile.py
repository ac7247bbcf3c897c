# Corpus program, written for gradsh (no code copied). Modelled on L1aoXingyu's
# pytorch-beginner "05-Recurrent Neural Network/recurrent_network.py" (an LSTM reading an
# MNIST image row by row, the last time step classified; the PyTorch 0.3 idioms: inputs
# wrapped in autograd.Variable, loss.data[0] for the loss, Variable(img, volatile=True) to
# evaluate):
# https://github.com/L1aoXingyu/pytorch-beginner/blob/master/05-Recurrent%20Neural%20Network/recurrent_network.py
# Like the original: nn.LSTM(in_dim, hidden_dim, n_layer, batch_first=True) and a Linear
# classifier on out[:, -1, :], CrossEntropyLoss, Adam(lr=1e-3), img.squeeze(1) of (b, 1, h, w)
# batches, running loss and accuracy printed per epoch with '{:.6f}', model.eval() and
# Variable(..., volatile=True) for the test pass (today a UserWarning, no effect).
# Differences: seeded; synthetic 8x8 "images" of 4 classes instead of MNIST's 28x28 (no
# download), a smaller LSTM, 2 epochs; loss.data[0] is tried once and its IndexError printed
# (PyTorch 0.4 made the loss a 0-dim tensor), .item() used after that.
import torch
from torch import nn, optim
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

batch_size = 20
learning_rate = 1e-3
num_epoches = 2


def synthetic_images(n):
    labels = torch.randint(0, 4, (n,))
    images = torch.rand(n, 1, 8, 8) * 0.3
    for i, label in enumerate(labels.tolist()):
        images[i, 0, 2 * label:2 * label + 2, :] += 0.7  # a bright band per class
    return TensorDataset(images, labels)


train_dataset = synthetic_images(100)
test_dataset = synthetic_images(40)
train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
test_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False)


class Rnn(nn.Module):
    def __init__(self, in_dim, hidden_dim, n_layer, n_class):
        super(Rnn, self).__init__()
        self.n_layer = n_layer
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(in_dim, hidden_dim, n_layer, batch_first=True)
        self.classifier = nn.Linear(hidden_dim, n_class)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.classifier(out[:, -1, :])


model = Rnn(8, 16, 2, 4)
print(model)
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=learning_rate)

for epoch in range(num_epoches):
    print('epoch {}'.format(epoch + 1))
    print('*' * 10)
    running_loss = 0.0
    running_acc = 0.0
    for i, (img, label) in enumerate(train_loader, 1):
        b, c, h, w = img.size()
        assert c == 1, 'channel must be 1'
        img = Variable(img.squeeze(1))
        label = Variable(label)
        out = model(img)
        loss = criterion(out, label)
        if epoch == 0 and i == 1:
            try:
                running_loss += loss.data[0] * label.size(0)
            except IndexError as e:
                print('loss.data[0]:', e)
        running_loss += loss.item() * label.size(0)
        _, pred = torch.max(out, 1)
        num_correct = (pred == label).sum()
        running_acc += num_correct.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print('Finish {} epoch, Loss: {:.6f}, Acc: {:.6f}'.format(
        epoch + 1, running_loss / len(train_dataset), running_acc / len(train_dataset)))
    model.eval()
    eval_loss = 0.
    eval_acc = 0.
    for img, label in test_loader:
        img = Variable(img.squeeze(1), volatile=True)
        label = Variable(label, volatile=True)
        out = model(img)
        loss = criterion(out, label)
        eval_loss += loss.item() * label.size(0)
        _, pred = torch.max(out, 1)
        eval_acc += (pred == label).sum().item()
    print('volatile input: requires_grad={} output: {}'.format(
        img.requires_grad, type(out.grad_fn).__name__))
    print('Test Loss: {:.6f}, Acc: {:.6f}'.format(
        eval_loss / len(test_dataset), eval_acc / len(test_dataset)))
    print()
    model.train()

try:
    Variable(torch.zeros(2), requires_grad=True, volatile=True)
except ValueError as e:
    print('ValueError:', e)
print(Variable(), Variable(None).dtype)
