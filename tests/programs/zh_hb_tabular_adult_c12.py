# Corpus program, written for gradsh (no code copied). Modelled on zergtant's pytorch-handbook
# (《PyTorch 中文手册》), chapter 5.2 "Structured Data" (the adult income table):
# https://github.com/zergtant/pytorch-handbook/blob/master/chapter5/5.2-Structured-Data.ipynb
# Like the chapter: categorical columns label-encoded and continuous ones with missing values
# filled with 0, a tabularDataset returning (row of X.values, label) so that the DataLoader's
# collate turns float64 NumPy rows and NumPy int64 labels into tensors; tabularModel
# (BatchNorm1d on the 14 inputs, Linear 14-500-100-2 with ReLU and BatchNorm1d, a sigmoid on
# the two outputs) trained with CrossEntropyLoss and Adam(lr=0.01), x.float() / y.long() in
# the loop, 'Epoch : %d/%d,   Loss: %.4f' of the running mean of the losses; then accuracy
# with torch.max(outputs.data, 1) and '准确率: %.4f %%' % (100 * correct / total) where
# correct is a tensor.
# Differences: 600 synthetic rows (8 integer-coded categorical columns, 6 continuous ones with
# some NaNs filled with 0, a label from a fixed rule) built with NumPy instead of reading
# adult.csv with pandas and sklearn's LabelEncoder; batch 128 and 4 epochs instead of 1024
# and 100; a manual seed.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(52)
rng = np.random.RandomState(52)
n = 600
cats = rng.randint(0, 9, size=(n, 8)).astype(np.float64)
conts = np.column_stack([rng.randint(17, 90, n), rng.randint(20000, 400000, n),
                         rng.randint(1, 16, n), rng.exponential(1000, n).round(),
                         rng.exponential(80, n).round(), rng.randint(1, 99, n)]).astype(np.float64)
conts[rng.rand(n) < 0.05, 2] = np.nan
conts = np.nan_to_num(conts, nan=0.0)
X = np.column_stack([conts[:, :2], cats[:, :2], conts[:, 2:4], cats[:, 2:], conts[:, 4:]])
Y = ((conts[:, 0] > 40) & (conts[:, 5] > 45) | (conts[:, 3] > 2000)).astype(np.int64)
print(X.shape, X.dtype, Y.dtype, np.bincount(Y))


class tabularDataset(Dataset):
    def __init__(self, X, Y):
        self.x = X
        self.y = Y

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        return (self.x[idx], self.y[idx])


train_ds = tabularDataset(X, Y)
print(train_ds[0])


class tabularModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(14, 500)
        self.lin2 = nn.Linear(500, 100)
        self.lin3 = nn.Linear(100, 2)
        self.bn_in = nn.BatchNorm1d(14)
        self.bn1 = nn.BatchNorm1d(500)
        self.bn2 = nn.BatchNorm1d(100)

    def forward(self, x_in):
        x = self.bn_in(x_in)
        x = F.relu(self.lin1(x))
        x = self.bn1(x)
        x = F.relu(self.lin2(x))
        x = self.bn2(x)
        x = self.lin3(x)
        x = torch.sigmoid(x)
        return x


DEVICE = torch.device("cpu")
print(DEVICE)
criterion = nn.CrossEntropyLoss()
model = tabularModel().to(DEVICE)
print(model)
rn = torch.rand(3, 14).to(DEVICE)
print(model(rn))
LEARNING_RATE = 0.01
batch_size = 128
optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
train_dl = DataLoader(train_ds, batch_size=batch_size, shuffle=True)
first_x, first_y = next(iter(train_dl))
print(first_x.dtype, first_x.shape, first_y.dtype, first_y[:8])
model.train()
TOTAL_EPOCHS = 4
losses = []
for epoch in range(TOTAL_EPOCHS):
    for i, (x, y) in enumerate(train_dl):
        x = x.float().to(DEVICE)
        y = y.long().to(DEVICE)
        optimizer.zero_grad()
        outputs = model(x)
        loss = criterion(outputs, y)
        loss.backward()
        optimizer.step()
        losses.append(loss.cpu().data.item())
    print('Epoch : %d/%d,   Loss: %.4f' % (epoch + 1, TOTAL_EPOCHS, np.mean(losses)))
model.eval()
correct = 0
total = 0
for i, (x, y) in enumerate(train_dl):
    x = x.float().to(DEVICE)
    y = y.long()
    outputs = model(x).cpu()
    _, predicted = torch.max(outputs.data, 1)
    total += y.size(0)
    correct += (predicted == y).sum()
print(correct, total, type(correct))
print('准确率: %.4f %%' % (100 * correct / total))
print(model.bn_in.running_mean[:4], model.bn_in.num_batches_tracked)
