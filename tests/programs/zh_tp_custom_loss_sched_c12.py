# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# 《深入浅出PyTorch》 (thorough-pytorch), sections 6.1 自定义损失函数 and 6.2 动态调整学习率:
# https://github.com/datawhalechina/thorough-pytorch/blob/main/source/第六章/6.1%20自定义损失函数.md
# https://github.com/datawhalechina/thorough-pytorch/blob/main/source/第六章/6.2%20动态调整学习率.md
# Like the sections: a function loss (mean squared error by hand) and the nn.Module losses
# DiceLoss, DiceBCELoss, IoULoss and FocalLoss (F.sigmoid, view(-1), F.binary_cross_entropy,
# exp(-BCE)), evaluated with their gradients; then learning-rate schedules: the section's own
# adjust_learning_rate (lr * 0.1 ** (epoch // 30)) writing param_group['lr'], and official
# schedulers (StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, OneCycleLR,
# ReduceLROnPlateau, and two schedulers stepped together) stepped after optimizer.step().
# Differences: a manual seed; a 1x1x4x4 logit map and a synthetic mask instead of a
# segmentation batch; a tiny linear regression stands in for train(...) / validate(...); the
# epochs are shortened (90 for the hand schedule printed every 10, 12 for the others).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(61)


def my_loss(output, target):
    loss = torch.mean((output - target) ** 2)
    return loss


class DiceLoss(nn.Module):
    def __init__(self, weight=None, size_average=True):
        super(DiceLoss, self).__init__()

    def forward(self, inputs, targets, smooth=1):
        inputs = F.sigmoid(inputs)
        inputs = inputs.view(-1)
        targets = targets.view(-1)
        intersection = (inputs * targets).sum()
        dice = (2. * intersection + smooth) / (inputs.sum() + targets.sum() + smooth)
        return 1 - dice


class DiceBCELoss(nn.Module):
    def __init__(self, weight=None, size_average=True):
        super(DiceBCELoss, self).__init__()

    def forward(self, inputs, targets, smooth=1):
        inputs = F.sigmoid(inputs)
        inputs = inputs.view(-1)
        targets = targets.view(-1)
        intersection = (inputs * targets).sum()
        dice_loss = 1 - (2. * intersection + smooth) / (inputs.sum() + targets.sum() + smooth)
        BCE = F.binary_cross_entropy(inputs, targets, reduction='mean')
        return BCE + dice_loss


class IoULoss(nn.Module):
    def __init__(self, weight=None, size_average=True):
        super(IoULoss, self).__init__()

    def forward(self, inputs, targets, smooth=1):
        inputs = F.sigmoid(inputs)
        inputs = inputs.view(-1)
        targets = targets.view(-1)
        intersection = (inputs * targets).sum()
        total = (inputs + targets).sum()
        union = total - intersection
        IoU = (intersection + smooth) / (union + smooth)
        return 1 - IoU


ALPHA = 0.8
GAMMA = 2


class FocalLoss(nn.Module):
    def __init__(self, weight=None, size_average=True):
        super(FocalLoss, self).__init__()

    def forward(self, inputs, targets, alpha=ALPHA, gamma=GAMMA, smooth=1):
        inputs = F.sigmoid(inputs)
        inputs = inputs.view(-1)
        targets = targets.view(-1)
        BCE = F.binary_cross_entropy(inputs, targets, reduction='mean')
        BCE_EXP = torch.exp(-BCE)
        return alpha * (1 - BCE_EXP) ** gamma * BCE


logits = torch.randn(1, 1, 4, 4, requires_grad=True)
targets = (torch.rand(1, 1, 4, 4) > 0.5).float()
print(my_loss(logits, targets))
for criterion in (DiceLoss(), DiceBCELoss(), IoULoss(), FocalLoss()):
    logits.grad = None
    loss = criterion(logits, targets)
    loss.backward()
    print(type(criterion).__name__, loss, logits.grad.view(-1)[:4])

X = torch.randn(32, 3)
y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.3


def train(model, optimizer):
    loss = F.mse_loss(model(X), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


class Args:
    lr = 0.1


args = Args()


def adjust_learning_rate(optimizer, epoch):
    lr = args.lr * (0.1 ** (epoch // 30))
    for param_group in optimizer.param_groups:
        param_group['lr'] = lr


model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
for epoch in range(90):
    loss = train(model, optimizer)
    adjust_learning_rate(optimizer, epoch)
    if epoch % 10 == 0:
        print(epoch, optimizer.param_groups[0]['lr'], round(loss, 6))


def make(name, optimizer):
    S = torch.optim.lr_scheduler
    if name == 'StepLR':
        return S.StepLR(optimizer, step_size=3, gamma=0.5)
    if name == 'MultiStepLR':
        return S.MultiStepLR(optimizer, milestones=[2, 5, 9], gamma=0.1)
    if name == 'ExponentialLR':
        return S.ExponentialLR(optimizer, gamma=0.8)
    if name == 'CosineAnnealingLR':
        return S.CosineAnnealingLR(optimizer, T_max=6, eta_min=0.001)
    if name == 'LambdaLR':
        return S.LambdaLR(optimizer, lr_lambda=lambda epoch: 0.95 ** epoch)
    if name == 'OneCycleLR':
        return S.OneCycleLR(optimizer, max_lr=0.2, total_steps=12)
    return S.ReduceLROnPlateau(optimizer, mode='min', factor=0.5, patience=1)


for name in ('StepLR', 'MultiStepLR', 'ExponentialLR', 'CosineAnnealingLR', 'LambdaLR',
             'OneCycleLR', 'ReduceLROnPlateau'):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    scheduler = make(name, optimizer)
    lrs = []
    for epoch in range(12):
        loss = train(model, optimizer)
        if name == 'ReduceLROnPlateau':
            scheduler.step(round(loss, 1) if epoch < 4 else 10.0)
        else:
            scheduler.step()
        lrs.append(round(optimizer.param_groups[0]['lr'], 6))
    print(name, lrs, round(loss, 5))
    if name != 'ReduceLROnPlateau':
        print(scheduler.get_last_lr(), scheduler.last_epoch)

model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler1 = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
scheduler2 = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[3, 6], gamma=0.1)
for epoch in range(8):
    train(model, optimizer)
    scheduler1.step()
    scheduler2.step()
    print(epoch, optimizer.param_groups[0]['lr'])
print(scheduler2.state_dict())
