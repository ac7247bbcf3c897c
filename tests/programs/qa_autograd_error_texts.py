# Corpus program, written for gradsh (no code copied). Modelled on questions and issues about
# autograd and dtype errors, each reproduced, caught and printed, then fixed:
# https://github.com/archinetai/smart-pytorch/issues/5 and
# https://github.com/pytorch/pytorch/issues/73697 (torch.autograd.grad of a loss w.r.t. a noise
#   tensor that only reached the loss through .detach(): "One of the differentiated Tensors
#   appears to not have been used in the graph", and allow_unused=True giving None)
# https://blog.51cto.com/u_16175525/6637440 (a float32 nn.Linear fed a float64 input: the
#   dtype mismatch error, fixed with .float())
# https://github.com/pytorch/pytorch/issues/73697 also names the related calls: grad of a
#   non-scalar without grad_outputs, grad w.r.t. a tensor that does not require grad.
# Differences: our own code and sizes; a seed; each case's exception type and message printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def attempt(label, fn):
    try:
        out = fn()
        if isinstance(out, tuple):
            out = tuple(None if o is None else tuple(o.shape) for o in out)
        elif hasattr(out, 'shape'):
            out = tuple(out.shape)
        print(label, '->', out)
    except Exception as e:
        print(label, '->', type(e).__name__ + ':', e)


state = torch.randn(4, 3)
noise = torch.randn(4, 3, requires_grad=True)
net = nn.Linear(3, 2)
state_perturbed = net(state + noise)
loss = F.mse_loss(state_perturbed.detach(), net(state).detach() * 0)
attempt('grad of detached loss', lambda: torch.autograd.grad(loss, noise))
loss = F.mse_loss(net(state), torch.zeros(4, 2))
attempt('grad unused input', lambda: torch.autograd.grad(loss, noise, retain_graph=True))
attempt('grad allow_unused', lambda: torch.autograd.grad(loss, [noise, net.weight],
                                                       allow_unused=True, retain_graph=True))
attempt('grad materialize', lambda: torch.autograd.grad(
    loss, [noise, net.weight], allow_unused=True, materialize_grads=True, retain_graph=True))
attempt('grad non-scalar', lambda: torch.autograd.grad(net(state + noise), noise))
attempt('grad no-grad input', lambda: torch.autograd.grad(loss, state))
attempt('grad outputs shape', lambda: torch.autograd.grad(net(state + noise), noise,
                                                         torch.ones(3, 2)))
attempt('grad outputs ok', lambda: torch.autograd.grad(net(state + noise), noise,
                                                      torch.ones(4, 2)))
attempt('backward twice', lambda: (loss.backward(), loss.backward()))
attempt('grad of int', lambda: torch.tensor([1, 2], requires_grad=True))
attempt('requires_grad_ nonleaf', lambda: net(state).requires_grad_(False))
attempt('hook no grad', lambda: state.register_hook(lambda g: g))
attempt('retain_grad no grad', lambda: state.retain_grad())
attempt('numpy of grad tensor', lambda: noise.numpy())
attempt('inplace leaf', lambda: noise.add_(1))
attempt('inplace leaf view', lambda: noise[0].mul_(2))
with torch.no_grad():
    attempt('inplace leaf no_grad', lambda: noise.add_(0))
attempt('backward on no-grad', lambda: (state * 2).sum().backward())

double_in = torch.tensor([[1.0, 2.0, 3.0]], dtype=torch.double)
attempt('Linear double input', lambda: net(double_in))
attempt('Linear .float()', lambda: net(double_in.float()))
attempt('mm float double', lambda: torch.mm(state, double_in.t()))
attempt('matmul int float', lambda: torch.matmul(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2)))
attempt('conv double', lambda: nn.Conv1d(3, 2, 1)(double_in.unsqueeze(-1)))
attempt('mse double target', lambda: F.mse_loss(net(state), torch.zeros(4, 2, dtype=torch.double)))
out = net(state)
target = torch.zeros(4, 2, dtype=torch.double)
mixed = F.mse_loss(out, target)
print(mixed.dtype)
attempt('mse mixed backward', lambda: mixed.backward())
attempt('bce long target', lambda: F.binary_cross_entropy(torch.sigmoid(out), torch.ones(4, 2, dtype=torch.long)))
attempt('bce logits int', lambda: F.binary_cross_entropy_with_logits(out, torch.ones(4, 2, dtype=torch.long)))
attempt('cross_entropy int32 target', lambda: F.cross_entropy(out, torch.zeros(4, dtype=torch.int32)))
attempt('embedding int32', lambda: nn.Embedding(4, 2)(torch.tensor([1, 2], dtype=torch.int32)))
attempt('lstm double', lambda: nn.LSTM(3, 2)(double_in.unsqueeze(0)))
