# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial "Model
# ensembling" (torch.vmap over stacked module state), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/ensembling.py
# Like the original: a SimpleMLP (flatten(1), three Linear layers with F.relu), several models,
# option 1 (a different minibatch per model) and option 2 (the same minibatch) computed with a
# Python loop, torch.func.stack_module_state(models), a stateless copy.deepcopy(model).to('meta')
# and fmodel(params, buffers, x) = functional_call(base_model, (params, buffers), (x,)),
# vmap(fmodel) and vmap(fmodel, in_dims=(0, 0, None)), checked with torch.allclose against the
# loops; the leading num_models dimension printed.
# Differences: our own code; device 'cpu'; 8x8 images, hidden 32, 5 models, minibatch 16; the
# torch.utils.benchmark timings are left out (they are not deterministic); more printing.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import vmap
from torch.func import functional_call, stack_module_state

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, 32)
        self.fc3 = nn.Linear(32, 10)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


device = 'cpu'
num_models = 5
data = torch.randn(20, 16, 1, 8, 8, device=device)
targets = torch.randint(10, (320,), device=device)
models = [SimpleMLP().to(device) for _ in range(num_models)]

minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print(list(params.keys()), buffers)
print({k: tuple(v.shape) for k, v in params.items()})
print(params['fc1.weight'].requires_grad, params['fc1.weight'].is_leaf)

base_model = copy.deepcopy(models[0])
base_model = base_model.to('meta')
print(base_model.fc1.weight.device, base_model.fc1.weight.shape)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


print([p.size(0) for p in params.values()])
assert minibatches.shape == (num_models, 16, 1, 8, 8)

predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print(predictions1_vmap.shape)
print(torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5))

predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(predictions2_vmap.shape)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5))
print((predictions2_vmap - torch.stack(predictions2)).abs().max() < 1e-5)
print(predictions2_vmap[2, :2])
ensemble = predictions2_vmap.softmax(-1).mean(0)
print(ensemble.argmax(-1))
loss = F.cross_entropy(predictions2_vmap.mean(0), targets[:16])
loss.backward()
print(loss, params['fc3.bias'].grad.shape)
