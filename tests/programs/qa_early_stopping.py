# Corpus program, written for gradsh (no code copied). Modelled on Bjarte Mehus Sunde's
# "early-stopping-pytorch" (pytorchtools.EarlyStopping, MIT):
# https://github.com/Bjarten/early-stopping-pytorch
# Like the original: an EarlyStopping class with patience, verbose, delta and a checkpoint
# path, tracking best_score = -val_loss and val_loss_min, printing
# 'EarlyStopping counter: {counter} out of {patience}' when the loss does not improve and
# 'Validation loss decreased ({val_loss_min:.6f} --> {val_loss:.6f}).  Saving model ...'
# when it does, setting early_stop after `patience` epochs without improvement; a training
# loop with train / valid losses averaged per epoch (np.average) and the
# '[epoch/n_epochs] train_loss: ... valid_loss: ...' line; the last checkpoint loaded back.
# Differences: our own code and data (a noisy regression that overfits: 40 training points,
# a wide MLP, Adam); the checkpoint is a state_dict deep-copied in memory instead of a
# file; seeded.
import copy

import numpy as np
import torch
from torch import nn


class EarlyStopping:
    def __init__(self, patience=7, verbose=False, delta=0, trace_func=print):
        self.patience = patience
        self.verbose = verbose
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = np.inf
        self.delta = delta
        self.trace_func = trace_func
        self.checkpoint = None

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
        elif score < self.best_score + self.delta:
            self.counter += 1
            self.trace_func(f"EarlyStopping counter: {self.counter} out of {self.patience}")
            if self.counter >= self.patience:
                self.early_stop = True
        else:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
            self.counter = 0

    def save_checkpoint(self, val_loss, model):
        if self.verbose:
            self.trace_func(f"Validation loss decreased ({self.val_loss_min:.6f} --> "
                            f"{val_loss:.6f}).  Saving model ...")
        self.checkpoint = copy.deepcopy(model.state_dict())
        self.val_loss_min = val_loss


torch.manual_seed(0)
x_train = torch.rand(40, 1) * 4 - 2
y_train = torch.sin(2 * x_train) + 0.3 * torch.randn(40, 1)
x_valid = torch.rand(40, 1) * 4 - 2
y_valid = torch.sin(2 * x_valid) + 0.3 * torch.randn(40, 1)

model = nn.Sequential(nn.Linear(1, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
n_epochs = 60
early_stopping = EarlyStopping(patience=5, verbose=True)
avg_train_losses, avg_valid_losses = [], []
for epoch in range(1, n_epochs + 1):
    train_losses, valid_losses = [], []
    model.train()
    for i in range(0, 40, 10):
        optimizer.zero_grad()
        output = model(x_train[i:i + 10])
        loss = criterion(output, y_train[i:i + 10])
        loss.backward()
        optimizer.step()
        train_losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        for i in range(0, 40, 10):
            valid_losses.append(criterion(model(x_valid[i:i + 10]), y_valid[i:i + 10]).item())
    train_loss = np.average(train_losses)
    valid_loss = np.average(valid_losses)
    avg_train_losses.append(train_loss)
    avg_valid_losses.append(valid_loss)
    epoch_len = len(str(n_epochs))
    print(f"[{epoch:>{epoch_len}}/{n_epochs:>{epoch_len}}] "
          f"train_loss: {train_loss:.5f} valid_loss: {valid_loss:.5f}")
    early_stopping(valid_loss, model)
    if early_stopping.early_stop:
        print("Early stopping")
        break

model.load_state_dict(early_stopping.checkpoint)
with torch.no_grad():
    print(f"{criterion(model(x_valid), y_valid).item():.5f}", f"{early_stopping.val_loss_min:.5f}")
print(len(avg_train_losses), int(np.argmin(avg_valid_losses)) + 1)
