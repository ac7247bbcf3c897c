# Corpus program, written for gradsh (no code copied). Modelled on Alfredo Canziani's NYU
# Deep Learning course (DS-GA 1008, Spring 2020), notebook 02 "space_stretching":
# https://github.com/Atcold/NYU-DLSP20/blob/master/02-space_stretching.ipynb
# Like the notebook: seed 0, random 2-D points; colours from (X - x_min) / (x_max - x_min)
# scaled by 511, cast with .short(), taken to numpy and clipped with numpy.clip; the bases
# OI = cat(zeros(2, 2), eye(2)); ten random 2x2 matrices W applied as X @ W.t() with their
# singular values from torch.svd formatted '{:.3f}' (0-d tensors through str.format) and the
# transformed basis OI @ W; a bias-free Linear(2, 2) applied under no_grad; tanh on a
# linspace; a Linear -> Tanh model whose weight is overwritten with s * eye(2) via
# weight.data.copy_; five random one-hidden-layer Tanh nets and five deep ReLU nets applied
# to the points; the interpolation schedule a = ((p + 1) ** (t / (steps - 1)) - 1) / p.
# Differences: 200 points instead of 1,000; no plots: the values the plots show (summaries
# of the transformed points, singular values, bases) are printed instead.
import torch
import torch.nn as nn
from numpy import clip

torch.manual_seed(0)
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

n_points = 200
X = torch.randn(n_points, 2).to(device)

x_min = -1.5
x_max = +1.5
colors = (X - x_min) / (x_max - x_min)
colors = (colors * 511).short().numpy()
colors = clip(colors, 0, 511)
print(colors.dtype, colors.shape, colors[:4].tolist(), colors.min(), colors.max())

OI = torch.cat((torch.zeros(2, 2), torch.eye(2))).to(device)
print(OI)

for i in range(10):
    W = torch.randn(2, 2).to(device)
    Y = X @ W.t()
    U, S, V = torch.svd(W)
    print('y = Wx, singular values : [{:.3f}, {:.3f}]'.format(S[0], S[1]))
    new_OI = OI @ W
    print(new_OI[2:], Y.abs().max(0).values)

model = nn.Sequential(
    nn.Linear(2, 2, bias=False)
)
model.to(device)
with torch.no_grad():
    Y = model(X)
    print(Y[:3])
    print(model(OI))

z = torch.linspace(-10, 10, 101)
s = torch.tanh(z)
print(s[::10])

model = nn.Sequential(
    nn.Linear(2, 2, bias=False),
    nn.Tanh()
)
model.to(device)
for s in range(1, 6):
    W = s * torch.eye(2)
    model[0].weight.data.copy_(W)
    Y = model(X).data
    print(f'f(x), s={s}', Y.min().item(), Y.max().item(), Y[0])

n_hidden = 5
NL = nn.Tanh()
models = list()
for i in range(5):
    model = nn.Sequential(
        nn.Linear(2, n_hidden),
        NL,
        nn.Linear(n_hidden, 2)
    )
    model.to(device)
    models.append(model)
    with torch.no_grad():
        Y = model(X)
    print('f(x)', Y.mean(0), Y.std(0))

NL = nn.ReLU()
for i in range(5):
    model = nn.Sequential(
        nn.Linear(2, n_hidden),
        NL,
        nn.Linear(n_hidden, n_hidden),
        NL,
        nn.Linear(n_hidden, n_hidden),
        NL,
        nn.Linear(n_hidden, n_hidden),
        NL,
        nn.Linear(n_hidden, 2)
    )
    model.to(device)
    with torch.no_grad():
        Y = model(X).detach()
    print('f(x)', Y[:2], (Y == Y[0]).all(1).sum().item())
print(model)

with torch.no_grad():
    Y = models[2](X)


def interpolate(X_in, X_out, steps, p=1/50):
    for t in range(steps):
        a = ((p + 1)**(t / (steps - 1)) - 1) / p
        frame = a * X_out + (1 - a) * X_in
        if t % 10 == 0 or t == steps - 1:
            print(t, round(a, 6), frame[0])


interpolate(X, Y, 50, p=.001)
