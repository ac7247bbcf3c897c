# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch "Reproducibility"
# note (https://pytorch.org/docs/stable/notes/randomness.html: torch.manual_seed, random.seed,
# np.random.seed, torch.use_deterministic_algorithms, a seeded torch.Generator for a
# DataLoader, seed_worker) and the Stack Overflow / forum questions "Why do I get different
# results after torch.manual_seed?" answered with: the seed fixes the sequence, not each call;
# get_rng_state / set_rng_state to replay; torch.random.fork_rng to draw without disturbing the
# global stream; initial_seed(); a separate Generator per component; model weights identical
# when the seed is set right before construction.
# Differences: our own code; each check printed.
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


set_seed(0)
a = torch.rand(3)
b = torch.rand(3)
set_seed(0)
print(torch.equal(a, torch.rand(3)), torch.equal(a, b))
print(torch.initial_seed(), random.random() < 1, np.random.rand() < 1)

state = torch.get_rng_state()
print(state.dtype, state.shape)
first = torch.randn(2)
torch.set_rng_state(state)
print(torch.equal(first, torch.randn(2)))

torch.manual_seed(42)
with torch.random.fork_rng():
    side = torch.randn(3)
main1 = torch.randn(3)
torch.manual_seed(42)
main2 = torch.randn(3)
print(torch.equal(main1, main2), torch.equal(side, main1))
with torch.random.fork_rng(enabled=False):
    torch.randn(1)
print(torch.equal(torch.randn(3), main2))

g = torch.Generator().manual_seed(123)
g_state = g.get_state()
u1 = torch.rand(2, generator=g)
g.set_state(g_state)
print(torch.equal(u1, torch.rand(2, generator=g)), g.initial_seed())
print(torch.randint(0, 10, (5,), generator=torch.Generator().manual_seed(7)))
print(torch.randperm(6, generator=torch.Generator().manual_seed(7)))

torch.manual_seed(3)
m1 = nn.Linear(3, 2)
torch.manual_seed(3)
m2 = nn.Linear(3, 2)
m3 = nn.Linear(3, 2)
print(torch.equal(m1.weight, m2.weight), torch.equal(m1.weight, m3.weight))

torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False)


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


ds = TensorDataset(torch.arange(8))
orders = []
for _ in range(2):
    gen = torch.Generator()
    gen.manual_seed(0)
    loader = DataLoader(ds, batch_size=4, shuffle=True, worker_init_fn=seed_worker, generator=gen)
    orders.append([b[0].tolist() for b in loader])
print(orders[0], orders[0] == orders[1])
torch.manual_seed(0)
print([b[0].tolist() for b in DataLoader(ds, batch_size=4, shuffle=True)])
s = torch.seed()
print(type(s).__name__, torch.initial_seed() == s)
torch.manual_seed(2**40 + 5)
print(torch.initial_seed(), torch.rand(1))
try:
    torch.manual_seed(-2**64)
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
