# Corpus program modelled on Stack Overflow questions about random sampling in PyTorch: "How to
# get a uniform distribution in a range [r1, r2] in PyTorch?"
# (https://stackoverflow.com/questions/44328530) and its answers ((r1 - r2) * torch.rand + r2,
# uniform_), and the related "random choice / sampling without replacement" questions answered
# with multinomial, randperm and torch.distributions: normal_, exponential_, geometric_,
# log_normal_, cauchy_, random_, multinomial with and without replacement, randint with
# dtypes, bernoulli, torch.normal with tensor arguments, Generator and RNG state.
# Changed: one seed up front and small sizes; each answer's one-liner printed. Written for gradsh.
import torch
from torch.distributions import Bernoulli, Categorical, Normal, Uniform

torch.manual_seed(42)
r1, r2 = -3, 5
print((r1 - r2) * torch.rand(2, 5) + r2)
print(torch.FloatTensor(2, 5).uniform_(r1, r2))
print(torch.empty(3).normal_(mean=2.0, std=0.5))
print(torch.empty(4).exponential_(lambd=2.0))
print(torch.empty(4).geometric_(0.3))
print(torch.empty(4).log_normal_(0.0, 0.25))
print(torch.empty(4).cauchy_())
print(torch.empty(5, dtype=torch.int64).random_(0, 10))

weights = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.multinomial(weights, 8, replacement=True))
print(torch.multinomial(weights, 4, replacement=False))
print(torch.multinomial(torch.tensor([[0.5, 0.5, 0.0], [0.0, 0.1, 0.9]]), 2))
a = torch.arange(10, 20)
idx = torch.randperm(a.numel())[:3]
print(idx, a[idx])
print(torch.randperm(12))
print(torch.randint(0, 5, (3, 3)), torch.randint(3, (4,), dtype=torch.int32))
print(torch.randint_like(torch.zeros(2, 2), 100))
print(torch.bernoulli(torch.full((2, 6), 0.5)))
print(torch.normal(torch.arange(1.0, 5.0), torch.tensor([0.1, 0.2, 0.3, 0.4])))
print(torch.normal(2.0, 3.0, size=(2, 2)))
print(torch.rand(3, dtype=torch.float64), torch.randn(2, dtype=torch.float64))

n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
s = n.sample((3,))
print(s, n.log_prob(s))
print(n.rsample(), n.entropy(), n.mean, n.stddev)
c = Categorical(probs=weights)
draws = c.sample((10,))
print(draws, c.log_prob(draws), c.entropy())
print(torch.bincount(c.sample((100,)), minlength=4))
u = Uniform(torch.tensor([0.0]), torch.tensor([2.0]))
print(u.sample((2,)), u.log_prob(torch.tensor([0.5])))
bern = Bernoulli(logits=torch.tensor([-1.0, 0.0, 2.0]))
print(bern.sample(), bern.probs, bern.log_prob(torch.tensor([1.0, 0.0, 1.0])))

g = torch.Generator().manual_seed(7)
print(torch.rand(3, generator=g), torch.randn(2, generator=g))
state = torch.get_rng_state()
x1 = torch.rand(2)
torch.set_rng_state(state)
print(torch.equal(x1, torch.rand(2)), torch.initial_seed())
