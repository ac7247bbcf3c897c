# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# 《深入浅出PyTorch》 (thorough-pytorch), sections 5.1 PyTorch模型定义的方式 and
# 5.2 利用模型块快速搭建复杂网络 (U-Net from DoubleConv / Down / Up / OutConv blocks):
# https://github.com/datawhalechina/thorough-pytorch/blob/main/source/第五章/5.2%20利用模型块快速搭建复杂网络.md
# Like the sections: a hand-written MySequential over add_module / _modules, nn.Sequential
# from modules and from an OrderedDict, nn.ModuleList with append and [-1], nn.ModuleDict with
# item assignment, attribute access and its repr; then the U-Net built from the section's
# blocks (Conv-BN-ReLU twice, MaxPool + DoubleConv, ConvTranspose2d or bilinear Upsample with
# F.pad to the skip's size and torch.cat, a 1x1 OutConv), printed and run forward.
# Differences: a manual seed; the U-Net's channel widths are divided by 16 (4 ... 64 instead of
# 64 ... 1024) and it runs on a 2x3x24x24 batch (an odd size, 3, after three poolings, so F.pad pads) in
# both the transposed-conv and the bilinear variants, with one backward pass and an SGD step.
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(52)


class MySequential(nn.Module):
    def __init__(self, *args):
        super(MySequential, self).__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


my = MySequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 2))
print(my)
print(my(torch.randn(3, 8)))
my2 = MySequential(OrderedDict([('fc', nn.Linear(8, 2)), ('act', nn.Tanh())]))
print(my2)
print(list(my2._modules.keys()))

net = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
print(net)
net2 = nn.Sequential(OrderedDict([
    ('fc1', nn.Linear(784, 256)),
    ('relu1', nn.ReLU()),
    ('fc2', nn.Linear(256, 10))
]))
print(net2)
print(net2.fc1, net2[2])

net = nn.ModuleList([nn.Linear(784, 256), nn.ReLU()])
net.append(nn.Linear(256, 10))
print(net[-1])
print(net)
x = torch.rand(2, 784)
for layer in net:
    x = layer(x)
print(x.shape)

net = nn.ModuleDict({
    'linear': nn.Linear(784, 256),
    'act': nn.ReLU(),
})
net['output'] = nn.Linear(256, 10)
print(net['linear'])
print(net.output)
print(net)
print(list(net.keys()), len(net), 'act' in net)


class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels, mid_channels=None):
        super().__init__()
        if not mid_channels:
            mid_channels = out_channels
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(mid_channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True)
        )

    def forward(self, x):
        return self.double_conv(x)


class Down(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.maxpool_conv = nn.Sequential(nn.MaxPool2d(2), DoubleConv(in_channels, out_channels))

    def forward(self, x):
        return self.maxpool_conv(x)


class Up(nn.Module):
    def __init__(self, in_channels, out_channels, bilinear=False):
        super().__init__()
        if bilinear:
            self.up = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)
            self.conv = DoubleConv(in_channels, out_channels, in_channels // 2)
        else:
            self.up = nn.ConvTranspose2d(in_channels, in_channels // 2, kernel_size=2, stride=2)
            self.conv = DoubleConv(in_channels, out_channels)

    def forward(self, x1, x2):
        x1 = self.up(x1)
        diffY = x2.size()[2] - x1.size()[2]
        diffX = x2.size()[3] - x1.size()[3]
        x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
        x = torch.cat([x2, x1], dim=1)
        return self.conv(x)


class OutConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super(OutConv, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1)

    def forward(self, x):
        return self.conv(x)


class UNet(nn.Module):
    def __init__(self, n_channels, n_classes, bilinear=False, width=4):
        super(UNet, self).__init__()
        self.n_channels = n_channels
        self.n_classes = n_classes
        self.bilinear = bilinear
        w = width
        self.inc = DoubleConv(n_channels, w)
        self.down1 = Down(w, 2 * w)
        self.down2 = Down(2 * w, 4 * w)
        self.down3 = Down(4 * w, 8 * w)
        factor = 2 if bilinear else 1
        self.down4 = Down(8 * w, 16 * w // factor)
        self.up1 = Up(16 * w, 8 * w // factor, bilinear)
        self.up2 = Up(8 * w, 4 * w // factor, bilinear)
        self.up3 = Up(4 * w, 2 * w // factor, bilinear)
        self.up4 = Up(2 * w, w, bilinear)
        self.outc = OutConv(w, n_classes)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x4 = self.down3(x3)
        x5 = self.down4(x4)
        x = self.up1(x5, x4)
        x = self.up2(x, x3)
        x = self.up3(x, x2)
        x = self.up4(x, x1)
        logits = self.outc(x)
        return logits


for bilinear in (False, True):
    model = UNet(3, 2, bilinear=bilinear)
    if not bilinear:
        print(model)
    print(sum(p.numel() for p in model.parameters()))
    img = torch.randn(2, 3, 24, 24)
    mask = torch.randint(0, 2, (2, 24, 24))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(2):
        logits = model(img)
        loss = F.cross_entropy(logits, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(bilinear, step, logits.shape, round(loss.item(), 4))
    print(model.outc.conv.bias.grad)
    print(model.up4.conv.double_conv[1].running_mean)
