# Corpus program modelled on the PyTorch issues about empty batches: "[Feature Request] Make nn
# layers accept empty batch size" (https://github.com/pytorch/pytorch/issues/12013: its
# BatchNorm1d repros with torch.ones(0, 5) and torch.ones(0, 5, 9), and the running statistics
# left unchanged), "Floating point exception and segfault for empty tensors to BatchNorm2d"
# (https://github.com/pytorch/pytorch/issues/29578, BatchNorm2d(64).eval() on a (0, 64, ...)
# tensor) and "InstanceNorm segfaults on 0 batch size tensor input"
# (https://github.com/pytorch/pytorch/issues/39049, its forward and backward tests), plus the
# other layers that feature request lists (Linear, Conv2d, pooling, LayerNorm, GroupNorm,
# Embedding, losses) on a zero-size batch.
# Changed: smaller spatial sizes; InstanceNorm's channel count matches the input; each output
# printed with its grad_fn and the parameters' gradients after backward. Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(5)
x = torch.ones(0, 5)
print(bn(x))
x = torch.ones(0, 5, 9)
print(bn(x))
print(bn.running_mean)
print(bn.running_var)
print(bn.num_batches_tracked)

gg = nn.BatchNorm2d(64).eval()
prob = torch.empty(size=(0, 64, 12, 12))
print(gg(prob).shape)

for m, z in ((nn.InstanceNorm1d(3), torch.ones(0, 3, 10)),
             (nn.InstanceNorm2d(3), torch.ones(0, 3, 10, 10)),
             (nn.InstanceNorm3d(3), torch.ones(0, 3, 4, 4, 4))):
    z.requires_grad_()
    out = m(z)
    out.sum().backward()
    print(type(m).__name__, out.shape, out.grad_fn, z.grad.shape)

layers = [nn.Linear(4, 2), nn.Conv2d(3, 2, 3, padding=1), nn.MaxPool2d(2), nn.AvgPool2d(2),
          nn.LayerNorm(4), nn.GroupNorm(1, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Dropout(0.5)]
inputs = [torch.randn(0, 4), torch.randn(0, 3, 4, 4), torch.randn(0, 3, 4, 4),
          torch.randn(0, 3, 4, 4), torch.randn(0, 4), torch.randn(0, 3, 4, 4),
          torch.randn(0, 3, 4, 4), torch.randn(0, 4), torch.randn(0, 4)]
for layer, inp in zip(layers, inputs):
    inp.requires_grad_()
    out = layer(inp)
    out.sum().backward()
    grads = [None if p.grad is None else p.grad.abs().sum().item() for p in layer.parameters()]
    print(type(layer).__name__, tuple(out.shape), type(out.grad_fn).__name__, grads)

emb = nn.Embedding(10, 3)
print(emb(torch.zeros(0, dtype=torch.long)), emb(torch.zeros(2, 0, dtype=torch.long)).shape)
logits = torch.randn(0, 4, requires_grad=True)
target = torch.zeros(0, dtype=torch.long)
loss = F.cross_entropy(logits, target)
print(loss, F.cross_entropy(logits, target, reduction="sum"), F.mse_loss(logits, logits))
loss.backward()
print(logits.grad)
print(torch.cat([torch.randn(0, 4), torch.ones(2, 4)]), torch.stack([torch.ones(0)] * 3).shape)
