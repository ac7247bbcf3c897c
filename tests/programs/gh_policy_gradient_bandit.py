# Corpus program, written for gradsh (no code copied). Modelled on the REINFORCE code of
# https://github.com/pytorch/examples/blob/main/reinforcement_learning/reinforce.py
# (a Policy with affine layers, dropout and softmax, select_action sampling from
# torch.distributions.Categorical and saving m.log_prob(action), finish_episode computing
# discounted returns R = r + gamma * R, normalising them with (returns - mean) / (std + eps),
# summing -log_prob * R, and the running reward printout) applied to a toy environment instead
# of CartPole: a 1-D corridor where the agent must walk right to the goal.
# Differences: our own code and environment (gym is not used); 60 episodes; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)
eps = np.finfo(np.float32).eps.item()
gamma = 0.99


class Corridor:
    """Positions 0..5; start at 0; action 1 moves right, 0 left; reward 1 at 5, -0.01 per step."""

    def reset(self):
        self.pos = 0
        self.t = 0
        return self._obs()

    def _obs(self):
        o = np.zeros(6, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.t += 1
        self.pos = min(5, self.pos + 1) if action == 1 else max(0, self.pos - 1)
        done = self.pos == 5 or self.t >= 20
        return self._obs(), (1.0 if self.pos == 5 else -0.01), done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(6, 32)
        self.dropout = nn.Dropout(p=0.2)
        self.affine2 = nn.Linear(32, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.dropout(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=1)


policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)


def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    loss = torch.cat(policy_loss).sum()
    loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return loss


env = Corridor()
running_reward = 0
for i_episode in range(1, 61):
    state, ep_reward = env.reset(), 0
    for t in range(1, 21):
        action = select_action(state)
        state, reward, done = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    if i_episode % 15 == 0:
        print(f"Episode {i_episode}\tLast length: {t:5d}\tAverage reward: {running_reward:.2f}")
policy.eval()
with torch.no_grad():
    probs = policy(torch.eye(6))
print(probs[:, 1].round(decimals=2))
m = Categorical(probs=torch.tensor([0.25, 0.75]))
print(m, m.probs, m.logits, m.entropy())
print(m.log_prob(torch.tensor(1)), m.sample((4,)))
