# Corpus program modelled on the Stack Overflow / PyTorch-forum questions about
# "Error(s) in loading state_dict: Missing key(s) ... Unexpected key(s) ..." and "size mismatch
# for fc.weight" (the DataParallel "module." prefix, a changed head, strict=False and its
# returned _IncompatibleKeys), and about saving and loading through torch.save / torch.load:
# each load is tried, its error caught and printed, then the answers' fixes (strip the prefix,
# strict=False, drop the mismatched keys, load into a new optimizer).
# Changed: an in-memory io.BytesIO instead of a .pth file; small seeded models. Written for gradsh.
import io
from collections import OrderedDict

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.BatchNorm1d(8))
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        return self.fc(self.features(x))


torch.manual_seed(0)
net = Net()
sd = net.state_dict()
print(list(sd.keys()))
print(sd["features.2.num_batches_tracked"], sd["fc.bias"])

prefixed = OrderedDict(("module." + k, v) for k, v in sd.items())
fresh = Net()
try:
    fresh.load_state_dict(prefixed)
except RuntimeError as e:
    print(e)
result = fresh.load_state_dict(prefixed, strict=False)
print(result)
print(result.missing_keys[:2], len(result.unexpected_keys))
fixed = OrderedDict((k[len("module."):], v) for k, v in prefixed.items())
print(fresh.load_state_dict(fixed))
print(torch.equal(fresh.fc.weight, net.fc.weight))

bigger = Net(classes=5)
try:
    bigger.load_state_dict(sd)
except RuntimeError as e:
    print(e)
filtered = {k: v for k, v in sd.items() if not k.startswith("fc.")}
print(bigger.load_state_dict(filtered, strict=False))

partial = dict(sd)
del partial["features.0.bias"]
partial["extra.weight"] = torch.zeros(1)
try:
    Net().load_state_dict(partial)
except RuntimeError as e:
    print(e)

buf = io.BytesIO()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
net(torch.randn(5, 4)).sum().backward()
opt.step()
torch.save({"epoch": 3, "model": net.state_dict(), "optimizer": opt.state_dict(), "loss": 0.25}, buf)
buf.seek(0)
ckpt = torch.load(buf)
print(sorted(ckpt.keys()), ckpt["epoch"], ckpt["loss"])
restored = Net()
print(restored.load_state_dict(ckpt["model"]))
opt2 = torch.optim.SGD(restored.parameters(), lr=0.5)
opt2.load_state_dict(ckpt["optimizer"])
print(opt2.param_groups[0]["lr"], opt2.param_groups[0]["momentum"])
print(opt2.state_dict()["state"][0]["momentum_buffer"])
restored.eval()
x = torch.randn(2, 4)
net.eval()
print(torch.equal(restored(x), net(x)), restored(x))

try:
    opt2.load_state_dict({"state": {}, "param_groups": []})
except ValueError as e:
    print(e)
try:
    net.fc.weight = torch.zeros(3, 8)
except TypeError as e:
    print(e)
net.fc.weight = nn.Parameter(torch.zeros(3, 8))
print(net.fc.weight.sum(), net.fc)
