# Corpus program modelled on the PyTorch issue "'torch.func.vmap' incompatible with
# torch.autograd.grad and tensor slicing" (five Linear models stacked with stack_module_state,
# losses from vmap over functional_call; the grad of each loss w.r.t. a slice of the stacked
# weight is None, w.r.t. the whole stacked weight it is the right per-model gradient):
# https://github.com/pytorch/pytorch/issues/120538
# Changed: a seed; the last, failing vmap(compute_grad) line is left out; the per-model grads
# are checked against running each model on its own. Written for gradsh.
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, stack_module_state

torch.manual_seed(0)


def compute_loss(params, buffers, inputs, outputs):
    preds = functional_call(models[0], (params, buffers), inputs)
    return loss_fn(preds, outputs)


models = [nn.Linear(2, 1) for _ in range(5)]
params, buffers = stack_module_state(models)
print({k: v.shape for k, v in params.items()}, buffers)
print(params['weight'].requires_grad, params['weight'].is_leaf)
inputs = torch.randn(5, 2, 2)
outputs = torch.randn(5, 2, 1)
loss_fn = nn.MSELoss()

losses = vmap(compute_loss)(params, buffers, inputs, outputs)
print(losses)

print('Gradients w/ slicing:')
for loss, weight in zip(losses, params['weight']):
    print(torch.autograd.grad(loss, weight, create_graph=True, allow_unused=True))

print('Gradients w/o slicing:')
for loss in losses:
    print(torch.autograd.grad(loss, params['weight'], create_graph=True, allow_unused=True))

print('One model at a time:')
for i, m in enumerate(models):
    loss = loss_fn(m(inputs[i]), outputs[i])
    print(loss, torch.autograd.grad(loss, m.weight))
