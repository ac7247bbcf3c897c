# Probe (issue 17): div/div_ with rounding_mode floor/trunc: DivBackward2, zero gradients, integer
# and zero division.
import torch
def show(f):
    try:
        r = f()
        print(repr(r))
    except Exception as e:
        print(type(e).__name__ + ":", e)
x = torch.tensor([5., -7., 3.5, 0.5, -0.5], requires_grad=True)
b = torch.tensor([2., 2., -2., -3., 3.], requires_grad=True)
for m in ["floor", "trunc"]:
    y = torch.div(x, b, rounding_mode=m); print(y, y.grad_fn.next_functions)
    y.sum().backward(); print(x.grad, b.grad); x.grad = None; b.grad = None
    y = torch.div(x, 2, rounding_mode=m); print(y, y.grad_fn.next_functions)
    show(lambda: x.div(2.5, rounding_mode=m))
    show(lambda: torch.div(torch.tensor([5, -7, 3]), 2, rounding_mode=m))
    show(lambda: torch.div(torch.tensor([5, -7, 3]), torch.tensor(2.), rounding_mode=m))
    show(lambda: torch.div(torch.tensor([5, -7, 3], dtype=torch.int32), torch.tensor([-2, 2, 4]), rounding_mode=m))
    show(lambda: torch.div(5, torch.tensor([2., -3.]), rounding_mode=m))
    show(lambda: torch.div(torch.tensor([1., -1., 0.]), 0., rounding_mode=m))
    show(lambda: torch.div(torch.tensor([1, -1]), 0, rounding_mode=m))
    show(lambda: torch.div(torch.tensor([True]), torch.tensor([True]), rounding_mode=m))
    g = torch.autograd.grad(torch.div(x * x, b, rounding_mode=m).sum(), x, create_graph=True)[0]
    print(g, g.grad_fn, g.grad_fn.next_functions)
    a = torch.tensor([5., -7., 3.5])
    show(lambda: a.clone().div_(b[:3].detach(), rounding_mode=m))
    show(lambda: a.clone().div_(2, rounding_mode=m))
    show(lambda: torch.tensor([5, -7, 3]).div_(2, rounding_mode=m))
    show(lambda: torch.tensor([5, -7, 3]).div_(2.5, rounding_mode=m))
    c = x * 1
    show(lambda: c.div_(b, rounding_mode=m).grad_fn)
    show(lambda: torch.tensor([5., -7.], dtype=torch.float64).div(torch.tensor([3.], dtype=torch.float16), rounding_mode=m))
show(lambda: x.div(2, rounding_mode="bad"))
show(lambda: x.clone().div_(2, rounding_mode="bad"))
show(lambda: torch.div(x, 2, rounding_mode=None))
show(lambda: torch.tensor([5, -7, 3]).div_(2))
show(lambda: torch.tensor([1., 2.]).div_(torch.tensor([1., 2.]), rounding_mode=None))
