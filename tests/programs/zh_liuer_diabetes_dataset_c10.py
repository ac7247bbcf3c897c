# Corpus program, written for gradsh (no code copied). Modelled on Liu Er's Bilibili course
# "PyTorch深度学习实践" lectures 7 (处理多维特征的输入) and 8 (加载数据集), copied in many CSDN
# and Zhihu notes (see https://github.com/ChriisWei/PyTorch_Learning_Practice for one learner's
# notebooks of the series): the diabetes data loaded with np.loadtxt(delimiter=',',
# dtype=np.float32), x_data = torch.from_numpy(xy[:, :-1]) and y_data = xy[:, [-1]]; the
# 8 -> 6 -> 4 -> 1 sigmoid network; BCELoss(reduction='mean'); SGD(lr=0.1); lecture 7's
# full-batch loop printing epoch and loss, lecture 8's DiabetesDataset (__getitem__,
# __len__) with DataLoader(batch_size=32, shuffle=True) printing epoch, i and loss.item().
# Differences: a synthetic 96-row CSV written to an in-memory buffer (np.loadtxt reads it)
# instead of the course's diabetes.csv.gz; fewer epochs; num_workers=0; seeded.
import io

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
features = rng.uniform(-1, 1, size=(96, 8)).round(4)
labels = (features[:, 0] + 0.5 * features[:, 1] - features[:, 5] > 0).astype(np.float64)
buffer = io.StringIO()
np.savetxt(buffer, np.hstack([features, labels[:, None]]), delimiter=',', fmt='%.4f')
csv_text = buffer.getvalue()

xy = np.loadtxt(io.StringIO(csv_text), delimiter=',', dtype=np.float32)
x_data = torch.from_numpy(xy[:, :-1])
y_data = torch.from_numpy(xy[:, [-1]])
print(xy.shape, x_data.shape, y_data.shape, x_data.dtype, y_data[:5].T)


class Model(torch.nn.Module):
    def __init__(self):
        super(Model, self).__init__()
        self.linear1 = torch.nn.Linear(8, 6)
        self.linear2 = torch.nn.Linear(6, 4)
        self.linear3 = torch.nn.Linear(4, 1)
        self.sigmoid = torch.nn.Sigmoid()

    def forward(self, x):
        x = self.sigmoid(self.linear1(x))
        x = self.sigmoid(self.linear2(x))
        x = self.sigmoid(self.linear3(x))
        return x


model = Model()
criterion = torch.nn.BCELoss(reduction='mean')
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    y_pred = model(x_data)
    loss = criterion(y_pred, y_data)
    if epoch % 20 == 0:
        print(epoch, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


class DiabetesDataset(Dataset):
    def __init__(self, text):
        xy = np.loadtxt(io.StringIO(text), delimiter=',', dtype=np.float32)
        self.len = xy.shape[0]
        self.x_data = torch.from_numpy(xy[:, :-1])
        self.y_data = torch.from_numpy(xy[:, [-1]])

    def __getitem__(self, index):
        return self.x_data[index], self.y_data[index]

    def __len__(self):
        return self.len


dataset = DiabetesDataset(csv_text)
print(len(dataset), dataset[3])
train_loader = DataLoader(dataset=dataset, batch_size=32, shuffle=True, num_workers=0)
model = Model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for i, data in enumerate(train_loader, 0):
        inputs, labels_b = data
        y_pred = model(inputs)
        loss = criterion(y_pred, labels_b)
        print(epoch, i, loss.item(), inputs.shape)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
with torch.no_grad():
    pred = (model(x_data) > 0.5).float()
print('accuracy', (pred == y_data).float().mean().item())
print(model.linear3.weight, model.linear1.bias.grad)
