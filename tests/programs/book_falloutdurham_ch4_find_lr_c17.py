# Corpus program, written for gradsh (no code copied). Modelled on chapter 4 ("Transfer
# Learning and Other Tricks") of Ian Pointer's "Programming PyTorch for Deep Learning"
# (O'Reilly), its notebook:
# https://github.com/falloutdurham/beginners-pytorch-deep-learning/blob/master/chapter4/Chapter%204.ipynb
# Like the chapter: freezing a pretrained feature extractor (requires_grad = False on every
# parameter except the BatchNorm layers, as the book's "don't freeze batchnorm" variant) and
# replacing the classifier head with an nn.Sequential; find_lr, the learning-rate range test
# that multiplies lr geometrically from init_value to final_value, keeps an exponentially
# smoothed loss with bias correction (avg_loss = beta * avg_loss + (1 - beta) * loss;
# smoothed = avg_loss / (1 - beta ** batch_num)), stops when the loss explodes (> 4x the best)
# and returns log10 of the lrs with the losses; differential learning rates through optimizer
# param groups; unfreezing layers later with requires_grad = True.
# Differences: a small CNN stands in for the pretrained ResNet-50 (no download); random images
# of 2 classes; no matplotlib plot (the lrs and losses printed); seeded.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(1)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.layer1 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.layer2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 1000)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.layer2(self.layer1(x))
        return self.fc(torch.flatten(self.avgpool(x), 1))


transfer_model = Backbone()
for name, param in transfer_model.named_parameters():
    if "bn" not in name and not isinstance(dict(transfer_model.named_modules()).get(name.rsplit(".", 1)[0]), nn.BatchNorm2d):
        param.requires_grad = False
print([name for name, p in transfer_model.named_parameters() if p.requires_grad])
transfer_model.fc = nn.Sequential(nn.Linear(transfer_model.fc.in_features, 500), nn.ReLU(), nn.Dropout(), nn.Linear(500, 2))
print(transfer_model.fc)
print(sum(p.numel() for p in transfer_model.parameters() if p.requires_grad), sum(p.numel() for p in transfer_model.parameters()))

images = torch.randn(96, 3, 16, 16)
targets = (images[:, 0].mean(dim=(1, 2)) > 0).long()
train_loader = DataLoader(TensorDataset(images, targets), batch_size=8, shuffle=True)
loss_fn = nn.CrossEntropyLoss()


def find_lr(model, loss_fn, optimizer, train_loader, init_value=1e-8, final_value=10.0):
    number_in_epoch = len(train_loader) - 1
    update_step = (final_value / init_value) ** (1 / number_in_epoch)
    lr = init_value
    optimizer.param_groups[0]["lr"] = lr
    best_loss = 0.0
    batch_num = 0
    losses = []
    log_lrs = []
    for data in train_loader:
        batch_num += 1
        inputs, labels = data
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = loss_fn(outputs, labels)
        if batch_num > 1 and loss > 4 * best_loss:
            if len(log_lrs) > 20:
                return log_lrs[10:-5], losses[10:-5]
            else:
                return log_lrs, losses
        if loss < best_loss or batch_num == 1:
            best_loss = loss
        losses.append(loss.item())
        log_lrs.append(math.log10(lr))
        loss.backward()
        optimizer.step()
        lr *= update_step
        optimizer.param_groups[0]["lr"] = lr
    if len(log_lrs) > 20:
        return log_lrs[10:-5], losses[10:-5]
    else:
        return log_lrs, losses


def find_lr_smoothed(model, loss_fn, optimizer, train_loader, init_value=1e-8, final_value=10.0, beta=0.98):
    number_in_epoch = len(train_loader) - 1
    update_step = (final_value / init_value) ** (1 / number_in_epoch)
    lr = init_value
    optimizer.param_groups[0]["lr"] = lr
    avg_loss, best_loss, batch_num = 0.0, 0.0, 0
    losses, log_lrs = [], []
    for inputs, labels in train_loader:
        batch_num += 1
        optimizer.zero_grad()
        loss = loss_fn(model(inputs), labels)
        avg_loss = beta * avg_loss + (1 - beta) * loss.item()
        smoothed_loss = avg_loss / (1 - beta ** batch_num)
        if batch_num > 1 and smoothed_loss > 4 * best_loss:
            return log_lrs, losses
        if smoothed_loss < best_loss or batch_num == 1:
            best_loss = smoothed_loss
        losses.append(smoothed_loss)
        log_lrs.append(math.log10(lr))
        loss.backward()
        optimizer.step()
        lr *= update_step
        optimizer.param_groups[0]["lr"] = lr
    return log_lrs, losses


import copy

start_state = copy.deepcopy(transfer_model.state_dict())
optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, transfer_model.parameters()), lr=1e-3)
logs, losses = find_lr(transfer_model, loss_fn, optimizer, train_loader)
print([round(v, 3) for v in logs])
print([round(v, 4) for v in losses])
transfer_model.load_state_dict(start_state)
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, transfer_model.parameters()), lr=1e-3)
torch.manual_seed(2)
logs, losses = find_lr_smoothed(transfer_model, loss_fn, optimizer, train_loader, init_value=1e-5, final_value=1.0)
print([round(v, 3) for v in logs])
print([round(v, 4) for v in losses])

transfer_model.load_state_dict(start_state)
found_lr = 1e-2
for p in transfer_model.parameters():
    p.requires_grad = True
optimizer = torch.optim.Adam([
    {"params": transfer_model.layer2.parameters(), "lr": found_lr / 3},
    {"params": transfer_model.layer1.parameters(), "lr": found_lr / 9},
    {"params": list(transfer_model.conv1.parameters()) + list(transfer_model.bn1.parameters()), "lr": found_lr / 9},
    {"params": transfer_model.fc.parameters()},
], lr=found_lr)
print([(len(g["params"]), round(g["lr"], 6)) for g in optimizer.param_groups])
unfreeze_layers = [transfer_model.layer1, transfer_model.layer2]
for layer in unfreeze_layers:
    for param in layer.parameters():
        param.requires_grad = True
transfer_model.train()
for epoch in range(2):
    total = 0.0
    for inputs, labels in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(transfer_model(inputs), labels)
        loss.backward()
        optimizer.step()
        total += loss.item() * inputs.size(0)
    transfer_model.eval()
    with torch.no_grad():
        correct = (transfer_model(images).argmax(1) == targets).sum().item()
    transfer_model.train()
    print(f"Epoch {epoch}, Training Loss: {total / len(images):.4f}, accuracy = {correct / len(images):.4f}")
print(transfer_model.bn1.running_mean[:4], transfer_model.layer2[1].num_batches_tracked)
