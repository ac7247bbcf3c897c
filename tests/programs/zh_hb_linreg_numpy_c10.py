# Corpus program, written for gradsh (no code copied). Modelled on zergtant's Chinese
# pytorch-handbook, section 2.2 深度学习基础及数学原理 (linear regression part):
# https://github.com/zergtant/pytorch-handbook/blob/master/chapter2/2.2-deep-learning-basic-mathematics.ipynb
# Like the notebook: y = 5x + 7 with np.random.rand(256) inputs and randn/4 noise, the data
# reshaped to (-1, 1) float32 arrays and turned into tensors with torch.from_numpy, a
# Linear(1, 1) model class, MSELoss, SGD(lr=1e-2), 3000 epochs printing the loss every 1000
# (loss.data.item()), the learned [w, b] from model.parameters() read with .item(), the
# prediction as a NumPy array; then the section's loss-function and gradient-descent demos:
# nn.L1Loss/MSELoss/CrossEntropyLoss/NLLLoss/BCELoss on small tensors and the learning-rate
# comparison.
# Differences: np.random.seed(0) and torch.manual_seed(0) (the notebook is unseeded); the
# pandas DataFrame and seaborn/matplotlib plots are left out.
import numpy as np
import torch
from torch.nn import Linear, Module, MSELoss
from torch.optim import SGD

np.random.seed(0)
torch.manual_seed(0)
x = np.random.rand(256)
noise = np.random.randn(256) / 4
y = x * 5 + 7 + noise


class LinearModel(Module):
    def __init__(self):
        super().__init__()
        self.linear = Linear(1, 1)

    def forward(self, x):
        return self.linear(x)


model = LinearModel()
print(model)
criterion = MSELoss()
optim = SGD(model.parameters(), lr=0.01)
epochs = 3000
x_train = x.reshape(-1, 1).astype('float32')
y_train = y.reshape(-1, 1).astype('float32')
print(x_train.dtype, x_train.shape, y_train[:3].ravel())
for i in range(epochs):
    inputs = torch.from_numpy(x_train)
    labels = torch.from_numpy(y_train)
    outputs = model(inputs)
    optim.zero_grad()
    loss = criterion(outputs, labels)
    loss.backward()
    optim.step()
    if i % 1000 == 0:
        print('epoch {}, loss {:1.4f}'.format(i, loss.data.item()))
[w, b] = model.parameters()
print(w.item(), b.item())
predicted = model.forward(torch.from_numpy(x_train)).data.numpy()
print(predicted.shape, predicted.dtype, predicted[:4].ravel())
print(torch.from_numpy(x).dtype, torch.from_numpy(x_train).requires_grad)

sample = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
target = torch.tensor([[1.5, 1.0], [2.0, 6.0]])
print(torch.nn.L1Loss()(sample, target), torch.nn.MSELoss()(sample, target))
print(torch.nn.L1Loss(reduction='sum')(sample, target), torch.nn.MSELoss(reduction='none')(sample, target))
logits = torch.randn(3, 5, requires_grad=True)
labels = torch.tensor([1, 0, 4])
ce = torch.nn.CrossEntropyLoss()(logits, labels)
nll = torch.nn.NLLLoss()(torch.nn.LogSoftmax(dim=1)(logits), labels)
print(ce, nll)
probs = torch.sigmoid(torch.randn(4))
print(torch.nn.BCELoss()(probs, torch.tensor([1., 0., 1., 1.])))

for lr in (0.1, 0.01, 0.001):
    torch.manual_seed(0)
    m = LinearModel()
    opt = SGD(m.parameters(), lr=lr)
    for i in range(200):
        opt.zero_grad()
        loss = criterion(m(torch.from_numpy(x_train)), torch.from_numpy(y_train))
        loss.backward()
        opt.step()
    print('lr {} loss {:.6f} w {:.4f} b {:.4f}'.format(lr, loss.item(), m.linear.weight.item(),
                                                     m.linear.bias.item()))
