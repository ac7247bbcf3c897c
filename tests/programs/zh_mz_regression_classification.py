# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's PyTorch-Tutorial
# 301_regression.py, 302_classification.py and 303_build_nn_quickly.py (MIT):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/301_regression.py
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/302_classification.py
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/303_build_nn_quickly.py
# Like the originals: x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1), y = x.pow(2) +
# 0.2*torch.rand(x.size()), a Net with hidden/predict Linear layers and F.relu, SGD(lr=0.2),
# MSELoss, 200 steps; two Gaussian clusters from torch.normal(2*n_data, 1) and
# torch.normal(-2*n_data, 1), cat and .type(torch.FloatTensor/LongTensor), CrossEntropyLoss,
# accuracy through torch.max(out, 1)[1].data.numpy(); the same net built as a class and as a
# Sequential, both printed.
# Differences: our own code; a seed; the loss/accuracy printed where the originals plot them.
import torch
import torch.nn.functional as F

torch.manual_seed(1)

x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)
y = x.pow(2) + 0.2 * torch.rand(x.size())


class Net(torch.nn.Module):
    def __init__(self, n_feature, n_hidden, n_output):
        super(Net, self).__init__()
        self.hidden = torch.nn.Linear(n_feature, n_hidden)
        self.predict = torch.nn.Linear(n_hidden, n_output)

    def forward(self, x):
        x = F.relu(self.hidden(x))
        return self.predict(x)


net = Net(n_feature=1, n_hidden=10, n_output=1)
print(net)
optimizer = torch.optim.SGD(net.parameters(), lr=0.2)
loss_func = torch.nn.MSELoss()
for t in range(200):
    prediction = net(x)
    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if t % 40 == 0:
        print('Loss=%.4f' % loss.data.numpy())

n_data = torch.ones(100, 2)
x0 = torch.normal(2 * n_data, 1)
y0 = torch.zeros(100)
x1 = torch.normal(-2 * n_data, 1)
y1 = torch.ones(100)
x = torch.cat((x0, x1), 0).type(torch.FloatTensor)
y = torch.cat((y0, y1), ).type(torch.LongTensor)
print(x.type(), y.type(), x.shape, y.shape)

net = Net(n_feature=2, n_hidden=10, n_output=2)
optimizer = torch.optim.SGD(net.parameters(), lr=0.02)
loss_func = torch.nn.CrossEntropyLoss()
for t in range(100):
    out = net(x)
    loss = loss_func(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if t % 20 == 0:
        prediction = torch.max(out, 1)[1]
        pred_y = prediction.data.numpy()
        target_y = y.data.numpy()
        accuracy = float((pred_y == target_y).astype(int).sum()) / float(target_y.size)
        print('Accuracy=%.2f' % accuracy, 'loss', loss.item())

net1 = Net(1, 10, 1)
net2 = torch.nn.Sequential(
    torch.nn.Linear(1, 10),
    torch.nn.ReLU(),
    torch.nn.Linear(10, 1)
)
print(net1)
print(net2)
