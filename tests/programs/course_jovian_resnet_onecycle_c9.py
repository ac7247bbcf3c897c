# Corpus program, written for gradsh (no code copied). Modelled on Aakash N S's Jovian course
# "Deep Learning with PyTorch: Zero to GANs", lesson 5 "Classifying CIFAR10 images using
# ResNets, Regularization and Data Augmentation" (https://jovian.com/aakashns/05b-cifar10-resnet)
# Like the original: accuracy() with torch.max and torch.tensor(...), an
# ImageClassificationBase with training_step / validation_step / validation_epoch_end
# (torch.stack of the batch losses and accuracies, .mean()) / epoch_end printing "Epoch [{}],
# last_lr: {:.5f}, train_loss: {:.4f}, val_loss: {:.4f}, val_acc: {:.4f}"; conv_block (Conv2d,
# BatchNorm2d, ReLU(inplace=True), optional MaxPool2d) and ResNet9 with two residual blocks
# and a classifier (MaxPool2d(4), Flatten, Dropout(0.2), Linear); evaluate under
# @torch.no_grad(); get_lr from param_groups; fit_one_cycle with Adam(weight_decay), OneCycleLR
# (max_lr, epochs, steps_per_epoch), clip_grad_value_, lrs recorded per step, history of
# dicts.
# Differences: synthetic 3x16x16 "CIFAR10" (320 training and 64 validation images, a class-
# dependent colour blob plus noise), channels divided by 8 (8..64), MaxPool2d(2) in the
# classifier for the smaller images, 3 epochs, batch 64, no data augmentation or GPU
# DeviceDataLoader; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)


def make(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.randn(n, 3, 16, 16) * 0.5
    for i, label in enumerate(labels.tolist()):
        images[i, label % 3, label:label + 6, label:label + 6] += 1.0
    return TensorDataset(images, labels)


train_ds, valid_ds = make(320), make(64)
train_dl = DataLoader(train_ds, 64, shuffle=True)
valid_dl = DataLoader(valid_ds, 64 * 2)


def accuracy(outputs, labels):
    _, preds = torch.max(outputs, dim=1)
    return torch.tensor(torch.sum(preds == labels).item() / len(preds))


class ImageClassificationBase(nn.Module):
    def training_step(self, batch):
        images, labels = batch
        out = self(images)
        loss = F.cross_entropy(out, labels)
        return loss

    def validation_step(self, batch):
        images, labels = batch
        out = self(images)
        loss = F.cross_entropy(out, labels)
        acc = accuracy(out, labels)
        return {'val_loss': loss.detach(), 'val_acc': acc}

    def validation_epoch_end(self, outputs):
        batch_losses = [x['val_loss'] for x in outputs]
        epoch_loss = torch.stack(batch_losses).mean()
        batch_accs = [x['val_acc'] for x in outputs]
        epoch_acc = torch.stack(batch_accs).mean()
        return {'val_loss': epoch_loss.item(), 'val_acc': epoch_acc.item()}

    def epoch_end(self, epoch, result):
        print("Epoch [{}], last_lr: {:.5f}, train_loss: {:.4f}, val_loss: {:.4f}, val_acc: {:.4f}".format(
            epoch, result['lrs'][-1], result['train_loss'], result['val_loss'], result['val_acc']))


def conv_block(in_channels, out_channels, pool=False):
    layers = [nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1),
              nn.BatchNorm2d(out_channels),
              nn.ReLU(inplace=True)]
    if pool:
        layers.append(nn.MaxPool2d(2))
    return nn.Sequential(*layers)


class ResNet9(ImageClassificationBase):
    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.conv1 = conv_block(in_channels, 8)
        self.conv2 = conv_block(8, 16, pool=True)
        self.res1 = nn.Sequential(conv_block(16, 16), conv_block(16, 16))
        self.conv3 = conv_block(16, 32, pool=True)
        self.conv4 = conv_block(32, 64, pool=True)
        self.res2 = nn.Sequential(conv_block(64, 64), conv_block(64, 64))
        self.classifier = nn.Sequential(nn.MaxPool2d(2),
                                        nn.Flatten(),
                                        nn.Dropout(0.2),
                                        nn.Linear(64, num_classes))

    def forward(self, xb):
        out = self.conv1(xb)
        out = self.conv2(out)
        out = self.res1(out) + out
        out = self.conv3(out)
        out = self.conv4(out)
        out = self.res2(out) + out
        out = self.classifier(out)
        return out


model = ResNet9(3, 10)
print(model)


@torch.no_grad()
def evaluate(model, val_loader):
    model.eval()
    outputs = [model.validation_step(batch) for batch in val_loader]
    return model.validation_epoch_end(outputs)


def get_lr(optimizer):
    for param_group in optimizer.param_groups:
        return param_group['lr']


def fit_one_cycle(epochs, max_lr, model, train_loader, val_loader,
                  weight_decay=0, grad_clip=None, opt_func=torch.optim.SGD):
    history = []
    optimizer = opt_func(model.parameters(), max_lr, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr, epochs=epochs,
                                                steps_per_epoch=len(train_loader))
    for epoch in range(epochs):
        model.train()
        train_losses = []
        lrs = []
        for batch in train_loader:
            loss = model.training_step(batch)
            train_losses.append(loss)
            loss.backward()
            if grad_clip:
                nn.utils.clip_grad_value_(model.parameters(), grad_clip)
            optimizer.step()
            optimizer.zero_grad()
            lrs.append(get_lr(optimizer))
            sched.step()
        result = evaluate(model, val_loader)
        result['train_loss'] = torch.stack(train_losses).mean().item()
        result['lrs'] = lrs
        model.epoch_end(epoch, result)
        history.append(result)
    return history


history = [evaluate(model, valid_dl)]
print(history)
epochs = 3
max_lr = 0.01
grad_clip = 0.1
weight_decay = 1e-4
opt_func = torch.optim.Adam
history += fit_one_cycle(epochs, max_lr, model, train_dl, valid_dl, grad_clip=grad_clip,
                         weight_decay=weight_decay, opt_func=opt_func)
lrs = [lr for x in history for lr in x.get('lrs', [])]
print(len(lrs), [round(lr, 6) for lr in lrs])
print([x['val_acc'] for x in history])
print(model.conv1[1].running_mean, model.classifier[3].bias)
