# Corpus program, written for gradsh (no code copied). Modelled on Alfredo Canziani's NYU
# Deep Learning course (DS-GA 1008, Spring 2020), notebook 04 "spiral_classification":
# https://github.com/Atcold/NYU-DLSP20/blob/master/04-spiral_classification.ipynb
# Like the notebook: seed 12345 for random and torch; three spiral arms built point by point
# with X[ix] = t[index] * torch.FloatTensor((math.sin(v), math.cos(v))) where v is a 0-d
# tensor element; the shapes printed as tuples; a linear model (Linear(D, H) -> Linear(H, C))
# trained with CrossEntropyLoss and SGD(weight_decay=1e-5), then a ReLU model trained with
# Adam(weight_decay=1e-5), each printing "[EPOCH]: %i, [LOSS]: %.6f, [ACCURACY]: %.3f" with
# torch.max(y_pred, 1) for the predictions, and the model's repr.
# Differences: N = 100 points per class instead of 1000, 200 epochs with every 20th printed
# instead of 1000 (the notebook overwrites its output each epoch); no plots; the SGD
# learning rate raised to 0.1 so the linear model moves in 200 epochs.
import random
import torch
from torch import nn, optim
import math

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

seed = 12345
random.seed(seed)
torch.manual_seed(seed)
N = 100  # num_samples_per_class
D = 2  # dimensions
C = 3  # num_classes
H = 100  # num_hidden_units

X = torch.zeros(N * C, D).to(device)
y = torch.zeros(N * C, dtype=torch.long).to(device)
for c in range(C):
    index = 0
    t = torch.linspace(0, 1, N)
    inner_var = torch.linspace(
        (2 * math.pi / C) * (c),
        (2 * math.pi / C) * (2 + c),
        N
    ) + torch.randn(N) * 0.2

    for ix in range(N * c, N * (c + 1)):
        X[ix] = t[index] * torch.FloatTensor((
            math.sin(inner_var[index]), math.cos(inner_var[index])
        ))
        y[ix] = c
        index += 1

print("Shapes:")
print("X:", tuple(X.size()))
print("y:", tuple(y.size()))
print(X[::60])
print(y[::60])


def train(model, optimizer, epochs=200):
    criterion = torch.nn.CrossEntropyLoss()
    for t in range(epochs):
        y_pred = model(X)
        loss = criterion(y_pred, y)
        score, predicted = torch.max(y_pred, 1)
        acc = (y == predicted).sum().float() / len(y)
        if t % 20 == 0 or t == epochs - 1:
            print("[EPOCH]: %i, [LOSS]: %.6f, [ACCURACY]: %.3f" % (t, loss.item(), acc))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(model)


lambda_l2 = 1e-5
model = nn.Sequential(
    nn.Linear(D, H),
    nn.Linear(H, C)
)
model.to(device)
train(model, torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=lambda_l2))

learning_rate = 1e-3
model = nn.Sequential(
    nn.Linear(D, H),
    nn.ReLU(),
    nn.Linear(H, C)
)
model.to(device)
train(model, torch.optim.Adam(model.parameters(), lr=learning_rate, weight_decay=lambda_l2))
