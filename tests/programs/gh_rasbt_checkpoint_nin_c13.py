# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# deeplearning-models notebook "Gradient checkpointing: Network in Network" (MIT):
# https://github.com/rasbt/deeplearning-models/blob/master/pytorch_ipynb/mechanics/gradient-checkpointing-nin.ipynb
# Like the original: set_all_seeds (random, numpy, torch, cuda); the NiN classifier (5x5 and
# 1x1 Conv2d with ReLU(inplace=True), MaxPool2d / AvgPool2d with padding, Dropout(0.5)),
# first plain, then with forward() setting x.requires_grad = True and running the layers
# through torch.utils.checkpoint.checkpoint_sequential(functions=..., segments=..., input=x);
# train_classifier_simple_v1's loop (Adam, 'Epoch: %03d/%03d | Batch %04d/%04d | Loss: %.4f'
# every logging_interval batches, then under torch.set_grad_enabled(False) the accuracy and
# epoch loss lines), the two models trained from the same seed giving the same losses
# (checkpointing restores the dropout RNG state when it recomputes).
# Differences: random 3x8x8 images for CIFAR-10 (a TensorDataset and DataLoader), channel
# counts 16/12/8 instead of 192/160/96, the final AvgPool2d over 2x2, 2 epochs of 6 batches;
# use_reentrant=False passed (PyTorch 2.x asks for it); no tracemalloc / timing prints.
import os
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint_sequential
from torch.utils.data import DataLoader, TensorDataset


def set_all_seeds(seed):
    os.environ["PL_GLOBAL_SEED"] = str(seed)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


DEVICE = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
print('Device:', DEVICE)
RANDOM_SEED = 1
LEARNING_RATE = 0.001
BATCH_SIZE = 16
NUM_EPOCHS = 2
NUM_CLASSES = 10


def layers(num_classes):
    return [
        nn.Conv2d(3, 16, kernel_size=5, stride=1, padding=2), nn.ReLU(inplace=True),
        nn.Conv2d(16, 12, kernel_size=1, stride=1, padding=0), nn.ReLU(inplace=True),
        nn.Conv2d(12, 8, kernel_size=1, stride=1, padding=0), nn.ReLU(inplace=True),
        nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        nn.Dropout(0.5),
        nn.Conv2d(8, 16, kernel_size=5, stride=1, padding=2), nn.ReLU(inplace=True),
        nn.Conv2d(16, 16, kernel_size=1, stride=1, padding=0), nn.ReLU(inplace=True),
        nn.AvgPool2d(kernel_size=3, stride=2, padding=1),
        nn.Dropout(0.5),
        nn.Conv2d(16, 16, kernel_size=3, stride=1, padding=1), nn.ReLU(inplace=True),
        nn.Conv2d(16, num_classes, kernel_size=1, stride=1, padding=0), nn.ReLU(inplace=True),
        nn.AvgPool2d(kernel_size=2, stride=1, padding=0),
    ]


class NiN(nn.Module):
    def __init__(self, num_classes):
        super(NiN, self).__init__()
        self.num_classes = num_classes
        self.classifier = nn.Sequential(*layers(num_classes))

    def forward(self, x):
        x = self.classifier(x)
        return x.view(x.size(0), self.num_classes)


class NiNCheckpointed(nn.Module):
    def __init__(self, num_classes, segments):
        super().__init__()
        self.num_classes = num_classes
        self.segments = segments
        self.classifier = nn.Sequential(*layers(num_classes))
        self.classifier_modules = [module for k, module in self.classifier._modules.items()]

    def forward(self, x):
        x.requires_grad = True
        x = checkpoint_sequential(functions=self.classifier_modules, segments=self.segments,
                                  input=x, use_reentrant=False)
        return x.view(x.size(0), self.num_classes)


def compute_accuracy(model, data_loader, device):
    correct_pred, num_examples = 0, 0
    for features, targets in data_loader:
        logits = model(features.to(device))
        _, predicted_labels = torch.max(logits, 1)
        num_examples += targets.size(0)
        correct_pred += (predicted_labels == targets.to(device)).sum()
    return correct_pred.float() / num_examples * 100


def compute_epoch_loss(model, data_loader, device):
    curr_loss, num_examples = 0., 0
    for features, targets in data_loader:
        logits = model(features.to(device))
        loss = F.cross_entropy(logits, targets.to(device), reduction='sum')
        num_examples += targets.size(0)
        curr_loss += loss
    return curr_loss / num_examples


def train_classifier_simple_v1(num_epochs, model, optimizer, device, train_loader,
                               logging_interval=3):
    log_dict = {'train_loss_per_batch': [], 'train_acc_per_epoch': []}
    for epoch in range(num_epochs):
        model.train()
        for batch_idx, (features, targets) in enumerate(train_loader):
            logits = model(features.to(device))
            loss = F.cross_entropy(logits, targets.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            log_dict['train_loss_per_batch'].append(loss.item())
            if not batch_idx % logging_interval:
                print('Epoch: %03d/%03d | Batch %04d/%04d | Loss: %.4f'
                      % (epoch + 1, num_epochs, batch_idx, len(train_loader), loss))
        model.eval()
        with torch.set_grad_enabled(False):
            train_acc = compute_accuracy(model, train_loader, device)
            train_loss = compute_epoch_loss(model, train_loader, device)
            print('***Epoch: %03d/%03d | Train. Acc.: %.3f%% | Loss: %.3f' % (
                epoch + 1, num_epochs, train_acc, train_loss))
            log_dict['train_acc_per_epoch'].append(train_acc.item())
    return log_dict


set_all_seeds(RANDOM_SEED)
images = torch.rand(96, 3, 8, 8)
labels = torch.randint(0, NUM_CLASSES, (96,))
dataset = TensorDataset(images, labels)
logs = []
for name, make in (("plain", lambda: NiN(NUM_CLASSES)),
                   ("checkpointed, 1 segment", lambda: NiNCheckpointed(NUM_CLASSES, 1)),
                   ("checkpointed, 3 segments", lambda: NiNCheckpointed(NUM_CLASSES, 3))):
    print(name)
    set_all_seeds(RANDOM_SEED)
    model = make()
    model.to(DEVICE)
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    train_loader = DataLoader(dataset, batch_size=BATCH_SIZE, shuffle=True)
    log_dict = train_classifier_simple_v1(num_epochs=NUM_EPOCHS, model=model,
                                          optimizer=optimizer, device=DEVICE,
                                          train_loader=train_loader)
    logs.append(log_dict['train_loss_per_batch'])
    print(log_dict['train_acc_per_epoch'])
print(logs[0] == logs[1], logs[0] == logs[2])
print(["%.6f" % v for v in logs[2][-3:]])
x = images[:2].clone()
out = model(x)
print(x.requires_grad, out.grad_fn, out.shape)
