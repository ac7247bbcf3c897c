# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum threads
# about torch.optim.LBFGS needing a closure (e.g.
# https://discuss.pytorch.org/t/how-to-use-lbfgs-optimizer-with-pytorch/7163 and the
# "Taking an optimization step" section of https://pytorch.org/docs/stable/optim.html): a
# closure that zeroes the gradients, computes the loss, calls backward and returns the loss;
# optimizer.step(closure) returning the first loss; LBFGS with line_search_fn="strong_wolfe"
# fitting a small curve; the TypeError when step() is called without a closure; and the
# same closure pattern with SGD.
# Differences: our own code and data; seeded; rounded prints.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.linspace(-1, 1, 30).unsqueeze(1)
y = 0.5 * x ** 3 - x + 0.1 * torch.randn_like(x)
model = nn.Sequential(nn.Linear(1, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=20, history_size=10,
                              line_search_fn="strong_wolfe")
calls = 0


def closure():
    global calls
    calls += 1
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss


for i in range(4):
    loss = optimizer.step(closure)
    print(i, round(loss.item(), 4), calls)
state = optimizer.state[optimizer._params[0]]
print(sorted(state.keys())[:4], state["n_iter"], state["func_evals"])
print(optimizer)
try:
    optimizer.step()
except TypeError as e:
    print("TypeError:", e)

w = torch.zeros(2, requires_grad=True)
sgd = torch.optim.SGD([w], lr=0.1)


def closure2():
    sgd.zero_grad()
    loss = ((w - torch.tensor([1.0, -2.0])) ** 2).sum()
    loss.backward()
    return loss


for _ in range(3):
    print(round(sgd.step(closure2).item(), 4), w.detach())
print(sgd.step(), w.grad)
