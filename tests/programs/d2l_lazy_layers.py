# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# sections 6.4 "Lazy Initialization", 6.5 "Custom Layers", 6.3 "Parameter Initialization" and
# 7.3 "Padding and Stride" and 8.5 "Batch Normalization", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_builders-guide/lazy-init.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_builders-guide/custom-layer.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_convolutional-neural-networks/padding-and-strides.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_convolutional-modern/batch-norm.md
# Like the original: an MLP of nn.LazyLinear layers whose weights are UninitializedParameter
# until the first forward fixes the input width; a centered custom layer after a LazyLinear;
# initialization applied after a dummy forward (normal, constant, xavier, a custom init);
# nn.LazyConv2d with padding and strides and the output shapes they give; a small LeNet-style
# net with nn.LazyBatchNorm2d / nn.LazyBatchNorm1d after its lazy layers.
# Differences: our own code and sizes; the lazy modules' reprs and classes before and after
# the first call, the state_dict keys and an SGD step on the materialized parameters are also
# printed; d2l's helper library is not used; seeded.
import torch
from torch import nn

torch.manual_seed(0)

net = nn.Sequential(nn.LazyLinear(6), nn.ReLU(), nn.LazyLinear(2))
print(net)
print(net[0].weight, type(net[0]).__name__, net[0].has_uninitialized_params())
print(isinstance(net[0].weight, nn.Parameter), isinstance(net[0].weight,
                                                           nn.UninitializedParameter))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
X = torch.rand(3, 5)
out = net(X)
print(net)
print(type(net[0]).__name__, net[0].weight.shape, type(net[0].weight).__name__)
print(out)
print(list(net.state_dict().keys()))
out.pow(2).sum().backward()
opt.step()
print(net[2].bias)


class Centered(nn.Module):
    def forward(self, x):
        return x - x.mean()


layer_net = nn.Sequential(nn.LazyLinear(16), Centered())
y = layer_net(torch.rand(4, 8))
print(f"{y.mean().item():.1e}" if abs(y.mean().item()) > 0 else "0", y.shape)

init_net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
init_net(torch.rand(2, 4))


def init_normal(m):
    if type(m) is nn.Linear:
        nn.init.normal_(m.weight, mean=0, std=0.01)
        nn.init.zeros_(m.bias)


def init_constant(m):
    if type(m) is nn.Linear:
        nn.init.constant_(m.weight, 1)
        nn.init.zeros_(m.bias)


def init_custom(m):
    if type(m) is nn.Linear:
        nn.init.uniform_(m.weight, -10, 10)
        m.weight.data *= m.weight.data.abs() >= 5


init_net.apply(init_normal)
print(init_net[0].weight.data[0], init_net[0].bias.data[0])
init_net.apply(init_constant)
print(init_net[0].weight.data[0])
init_net[0].apply(init_custom)
print(init_net[0].weight[:2])
init_net[0].weight.data[:] += 1
init_net[0].weight.data[0, 0] = 42
print(init_net[0].weight.data[0])


def comp_conv2d(conv2d, X):
    X = X.reshape((1, 1) + X.shape)
    Y = conv2d(X)
    return Y.reshape(Y.shape[2:])


X = torch.rand(size=(8, 8))
for conv in (nn.LazyConv2d(1, kernel_size=3, padding=1),
             nn.LazyConv2d(1, kernel_size=(5, 3), padding=(2, 1)),
             nn.LazyConv2d(1, kernel_size=3, padding=1, stride=2),
             nn.LazyConv2d(1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4))):
    print(conv)
    print(comp_conv2d(conv, X).shape, conv)
print(conv.weight.shape, conv.bias)

bn_net = nn.Sequential(nn.LazyConv2d(2, kernel_size=3), nn.LazyBatchNorm2d(), nn.Sigmoid(),
                       nn.Flatten(), nn.LazyLinear(6), nn.LazyBatchNorm1d(), nn.Sigmoid(),
                       nn.LazyLinear(3))
print(bn_net[1].running_mean, bn_net[1].num_batches_tracked)
out = bn_net(torch.randn(4, 1, 6, 6))
print(bn_net)
print(out)
print(bn_net[1].running_mean, bn_net[5].running_var, bn_net[5].num_batches_tracked)
