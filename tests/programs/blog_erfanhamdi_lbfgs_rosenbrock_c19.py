# Corpus program, written for gradsh (no code copied). Modelled on Erfan Hamdi's blog post
# "L-BFGS Method" (https://erfanhamdi.github.io/blog_posts/l-bfgs/lbfgs.html): the Rosenbrock
# function as an nn.Module whose x and y are nn.Parameter(torch.Tensor([...])), optimised by
# torch.optim.LBFGS with a closure (zero_grad, forward, backward, return the loss), the path of
# the iterates recorded, compared with first-order optimisers; and on runebook.dev's note on
# LBFGS.step (https://runebook.dev/zh/docs/pytorch/generated/torch.optim.lbfgs/torch.optim.LBFGS.step):
# step() without a closure is a TypeError; a Linear(1, 1) fitted to y = 3x + 0.5 with
# LBFGS(lr=1, max_iter=20, history_size=10, line_search_fn='strong_wolfe').
# Differences: the path printed instead of plotted; a fixed number of outer steps; the
# optimizer's state (func_evals, n_iter) and param_groups printed; seeded data.
import torch
import torch.nn as nn
import torch.optim as optim


class Rosenbrock(nn.Module):
    def __init__(self, a, b):
        super(Rosenbrock, self).__init__()
        self.a = a
        self.b = b
        self.x = torch.nn.Parameter(torch.Tensor([-1.0]))
        self.y = torch.nn.Parameter(torch.Tensor([2.0]))

    def forward(self):
        return (self.x - self.a) ** 2 + self.b * (self.y - self.x ** 2) ** 2


def run(optimizer_fn, steps, label):
    model = Rosenbrock(1, 100)
    optimizer = optimizer_fn(model.parameters())
    path = [(model.x.item(), model.y.item())]
    evaluations = [0]

    def closure():
        optimizer.zero_grad()
        loss = model()
        loss.backward()
        evaluations[0] += 1
        return loss

    for step in range(steps):
        loss = optimizer.step(closure)
        path.append((model.x.item(), model.y.item()))
    print(f"{label}: loss {model().item():.6e} after {steps} steps, {evaluations[0]} evaluations")
    print("   path", [f"({x:.4f}, {y:.4f})" for x, y in path[:4]], "...",
          f"({path[-1][0]:.6f}, {path[-1][1]:.6f})")
    return model, optimizer


model, optimizer = run(lambda p: optim.LBFGS(p, lr=1), 5, "LBFGS")
state = optimizer.state[optimizer.param_groups[0]['params'][0]]
print(sorted(state.keys()))
print(state['func_evals'], state['n_iter'], len(state['old_dirs']), state['t'])
print({k: v for k, v in optimizer.param_groups[0].items() if k != 'params'})
model, optimizer = run(lambda p: optim.LBFGS(p, lr=1, line_search_fn='strong_wolfe'), 5,
                       "LBFGS strong_wolfe")
state = optimizer.state[optimizer.param_groups[0]['params'][0]]
print(state['func_evals'], state['n_iter'], len(state['old_stps']), float(state['H_diag']))
run(lambda p: optim.LBFGS(p, lr=0.5, max_iter=5, history_size=3), 6, "LBFGS small history")
run(lambda p: optim.SGD(p, lr=1e-3), 200, "SGD")
run(lambda p: optim.Adam(p, lr=1e-2), 200, "Adam")
print(optimizer)

torch.manual_seed(0)
x = torch.randn(10, 1)
y = 3 * x + 0.5
lin = torch.nn.Linear(1, 1)
optimizer = optim.LBFGS(lin.parameters(), lr=1, max_iter=20, history_size=10,
                        line_search_fn='strong_wolfe')
try:
    optimizer.step()
except TypeError as e:
    print("TypeError:", e)
loss_fn = nn.MSELoss()


def closure():
    optimizer.zero_grad()
    loss = loss_fn(lin(x), y)
    loss.backward()
    return loss


for i in range(3):
    loss = optimizer.step(closure)
    print(f"step {i}: loss {loss.item():.6e} weight {lin.weight.item():.6f} bias {lin.bias.item():.6f}")
print(optimizer.state_dict()['state'][0]['n_iter'], optimizer.state_dict()['param_groups'])
