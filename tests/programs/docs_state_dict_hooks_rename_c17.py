# Corpus program, written for gradsh (no code copied). Modelled on the state_dict hook APIs
# documented for torch.nn.Module and torch.optim.Optimizer
# (https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.register_load_state_dict_pre_hook,
# https://pytorch.org/docs/stable/generated/torch.optim.Optimizer.register_load_state_dict_pre_hook.html)
# and on the key-renaming load pre-hooks libraries register for old checkpoints, e.g. NVIDIA
# Megatron's mcore_gpt_load_legacy_state_dict_pre_hook (the private
# Module._register_load_state_dict_pre_hook, a hook without the module argument that renames
# keys in place and records what it did).
# Like those: register_state_dict_pre_hook / register_state_dict_post_hook (prefix,
# keep_vars, local_metadata["version"]); the older _register_state_dict_hook whose returned
# dictionary replaces the root module's state dict; the public post-hook refusing a return
# value; _register_load_state_dict_pre_hook with and without with_module renaming legacy keys
# ("fc.weight" -> "proj.weight"); register_load_state_dict_post_hook clearing
# incompatible_keys so that strict loading passes; the optimizer's state_dict and
# load_state_dict pre/post hooks (prepend, a pre-hook returning a modified state dict) and
# step pre/post hooks.
# Differences: a small model of our own; seeded; results printed.
from collections import OrderedDict

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 2)
        self.register_buffer("scale", torch.tensor(2.0))

    def forward(self, x):
        return self.proj(x) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Linear(2, 1)

    def forward(self, x):
        return self.head(self.block(x))


torch.manual_seed(0)
net = Net()
calls = []


def pre_hook(module, prefix, keep_vars):
    calls.append(("pre", type(module).__name__, prefix, keep_vars))


def post_hook(module, state_dict, prefix, local_metadata):
    calls.append(("post", type(module).__name__, prefix, local_metadata["version"], len(state_dict)))


h1 = net.block.register_state_dict_pre_hook(pre_hook)
h2 = net.block.register_state_dict_post_hook(post_hook)
h3 = net.register_state_dict_post_hook(post_hook)
sd = net.state_dict(keep_vars=True)
print(list(sd.keys()), type(sd["block.proj.weight"]).__name__)
print(calls)
print(sd._metadata)
for h in (h1, h2, h3):
    h.remove()


def returns_new(module, state_dict, prefix, local_metadata):
    return OrderedDict((k.replace("proj", "fc"), v) for k, v in state_dict.items())


def bad_public(module, state_dict, prefix, local_metadata):
    return {}


handle = net._register_state_dict_hook(returns_new)
print(list(net.state_dict().keys()))
print(list(net.block.state_dict().keys()))
handle.remove()
handle = net.block._register_state_dict_hook(returns_new)
print(list(net.state_dict().keys()))
print(list(net.block.state_dict().keys()))
handle.remove()
handle = net.register_state_dict_post_hook(bad_public)
try:
    net.state_dict()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    net._register_state_dict_hook(bad_public)
except RuntimeError as e:
    print("RuntimeError:", e)
handle.remove()

legacy = OrderedDict()
legacy["block.fc.weight"] = torch.arange(6.).view(2, 3)
legacy["block.fc.bias"] = torch.tensor([0.5, -0.5])
legacy["block.scale"] = torch.tensor(3.0)
legacy["head.weight"] = torch.tensor([[1.0, -1.0]])
legacy["head.bias"] = torch.tensor([0.25])
try:
    net.load_state_dict(legacy)
except RuntimeError as e:
    print(str(e))
renamed = []


def legacy_pre_hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    for name in ("weight", "bias"):
        old = f"{prefix}fc.{name}"
        if old in state_dict:
            state_dict[f"{prefix}proj.{name}"] = state_dict.pop(old)
            renamed.append(old)


h = net.block._register_load_state_dict_pre_hook(legacy_pre_hook)
print(net.load_state_dict(legacy))
print(renamed, net.block.proj.weight, net.block.scale)
h.remove()


def with_module_hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    print("pre-hook on", type(module).__name__, repr(prefix), strict, sorted(state_dict)[:2])


h = net.head._register_load_state_dict_pre_hook(with_module_hook, with_module=True)
h2 = net.head.register_load_state_dict_pre_hook(with_module_hook)
print(net.load_state_dict(net.state_dict()))
h.remove()
h2.remove()


def forgive(module, incompatible_keys):
    print("post-hook:", incompatible_keys.missing_keys, incompatible_keys.unexpected_keys)
    incompatible_keys.missing_keys.clear()
    incompatible_keys.unexpected_keys.clear()


partial = {k: v for k, v in net.state_dict().items() if not k.startswith("head")}
partial["extra.weight"] = torch.zeros(1)
try:
    net.load_state_dict(partial)
except RuntimeError as e:
    print(str(e).splitlines()[0])
h = net.register_load_state_dict_post_hook(forgive)
print(net.load_state_dict(partial))
h.remove()

opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
net(torch.randn(4, 3)).sum().backward()
log = []
opt.register_step_pre_hook(lambda o, args, kwargs: log.append(("step pre", len(o.state))))
opt.register_step_post_hook(lambda o, args, kwargs: log.append(("step post", len(o.state))))
opt.step()
print(log)
opt.register_state_dict_pre_hook(lambda o: log.append("sd pre"))


def note_post_hook(optimizer, state_dict):
    state_dict["note"] = "saved"


opt.register_state_dict_post_hook(note_post_hook)
osd = opt.state_dict()
print(sorted(osd.keys()), osd["note"], log[-1])


def lower_lr(optimizer, state_dict):
    state_dict = dict(state_dict)
    state_dict["param_groups"] = [dict(g, lr=g["lr"] / 10) for g in state_dict["param_groups"]]
    return state_dict


opt2 = torch.optim.SGD(net.parameters(), lr=1.0, momentum=0.9)
opt2.register_load_state_dict_pre_hook(lambda o, sd: log.append("load pre 1"))
opt2.register_load_state_dict_pre_hook(lower_lr, prepend=True)
opt2.register_load_state_dict_post_hook(lambda o: log.append(("load post", o.param_groups[0]["lr"])))
del osd["note"]
opt2.load_state_dict(osd)
print(log[-2:], opt2.param_groups[0]["lr"], len(opt2.state))
print(opt2.state[net.head.bias]["momentum_buffer"])
