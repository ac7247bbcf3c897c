# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Reinforcement Learning (DQN) Tutorial", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/reinforcement_q_learning.py
# Like the original: Transition = namedtuple('Transition', ('state', 'action', 'next_state',
# 'reward')), ReplayMemory over a deque(maxlen) with random.sample, a DQN of three Linear layers
# with F.relu, BATCH_SIZE/GAMMA/EPS_START/EPS_END/EPS_DECAY/TAU/LR, AdamW(lr, amsgrad=True),
# select_action with an exponentially decaying epsilon and policy_net(state).max(1).indices
# .view(1, 1) under no_grad, optimize_model() transposing the batch with Transition(*zip(...)),
# non_final_mask built from map(lambda s: s is not None, ...), torch.cat of the batch fields,
# state_action_values by .gather(1, action_batch), next_state_values under no_grad from the
# target net's .max(1).values, nn.SmoothL1Loss on unsqueeze(1), clip_grad_value_(..., 100), and
# the soft update target_net_state_dict[key] = policy[key]*TAU + target[key]*(1-TAU) each step;
# episode durations printed.
# Differences: our own code; no gymnasium: a tiny corridor environment written here (reach the
# right end; observations [position, velocity-like noise, 1, bias]); 25 episodes of at most 30
# steps; seeds for random and torch.
import math
import random
from collections import deque, namedtuple
from itertools import count

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

random.seed(0)
torch.manual_seed(0)
device = torch.device("cpu")


class Corridor:
    """Positions 0..6; action 1 moves right, 0 left; reward 1 at the right end."""

    def reset(self):
        self.pos = 3
        self.t = 0
        return self.obs(), {}

    def obs(self):
        return [self.pos / 6.0, random.uniform(-0.1, 0.1), 1.0, (self.pos - 3) / 3.0]

    def step(self, action):
        self.pos = max(0, min(6, self.pos + (1 if action == 1 else -1)))
        self.t += 1
        terminated = self.pos in (0, 6)
        reward = 1.0 if self.pos == 6 else (-1.0 if self.pos == 0 else -0.05)
        truncated = self.t >= 30
        return self.obs(), reward, terminated, truncated, {}


env = Corridor()
Transition = namedtuple('Transition', ('state', 'action', 'next_state', 'reward'))


class ReplayMemory(object):
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super(DQN, self).__init__()
        self.layer1 = nn.Linear(n_observations, 32)
        self.layer2 = nn.Linear(32, 32)
        self.layer3 = nn.Linear(32, n_actions)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)


BATCH_SIZE, GAMMA, EPS_START, EPS_END, EPS_DECAY, TAU, LR = 16, 0.9, 0.9, 0.05, 200, 0.005, 1e-3
n_actions = 2
state, info = env.reset()
n_observations = len(state)
policy_net = DQN(n_observations, n_actions).to(device)
target_net = DQN(n_observations, n_actions).to(device)
target_net.load_state_dict(policy_net.state_dict())
optimizer = optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
memory = ReplayMemory(1000)
print(policy_net)
print(optimizer)
steps_done = 0


def select_action(state):
    global steps_done
    sample = random.random()
    eps_threshold = EPS_END + (EPS_START - EPS_END) * math.exp(-1. * steps_done / EPS_DECAY)
    steps_done += 1
    if sample > eps_threshold:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    else:
        return torch.tensor([[random.randrange(n_actions)]], device=device, dtype=torch.long)


episode_durations = []
losses = []


def optimize_model():
    if len(memory) < BATCH_SIZE:
        return
    transitions = memory.sample(BATCH_SIZE)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)),
                                  device=device, dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE, device=device)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    losses.append(loss.item())


num_episodes = 25
for i_episode in range(num_episodes):
    state, info = env.reset()
    state = torch.tensor(state, dtype=torch.float32, device=device).unsqueeze(0)
    for t in count():
        action = select_action(state)
        observation, reward, terminated, truncated, _ = env.step(action.item())
        reward = torch.tensor([reward], device=device)
        done = terminated or truncated
        if terminated:
            next_state = None
        else:
            next_state = torch.tensor(observation, dtype=torch.float32, device=device).unsqueeze(0)
        memory.push(state, action, next_state, reward)
        state = next_state
        optimize_model()
        target_net_state_dict = target_net.state_dict()
        policy_net_state_dict = policy_net.state_dict()
        for key in policy_net_state_dict:
            target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[key] * (1 - TAU)
        target_net.load_state_dict(target_net_state_dict)
        if done:
            episode_durations.append(t + 1)
            break

print('Complete')
print(episode_durations)
print(len(losses), [round(l, 5) for l in losses[::40]])
durations_t = torch.tensor(episode_durations, dtype=torch.float)
print(durations_t.unfold(0, 5, 5).mean(1))
print(policy_net(torch.tensor([[0.5, 0.0, 1.0, 0.0]])))
print(optimizer.state_dict()['state'][0]['max_exp_avg_sq'].shape, optimizer.state_dict()['param_groups'][0]['amsgrad'])
