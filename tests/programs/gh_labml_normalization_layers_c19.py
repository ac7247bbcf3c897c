# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated
# normalization layers (MIT licence): labml_nn/normalization/batch_norm (BatchNorm with
# exp_mean/exp_var buffers updated by reassignment, mean of x**2 minus mean**2),
# layer_norm (LayerNorm over a torch.Size normalized_shape, gain and bias), group_norm,
# instance_norm, batch_channel_norm (EstimatedBatchNorm under torch.no_grad and ChannelNorm
# over groups) and weight_standardization (torch.var_mean over the flattened kernel and a
# Conv2d subclass calling F.conv2d with the standardized weight), with their _test()s:
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/normalization
# Differences: print() in place of labml's inspect(); each layer compared with torch.nn's
# (BatchNorm2d, LayerNorm, GroupNorm, InstanceNorm2d) on a seeded random batch, and a few
# gradient steps through a small weight-standardized CNN with batch-channel norm added.
import torch
from torch import nn
import torch.nn.functional as F


class BatchNorm(nn.Module):
    def __init__(self, channels, *, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True):
        super().__init__()
        self.channels = channels
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.scale = nn.Parameter(torch.ones(channels))
            self.shift = nn.Parameter(torch.zeros(channels))
        if self.track_running_stats:
            self.register_buffer('exp_mean', torch.zeros(channels))
            self.register_buffer('exp_var', torch.ones(channels))

    def forward(self, x):
        x_shape = x.shape
        batch_size = x_shape[0]
        assert self.channels == x.shape[1]
        x = x.view(batch_size, self.channels, -1)
        if self.training or not self.track_running_stats:
            mean = x.mean(dim=[0, 2])
            mean_x2 = (x ** 2).mean(dim=[0, 2])
            var = mean_x2 - mean ** 2
            if self.training and self.track_running_stats:
                self.exp_mean = (1 - self.momentum) * self.exp_mean + self.momentum * mean
                self.exp_var = (1 - self.momentum) * self.exp_var + self.momentum * var
        else:
            mean = self.exp_mean
            var = self.exp_var
        x_norm = (x - mean.view(1, -1, 1)) / torch.sqrt(var + self.eps).view(1, -1, 1)
        if self.affine:
            x_norm = self.scale.view(1, -1, 1) * x_norm + self.shift.view(1, -1, 1)
        return x_norm.view(x_shape)


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape, *, eps=1e-5, elementwise_affine=True):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = torch.Size([normalized_shape])
        elif isinstance(normalized_shape, list):
            normalized_shape = torch.Size(normalized_shape)
        assert isinstance(normalized_shape, torch.Size)
        self.normalized_shape = normalized_shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.gain = nn.Parameter(torch.ones(normalized_shape))
            self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        assert self.normalized_shape == x.shape[-len(self.normalized_shape):]
        dims = [-(i + 1) for i in range(len(self.normalized_shape))]
        mean = x.mean(dim=dims, keepdim=True)
        mean_x2 = (x ** 2).mean(dim=dims, keepdim=True)
        var = mean_x2 - mean ** 2
        x_norm = (x - mean) / torch.sqrt(var + self.eps)
        if self.elementwise_affine:
            x_norm = self.gain * x_norm + self.bias
        return x_norm


class GroupNorm(nn.Module):
    def __init__(self, groups, channels, *, eps=1e-5, affine=True):
        super().__init__()
        assert channels % groups == 0, "Number of channels should be evenly divisible by the number of groups"
        self.groups = groups
        self.channels = channels
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.scale = nn.Parameter(torch.ones(channels))
            self.shift = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        x_shape = x.shape
        batch_size = x_shape[0]
        x = x.view(batch_size, self.groups, -1)
        mean = x.mean(dim=[-1], keepdim=True)
        mean_x2 = (x ** 2).mean(dim=[-1], keepdim=True)
        var = mean_x2 - mean ** 2
        x_norm = (x - mean) / torch.sqrt(var + self.eps)
        if self.affine:
            x_norm = x_norm.view(batch_size, self.channels, -1)
            x_norm = self.scale.view(1, -1, 1) * x_norm + self.shift.view(1, -1, 1)
        return x_norm.view(x_shape)


class InstanceNorm(GroupNorm):
    def __init__(self, channels, *, eps=1e-5, affine=True):
        super().__init__(channels, channels, eps=eps, affine=affine)


class EstimatedBatchNorm(nn.Module):
    def __init__(self, channels, eps=1e-5, momentum=0.1, affine=True):
        super().__init__()
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.channels = channels
        if self.affine:
            self.scale = nn.Parameter(torch.ones(channels))
            self.shift = nn.Parameter(torch.zeros(channels))
        self.register_buffer('exp_mean', torch.zeros(channels))
        self.register_buffer('exp_var', torch.ones(channels))

    def forward(self, x):
        x_shape = x.shape
        batch_size = x_shape[0]
        x = x.view(batch_size, self.channels, -1)
        if self.training:
            with torch.no_grad():
                mean = x.mean(dim=[0, 2])
                mean_x2 = (x ** 2).mean(dim=[0, 2])
                var = mean_x2 - mean ** 2
                self.exp_mean = (1 - self.momentum) * self.exp_mean + self.momentum * mean
                self.exp_var = (1 - self.momentum) * self.exp_var + self.momentum * var
        x_norm = (x - self.exp_mean.view(1, -1, 1)) / torch.sqrt(self.exp_var + self.eps).view(1, -1, 1)
        if self.affine:
            x_norm = self.scale.view(1, -1, 1) * x_norm + self.shift.view(1, -1, 1)
        return x_norm.view(x_shape)


