# Corpus program, written for gradsh (no code copied). Modelled on Aakash N S's Jovian course
# "Deep Learning with PyTorch: Zero to GANs", lessons 1 and 2 ("PyTorch Basics: Tensors &
# Gradients" and "Linear Regression & Gradient Descent"):
# https://jovian.com/aakashns/01-pytorch-basics and https://jovian.com/aakashns/02-linear-regression
# (also in https://github.com/aakashns/01-pytorch-basics style mirrors).
# Like the originals: scalar tensors x, w, b with requires_grad, y = w * x + b, y.backward()
# and the three grads; a 2x3 matrix, a 3-D tensor, tensor shapes and dtypes; torch.full,
# torch.cat, torch.sin, reshape; numpy round trips; the crop-yield data (temperature,
# rainfall, humidity -> apples, oranges) as numpy float32 arrays, weights randn(2, 3) and
# bias randn(2), model x @ w.t() + b, mse with torch.sum(diff * diff) / diff.numel(), manual
# gradient descent with 1e-5 under no_grad and grad.zero_(), 100 epochs; then the nn.Linear
# version with TensorDataset (train_ds[0:3]), DataLoader(batch_size=5, shuffle=True),
# F.mse_loss, SGD(lr=1e-5) and fit() printing 'Epoch [{}/{}], Loss: {:.4f}' every 10 epochs.
# Differences: seeded; 100 epochs for fit instead of 100 printed every 10 (same); the
# DataLoader's first batch printed once.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
t1 = torch.tensor(4.)
print(t1, t1.dtype)
t2 = torch.tensor([1., 2, 3, 4])
print(t2)
t3 = torch.tensor([[5., 6], [7, 8], [9, 10]])
print(t3)
t4 = torch.tensor([[[11, 12, 13], [13, 14, 15]], [[15, 16, 17], [17, 18, 19.]]])
print(t4)
print(t1.shape, t2.shape, t3.shape, t4.shape)
try:
    torch.tensor([[5., 6, 11], [7, 8], [9, 10]])
except ValueError as e:
    print("ValueError:", e)
x = torch.tensor(3.)
w = torch.tensor(4., requires_grad=True)
b = torch.tensor(5., requires_grad=True)
print(x, w, b)
y = w * x + b
print(y)
y.backward()
print('dy/dx:', x.grad)
print('dy/dw:', w.grad)
print('dy/db:', b.grad)
t6 = torch.full((3, 2), 42)
print(t6)
t7 = torch.cat((t3, t6))
print(t7)
t8 = torch.sin(t7)
print(t8)
t9 = t8.reshape(3, 2, 2)
print(t9)
x = np.array([[1, 2], [3, 4.]])
print(x)
y = torch.from_numpy(x)
print(y, x.dtype, y.dtype)
z = y.numpy()
print(z)

inputs = np.array([[73, 67, 43],
                   [91, 88, 64],
                   [87, 134, 58],
                   [102, 43, 37],
                   [69, 96, 70]], dtype='float32')
targets = np.array([[56, 70],
                    [81, 101],
                    [119, 133],
                    [22, 37],
                    [103, 119]], dtype='float32')
inputs = torch.from_numpy(inputs)
targets = torch.from_numpy(targets)
print(inputs)
print(targets)
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, requires_grad=True)
print(w)
print(b)


def model(x):
    return x @ w.t() + b


preds = model(inputs)
print(preds)
print(targets)


def mse(t1, t2):
    diff = t1 - t2
    return torch.sum(diff * diff) / diff.numel()


loss = mse(preds, targets)
print(loss)
loss.backward()
print(w)
print(w.grad)
print(b.grad)
w.grad.zero_()
b.grad.zero_()
print(w.grad)
print(b.grad)
preds = model(inputs)
loss = mse(preds, targets)
loss.backward()
with torch.no_grad():
    w -= w.grad * 1e-5
    b -= b.grad * 1e-5
    w.grad.zero_()
    b.grad.zero_()
print(w)
print(b)
preds = model(inputs)
loss = mse(preds, targets)
print(loss)
for i in range(100):
    preds = model(inputs)
    loss = mse(preds, targets)
    loss.backward()
    with torch.no_grad():
        w -= w.grad * 1e-5
        b -= b.grad * 1e-5
        w.grad.zero_()
        b.grad.zero_()
preds = model(inputs)
loss = mse(preds, targets)
print(loss)
print(preds)

inputs = np.array([[73, 67, 43], [91, 88, 64], [87, 134, 58],
                   [102, 43, 37], [69, 96, 70], [74, 66, 43],
                   [91, 87, 65], [88, 134, 59], [101, 44, 37],
                   [68, 96, 71], [73, 66, 44], [92, 87, 64],
                   [87, 135, 57], [103, 43, 36], [68, 97, 70]],
                  dtype='float32')
targets = np.array([[56, 70], [81, 101], [119, 133],
                    [22, 37], [103, 119], [57, 69],
                    [80, 102], [118, 132], [21, 38],
                    [104, 118], [57, 69], [82, 100],
                    [118, 134], [20, 38], [102, 120]],
                   dtype='float32')
inputs = torch.from_numpy(inputs)
targets = torch.from_numpy(targets)
train_ds = TensorDataset(inputs, targets)
print(train_ds[0:3])
batch_size = 5
train_dl = DataLoader(train_ds, batch_size, shuffle=True)
for xb, yb in train_dl:
    print(xb)
    print(yb)
    break
model = nn.Linear(3, 2)
print(model.weight)
print(model.bias)
print(list(model.parameters()))
preds = model(inputs)
print(preds)
loss_fn = F.mse_loss
loss = loss_fn(model(inputs), targets)
print(loss)
opt = torch.optim.SGD(model.parameters(), lr=1e-5)


def fit(num_epochs, model, loss_fn, opt, train_dl):
    for epoch in range(num_epochs):
        for xb, yb in train_dl:
            pred = model(xb)
            loss = loss_fn(pred, yb)
            loss.backward()
            opt.step()
            opt.zero_grad()
        if (epoch + 1) % 10 == 0:
            print('Epoch [{}/{}], Loss: {:.4f}'.format(epoch + 1, num_epochs, loss.item()))


fit(100, model, loss_fn, opt, train_dl)
preds = model(inputs)
print(preds)
print(targets)
print(model(torch.tensor([[75, 63, 44.]])))
