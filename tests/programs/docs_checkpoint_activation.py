# Corpus program, written for gradsh (no code copied). Modelled on the torch.utils.checkpoint
# reference (https://pytorch.org/docs/stable/checkpoint.html) and the gradient-checkpointing
# blog posts that follow it: a model split into segments, each run through
# checkpoint(segment, x, use_reentrant=...) so its activations are recomputed on backward;
# gradients compared with the plain model for use_reentrant=True and False, the
# CheckpointFunctionBackward node of the reentrant variant, dropout inside a segment giving the
# same mask on the recomputation (preserve_rng_state), checkpoint_sequential over an
# nn.Sequential, the warning when use_reentrant is not passed, and the "None of the inputs
# have requires_grad=True" case where parameters get no gradient.
# Differences: our own code and model; seeded; warnings go to stderr.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)
block1 = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
block2 = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.5), nn.ReLU(), nn.Linear(8, 2))
x = torch.randn(3, 4, requires_grad=True)


def grads():
    g = [p.grad.clone() for p in list(block1.parameters()) + list(block2.parameters())]
    g.append(x.grad.clone())
    for p in list(block1.parameters()) + list(block2.parameters()):
        p.grad = None
    x.grad = None
    return g


torch.manual_seed(1)
out = block2(block1(x))
out.sum().backward()
plain = grads()
print(out.grad_fn)

for reentrant in (True, False):
    torch.manual_seed(1)
    h = checkpoint(block1, x, use_reentrant=reentrant)
    out2 = checkpoint(block2, h, use_reentrant=reentrant)
    print(reentrant, out2.grad_fn, torch.equal(out, out2))
    out2.sum().backward()
    g = grads()
    print(all(torch.equal(a, b) for a, b in zip(plain, g)))

torch.manual_seed(1)
h = checkpoint(block1, x)
print(h.requires_grad, h.grad_fn.name())
seq = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU(), nn.Linear(6, 1))
y1 = seq(x)
y1.sum().backward()
ref = [p.grad.clone() for p in seq.parameters()]
seq.zero_grad()
y2 = checkpoint_sequential(seq, 2, x, use_reentrant=True)
y2.sum().backward()
print(torch.equal(y1, y2), all(torch.equal(a, p.grad) for a, p in zip(ref, seq.parameters())))

frozen_in = torch.randn(3, 4)
z = checkpoint(block1, frozen_in, use_reentrant=True)
print(z.requires_grad, z.grad_fn)
z = checkpoint(block1, frozen_in, use_reentrant=False)
print(z.requires_grad, z.grad_fn)
try:
    checkpoint(block1, x, use_reentrant=True, scale=2)
except ValueError as e:
    print("ValueError:", e)
print(checkpoint(lambda a, b: a * b, x, 2.0, use_reentrant=True).shape)
