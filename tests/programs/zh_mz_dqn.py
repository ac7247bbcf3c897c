# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's PyTorch-Tutorial
# 405_DQN_Reinforcement_learning.py (MIT):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/405_DQN_Reinforcement_learning.py
# Like the original: Net(fc1 -> relu -> out) with weight.data.normal_(0, 0.1) init, a DQN
# object with eval_net/target_net, a numpy replay memory (np.hstack((s, [a, r], s_))),
# epsilon-greedy choose_action through torch.max(actions_value, 1)[1].data.numpy(), learn()
# copying eval_net's state_dict into target_net every TARGET_REPLACE_ITER steps, sampling with
# np.random.choice, q_eval = eval_net(b_s).gather(1, b_a), q_next = target_net(b_s_).detach(),
# q_target = b_r + GAMMA * q_next.max(1)[0].view(BATCH_SIZE, 1), MSELoss, Adam(lr=0.01), and
# the shaped reward r1 + r2 from the cart position and pole angle.
# Differences: our own code; no gym: a small CartPole written here with the classic equations
# (Euler steps, the same thresholds), seeded numpy and torch; MEMORY_CAPACITY 200, 30 episodes
# capped at 60 steps.
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
np.random.seed(1)
BATCH_SIZE, LR, EPSILON, GAMMA = 16, 0.01, 0.9, 0.9
TARGET_REPLACE_ITER, MEMORY_CAPACITY = 20, 200


class CartPole:
    """The classic cart-pole dynamics (Barto, Sutton and Anderson), Euler integration."""
    x_threshold = 2.4
    theta_threshold_radians = 12 * 2 * math.pi / 360

    def reset(self):
        self.state = np.random.uniform(-0.05, 0.05, size=4)
        self.steps = 0
        return self.state.copy()

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        cos, sin = math.cos(theta), math.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sin) / 1.1
        thetaacc = (9.8 * sin - cos * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos ** 2 / 1.1))
        xacc = temp - 0.05 * thetaacc * cos / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * xacc
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc
        self.state = np.array([x, x_dot, theta, theta_dot])
        self.steps += 1
        done = (abs(x) > self.x_threshold or abs(theta) > self.theta_threshold_radians
                or self.steps >= 60)
        return self.state.copy(), 1.0, done, {}


env = CartPole()
N_ACTIONS, N_STATES = 2, 4


class Net(nn.Module):
    def __init__(self, ):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(N_STATES, 50)
        self.fc1.weight.data.normal_(0, 0.1)
        self.out = nn.Linear(50, N_ACTIONS)
        self.out.weight.data.normal_(0, 0.1)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return self.out(x)


class DQN(object):
    def __init__(self):
        self.eval_net, self.target_net = Net(), Net()
        self.learn_step_counter = 0
        self.memory_counter = 0
        self.memory = np.zeros((MEMORY_CAPACITY, N_STATES * 2 + 2))
        self.optimizer = torch.optim.Adam(self.eval_net.parameters(), lr=LR)
        self.loss_func = nn.MSELoss()

    def choose_action(self, x):
        x = torch.unsqueeze(torch.FloatTensor(x), 0)
        if np.random.uniform() < EPSILON:
            actions_value = self.eval_net.forward(x)
            action = torch.max(actions_value, 1)[1].data.numpy()
            action = action[0]
        else:
            action = np.random.randint(0, N_ACTIONS)
        return action

    def store_transition(self, s, a, r, s_):
        transition = np.hstack((s, [a, r], s_))
        index = self.memory_counter % MEMORY_CAPACITY
        self.memory[index, :] = transition
        self.memory_counter += 1

    def learn(self):
        if self.learn_step_counter % TARGET_REPLACE_ITER == 0:
            self.target_net.load_state_dict(self.eval_net.state_dict())
        self.learn_step_counter += 1
        sample_index = np.random.choice(MEMORY_CAPACITY, BATCH_SIZE)
        b_memory = self.memory[sample_index, :]
        b_s = torch.FloatTensor(b_memory[:, :N_STATES])
        b_a = torch.LongTensor(b_memory[:, N_STATES:N_STATES + 1].astype(int))
        b_r = torch.FloatTensor(b_memory[:, N_STATES + 1:N_STATES + 2])
        b_s_ = torch.FloatTensor(b_memory[:, -N_STATES:])
        q_eval = self.eval_net(b_s).gather(1, b_a)
        q_next = self.target_net(b_s_).detach()
        q_target = b_r + GAMMA * q_next.max(1)[0].view(BATCH_SIZE, 1)
        loss = self.loss_func(q_eval, q_target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


dqn = DQN()
print('\nCollecting experience...')
for i_episode in range(30):
    s = env.reset()
    ep_r = 0
    while True:
        a = dqn.choose_action(s)
        s_, r, done, info = env.step(a)
        x, x_dot, theta, theta_dot = s_
        r1 = (env.x_threshold - abs(x)) / env.x_threshold - 0.8
        r2 = (env.theta_threshold_radians - abs(theta)) / env.theta_threshold_radians - 0.5
        r = r1 + r2
        dqn.store_transition(s, a, r, s_)
        ep_r += r
        if dqn.memory_counter > MEMORY_CAPACITY:
            loss = dqn.learn()
            if done:
                print('Ep: ', i_episode, '| Ep_r: ', round(ep_r, 2), '| loss: %.5f' % loss)
        if done:
            break
        s = s_
print(type(a), dqn.learn_step_counter)
print(dqn.eval_net(torch.FloatTensor(s).unsqueeze(0)))
