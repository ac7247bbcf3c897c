# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial "Fusing
# Convolution and Batch Norm using Custom Function", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/custom_function_conv_bn_tutorial.py
# Like the original: a Conv2D autograd.Function whose @once_differentiable backward uses
# F.conv2d on transposed tensors and F.conv_transpose2d, a BatchNorm Function (eps added outside
# the square root, unbiased var, sum/N/sqrt_var kept on ctx) with the tutorial's in-place
# grad_input formula, both checked with torch.autograd.gradcheck in double; the fused
# FusedConvBN2DFunction that saves only X and the weight and recomputes the convolution in
# backward (returning extra Nones), the FusedConvBN module with kaiming_uniform_(a=sqrt(5)),
# and the mnist-style Net trained fused and unfused with Adadelta(lr=1.0) and StepLR(gamma=0.7),
# a test under torch.inference_mode.
# Differences: our own code; synthetic 1x8x8 images labelled by a random linear teacher instead
# of MNIST; 4/8 channels, 128 training and 64 test images, batches of 32; CUDA memory figures
# replaced by comparing the two runs' losses.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.autograd.function import once_differentiable
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


def convolution_backward(grad_out, X, weight):
    grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
    grad_X = F.conv_transpose2d(grad_out, weight)
    return grad_X, grad_input


class Conv2D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, weight):
        ctx.save_for_backward(X, weight)
        return F.conv2d(X, weight)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        X, weight = ctx.saved_tensors
        return convolution_backward(grad_out, X, weight)


torch.manual_seed(0)
weight = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(4, 3, 6, 6, requires_grad=True, dtype=torch.double)
print('Conv2D gradcheck:', torch.autograd.gradcheck(Conv2D.apply, (X, weight)))
out = Conv2D.apply(X, weight)
print(out.grad_fn.__class__.__name__, out.shape)


def unsqueeze_all(t):
    return t[None, :, None, None]


def batch_norm_backward(grad_out, X, sum, sqrt_var, N, eps):
    tmp = -((X - unsqueeze_all(sum) / N) * grad_out).sum(dim=(0, 2, 3))
    d_denom = tmp / (sqrt_var + eps) ** 2
    d_var = d_denom / (2 * sqrt_var)
    d_mean_dx = grad_out / unsqueeze_all(sqrt_var + eps)
    d_mean_dx = unsqueeze_all(-d_mean_dx.sum(dim=(0, 2, 3)) / N)
    grad_input = X * unsqueeze_all(d_var * N)
    grad_input += unsqueeze_all(-d_var * sum)
    grad_input *= 2 / ((N - 1) * N)
    grad_input += d_mean_dx
    grad_input *= unsqueeze_all(sqrt_var + eps)
    grad_input += grad_out
    grad_input /= unsqueeze_all(sqrt_var + eps)
    return grad_input


class BatchNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, eps=1e-3):
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.save_for_backward(X)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        return (X - unsqueeze_all(mean)) / unsqueeze_all(denom)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        X, = ctx.saved_tensors
        return batch_norm_backward(grad_out, X, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps)


a = torch.rand(1, 2, 3, 4, requires_grad=True, dtype=torch.double)
print('BatchNorm gradcheck:', torch.autograd.gradcheck(BatchNorm.apply, (a,), fast_mode=False))


class FusedConvBN2DFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, conv_weight, eps=1e-3):
        assert X.ndim == 4
        ctx.save_for_backward(X, conv_weight)
        X = F.conv2d(X, conv_weight)
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        out = X - unsqueeze_all(mean)
        out /= unsqueeze_all(denom)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        X, conv_weight, = ctx.saved_tensors
        X_conv_out = F.conv2d(X, conv_weight)
        grad_out = batch_norm_backward(grad_out, X_conv_out, ctx.sum, ctx.sqrt_var,
                                       ctx.N, ctx.eps)
        grad_X, grad_input = convolution_backward(grad_out, X, conv_weight)
        return grad_X, grad_input, None, None, None, None, None


class FusedConvBN(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, exp_avg_factor=0.1,
                 eps=1e-3, device=None, dtype=None):
        super(FusedConvBN, self).__init__()
        factory_kwargs = {'device': device, 'dtype': dtype}
        weight_shape = (out_channels, in_channels, kernel_size, kernel_size)
        self.conv_weight = nn.Parameter(torch.empty(*weight_shape, **factory_kwargs))
        self.num_features = out_channels
        self.eps = eps
        self.reset_parameters()

    def forward(self, X):
        return FusedConvBN2DFunction.apply(X, self.conv_weight, self.eps)

    def reset_parameters(self) -> None:
        nn.init.kaiming_uniform_(self.conv_weight, a=math.sqrt(5))


weight = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(2, 3, 4, 4, requires_grad=True, dtype=torch.double)
print('Fused gradcheck:', torch.autograd.gradcheck(FusedConvBN2DFunction.apply, (X, weight)))


class Net(nn.Module):
    def __init__(self, fused=True):
        super(Net, self).__init__()
        self.fused = fused
        if fused:
            self.convbn1 = FusedConvBN(1, 4, 3)
            self.convbn2 = FusedConvBN(4, 8, 3)
        else:
            self.conv1 = nn.Conv2d(1, 4, 3, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(4, affine=False, track_running_stats=False)
            self.conv2 = nn.Conv2d(4, 8, 3, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(8, affine=False, track_running_stats=False)
        self.fc1 = nn.Linear(32, 16)
        self.dropout = nn.Dropout(0.5)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = self.convbn1(x) if self.fused else self.bn1(self.conv1(x))
        x = F.relu(x)
        x = self.convbn2(x) if self.fused else self.bn2(self.conv2(x))
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = F.relu(x)
        x = x.flatten(1)
        x = self.fc1(x)
        x = self.dropout(x)
        x = F.relu(x)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


def train(model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % 2 == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader), loss.item()))
    return loss.item()


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.inference_mode():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction='sum').item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_loader.dataset)
    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, len(test_loader.dataset), 100. * correct / len(test_loader.dataset)))


device = torch.device("cpu")
teacher = torch.randn(64, 10)
images = torch.randn(192, 1, 8, 8)
labels = (images.flatten(1) @ teacher).argmax(1)
train_loader = DataLoader(TensorDataset(images[:128], labels[:128]), batch_size=32)
test_loader = DataLoader(TensorDataset(images[128:], labels[128:]), batch_size=32)

finals = []
for fused in (True, False):
    torch.manual_seed(123456)
    model = Net(fused=fused).to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
    for epoch in range(2):
        last = train(model, device, train_loader, optimizer, epoch)
        test(model, device, test_loader)
        scheduler.step()
    print('lr', scheduler.get_last_lr())
    finals.append(last)
print('fused {:.6f} unfused {:.6f} close {}'.format(finals[0], finals[1],
                                                   abs(finals[0] - finals[1]) < 1e-2))
