# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# PyTorch's padding layers (torch/nn/modules/padding.py: ReflectionPad2d, ReplicationPad1d,
# ZeroPad2d, ConstantPad2d, CircularPad2d; arange(9).reshape(1, 1, 3, 3) inputs, one pad size
# for every side, then a tuple of different sizes per side):
# https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/padding.py
# and on the fast-neural-style example's ConvLayer (a ReflectionPad2d(kernel_size // 2) before
# an unpadded Conv2d), pytorch/examples:
# https://github.com/pytorch/examples/blob/main/fast_neural_style/neural_style/transformer_net.py
# Like the originals: the layers' reprs, their outputs printed, padding given as an int and as
# a tuple; the reflection layer in a Sequential with a convolution.
# Differences: seeded; the 3-d layers and the rank errors added; gradients through each mode
# printed; the convolution's output rounded (its float32 products are not in MKL's order).
import torch
import torch.nn as nn

torch.manual_seed(0)

image = torch.arange(9, dtype=torch.float).reshape(1, 1, 3, 3)
print(image)
for layer in (nn.ReflectionPad2d(2), nn.ReflectionPad2d((1, 1, 2, 0)), nn.CircularPad2d(2),
              nn.CircularPad2d((1, 1, 2, 0)), nn.ReplicationPad2d((0, 2, 1, 0)),
              nn.ZeroPad2d((1, 1, 2, 0)), nn.ConstantPad2d((3, 0, 2, 1), 3.5)):
    print(layer)
    print(layer(image))

signal = torch.arange(8, dtype=torch.float).reshape(1, 2, 4)
for layer in (nn.ReplicationPad1d(2), nn.ReplicationPad1d((3, 1)), nn.ReflectionPad1d(3),
              nn.ZeroPad1d((2, 0)), nn.ConstantPad1d(1, -1.0), nn.CircularPad1d(1)):
    print(layer, layer(signal))

noise = torch.randn(1, 2, 2)
print(nn.ConstantPad2d(2, 3.5)(noise))
print(nn.ZeroPad2d(1)(torch.randn(1, 1, 2, 2)))

volume = torch.arange(8, dtype=torch.float).reshape(1, 1, 2, 2, 2)
for layer in (nn.ReplicationPad3d(1), nn.ZeroPad3d((1, 0, 0, 0, 0, 1)),
              nn.ConstantPad3d(1, 9.0), nn.ReflectionPad3d(1), nn.CircularPad3d(1)):
    out = layer(volume)
    print(layer, tuple(out.shape), out.sum().item(), out[0, 0, 0])

x = torch.randn(1, 2, 4, 4, requires_grad=True)
for layer in (nn.ReflectionPad2d(2), nn.ReplicationPad2d(1), nn.CircularPad2d((1, 0, 0, 1)),
              nn.ZeroPad2d(1)):
    y = layer(x)
    weights = torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)
    (y * weights).sum().backward()
    print(type(layer).__name__, y.grad_fn.name(), x.grad[0, 0])
    x.grad = None

conv_layer = nn.Sequential(nn.ReflectionPad2d(3 // 2), nn.Conv2d(2, 4, 3, 1))
print(conv_layer)
out = conv_layer(torch.rand(1, 2, 5, 5) * 255)
print(tuple(out.shape), torch.round(out[0, 0], decimals=2))

for layer, shape in ((nn.CircularPad2d(1), (3, 3)), (nn.CircularPad1d(1), (4,)),
                     (nn.ReflectionPad2d(3), (1, 1, 3, 3))):
    try:
        layer(torch.zeros(shape))
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
print(nn.ZeroPad2d(1).padding, nn.ConstantPad2d(2, 1).value, nn.ReflectionPad1d([1, 2]).padding)
