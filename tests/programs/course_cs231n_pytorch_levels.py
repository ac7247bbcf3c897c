# Corpus program, written for gradsh (no code copied). Modelled on the CS231n assignment
# notebook "PyTorch.ipynb" (Stanford CS231n, https://cs231n.github.io/ and
# https://github.com/cs231n/cs231n.github.io): the three levels of abstraction - Part II
# "Barebones PyTorch" (a flatten helper, two_layer_fc with explicit weights, random_weight
# with Kaiming normalization sqrt(2 / fan_in), zero_weight, check_accuracy_part2 and
# train_part2 doing manual SGD under torch.no_grad() with w.grad.zero_()), Part III the same
# network as an nn.Module (TwoLayerFC with nn.init.kaiming_normal_) and Part IV nn.Sequential
# with a Flatten module, each printing 'Iteration %d, loss = %.4f' and 'Got %d / %d correct
# (%.2f)'.
# Differences: our own code; synthetic 3x4x4 "images" with 3 classes instead of CIFAR-10; a
# few iterations; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
dtype = torch.float32
N, C, H, W = 96, 3, 4, 4
centers = torch.randn(3, C * H * W)
labels = torch.randint(0, 3, (N,))
images = (centers[labels] + 0.8 * torch.randn(N, C * H * W)).view(N, C, H, W)
batches = [(images[i:i + 32], labels[i:i + 32]) for i in range(0, N, 32)]


def flatten(x):
    return x.view(x.shape[0], -1)


x = torch.arange(12).view(2, 1, 3, 2)
print("Before flattening: ", x)
print("After flattening: ", flatten(x))


def two_layer_fc(x, params):
    x = flatten(x)
    w1, w2 = params
    x = F.relu(x.mm(w1))
    return x.mm(w2)


def random_weight(shape):
    fan_in = shape[0] if len(shape) == 2 else torch.tensor(shape[1:]).prod().item()
    w = torch.randn(shape, dtype=dtype) * (2.0 / fan_in) ** 0.5
    w.requires_grad = True
    return w


def zero_weight(shape):
    return torch.zeros(shape, dtype=dtype, requires_grad=True)


print(random_weight((3, 5)).shape, zero_weight((2,)))


def check_accuracy_part2(model_fn, params):
    num_correct, num_samples = 0, 0
    with torch.no_grad():
        for x, y in batches:
            preds = model_fn(x, params).max(1)[1]
            num_correct += (preds == y).sum()
            num_samples += preds.size(0)
        acc = float(num_correct) / num_samples
        print("Got %d / %d correct (%.2f%%)" % (num_correct, num_samples, 100 * acc))


def train_part2(model_fn, params, learning_rate):
    for t, (x, y) in enumerate(batches * 3):
        scores = model_fn(x, params)
        loss = F.cross_entropy(scores, y)
        loss.backward()
        with torch.no_grad():
            for w in params:
                w -= learning_rate * w.grad
                w.grad.zero_()
        if t % 4 == 0:
            print("Iteration %d, loss = %.4f" % (t, loss.item()))
    check_accuracy_part2(model_fn, params)


hidden = 20
w1 = random_weight((C * H * W, hidden))
w2 = random_weight((hidden, 3))
train_part2(two_layer_fc, [w1, w2], 1e-2)


class TwoLayerFC(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super().__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        nn.init.kaiming_normal_(self.fc1.weight)
        self.fc2 = nn.Linear(hidden_size, num_classes)
        nn.init.kaiming_normal_(self.fc2.weight)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(flatten(x))))


def check_accuracy_part34(model):
    num_correct, num_samples = 0, 0
    model.eval()
    with torch.no_grad():
        for x, y in batches:
            _, preds = model(x).max(1)
            num_correct += (preds == y).sum()
            num_samples += preds.size(0)
    acc = float(num_correct) / num_samples
    print("Got %d / %d correct (%.2f)" % (num_correct, num_samples, 100 * acc))


def train_part34(model, optimizer, epochs=2):
    for e in range(epochs):
        for t, (x, y) in enumerate(batches):
            model.train()
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if t == 0:
                print("Epoch %d, Iteration %d, loss = %.4f" % (e, t, loss.item()))
        check_accuracy_part34(model)


model = TwoLayerFC(C * H * W, hidden, 3)
print(model)
train_part34(model, torch.optim.SGD(model.parameters(), lr=1e-2))
model = nn.Sequential(nn.Flatten(), nn.Linear(C * H * W, hidden), nn.ReLU(), nn.Linear(hidden, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9, nesterov=True)
train_part34(model, optimizer)
print(optimizer)
