# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples
# "reinforcement_learning/reinforce.py" (REINFORCE on CartPole), BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/reinforcement_learning/reinforce.py
# Like the original: a Policy module (Linear, Dropout, ReLU, Linear, softmax over actions), an
# Adam optimizer, select_action sampling torch.distributions.Categorical(probs) and keeping
# m.log_prob(action), discounted returns normalised by (returns - mean) / (std + eps), the loss
# torch.cat(policy_loss).sum() of -log_prob * R, and a running reward printed every few
# episodes. Differences: our own code; a tiny synthetic corridor instead of gym's CartPole (the
# agent walks left or right and is rewarded at the right end), fewer episodes, a seed, values
# rounded for printing.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)
GAMMA = 0.99
EPS = np.finfo(np.float32).eps.item()


class Corridor:
    """Positions 0..6; actions 0 (left) and 1 (right); reward 1 at position 6, 10 steps max."""

    def reset(self):
        self.pos, self.t = 3, 0
        return self.observe()

    def observe(self):
        state = torch.zeros(7)
        state[self.pos] = 1.0
        return state

    def step(self, action):
        self.pos = max(0, min(6, self.pos + (1 if action == 1 else -1)))
        self.t += 1
        done = self.pos == 6 or self.t == 10
        return self.observe(), (1.0 if self.pos == 6 else 0.0), done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(7, 16)
        self.dropout = nn.Dropout(p=0.2)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        return F.softmax(self.affine2(x), dim=-1)


policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)


def select_action(state):
    probs = policy(state.unsqueeze(0))
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R = 0
    returns = []
    for r in policy.rewards[::-1]:
        R = r + GAMMA * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + EPS)
    policy_loss = [-log_prob * R for log_prob, R in zip(policy.saved_log_probs, returns)]
    optimizer.zero_grad()
    loss = torch.cat(policy_loss).sum()
    loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return loss


env = Corridor()
running_reward = 0.0
m = Categorical(torch.tensor([0.25, 0.75]))
print(m, m.batch_shape, m.event_shape, m.support)
for i_episode in range(1, 31):
    state, ep_reward = env.reset(), 0.0
    for t in range(10):
        action = select_action(state)
        state, reward, done = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    if i_episode % 5 == 0:
        print(f"Episode {i_episode}\tLast length: {t + 1:2d}\tRunning reward: "
              f"{running_reward:.4f}\tloss: {loss.item():.4f}")
        print("   ", loss.grad_fn, policy.affine2.bias.grad)
with torch.no_grad():
    probs = policy(torch.eye(7))
print(probs.argmax(dim=1))
print(Categorical(probs).entropy().round(decimals=3))
