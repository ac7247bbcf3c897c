# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples
# "regression" (fitting a degree-4 polynomial with one Linear layer), BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/regression/main.py
# Like the original: a random target polynomial (randn(4, 1) * 5 and randn(1) * 5), features
# [x, x^2, x^3, x^4] by torch.cat of powers of an unsqueezed randn batch, f(x) = x.mm(W) +
# b.item(), nn.Linear(4, 1), F.smooth_l1_loss, fc.zero_grad(), a manual update through
# param.data.add_(-0.1 * param.grad), itertools.count until the loss is below 1e-3, and the
# learned and actual polynomials printed with '{:+.2f}' formatting of 0-d tensors.
# Differences: our own code; seeded with torch.manual_seed(0).
from itertools import count

import torch
import torch.nn.functional as F

torch.manual_seed(0)
DEGREE = 4
true_w = torch.randn(DEGREE, 1) * 5
true_b = torch.randn(1) * 5


def poly_features(x):
    x = x.unsqueeze(1)
    return torch.cat([x ** k for k in range(1, DEGREE + 1)], 1)


def target_fn(feats):
    return feats.mm(true_w) + true_b.item()


def describe(w, b):
    terms = " ".join("{:+.2f} x^{}".format(c, k + 1) for k, c in enumerate(w))
    return "y = " + terms + " {:+.2f}".format(b[0])


def sample(batch=32):
    feats = poly_features(torch.randn(batch))
    return feats, target_fn(feats)


fc = torch.nn.Linear(DEGREE, 1)
for step in count(1):
    bx, by = sample()
    fc.zero_grad()
    out = F.smooth_l1_loss(fc(bx), by)
    value = out.item()
    out.backward()
    for p in fc.parameters():
        p.data.add_(-0.1 * p.grad)
    if value < 1e-3:
        break

print("Loss: {:.6f} after {} batches".format(value, step))
print("==> Learned function:\t" + describe(fc.weight.view(-1), fc.bias))
print("==> Actual function:\t" + describe(true_w.view(-1), true_b))
