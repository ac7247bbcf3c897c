# Corpus program, written for gradsh (no code copied). Modelled on the examples in PyTorch's
# torch.distributions documentation (https://pytorch.org/docs/stable/distributions.html) for
# Cauchy, HalfCauchy, HalfNormal, Gumbel, StudentT, Pareto, Weibull, InverseGamma,
# FisherSnedecor, Kumaraswamy, RelaxedBernoulli and RelaxedOneHotCategorical (m = Dist(...);
# m.sample()), extended with log_prob, entropy, moments, rsample gradients, and the
# Gumbel-softmax relaxation trained on a small objective as the Concrete-distribution papers do.
# Written for gradsh; seeded.
import torch
from torch.distributions import (
    Cauchy, FisherSnedecor, Gumbel, HalfCauchy, HalfNormal, InverseGamma, Kumaraswamy, Pareto,
    RelaxedBernoulli, RelaxedOneHotCategorical, StudentT, Weibull,
)

torch.manual_seed(0)
docs = [
    ("Cauchy", Cauchy(torch.tensor([0.0]), torch.tensor([1.0]))),
    ("HalfCauchy", HalfCauchy(torch.tensor([1.0]))),
    ("HalfNormal", HalfNormal(torch.tensor([1.0]))),
    ("Gumbel", Gumbel(torch.tensor([1.0]), torch.tensor([2.0]))),
    ("StudentT", StudentT(torch.tensor([2.0]))),
    ("Pareto", Pareto(torch.tensor([1.0]), torch.tensor([1.0]))),
    ("Weibull", Weibull(torch.tensor([1.0]), torch.tensor([1.0]))),
    ("InverseGamma", InverseGamma(torch.tensor([2.0]), torch.tensor([3.0]))),
    ("FisherSnedecor", FisherSnedecor(torch.tensor([1.0]), torch.tensor([2.0]))),
    ("Kumaraswamy", Kumaraswamy(torch.tensor([1.0]), torch.tensor([1.0]))),
    ("RelaxedBernoulli", RelaxedBernoulli(torch.tensor([2.2]),
                                          torch.tensor([0.1, 0.2, 0.3, 0.99]))),
    ("RelaxedOneHotCategorical", RelaxedOneHotCategorical(
        torch.tensor([2.2]), torch.tensor([0.1, 0.2, 0.3, 0.4]))),
]
for name, m in docs:
    s = m.sample()
    print(f"{name:25s} sample {s}")
    print(f"{'':25s} log_prob {m.log_prob(s)}")
    for attribute in ("mean", "variance"):
        try:
            print(f"{'':25s} {attribute} {getattr(m, attribute)}")
        except NotImplementedError:
            print(f"{'':25s} {attribute} not implemented")
    try:
        print(f"{'':25s} entropy {m.entropy()}")
    except NotImplementedError:
        print(f"{'':25s} entropy not implemented")

# reparameterised samples carry gradients back to the parameters
loc = torch.tensor([0.5, -1.0], requires_grad=True)
scale = torch.tensor([1.5, 0.3], requires_grad=True)
for cls in (Cauchy, Gumbel):
    r = cls(loc, scale).rsample((4,))
    r.pow(2).mean().backward()
    print(cls.__name__, r.grad_fn.name(), loc.grad, scale.grad)
    loc.grad = None
    scale.grad = None
df = torch.tensor([3.0, 8.0], requires_grad=True)
t = StudentT(df, loc, scale).rsample((5,))
t.sum().backward()
print("StudentT rsample", t.shape, df.grad)

# Gumbel-softmax: learn logits so the relaxed one-hot sample puts its mass on class 2
logits = torch.zeros(4, requires_grad=True)
optimizer = torch.optim.Adam([logits], lr=0.1)
target = torch.tensor([0.0, 0.0, 1.0, 0.0])
for step in range(40):
    sample = RelaxedOneHotCategorical(torch.tensor(0.5), logits=logits).rsample((16,))
    loss = ((sample - target) ** 2).sum(-1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 9:
        print(f"step {step + 1} loss {loss.item():.4f} probs {logits.softmax(0).detach()}")

# Cauchy draws in place, as Cauchy.rsample makes them
x = torch.empty(6).cauchy_(median=1.0, sigma=0.5)
print(x, torch.empty(2, 2, dtype=torch.float64).cauchy_())
