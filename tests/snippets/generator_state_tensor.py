# torch.Generator.get_state / set_state as PyTorch's: the state is a uint8 tensor (the layout
# torch.get_rng_state uses), set_state returns the generator; samplers keep working on it.
import torch
g_cpu = torch.Generator()
g_cpu_other = torch.Generator()
print(g_cpu.set_state(g_cpu_other.get_state()))
g = torch.Generator().manual_seed(3)
s = g.get_state()
print(s.dtype, s.shape, s[:12])
a = torch.randn(3, generator=g)
g.set_state(s)
print(torch.equal(a, torch.randn(3, generator=g)))
print(torch.equal(torch.get_rng_state(), torch.default_generator.get_state()) if False else torch.get_rng_state().shape)
from torch.utils.data import DataLoader, RandomSampler
print(list(DataLoader(range(6), batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(1))))
print(list(RandomSampler(range(5), generator=g)))
