"""state_dict keys and metadata, strict loading errors, deepcopy, torch.save/load."""
import copy
import io

import torch
import torch.nn as nn

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
sd = model.state_dict()
print(list(sd.keys()))
print(dict(sd._metadata))
print(type(sd).__name__, sd["1.num_batches_tracked"], sd["0.weight"].requires_grad,
      sd["0.weight"].grad_fn)
print(model.state_dict(keep_vars=True)["0.bias"].requires_grad)
other = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
print(other.load_state_dict(sd))
print(torch.equal(other[0].weight, model[0].weight))

bad = dict(sd)
bad["extra.weight"] = torch.zeros(1)
del bad["3.bias"]
bad["0.weight"] = torch.zeros(5, 3)
for strict in (True, False):
    try:
        print(other.load_state_dict(bad, strict=strict))
    except RuntimeError as e:
        print(e)
del bad["0.weight"]
result = other.load_state_dict(bad, strict=False)
print(result, result.missing_keys, result.unexpected_keys)
try:
    other.load_state_dict([1, 2])
except TypeError as e:
    print(e)

# assign=True keeps the checkpoint's tensors
fresh = nn.Linear(2, 2)
weights = {"weight": torch.ones(2, 2), "bias": torch.zeros(2)}
fresh.load_state_dict(weights, assign=True)
print(type(fresh.weight).__name__, fresh.weight.requires_grad, fresh.weight)

# deepcopy: new storage, same values, grads copied
x = torch.randn(5, 3)
model(x).sum().backward()
clone = copy.deepcopy(model)
print(clone[0].weight is model[0].weight, torch.equal(clone[0].weight, model[0].weight))
print(clone[0].weight.grad, model[0].weight.grad is not None)  # Parameter's deepcopy drops .grad
plain = torch.ones(2, requires_grad=True)
plain.grad = torch.full((2,), 3.0)
print(copy.deepcopy(plain).grad)  # a plain tensor's deepcopy keeps it
with torch.no_grad():
    clone[0].weight.add_(1)
print(torch.equal(clone[0].weight, model[0].weight))
try:
    copy.deepcopy(model[0].weight * 2)
except RuntimeError as e:
    print(e)

# torch.save / torch.load of a state_dict and of a whole module
buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
loaded = torch.load(buffer)
print(list(loaded.keys()) == list(sd.keys()), torch.equal(loaded["1.running_mean"],
                                                          model[1].running_mean))
buffer = io.BytesIO()
torch.save(model, buffer)
buffer.seek(0)
restored = torch.load(buffer, weights_only=False)
print(restored)
print(torch.equal(restored(x), model(x)))
print(restored[0].weight.grad)
