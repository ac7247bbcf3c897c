# Corpus program, written for gradsh (no code copied). Modelled on the examples of PyTorch's
# documentation pages "Probability distributions - torch.distributions" (the score function and
# pathwise derivative sections and the docstring examples of the distributions), "torch.special"
# and "torch.func" (grad, vmap, jacrev, hessian, functional_call), BSD-3-Clause:
# https://pytorch.org/docs/stable/distributions.html, https://pytorch.org/docs/stable/special.html,
# https://pytorch.org/docs/stable/func.html
# Like the originals: the REINFORCE surrogate -m.log_prob(action) * reward and the pathwise
# loss of params.rsample(); m.sample() for Bernoulli, Beta, Binomial, Categorical, Dirichlet,
# Exponential, Gamma, Laplace, MultivariateNormal, Normal, OneHotCategorical, Poisson, Uniform;
# the special functions on the docs' inputs; torch.func on small functions. Differences: our
# own code, one seed for all, results printed together.
import torch
import torch.distributions as D
from torch.func import functional_call, grad, hessian, jacrev, vmap

torch.manual_seed(0)

# Score function (REINFORCE)
probs = torch.tensor([0.1, 0.3, 0.6], requires_grad=True)
m = D.Categorical(probs)
action = m.sample()
reward = 2.0
loss = -m.log_prob(action) * reward
loss.backward()
print(action, loss, probs.grad)

# Pathwise derivative
params = torch.tensor([0.0, 1.0], requires_grad=True)
m = D.Normal(*params)
sample = m.rsample()
(sample * 3).backward()
print(sample, sample.grad_fn, params.grad)

examples = [
    D.Bernoulli(torch.tensor([0.3])),
    D.Beta(torch.tensor([0.5]), torch.tensor([0.5])),
    D.Binomial(100, torch.tensor([0, 0.2, 0.8, 1])),
    D.Categorical(torch.tensor([0.25, 0.25, 0.25, 0.25])),
    D.Dirichlet(torch.tensor([0.5, 0.5])),
    D.Exponential(torch.tensor([1.0])),
    D.Gamma(torch.tensor([1.0]), torch.tensor([1.0])),
    D.Geometric(torch.tensor([0.3])),
    D.Laplace(torch.tensor([0.0]), torch.tensor([1.0])),
    D.LogNormal(torch.tensor([0.0]), torch.tensor([1.0])),
    D.MultivariateNormal(torch.zeros(2), torch.eye(2)),
    D.Normal(torch.tensor([0.0]), torch.tensor([1.0])),
    D.OneHotCategorical(torch.tensor([0.25, 0.25, 0.25, 0.25])),
    D.Poisson(torch.tensor([4.0])),
    D.Uniform(torch.tensor([0.0]), torch.tensor([5.0])),
    D.Chi2(torch.tensor([1.0])),
    D.Multinomial(100, torch.tensor([1.0, 1.0, 1.0, 1.0])),
]
for d in examples:
    s = d.sample()
    print(type(d).__name__, s, d.log_prob(s))
    print("   mean", d.mean, "support", d.support)

print(D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)))
print(D.kl_divergence(D.Beta(torch.tensor([2.0]), torch.tensor([3.0])),
                      D.Beta(torch.tensor([1.0]), torch.tensor([1.0]))))

# torch.special
x = torch.tensor([0.0, 0.5, 1.0, 2.0])
print(torch.special.entr(torch.arange(-0.5, 1, 0.5)))
print(torch.special.erf(x), torch.special.erfinv(torch.tensor([0.0, 0.5, -1.0])))
print(torch.special.gammaln(torch.arange(0.5, 2, 0.5)))
print(torch.special.digamma(torch.tensor([1, 0.5])), torch.special.polygamma(1, x + 1))
print(torch.special.multigammaln(torch.tensor([2.5, 3.0]), 2))
print(torch.special.i0(torch.arange(5, dtype=torch.float32)))
print(torch.special.i0e(x), torch.special.i1(x), torch.special.i1e(x))
print(torch.special.ndtr(torch.tensor([-3.0, -2, -1, 0, 1, 2, 3])))
print(torch.special.ndtri(torch.tensor([0, 0.25, 0.5, 0.75, 1])))
print(torch.special.log_ndtr(torch.tensor([-3.0, -2, -1, 0, 1, 2, 3])))
print(torch.special.sinc(x), torch.special.expit(x), torch.special.logit(x / 4))
print(torch.special.xlog1py(x, torch.tensor([1.0, 2, 3, 4])), torch.special.xlogy(x, 2.0))
print(torch.special.zeta(torch.tensor([2.0, 4.0]), 1), torch.special.erfcx(x))
print(torch.special.gammainc(torch.tensor([4.0]), torch.tensor([3.0, 4.0, 5.0])))
a = torch.tensor([1.5, 2.5], requires_grad=True)
y = torch.special.gammaln(a).sum() + torch.special.digamma(a).sum()
y.backward()
print(y, a.grad)

# torch.func
print(grad(torch.sin)(torch.tensor(0.3)), grad(grad(torch.sin))(torch.tensor(0.3)))
print(vmap(torch.dot)(torch.randn(2, 5), torch.randn(2, 5)))
print(jacrev(torch.sin)(torch.tensor([0.1, 0.2])))
print(hessian(lambda v: (v**3).sum())(torch.tensor([1.0, 2.0])))
model = torch.nn.Linear(3, 1)
params = {k: v.detach() for k, v in model.named_parameters()}
inputs = torch.randn(4, 3)
grads = grad(lambda p: functional_call(model, p, (inputs,)).pow(2).mean())(params)
print({k: g.shape for k, g in grads.items()})
