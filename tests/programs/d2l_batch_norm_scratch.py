# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# section 8.5 "Batch Normalization", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_convolutional-modern/batch-norm.md
# Like the book: batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum) that uses
# the moving statistics when not torch.is_grad_enabled(), the per-feature mean / var for a
# 2-D input and the per-channel mean(dim=(0, 2, 3), keepdim=True) for a 4-D input, then
# updates moving_mean = (1 - momentum) * moving_mean + momentum * mean; a BatchNorm module
# with num_dims 2 or 4, gamma/beta Parameters and moving statistics moved to X's device;
# a LeNet variant with BatchNorm after each convolution and Linear layer, using Sigmoid;
# printing the learned gamma and beta of the first BatchNorm layer; the concise version
# with nn.BatchNorm2d / nn.BatchNorm1d.
# Differences: our own code; no FashionMNIST: 128 synthetic images, two epochs of SGD
# (lr 0.9 as in the book) on minibatches of 32, the loss printed each epoch; seeded.
import torch
from torch import nn


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1)
        return Y


torch.manual_seed(0)
bn = BatchNorm(3, 2)
X = torch.randn(4, 3) * 2 + 1
Y = bn(X)
print(Y.mean(dim=0), Y.std(dim=0, unbiased=False))
print(bn.moving_mean, bn.moving_var)
with torch.no_grad():
    print(bn(X)[0])
Y.sum().backward()
print(bn.gamma.grad, bn.beta.grad)


def lenet(bn2d, bn1d):
    return nn.Sequential(
        nn.Conv2d(1, 6, kernel_size=5), bn2d(6), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Conv2d(6, 16, kernel_size=5), bn2d(16), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
        nn.Linear(16 * 4 * 4, 120), bn1d(120), nn.Sigmoid(),
        nn.Linear(120, 84), bn1d(84), nn.Sigmoid(),
        nn.Linear(84, 10))


images = torch.rand(128, 1, 28, 28)
labels = torch.randint(0, 10, (128,))
for name, net in [("scratch", lenet(lambda n: BatchNorm(n, 4), lambda n: BatchNorm(n, 2))),
                  ("concise", lenet(nn.BatchNorm2d, nn.BatchNorm1d))]:
    torch.manual_seed(1)
    for m in net:
        if isinstance(m, (nn.Linear, nn.Conv2d)):
            nn.init.xavier_uniform_(m.weight)
    opt = torch.optim.SGD(net.parameters(), lr=0.9)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(2):
        total = 0.0
        for i in range(0, 128, 32):
            l = loss_fn(net(images[i:i + 32]), labels[i:i + 32])
            opt.zero_grad()
            l.backward()
            opt.step()
            total += l.item()
        print(name, epoch + 1, f"{total / 4:.3f}")
    print(net[1].gamma.reshape((-1,)) if name == "scratch" else net[1].weight)
    print(net[1].beta.reshape((-1,)) if name == "scratch" else net[1].bias)
print(net[1])
print(net[1].running_mean[:3], net[1].num_batches_tracked)
