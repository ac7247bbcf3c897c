# Corpus program modelled on the discuss.pytorch.org question "Here is a question about fuse
# torch.nn.BatchNorm2d" (https://discuss.pytorch.org/t/here-is-a-question-about-fuse-torch-nn-batchnorm2d/139598)
# and the folding formula of the cnblogs answer "卷积层和BN层融合"
# (https://cnblogs.com/nowgood/p/juan-ji-ceng-he-liang-hua-ceng-rong-he.html): w * gamma /
# sqrt(var + eps), b' = (b - mean) * gamma / sqrt(var + eps) + beta, by hand and with
# torch.nn.utils.fusion.fuse_conv_bn_eval; outputs compared; fusing a training module refused.
# Changed: random weights and running stats from a few training batches, with a seed; small sizes.
import torch
import torch.nn as nn
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval

torch.manual_seed(0)
conv = nn.Conv2d(3, 4, 3, padding=1, bias=False)
bn = nn.BatchNorm2d(4)
net = nn.Sequential(conv, bn)
for _ in range(3):
    net(torch.randn(2, 3, 6, 6) * 2 + 1)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
with torch.no_grad():
    bn.weight.uniform_(0.5, 1.5)
    bn.bias.uniform_(-0.5, 0.5)
net.eval()

# by hand
w = conv.weight
std = (bn.running_var + bn.eps).sqrt()
w_fused = w * (bn.weight / std).reshape(-1, 1, 1, 1)
b_fused = (0 - bn.running_mean) * bn.weight / std + bn.bias
manual = nn.Conv2d(3, 4, 3, padding=1)
manual.weight.data.copy_(w_fused)
manual.bias.data.copy_(b_fused)

fused = fuse_conv_bn_eval(conv, bn)
print(fused)
print(type(fused.weight).__name__, fused.weight.requires_grad, fused.bias.shape)
x = torch.randn(1, 3, 6, 6)
with torch.no_grad():
    ref = net(x)
    a = fused(x)
    b = manual(x)
print((ref - a).abs().max() < 1e-5, (ref - b).abs().max() < 1e-5)
print(torch.allclose(fused.weight, manual.weight, atol=1e-6), torch.allclose(fused.bias, manual.bias, atol=1e-6))
print(a[0, :, 0, :3])

fw, fb = fuse_conv_bn_weights(conv.weight, None, bn.running_mean, bn.running_var, bn.eps,
                              bn.weight, bn.bias)
print(fw.shape, fb)

lin = nn.Linear(5, 3)
bn1 = nn.BatchNorm1d(3)
seq = nn.Sequential(lin, bn1)
seq(torch.randn(8, 5))
seq.eval()
fl = fuse_linear_bn_eval(lin, bn1)
z = torch.randn(4, 5)
with torch.no_grad():
    print(torch.allclose(seq(z), fl(z), atol=1e-6))
print(fl)

net.train()
try:
    fuse_conv_bn_eval(conv, bn)
except AssertionError as e:
    print("AssertionError:", e)
