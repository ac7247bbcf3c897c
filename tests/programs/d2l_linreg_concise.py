# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# section 3.3 "Concise Implementation of Linear Regression", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_linear-regression/linear-regression-concise.md
# Like the book (first edition's layout): the same synthetic data, load_array wrapping
# data.TensorDataset in data.DataLoader(shuffle=True), next(iter(data_iter)),
# nn.Sequential(nn.Linear(2, 1)) with net[0].weight.data.normal_(0, 0.01) and
# net[0].bias.data.fill_(0), nn.MSELoss(), torch.optim.SGD(net.parameters(), lr=0.03), three
# epochs printing 'epoch {epoch + 1}, loss {l:f}', then the estimation errors of w and b.
# Differences: our own code; seeded; the DataLoader is seeded through torch.manual_seed.
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(0)


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)


def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)


batch_size = 10
data_iter = load_array((features, labels), batch_size)
print(next(iter(data_iter)))

net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)

num_epochs = 3
for epoch in range(num_epochs):
    for X, y in data_iter:
        l = loss(net(X), y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f"epoch {epoch + 1}, loss {l:f}")

w = net[0].weight.data
print("error in estimating w:", true_w - w.reshape(true_w.shape))
b = net[0].bias.data
print("error in estimating b:", true_b - b)
print(net[0].weight.grad)