class ChannelNorm(nn.Module):
    def __init__(self, channels, groups, eps=1e-5, affine=True):
        super().__init__()
        self.channels = channels
        self.groups = groups
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.scale = nn.Parameter(torch.ones(groups))
            self.shift = nn.Parameter(torch.zeros(groups))

    def forward(self, x):
        x_shape = x.shape
        batch_size = x_shape[0]
        x = x.view(batch_size, self.groups, -1)
        mean = x.mean(dim=[-1], keepdim=True)
        mean_x2 = (x ** 2).mean(dim=[-1], keepdim=True)
        var = mean_x2 - mean ** 2
        x_norm = (x - mean) / torch.sqrt(var + self.eps)
        if self.affine:
            x_norm = self.scale.view(1, -1, 1) * x_norm + self.shift.view(1, -1, 1)
        return x_norm.view(x_shape)


class BatchChannelNorm(nn.Module):
    def __init__(self, channels, groups, eps=1e-5, momentum=0.1, estimate=True):
        super().__init__()
        if estimate:
            self.batch_norm = EstimatedBatchNorm(channels, eps=eps, momentum=momentum)
        else:
            self.batch_norm = BatchNorm(channels, eps=eps, momentum=momentum)
        self.channel_norm = ChannelNorm(channels, groups, eps)

    def forward(self, x):
        x = self.batch_norm(x)
        return self.channel_norm(x)


def weight_standardization(weight, eps):
    c_out, c_in, *kernel_shape = weight.shape
    weight = weight.view(c_out, -1)
    var, mean = torch.var_mean(weight, dim=1, keepdim=True)
    weight = (weight - mean) / (torch.sqrt(var + eps))
    return weight.view(c_out, c_in, *kernel_shape)


class Conv2d(nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode='zeros', eps=1e-5):
        super(Conv2d, self).__init__(in_channels, out_channels, kernel_size, stride=stride,
                                     padding=padding, dilation=dilation, groups=groups,
                                     bias=bias, padding_mode=padding_mode)
        self.eps = eps

    def forward(self, x):
        return F.conv2d(x, weight_standardization(self.weight, self.eps), self.bias, self.stride,
                        self.padding, self.dilation, self.groups)


torch.manual_seed(1)
x = torch.zeros([2, 3, 2, 4])
print(x.shape)
bn = BatchNorm(3)
print(bn(x).shape)
print(bn.exp_var.shape, bn.exp_var)

x = torch.randn(4, 6, 3, 5) * 2 + 1
ours = [BatchNorm(6), LayerNorm(x.shape[2:]), GroupNorm(2, 6), InstanceNorm(6)]
theirs = [nn.BatchNorm2d(6), nn.LayerNorm(x.shape[2:]), nn.GroupNorm(2, 6), nn.InstanceNorm2d(6, affine=True)]
for m, t in zip(ours, theirs):
    a, b = m(x), t(x)
    print(type(m).__name__, t, a.shape, f"max diff {(a - b).abs().max().item():.2e}")
    print('  ', a[0, 0, 0])
print(ours[0].exp_mean, theirs[0].running_mean, sep='\n')
print(ours[0].exp_var, theirs[0].running_var, sep='\n')
ours[0].eval()
theirs[0].eval()
print((ours[0](x) - theirs[0](x)).abs().max())
print(list(ours[1].state_dict().keys()), ours[1].gain.shape, ours[1].normalized_shape)
print(dict(ours[0].named_buffers()).keys())

conv = Conv2d(10, 20, 5)
print(conv)
print(conv.weight.shape)
print(conv(torch.zeros(10, 10, 16, 16)).shape)
w = weight_standardization(conv.weight, conv.eps)
print(w.view(20, -1).mean(dim=1)[:4], w.view(20, -1).var(dim=1)[:4])

model = nn.Sequential(
    Conv2d(3, 8, 3, padding=1), BatchChannelNorm(8, 4), nn.ReLU(),
    Conv2d(8, 8, 3, padding=1, stride=2), BatchChannelNorm(8, 4), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))
print(model)
images = torch.randn(16, 3, 8, 8)
labels = torch.randint(0, 3, (16,))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(6):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss={loss.item():.5f} grad0={model[0].weight.grad.norm():.5f}")
print(model[1].batch_norm.exp_mean)
print(model[4].channel_norm.scale.grad)
print(sorted(k for k in model.state_dict() if 'exp' in k))
