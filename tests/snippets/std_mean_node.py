# Probe (issue 17): std_mean/var_mean: one StdMeanBackward0/VarMeanBackward0 node for both
# results.
import torch
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)
x = torch.tensor([[1., 3., 3.], [2., 0., 2.]], requires_grad=True)
for f in [lambda: torch.std_mean(x, 1), lambda: torch.var_mean(x), lambda: torch.var_mean(x, 0, keepdim=True),
          lambda: torch.std_mean(x, (0, 1), correction=0), lambda: torch.std_mean(x, []), lambda: torch.var_mean(x, unbiased=False),
          lambda: torch.std_mean(torch.ones(1, 3, requires_grad=True), 0)]:
    r = f()
    show(lambda: r)
    show(lambda: (r[0].grad_fn is r[1].grad_fn, r[0].grad_fn.next_functions))
    x.grad = None
    show(lambda: (r[0].sum() * 2 + r[1].sum() * 3).backward())
    show(lambda: x.grad)
s, m = torch.std_mean(x, 1)
show(lambda: torch.autograd.grad(s.sum(), x, retain_graph=True))
show(lambda: torch.autograd.grad(m.sum(), x, retain_graph=True))
g = torch.autograd.grad((s * m).sum(), x, create_graph=True)[0]
show(lambda: (g, g.grad_fn))
show(lambda: torch.autograd.grad(g.sum(), x))
