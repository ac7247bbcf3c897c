# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# leedl-tutorial (李宏毅深度学习教程), homework 2 (phoneme classification from MFCC frames):
# https://github.com/datawhalechina/leedl-tutorial/blob/master/Homework/HW2_Classification/HW2_Classification.ipynb
# Like the homework: shift (x[0].repeat(-n, 1) / x[-1].repeat(n, 1) padding and torch.cat)
# and concat_feat (x.repeat(1, concat_n), view + permute, in-place row assignment of shifted
# copies, permute back and view) joining each frame with its neighbours; preprocess_data
# filling a preallocated torch.empty buffer slice by slice (X[idx: idx + cur_len, :] = feat,
# y[...] = torch.LongTensor(labels)) and trimming it; LibriDataset wrapping
# torch.LongTensor(y); BasicBlock / Classifier built with *[...] unpacking; same_seeds;
# AdamW and CrossEntropyLoss; the epoch loop with torch.max(outputs, 1) accuracies, a
# validation pass under no_grad, the '[{:03d}/{:03d}] Train Acc: ...' line and "saving
# model with acc" when the validation accuracy improves.
# Differences: 12 synthetic utterances of 20-40 frames of 39 features (labels from a fixed
# random projection of the frame) instead of the LibriSpeech features on disk; the buffer
# holds 2000 rows instead of 3,000,000; concat_nframes = 5, 3 epochs, the state_dict saved to
# an in-memory buffer; the train / val split by random.shuffle(seed 1337) as in the homework.
import io
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def shift(x, n):
    if n < 0:
        left = x[0].repeat(-n, 1)
        right = x[:n]
    elif n > 0:
        right = x[-1].repeat(n, 1)
        left = x[n:]
    else:
        return x
    return torch.cat((left, right), dim=0)


def concat_feat(x, concat_n):
    assert concat_n % 2 == 1
    if concat_n < 2:
        return x
    seq_len, feature_dim = x.size(0), x.size(1)
    x = x.repeat(1, concat_n)
    x = x.view(seq_len, concat_n, feature_dim).permute(1, 0, 2)
    mid = (concat_n // 2)
    for r_idx in range(1, mid + 1):
        x[mid + r_idx, :] = shift(x[mid + r_idx], r_idx)
        x[mid - r_idx, :] = shift(x[mid - r_idx], -r_idx)
    return x.permute(1, 0, 2).view(seq_len, concat_n * feature_dim)


demo = torch.arange(12.).view(4, 3)
print(shift(demo, 1))
print(shift(demo, -2))
print(concat_feat(demo, 3))

torch.manual_seed(2)
projection = torch.randn(39, 41)
utterances = {}
for k in range(12):
    length = int(torch.randint(20, 41, (1,)))
    feat = torch.randn(length, 39)
    utterances[f'utt{k:02d}'] = (feat, (feat @ projection).argmax(1).tolist())


def preprocess_data(split, concat_nframes, train_ratio=0.8, train_val_seed=1337):
    class_num = 41
    usage_list = sorted(utterances)
    random.seed(train_val_seed)
    random.shuffle(usage_list)
    percent = int(len(usage_list) * train_ratio)
    usage_list = usage_list[:percent] if split == 'train' else usage_list[percent:]
    print('[Dataset] - # phone classes: ' + str(class_num) + ', number of utterances for '
          + split + ': ' + str(len(usage_list)))
    max_len = 2000
    X = torch.empty(max_len, 39 * concat_nframes)
    y = torch.empty(max_len, dtype=torch.long)
    idx = 0
    for i, fname in enumerate(usage_list):
        feat, labels = utterances[fname]
        cur_len = len(feat)
        feat = concat_feat(feat, concat_nframes)
        label = torch.LongTensor(labels)
        X[idx: idx + cur_len, :] = feat
        y[idx: idx + cur_len] = label
        idx += cur_len
    X = X[:idx, :]
    y = y[:idx]
    print(f'[INFO] {split} set')
    print(X.shape)
    print(y.shape)
    return X, y


class LibriDataset(Dataset):
    def __init__(self, X, y=None):
        self.data = X
        if y is not None:
            self.label = torch.LongTensor(y)
        else:
            self.label = None

    def __getitem__(self, idx):
        if self.label is not None:
            return self.data[idx], self.label[idx]
        else:
            return self.data[idx]

    def __len__(self):
        return len(self.data)


class BasicBlock(nn.Module):
    def __init__(self, input_dim, output_dim):
        super(BasicBlock, self).__init__()
        self.block = nn.Sequential(nn.Linear(input_dim, output_dim), nn.ReLU())

    def forward(self, x):
        return self.block(x)


class Classifier(nn.Module):
    def __init__(self, input_dim, output_dim=41, hidden_layers=1, hidden_dim=256):
        super(Classifier, self).__init__()
        self.fc = nn.Sequential(
            BasicBlock(input_dim, hidden_dim),
            *[BasicBlock(hidden_dim, hidden_dim) for _ in range(hidden_layers)],
            nn.Linear(hidden_dim, output_dim)
        )

    def forward(self, x):
        return self.fc(x)


def same_seeds(seed):
    torch.manual_seed(seed)
    np.random.seed(seed)
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True


concat_nframes = 5
seed = 0
batch_size = 64
num_epoch = 3
learning_rate = 1e-3
hidden_layers = 2
hidden_dim = 64
input_dim = 39 * concat_nframes
train_X, train_y = preprocess_data('train', concat_nframes)
val_X, val_y = preprocess_data('val', concat_nframes)
train_set = LibriDataset(train_X, train_y)
val_set = LibriDataset(val_X, val_y)
print(train_set[0][0].shape, train_set[0][1], train_set.label.dtype)
same_seeds(seed)
train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True)
val_loader = DataLoader(val_set, batch_size=batch_size, shuffle=False)
model = Classifier(input_dim=input_dim, hidden_layers=hidden_layers, hidden_dim=hidden_dim)
print(model)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
best_acc = 0.0
buffer = io.BytesIO()
for epoch in range(num_epoch):
    train_acc = 0.0
    train_loss = 0.0
    val_acc = 0.0
    val_loss = 0.0
    model.train()
    for i, batch in enumerate(train_loader):
        features, labels = batch
        optimizer.zero_grad()
        outputs = model(features)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        _, train_pred = torch.max(outputs, 1)
        train_acc += (train_pred.detach() == labels.detach()).sum().item()
        train_loss += loss.item()
    model.eval()
    with torch.no_grad():
        for i, batch in enumerate(val_loader):
            features, labels = batch
            outputs = model(features)
            loss = criterion(outputs, labels)
            _, val_pred = torch.max(outputs, 1)
            val_acc += (val_pred.cpu() == labels.cpu()).sum().item()
            val_loss += loss.item()
        print('[{:03d}/{:03d}] Train Acc: {:3.6f} Loss: {:3.6f} | Val Acc: {:3.6f} loss: {:3.6f}'
              .format(epoch + 1, num_epoch, train_acc / len(train_set),
                      train_loss / len(train_loader), val_acc / len(val_set),
                      val_loss / len(val_loader)))
        if val_acc > best_acc:
            best_acc = val_acc
            torch.save(model.state_dict(), buffer)
            print('saving model with acc {:.3f}'.format(best_acc / len(val_set)))
