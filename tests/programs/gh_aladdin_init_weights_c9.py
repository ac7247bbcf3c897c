# Corpus program, written for gradsh (no code copied). Modelled on Aladdin Persson's
# Machine-Learning-Collection, ML/Pytorch/Basics/pytorch_init_weights.py (MIT):
# https://github.com/aladdinpersson/Machine-Learning-Collection/blob/master/ML/Pytorch/Basics/pytorch_init_weights.py
# Like the original: a CNN (conv1 3->6 3x3 padding 1, MaxPool2d(2, 2), conv2 6->16, fc1 from
# 16*7*7) whose initialize_weights walks self.modules(): kaiming_uniform_ for Conv2d and Linear
# weights, constant_ 0 for the biases, constant_ 1/0 for BatchNorm2d; then
# `for param in model.parameters(): print(param)` (the 10x784 weight prints summarised).
# Differences: seeded; a BatchNorm2d after conv1 so that branch runs; a forward pass on a
# random 2x3x28x28 batch printing the output; the printing options are changed once
# (set_printoptions(precision=2, threshold=50, edgeitems=2)) and the prints repeated briefly.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CNN(nn.Module):
    def __init__(self, in_channels, num_classes):
        super(CNN, self).__init__()
        self.conv1 = nn.Conv2d(in_channels=in_channels, out_channels=6, kernel_size=(3, 3),
                               stride=(1, 1), padding=(1, 1))
        self.bn1 = nn.BatchNorm2d(6)
        self.pool = nn.MaxPool2d(kernel_size=(2, 2), stride=(2, 2))
        self.conv2 = nn.Conv2d(in_channels=6, out_channels=16, kernel_size=(3, 3),
                               stride=(1, 1), padding=(1, 1))
        self.fc1 = nn.Linear(16 * 7 * 7, num_classes)
        self.initialize_weights()

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.pool(x)
        x = F.relu(self.conv2(x))
        x = self.pool(x)
        x = x.reshape(x.shape[0], -1)
        x = self.fc1(x)
        return x

    def initialize_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_uniform_(m.weight)
                if m.bias is not None:
                    nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.Linear):
                nn.init.kaiming_uniform_(m.weight)
                nn.init.constant_(m.bias, 0)


if __name__ == '__main__':
    torch.manual_seed(0)
    model = CNN(in_channels=3, num_classes=10)
    for param in model.parameters():
        print(param)
    out = model(torch.randn(2, 3, 28, 28))
    print(out)
    print(model.bn1.running_mean, model.bn1.running_var, model.bn1.num_batches_tracked)
    torch.set_printoptions(precision=2, threshold=50, edgeitems=2)
    for name, param in model.named_parameters():
        print(name, param)
    print(out)
    torch.set_printoptions(profile="default")
    print(model.fc1.bias)
