# Found by corpus10 (the torch.func "Patching Batch Norm" page): vmap over a batch norm that
# updates running statistics raises PyTorch's error; replace_all_batch_norm_modules_ drops
# the statistics in place; track_running_stats=False and eval mode work under vmap.
import torch
from torch import nn
from torch.func import vmap
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
x = torch.randn(2, 5, 3)
for f in [lambda: vmap(m)(x), lambda: vmap(nn.BatchNorm1d(3))(x), lambda: vmap(lambda t: nn.functional.batch_norm(t, torch.zeros(3), torch.ones(3), training=True))(x),
          lambda: vmap(lambda t: nn.functional.batch_norm(t, None, None, training=True))(x), lambda: vmap(nn.BatchNorm1d(3, track_running_stats=False))(x),
          lambda: vmap(nn.BatchNorm1d(3, momentum=None))(x), lambda: vmap(nn.InstanceNorm1d(3, track_running_stats=True))(x.transpose(1,2)), lambda: vmap(m.eval())(x)]:
  try: r=f(); print('OK', r.shape, r[0, 0])
  except Exception as e: print(type(e).__name__, e)
print(m[1].running_mean)
from torch.func import vmap, replace_all_batch_norm_modules_, functional_call, grad
m = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(8, 2))
print(m[1].running_mean, m[1].track_running_stats, m[1].num_batches_tracked)
r = replace_all_batch_norm_modules_(m)
print(r is m, m[1].running_mean, m[1].running_var, m[1].num_batches_tracked, m[1].track_running_stats)
print(m[1])
print(list(m.state_dict().keys()))
x = torch.randn(5, 1, 4, 4)
print(m(x)[0])
print(vmap(lambda xi: m(xi), randomness='different')(torch.randn(3, 2, 1, 4, 4))[0])
m.eval()
print(m(x)[1])
bn = nn.BatchNorm1d(3)
print(replace_all_batch_norm_modules_(bn), bn.running_mean)
print(torch.func.replace_all_batch_norm_modules_(nn.Linear(2, 2)))
