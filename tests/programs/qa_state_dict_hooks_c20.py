# Corpus program modelled on the Q&A guides to nn.Module's state_dict hooks
# (https://runebook.dev/en/docs/pytorch/generated/torch.nn.module/torch.nn.Module.register_load_state_dict_post_hook
# and https://runebook.dev/zh/docs/pytorch/generated/torch.nn.module/torch.nn.Module.register_state_dict_pre_hook):
# a checkpoint saved with old key names is renamed on the fly by a load_state_dict pre hook, a
# post hook reports missing/unexpected keys, and a state_dict post hook drops a buffer.
# Changed: tiny modules with a seed; the hooks print what they see.
import torch
import torch.nn as nn
from collections import OrderedDict

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(3, 2)
        self.head = nn.Linear(2, 1)
        self.register_buffer("calls", torch.zeros(()))
        self.register_buffer("cache", torch.ones(2), persistent=False)


old = OrderedDict()
src = Net()
for k, v in src.state_dict().items():
    old[k.replace("encoder", "enc").replace("head", "fc")] = v.clone()
print(list(old.keys()))
net = Net()


def rename_pre_hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
                    unexpected_keys, error_msgs):
    for k in list(state_dict.keys()):
        new = k.replace("enc.", "encoder.").replace("fc.", "head.")
        if new != k:
            state_dict[new] = state_dict.pop(k)
    print("pre hook prefix=%r keys=%s" % (prefix, sorted(state_dict.keys())))


def report_post_hook(module, incompatible_keys):
    print("post hook:", incompatible_keys.missing_keys, incompatible_keys.unexpected_keys)


try:
    net.load_state_dict(old)
except RuntimeError as e:
    print("RuntimeError:", e)
h1 = net.register_load_state_dict_pre_hook(rename_pre_hook)
h2 = net.register_load_state_dict_post_hook(report_post_hook)
result = net.load_state_dict(old)
print(result)
print(torch.equal(net.encoder.weight, src.encoder.weight), torch.equal(net.head.bias, src.head.bias))
h1.remove()
partial = {"encoder.weight": torch.zeros(2, 3), "extra": torch.ones(1)}
res = net.load_state_dict(partial, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(net.encoder.weight)
h2.remove()


def drop_calls(module, state_dict, prefix, local_metadata):
    state_dict.pop(prefix + "calls", None)
    print("state_dict post hook, prefix=%r" % prefix)


wrapper = nn.Sequential(net)
h3 = net.register_state_dict_post_hook(drop_calls)
sd = wrapper.state_dict()
print(list(sd.keys()))
print(sd._metadata if hasattr(sd, "_metadata") else None)
h3.remove()
print(list(wrapper.state_dict().keys()))
print(list(net.state_dict(prefix="model.", keep_vars=True).keys()))
print(type(net.state_dict(keep_vars=True)["encoder.weight"]).__name__)
