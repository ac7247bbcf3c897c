# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Pruning Tutorial", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/pruning_tutorial.py
# Like the original: a LeNet; prune.random_unstructured on conv1.weight moves it to
# weight_orig, adds the weight_mask buffer, a plain weight attribute and a forward pre-hook;
# l1_unstructured on the bias by count; ln_structured on top of it (a PruningContainer
# holding the history); the state_dict keys; prune.remove making it permanent; per-layer
# pruning of every Conv2d and Linear; global_unstructured with L1Unstructured and the
# per-layer and global sparsity; a custom BasePruningMethod pruning every other entry.
# Differences: our own code and sizes; a forward pass shows the hook applying the mask after
# the original weight changes; is_pruned and identity are also used; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.conv2 = nn.Conv2d(4, 8, 3)
        self.fc1 = nn.Linear(8 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


net = LeNet()
conv = net.conv1
print([name for name, _ in conv.named_parameters()], [name for name, _ in conv.named_buffers()])

prune.random_unstructured(conv, name="weight", amount=0.25)
print([name for name, _ in conv.named_parameters()])
print(conv.weight_mask[0])
print(conv.weight[0])
print(conv._forward_pre_hooks)
print(prune.is_pruned(net), prune.is_pruned(net.fc1))

prune.l1_unstructured(conv, name="bias", amount=2)
print(conv.bias_orig)
print(conv.bias)
print(list(conv._forward_pre_hooks.values()))

prune.ln_structured(conv, name="weight", amount=0.5, n=2, dim=0)
print(conv.weight[:, 0, 0])
container = next(h for h in conv._forward_pre_hooks.values() if h._tensor_name == "weight")
print(type(container).__name__, len(container), [type(m).__name__ for m in container])
print(list(net.state_dict().keys()))

with torch.no_grad():
    conv.weight_orig.fill_(1.0)
out = net(torch.randn(2, 1, 16, 16))
print(out.shape, conv.weight[:, 0].sum(dim=(1, 2)))

prune.remove(conv, "weight")
print([name for name, _ in conv.named_parameters()], [name for name, _ in conv.named_buffers()])
print(conv.weight[:, 0, 0])
try:
    prune.remove(conv, "weight")
except ValueError as err:
    print("ValueError:", str(err).splitlines()[0][:60])

other = LeNet()
for name, module in other.named_modules():
    if isinstance(module, nn.Conv2d):
        prune.l1_unstructured(module, name="weight", amount=0.3)
    elif isinstance(module, nn.Linear):
        prune.l1_unstructured(module, name="weight", amount=0.5)
prune.identity(other.fc2, "bias")
print(list(dict(other.named_buffers()).keys()))

glob = LeNet()
targets = [(glob.conv1, "weight"), (glob.conv2, "weight"), (glob.fc1, "weight"),
           (glob.fc2, "weight")]
prune.global_unstructured(targets, pruning_method=prune.L1Unstructured, amount=0.25)
zeros = total = 0
for module, name in targets:
    w = getattr(module, name)
    z = int(torch.sum(w == 0))
    zeros, total = zeros + z, total + w.nelement()
    print(f"{type(module).__name__:7s} sparsity {100.0 * z / w.nelement():.2f}%")
print(f"global sparsity {100.0 * zeros / total:.2f}%")


class EveryOther(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def every_other(module, name):
    EveryOther.apply(module, name)
    return module


every_other(glob.fc2, "bias")
print(glob.fc2.bias_mask)
print(EveryOther().prune(torch.arange(1.0, 7.0)))
