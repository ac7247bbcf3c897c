# Probe (issue 17): bernoulli and bernoulli_'s grad_fn names (BernoulliBackward0/1/2,
# NotImplemented).
import torch
def show(f):
    try:
        r = f()
        print(repr(r))
    except Exception as e:
        print(type(e).__name__ + ":", e)
torch.manual_seed(0)
x = torch.rand(2, 3, requires_grad=True)
show(lambda: (x * 1).bernoulli_(0.3).grad_fn)
show(lambda: (x * 1).bernoulli_(x.detach()).grad_fn)
show(lambda: (x * 1).bernoulli_(x).grad_fn)
show(lambda: (x * 1).bernoulli_().grad_fn)
b = torch.bernoulli(x, 0.3)
show(lambda: b)
show(lambda: b.grad_fn.next_functions)
show(lambda: b.sum().backward())
show(lambda: x.bernoulli(p=0.3))
show(lambda: torch.bernoulli(x, p=0.3, generator=None))
show(lambda: torch.bernoulli(torch.zeros(3, dtype=torch.int64), p=0.5))
show(lambda: torch.bernoulli(x.detach(), 1.5))
show(lambda: torch.bernoulli(x))
show(lambda: torch.bernoulli(x).grad_fn)
show(lambda: torch.bernoulli(x.detach(), p=torch.tensor(0.5)))
