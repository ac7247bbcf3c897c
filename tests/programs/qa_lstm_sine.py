# Corpus program, written for gradsh (no code copied). Modelled on the common "LSTM for time
# series prediction in PyTorch" tutorials (e.g. Jason Brownlee's "LSTM for Time Series
# Prediction in PyTorch", https://machinelearningmastery.com/lstm-for-time-series-prediction-in-pytorch/,
# and the Stack Overflow question "Understanding input shape to PyTorch LSTM",
# https://stackoverflow.com/questions/61632584): create_dataset(dataset, lookback) building
# (X, y) windows with torch.tensor, a model with nn.LSTM(input_size=1, hidden_size=...,
# num_layers=1, batch_first=True) and nn.Linear, optim.Adam, nn.MSELoss, a DataLoader of
# TensorDataset(X_train, y_train) with shuffle=True and batch_size=8, RMSE printed every few
# epochs on train and test under torch.no_grad(); the LSTM's output / h_n / c_n shapes.
# Differences: our own code; a synthetic noisy sine series instead of the airline passengers
# CSV; fewer epochs; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data as data

torch.manual_seed(0)
t = np.arange(120, dtype=np.float32)
series = (np.sin(t / 6) + 0.1 * np.random.default_rng(0).standard_normal(120)).astype(np.float32)
timeseries = series.reshape(-1, 1)
train_size = int(len(timeseries) * 0.67)
train, test = timeseries[:train_size], timeseries[train_size:]


def create_dataset(dataset, lookback):
    X, y = [], []
    for i in range(len(dataset) - lookback):
        feature = dataset[i:i + lookback]
        target = dataset[i + 1:i + lookback + 1]
        X.append(feature)
        y.append(target)
    return torch.tensor(np.array(X)), torch.tensor(np.array(y))


lookback = 4
X_train, y_train = create_dataset(train, lookback=lookback)
X_test, y_test = create_dataset(test, lookback=lookback)
print(X_train.shape, y_train.shape)
print(X_test.shape, y_test.shape)


class SineModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=16, num_layers=1, batch_first=True)
        self.linear = nn.Linear(16, 1)

    def forward(self, x):
        x, _ = self.lstm(x)
        return self.linear(x)


model = SineModel()
print(model)
out, (h_n, c_n) = model.lstm(X_train[:2])
print(out.shape, h_n.shape, c_n.shape)
print(torch.allclose(out[:, -1], h_n[0]))
optimizer = optim.Adam(model.parameters())
loss_fn = nn.MSELoss()
loader = data.DataLoader(data.TensorDataset(X_train, y_train), shuffle=True, batch_size=8)

n_epochs = 30
for epoch in range(n_epochs):
    model.train()
    for X_batch, y_batch in loader:
        y_pred = model(X_batch)
        loss = loss_fn(y_pred, y_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 10 != 9:
        continue
    model.eval()
    with torch.no_grad():
        train_rmse = np.sqrt(loss_fn(model(X_train), y_train))
        test_rmse = np.sqrt(loss_fn(model(X_test), y_test))
    print("Epoch %d: train RMSE %.4f, test RMSE %.4f" % (epoch, train_rmse, test_rmse))

with torch.no_grad():
    pred = model(X_test)[:, -1, :]
print(pred.shape, type(train_rmse))
