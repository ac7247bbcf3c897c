# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's PyTorch-Tutorial
# 406_conditional_GAN.py (MIT), and the error it meets on current PyTorch:
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/406_conditional_GAN.py
# Like the original: "paintings" a * x^2 + (a - 1) over PAINT_POINTS with a label (a - 1) > 0.5,
# G = Sequential(Linear(N_IDEAS+1, 128), ReLU, Linear(128, ART_COMPONENTS)) fed ideas + label,
# D = Sequential(Linear(ART_COMPONENTS+1, 128), ReLU, Linear(128, 1), Sigmoid), scores
# torch.log(prob) and torch.log(1. - prob), D_loss = -mean(...), G_loss = mean(D_score1), and
# the original's order: D_loss.backward(retain_graph=True), opt_D.step(), then G_loss.backward().
# Since PyTorch 1.5 that order raises "one of the variables needed for gradient computation has
# been modified by an inplace operation" (opt_D.step() changed D's weights that G_loss's graph
# saved): the program catches and prints it, then trains with the usual fix (both backward
# passes before either step).
# Differences: our own code; seeds; BATCH_SIZE 16, 128 -> 32 hidden units, 60 steps.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(1)
np.random.seed(1)
BATCH_SIZE, LR_G, LR_D, N_IDEAS, ART_COMPONENTS = 16, 0.0001, 0.0001, 5, 15
PAINT_POINTS = np.vstack([np.linspace(-1, 1, ART_COMPONENTS) for _ in range(BATCH_SIZE)])


def artist_works_with_labels():
    a = np.random.uniform(1, 2, size=BATCH_SIZE)[:, np.newaxis]
    paintings = a * np.power(PAINT_POINTS, 2) + (a - 1)
    labels = (a - 1) > 0.5
    paintings = torch.from_numpy(paintings).float()
    labels = torch.from_numpy(labels.astype(np.float32))
    return paintings, labels


G = nn.Sequential(nn.Linear(N_IDEAS + 1, 32), nn.ReLU(), nn.Linear(32, ART_COMPONENTS))
D = nn.Sequential(nn.Linear(ART_COMPONENTS + 1, 32), nn.ReLU(), nn.Linear(32, 1), nn.Sigmoid())
opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)


def losses():
    artist_paintings, labels = artist_works_with_labels()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
    G_inputs = torch.cat((G_ideas, labels), 1)
    G_paintings = G(G_inputs)
    D_inputs0 = torch.cat((artist_paintings, labels), 1)
    D_inputs1 = torch.cat((G_paintings, labels), 1)
    prob_artist0 = D(D_inputs0)
    prob_artist1 = D(D_inputs1)
    D_score0 = torch.log(prob_artist0)
    D_score1 = torch.log(1. - prob_artist1)
    D_loss = - torch.mean(D_score0 + D_score1)
    G_loss = torch.mean(D_score1)
    return D_loss, G_loss, prob_artist0, labels


D_loss, G_loss, _, _ = losses()
opt_D.zero_grad()
D_loss.backward(retain_graph=True)
opt_D.step()
opt_G.zero_grad()
try:
    G_loss.backward()
    opt_G.step()
except RuntimeError as e:
    print('RuntimeError:', e)

for step in range(60):
    D_loss, G_loss, prob_artist0, labels = losses()
    opt_D.zero_grad()
    opt_G.zero_grad()
    D_loss.backward(retain_graph=True)
    d_grads = [p.grad.clone() for p in D.parameters()]
    opt_G.zero_grad()
    G_loss.backward()
    for p, g in zip(D.parameters(), d_grads):
        p.grad = g
    opt_D.step()
    opt_G.step()
    if step % 15 == 0:
        bound = [0, 0.5] if labels.data[0, 0] == 0 else [0.5, 1]
        print('D accuracy=%.2f (0.5 for D to converge)' % prob_artist0.data.numpy().mean(),
              'D score= %.2f (-1.38 for G to converge)' % -D_loss.data.numpy(), bound)

z = torch.randn(1, N_IDEAS)
label = torch.FloatTensor([[1.]])
G_inputs = torch.cat((z, label), 1)
G_paintings = G(G_inputs)
print(G_paintings.shape, G_paintings.grad_fn)
print(G_paintings.data.numpy().round(3))
