# Corpus program, written for gradsh (no code copied). Modelled on Vinh Khuc's
# PyTorch-Mini-Tutorials, 4_modern_neural_net.py and 6_lstm.py:
# https://github.com/vinhkhuc/PyTorch-Mini-Tutorials/blob/master/6_lstm.py
# https://github.com/vinhkhuc/PyTorch-Mini-Tutorials/blob/master/4_modern_neural_net.py
# Like the originals: images reshaped to (samples, 28, 28) and np.swapaxes'ed to sequence-first
# before torch.from_numpy(...).float() (a non-contiguous NumPy array); an LSTMNet whose forward
# builds zero h0/c0 with requires_grad=False, calls self.lstm.forward and a bias-free Linear on
# fx[-1]; CrossEntropyLoss(reduction='elementwise_mean') (the deprecated spelling the file
# still uses) called through loss.forward; SGD(lr=0.01, momentum=0.9); the "modern" MLP
# built with Sequential.add_module (bias-free Linears, ReLU, Dropout(0.2)) trained with
# RMSprop(lr=0.01, alpha=0.9); per epoch "Epoch %d, cost = %f, acc = %.2f%%" with predictions
# from .data.numpy().argmax(axis=1).
# Differences: synthetic 28x28 "digits" (a seeded random pattern per class plus noise)
# instead of MNIST: 200 training and 50 test images; hidden 32 / 64 instead of 128 / 512;
# 3 epochs of batch 50.
import numpy as np
import torch
from torch import nn, optim

np.random.seed(0)
protos = np.random.rand(10, 784).astype(np.float32)


def load_synthetic(n):
    y = np.random.randint(0, 10, size=n)
    x = protos[y] + 0.8 * np.random.rand(n, 784).astype(np.float32)
    return x, y


trX, trY = load_synthetic(200)
teX, teY = load_synthetic(50)


class LSTMNet(torch.nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim):
        super(LSTMNet, self).__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim)
        self.linear = nn.Linear(hidden_dim, output_dim, bias=False)

    def forward(self, x):
        batch_size = x.size()[1]
        h0 = torch.zeros([1, batch_size, self.hidden_dim], requires_grad=False)
        c0 = torch.zeros([1, batch_size, self.hidden_dim], requires_grad=False)
        fx, _ = self.lstm.forward(x, (h0, c0))
        return self.linear.forward(fx[-1])


def build_model(input_dim, output_dim):
    model = torch.nn.Sequential()
    model.add_module("linear_1", torch.nn.Linear(input_dim, 64, bias=False))
    model.add_module("relu_1", torch.nn.ReLU())
    model.add_module("dropout_1", torch.nn.Dropout(0.2))
    model.add_module("linear_2", torch.nn.Linear(64, 64, bias=False))
    model.add_module("relu_2", torch.nn.ReLU())
    model.add_module("dropout_2", torch.nn.Dropout(0.2))
    model.add_module("linear_3", torch.nn.Linear(64, output_dim, bias=False))
    return model


def train(model, loss, optimizer, x_val, y_val):
    model.train()
    optimizer.zero_grad()
    fx = model.forward(x_val)
    output = loss.forward(fx, y_val)
    output.backward()
    optimizer.step()
    return output.item()


def predict(model, x_val):
    model.eval()
    output = model.forward(x_val)
    return output.data.numpy().argmax(axis=1)


torch.manual_seed(42)
seq_length, input_dim, n_classes, batch_size = 28, 28, 10, 50
X = np.swapaxes(trX.reshape(-1, seq_length, input_dim), 0, 1)
T = np.swapaxes(teX.reshape(-1, seq_length, input_dim), 0, 1)
print(X.shape, X.flags['C_CONTIGUOUS'])
Xt = torch.from_numpy(X).float()
Tt = torch.from_numpy(T).float()
print(Xt.shape, Xt.stride(), Xt.is_contiguous())
Yt = torch.from_numpy(trY).long()

model = LSTMNet(input_dim, 32, n_classes)
loss = torch.nn.CrossEntropyLoss(reduction='elementwise_mean')
print(loss.reduction)
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for i in range(3):
    cost = 0.
    num_batches = len(trY) // batch_size
    for k in range(num_batches):
        start, end = k * batch_size, (k + 1) * batch_size
        cost += train(model, loss, optimizer, Xt[:, start:end, :], Yt[start:end])
    predY = predict(model, Tt)
    print("Epoch %d, cost = %f, acc = %.2f%%" % (i + 1, cost / num_batches, 100. * np.mean(predY == teY)))

torch.manual_seed(42)
mlp = build_model(784, n_classes)
print(mlp)
loss = torch.nn.CrossEntropyLoss(reduction='mean')
optimizer = optim.RMSprop(mlp.parameters(), lr=0.01, alpha=0.9)
trXt, teXt = torch.from_numpy(trX).float(), torch.from_numpy(teX).float()
for i in range(3):
    cost = 0.
    num_batches = len(trY) // batch_size
    for k in range(num_batches):
        start, end = k * batch_size, (k + 1) * batch_size
        cost += train(mlp, loss, optimizer, trXt[start:end], Yt[start:end])
    predY = predict(mlp, teXt)
    print("Epoch %d, cost = %f, acc = %.2f%%" % (i + 1, cost / num_batches, 100. * np.mean(predY == teY)))
