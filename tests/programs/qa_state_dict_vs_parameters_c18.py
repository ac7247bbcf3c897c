# Corpus program modelled on the Stack Overflow question "PyTorch: What's the difference between
# state_dict and parameters()?" (https://stackoverflow.com/questions/54746829) and its answers:
# parameters() yields only the trainable Parameters, state_dict() an OrderedDict of every
# parameter and persistent buffer (BatchNorm's running stats and num_batches_tracked), detached
# (no requires_grad), and keep_vars=True keeps the Parameters; the optimizer's own state_dict.
# Changed: a small model, a seed. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
module = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Linear(3, 1))
for p in module.parameters():
    print(type(p).__name__, tuple(p.shape), p.requires_grad)
sd = module.state_dict()
print(type(sd).__name__, len(sd), len(list(module.parameters())))
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype, v.requires_grad)
print(sd["1.running_var"])
print(sd["1.num_batches_tracked"])
kv = module.state_dict(keep_vars=True)
print(type(kv["0.weight"]).__name__, kv["0.weight"].requires_grad, kv["0.weight"] is module[0].weight)
print(sd["0.weight"].data_ptr() == module[0].weight.data_ptr())
opt = torch.optim.Adam(module.parameters(), lr=0.01)
x = torch.randn(4, 2)
module(x).pow(2).mean().backward()
opt.step()
osd = opt.state_dict()
print(osd.keys(), osd["param_groups"])
print(sorted(osd["state"].keys()), list(osd["state"][0].keys()))
print(osd["state"][0]["step"], osd["state"][0]["exp_avg"])
print(module.state_dict()["1.running_mean"])
print(module.state_dict()["1.num_batches_tracked"])
sd2 = {k: v.clone() for k, v in module.state_dict().items()}
sd2["2.bias"].fill_(5.0)
print(module.load_state_dict(sd2))
print(module[2].bias)
print(module[0].state_dict(prefix="first."))
