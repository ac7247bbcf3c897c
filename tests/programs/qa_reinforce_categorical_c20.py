# Corpus program modelled on the discuss.pytorch.org thread "Vanilla REINFORCE for continuous
# distributions" (https://discuss.pytorch.org/t/vanilla-reinforce-for-continuous-distributions/25718)
# and pytorch/examples' reinforcement_learning/reinforce.py it is answered with: a policy
# network's probabilities into Categorical, sampled actions, log_prob, entropy, discounted
# normalised returns and the loss -log_prob * return; Normal.log_prob for the continuous case.
# Changed: a synthetic 2-armed bandit "environment" with a seed instead of gym CartPole.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Bernoulli, Normal

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.99
eps = torch.finfo(torch.float32).eps

probs = F.softmax(policy(torch.randn(1, 4)), dim=1)
m = Categorical(probs)
print(m)
a = m.sample()
print(a, m.log_prob(a), torch.log(probs[0, a]))
print(m.entropy(), m.probs, m.logits)
print(Categorical(logits=torch.tensor([0.0, 1.0, 2.0])).probs)

for episode in range(4):
    log_probs, rewards = [], []
    state = torch.randn(4)
    for t in range(6):
        logits = policy(state.unsqueeze(0))
        dist = Categorical(logits=logits)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        reward = 1.0 if action.item() == int(state[0] > 0) else 0.0
        rewards.append(reward)
        state = torch.randn(4)
    R = 0
    returns = []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    policy_loss = torch.cat([-lp * R for lp, R in zip(log_probs, returns)]).sum()
    opt.zero_grad()
    policy_loss.backward()
    opt.step()
    print(episode, rewards, round(policy_loss.item(), 5), returns)

b = Bernoulli(probs=torch.tensor([0.3, 0.9]))
s = b.sample((3,))
print(s, b.log_prob(s))
n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
x = n.rsample((2,))
print(x, n.log_prob(x), n.entropy())
mu = torch.tensor(0.5, requires_grad=True)
Normal(mu, 1.0).log_prob(torch.tensor(2.0)).backward()
print(mu.grad)
try:
    Categorical(torch.tensor([0.5, -0.5]))
except ValueError as e:
    print("ValueError:", e)
print(Categorical(torch.tensor([[1., 1.], [1., 3.]])).sample((4,)))
