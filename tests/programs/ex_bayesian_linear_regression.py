# Corpus program, written for gradsh (no code copied). Modelled on Pyro's tutorial "Bayesian
# Regression - Introduction (Part 1)", whose model is a linear regression with Normal priors on
# the weights and a Normal likelihood, Apache-2.0:
# https://pyro.ai/examples/bayesian_regression.html
# Like the original: a linear model y = X w + b + noise, priors w ~ Normal(0, 10) and
# sigma ~ Uniform(0, 10), the log-joint as prior log-probabilities plus the Normal likelihood's
# log_prob summed over the data, fitted by gradient steps (MAP) with Adam, and a look at the
# posterior. Differences: our own code in plain torch.distributions (no Pyro, no SVI): the MAP
# estimate by optimising the log-joint, then the exact Gaussian posterior of w for a known
# noise, as a MultivariateNormal from its precision matrix; synthetic data and a seed.
import torch
from torch.distributions import Independent, MultivariateNormal, Normal, Uniform

torch.manual_seed(0)
N, D = 40, 3
X = torch.randn(N, D)
true_w = torch.tensor([1.5, -2.0, 0.5])
y = X @ true_w + 0.7 + 0.3 * torch.randn(N)

w = torch.zeros(D, requires_grad=True)
b = torch.zeros((), requires_grad=True)
log_sigma = torch.zeros((), requires_grad=True)
prior_w = Independent(Normal(torch.zeros(D), 10 * torch.ones(D)), 1)
prior_b = Normal(0.0, 10.0)
prior_sigma = Uniform(0.0, 10.0)
print(prior_w, prior_w.event_shape, prior_sigma.support)


def log_joint():
    sigma = log_sigma.exp()
    likelihood = Normal(X @ w + b, sigma)
    return (likelihood.log_prob(y).sum() + prior_w.log_prob(w) + prior_b.log_prob(b)
            + prior_sigma.log_prob(sigma))


optimizer = torch.optim.Adam([w, b, log_sigma], lr=0.05)
for step in range(301):
    optimizer.zero_grad()
    loss = -log_joint()
    loss.backward()
    optimizer.step()
    if step % 60 == 0:
        print(step, round(loss.item(), 3), w.detach().round(decimals=3),
              round(b.item(), 3), round(log_sigma.exp().item(), 3))
print(loss.grad_fn, loss.grad_fn.next_functions[0][0])

# The exact posterior of w (b fixed at its estimate, sigma known): Gaussian with precision
# X^T X / sigma^2 + I / 100 and mean precision^-1 X^T (y - b) / sigma^2
with torch.no_grad():
    sigma = log_sigma.exp()
    precision = X.T @ X / sigma**2 + torch.eye(D) / 100
    cov = torch.linalg.inv(precision)
    mean = cov @ X.T @ (y - b) / sigma**2
posterior = MultivariateNormal(mean, precision_matrix=precision)
print(posterior, posterior.batch_shape, posterior.event_shape)
print(posterior.mean.round(decimals=3), posterior.variance.round(decimals=5))
print(round(posterior.log_prob(true_w).item(), 2), round(posterior.entropy().item(), 3))
torch.manual_seed(1)
draws = posterior.sample((1000,))
print(draws.shape, draws.mean(0).round(decimals=2), draws.std(0).round(decimals=3))
by_cov = MultivariateNormal(mean, covariance_matrix=cov)
print(round(by_cov.log_prob(mean).item(), 2), round(posterior.log_prob(mean).item(), 2))
