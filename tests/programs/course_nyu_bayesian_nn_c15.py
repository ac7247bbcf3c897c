# Corpus program, written for gradsh (no code copied). Modelled on Alfredo Canziani's NYU
# Deep Learning course (DS-GA 1008, Spring 2020), notebook 13 "bayesian_nn":
# https://github.com/Atcold/NYU-DLSP20/blob/master/13-bayesian_nn.ipynb
# Like the notebook: 20 training pairs x = (rand(m) - 0.5) * 12, y = x * sin(x); a net
# Dropout(0.05) -> Linear(1, 20) -> ReLU -> Dropout(0.05) -> Linear(20, 20) -> ReLU ->
# Linear(20, 1) trained with MSELoss and SGD(lr=0.01, weight_decay=1e-5) on x.view(-1, 1);
# the net evaluated on a dense linspace in eval() mode, then 100 stochastic passes in
# train() mode (MC dropout) stacked with torch.stack and summarised by mean(0) and std(0).
# Differences: a seed; 300 epochs instead of 1000 with the loss printed every 50 (the
# notebook leaves that print commented out); no plots: values at a few points printed; the
# dense range has 61 points instead of 1000.
import torch
from torch import nn, optim

torch.manual_seed(13)

m = 20
x = (torch.rand(m) - 0.5) * 12
y = x * torch.sin(x)
print(x)
print(y)

non_linear = nn.Tanh
non_linear = nn.ReLU

net = nn.Sequential(
    nn.Dropout(p=0.05),
    nn.Linear(1, 20),
    non_linear(),
    nn.Dropout(p=0.05),
    nn.Linear(20, 20),
    non_linear(),
    nn.Linear(20, 1)
)
print(net)

criterion = nn.MSELoss()
optimiser = optim.SGD(net.parameters(), lr=0.01, weight_decay=0.00001)

for epoch in range(300):
    y_hat = net(x.view(-1, 1))
    loss = criterion(y_hat, y.view(-1, 1))
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    if epoch % 50 == 0:
        print(epoch, loss.item())

xx = torch.linspace(-15, 15, 61)

net.eval()
with torch.no_grad():
    out = net(xx.view(-1, 1)).squeeze()
print(out[::6])

net.train()
y_hat = list()
with torch.no_grad():
    for t in range(100):
        y_hat.append(net(xx.view(-1, 1)).squeeze())

y_hat = torch.stack(y_hat)
print(y_hat.shape)
mean = y_hat.mean(0)
std = y_hat.std(0)
print(mean[::6])
print(std[::6])
print((mean + std)[30], (mean - std)[30])
