# Corpus program, written for gradsh (no code copied). Modelled on PyTorch's torch.func page
# "Patching Batch Norm":
# https://github.com/pytorch/pytorch/blob/main/docs/source/func.batch_norm.md
# Like the page: vmapping a model with BatchNorm2d over a batch of inputs fails because the
# running statistics would be updated in place (the error printed), then the four fixes:
# option 1, GroupNorm instead of BatchNorm (C % G == 0) or BatchNorm2d with
# track_running_stats=False; option 2, a norm_layer parameter as torchvision's resnet takes
# (functools.partial(BatchNorm2d, track_running_stats=False) or a GroupNorm lambda); option 3,
# torch.func.replace_all_batch_norm_modules_(net); option 4, eval mode around vmap.
# Differences: a small convolutional net with a norm_layer argument stands in for torchvision's
# resnet18 (not installed); each option prints the vmapped output's shape and values, and
# per-example gradients through torch.func.grad where the page's use case (per-sample
# gradients) needs them; seeded.
from functools import partial

import torch
import torch.nn as nn
from torch.func import functional_call, grad, replace_all_batch_norm_modules_, vmap

torch.manual_seed(0)


class SmallNet(nn.Module):
    def __init__(self, norm_layer=nn.BatchNorm2d):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.norm = norm_layer(4)
        self.head = nn.Linear(4, 3)

    def forward(self, x):
        x = torch.relu(self.norm(self.conv(x)))
        return self.head(x.mean((-2, -1)))


batches = torch.randn(3, 2, 1, 6, 6)
net = SmallNet()
try:
    vmap(net)(batches)
except RuntimeError as e:
    print("RuntimeError:", e)

net_gn = SmallNet(norm_layer=lambda c: nn.GroupNorm(2, c))
print(net_gn.norm, vmap(net_gn)(batches).shape)
net_nostats = SmallNet(norm_layer=partial(nn.BatchNorm2d, track_running_stats=False))
print(net_nostats.norm, net_nostats.norm.running_mean)
out = vmap(net_nostats)(batches)
print(out.shape, out[0])

net3 = SmallNet()
print(net3.norm.running_mean, net3.norm.track_running_stats)
replace_all_batch_norm_modules_(net3)
print(net3.norm.running_mean, net3.norm.running_var, net3.norm.track_running_stats)
out3 = vmap(net3)(batches)
print(out3[1])
print(torch.allclose(out3[1], net3(batches[1])))

net4 = SmallNet()
net4(batches[0])
net4(batches[1])
print(net4.norm.running_mean, net4.norm.num_batches_tracked)
net4.eval()
out4 = vmap(net4)(batches)
net4.train()
print(out4[2], net4.training)

params = {k: v.detach() for k, v in net3.named_parameters()}
targets = torch.tensor([[0, 2], [1, 1], [2, 0]])


def loss_fn(p, x, y):
    return nn.functional.cross_entropy(functional_call(net3, p, (x,)), y)


per_batch_grads = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, batches, targets)
print({k: tuple(v.shape) for k, v in per_batch_grads.items()})
print(per_batch_grads["head.bias"])
