# Corpus program, written for gradsh (no code copied). Modelled on ptrblck's answer in the
# PyTorch forum thread "Locally connected layers"
# (https://discuss.pytorch.org/t/locally-connected-layers/26979), reused in many GitHub repos,
# and on the _ConvNd subclass StandardConv2d of cemanil/LNets
# (https://github.com/cemanil/LNets/blob/master/lnets/models/layers/conv/standard_conv2d.py).
# Like the originals: `from torch.nn.modules.utils import _pair`; LocallyConnected2d with a
# weight of shape (1, out, in, oh, ow, k*k) from torch.randn, an optional bias, a forward
# built from x.unfold(2, kh, dh).unfold(3, kw, dw), contiguous().view(..., -1),
# (x.unsqueeze(1) * self.weight).sum([2, -1]) and `out += self.bias`; StandardConv2d
# subclassing torch.nn.modules.conv._ConvNd with _pair'd arguments and F.conv2d in forward.
# Differences: _ConvNd now needs padding_mode (passed as 'zeros'); seeded; a small regression
# of one layer against the other with SGD; shapes, losses, grads and reprs printed.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.common_types import _size_2_t
from torch.nn.modules.conv import _ConvNd
from torch.nn.modules.utils import _pair, _single, _triple


class LocallyConnected2d(nn.Module):
    def __init__(self, in_channels, out_channels, output_size, kernel_size, stride, bias=False):
        super(LocallyConnected2d, self).__init__()
        output_size = _pair(output_size)
        self.weight = nn.Parameter(
            torch.randn(1, out_channels, in_channels, output_size[0], output_size[1],
                        kernel_size ** 2))
        if bias:
            self.bias = nn.Parameter(torch.randn(1, out_channels, output_size[0], output_size[1]))
        else:
            self.register_parameter('bias', None)
        self.kernel_size = _pair(kernel_size)
        self.stride = _pair(stride)

    def forward(self, x):
        _, c, h, w = x.size()
        kh, kw = self.kernel_size
        dh, dw = self.stride
        x = x.unfold(2, kh, dh).unfold(3, kw, dw)
        x = x.contiguous().view(*x.size()[:-2], -1)
        out = (x.unsqueeze(1) * self.weight).sum([2, -1])
        if self.bias is not None:
            out += self.bias
        return out


class StandardConv2d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size: _size_2_t, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, config=None):
        kernel_size = _pair(kernel_size)
        stride = _pair(stride)
        padding = _pair(padding)
        dilation = _pair(dilation)
        super(StandardConv2d, self).__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation,
            False, _pair(0), groups, bias, 'zeros')
        self.config = config

    def forward(self, x):
        return F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation,
                        self.groups)


print(_pair(3), _pair((2, 4)), _single(5), _triple(1), _pair.__name__)
torch.manual_seed(0)
batch_size = 5
in_channels = 3
h, w = 12, 12
x = torch.randn(batch_size, in_channels, h, w)
out_channels = 2
output_size = 10
kernel_size = 3
stride = 1
conv = LocallyConnected2d(in_channels, out_channels, output_size, kernel_size, stride, bias=True)
print(conv)
print([(n, tuple(p.shape)) for n, p in conv.named_parameters()])
out = conv(x)
out.mean().backward()
print(out.shape, out[0, 0, :2])
print(conv.weight.grad.shape, conv.weight.grad[0, 0, 0, 0, 0], conv.bias.grad[0, 0, 0])

std = StandardConv2d(3, 2, 3, config={"name": "standard"})
print(std, std.config, std.kernel_size, std.stride, std.padding, std.transposed,
      std.output_padding, std.padding_mode)
print(std.extra_repr())
target = std(x).detach()
print(target.shape)
local = LocallyConnected2d(3, 2, 10, 3, 1, bias=True)
optimizer = torch.optim.SGD(local.parameters(), lr=0.05)
for step in range(31):
    optimizer.zero_grad()
    loss = F.mse_loss(local(x), target)
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.6f} grad {local.weight.grad.norm():.6f}")
try:
    LocallyConnected2d(3, 2, 9, 3, 1)(x)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    _ConvNd(3, 2, _pair(3), _pair(1), _pair(0), _pair(1), False, _pair(0), 1, True)
except TypeError as e:
    print("TypeError:", e)
