# Corpus program, written for gradsh (no code copied). Modelled on the common "Logistic
# regression in PyTorch" tutorials (e.g. "PyTorch Logistic Regression Tutorial" on Kaggle and
# the Python Engineer "PyTorch Tutorial 08 - Logistic Regression", MIT:
# https://github.com/patrickloeber/pytorchTutorial/blob/master/08_logistic_regression.py):
# a dataset standardised by hand, converted with torch.from_numpy(X.astype(np.float32)),
# y reshaped with y.view(y.shape[0], 1); a LogisticRegression nn.Module with one nn.Linear
# and torch.sigmoid; nn.BCELoss; torch.optim.SGD(lr=0.01); a loop of epochs printing
# f'epoch: {epoch+1}, loss = {loss.item():.4f}' every 10 epochs; the accuracy on a test split
# under torch.no_grad() with y_predicted.round() and eq(...).sum() / float(n).
# Differences: our own code; no sklearn: two Gaussian blobs from numpy.random.default_rng(0)
# split 80/20 by hand; 100 epochs; seeded.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
n = 200
X0 = rng.normal(loc=[-1.0, -1.0, 0.0, 0.5], scale=1.0, size=(n // 2, 4))
X1 = rng.normal(loc=[1.0, 1.0, 0.5, -0.5], scale=1.0, size=(n // 2, 4))
X = np.vstack([X0, X1])
y = np.concatenate([np.zeros(n // 2), np.ones(n // 2)])
perm = rng.permutation(n)
X, y = X[perm], y[perm]
n_samples, n_features = X.shape
print(n_samples, n_features)

split = int(0.8 * n)
X_train, X_test, y_train, y_test = X[:split], X[split:], y[:split], y[split:]
mean, std = X_train.mean(axis=0), X_train.std(axis=0)
X_train = (X_train - mean) / std
X_test = (X_test - mean) / std

X_train = torch.from_numpy(X_train.astype(np.float32))
X_test = torch.from_numpy(X_test.astype(np.float32))
y_train = torch.from_numpy(y_train.astype(np.float32))
y_test = torch.from_numpy(y_test.astype(np.float32))
y_train = y_train.view(y_train.shape[0], 1)
y_test = y_test.view(y_test.shape[0], 1)
print(X_train.dtype, y_train.shape)


class LogisticRegression(nn.Module):
    def __init__(self, n_input_features):
        super().__init__()
        self.linear = nn.Linear(n_input_features, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


model = LogisticRegression(n_features)
num_epochs = 100
learning_rate = 0.01
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
for epoch in range(num_epochs):
    y_pred = model(X_train)
    loss = criterion(y_pred, y_train)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    if (epoch + 1) % 10 == 0:
        print(f"epoch: {epoch+1}, loss = {loss.item():.4f}")

with torch.no_grad():
    y_predicted = model(X_test)
    y_predicted_cls = y_predicted.round()
    acc = y_predicted_cls.eq(y_test).sum() / float(y_test.shape[0])
    print(f"accuracy: {acc.item():.4f}")
print(model.linear.weight.data, model.linear.bias.data)
