# Corpus program, written for gradsh (no code copied). Modelled on "Building Models with
# PyTorch" (Introduction to PyTorch, YouTube series), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/introyt/modelsyt_tutorial.py
# Like the original: a Linear(100, 200)-ReLU-Linear(200, 10)-Softmax() model (Softmax with no
# dim: constructed, printed, never called), print(model), print of one layer, all parameters
# and one layer's parameters; nn.Linear(3, 2) on rand(1, 3) with its parameters; class
# definitions of a LeNet and an LSTM tagger that are never instantiated, using
# `import torch.functional as F` as the original does; MaxPool2d(3) on a 1x6x6 tensor;
# BatchNorm1d(4) on rand(1, 4, 4) * 20 + 5 with the means before and after; Dropout(p=0.4)
# called twice.
# Differences: our own code; seeded.
import torch
import torch.functional as F

torch.manual_seed(0)


class Small(torch.nn.Module):
    def __init__(self):
        super(Small, self).__init__()
        self.linear1 = torch.nn.Linear(100, 200)
        self.activation = torch.nn.ReLU()
        self.linear2 = torch.nn.Linear(200, 10)
        self.softmax = torch.nn.Softmax()

    def forward(self, x):
        return self.softmax(self.linear2(self.activation(self.linear1(x))))


small = Small()
print("The model:")
print(small)
print("\n\nJust one layer:")
print(small.linear2)
print("\n\nModel params:")
for p in small.parameters():
    print(p)
print("\n\nLayer params:")
for p in small.linear2.parameters():
    print(p)

lin = torch.nn.Linear(3, 2)
x = torch.rand(1, 3)
print("Input:")
print(x)
print("\n\nWeight and Bias parameters:")
for p in lin.parameters():
    print(p)
print("\n\nOutput:")
print(lin(x))


class NeverBuiltLeNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 6, 5)
        self.conv2 = torch.nn.Conv2d(6, 16, 3)
        self.fc1 = torch.nn.Linear(16 * 6 * 6, 120)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        return self.fc1(x.flatten(1))


class NeverBuiltTagger(torch.nn.Module):
    def __init__(self, n_words, n_tags):
        super().__init__()
        self.embed = torch.nn.Embedding(n_words, 8)
        self.lstm = torch.nn.LSTM(8, 8)
        self.out = torch.nn.Linear(8, n_tags)

    def forward(self, sentence):
        h, _ = self.lstm(self.embed(sentence).view(len(sentence), 1, -1))
        return F.log_softmax(self.out(h.view(len(sentence), -1)), dim=1)


grid = torch.rand(1, 6, 6)
print(grid)
print(torch.nn.MaxPool2d(3)(grid))

scaled = torch.rand(1, 4, 4) * 20 + 5
print(scaled)
print(scaled.mean())
bn = torch.nn.BatchNorm1d(4)
normed = bn(scaled)
print(normed)
print(normed.mean())
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)

drop = torch.nn.Dropout(p=0.4)
sample = torch.rand(1, 4, 4)
print(drop(sample))
print(drop(sample))
