# Probe (issue 17): setting .grad, .requires_grad (a bool only) and .data (a tensor only), and
# the attributes.
import torch
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)
x = torch.tensor([1., 2., 3.], requires_grad=True)
def setg(v):
    x.grad = v
show(lambda: setg(torch.ones(2)))
show(lambda: setg(torch.ones(3, dtype=torch.int64)))
show(lambda: setg(torch.ones(3, dtype=torch.float64)))
show(lambda: setg([1., 2., 3.]))
show(lambda: setg(torch.ones(3)))
show(lambda: x.grad)
def setrg(t, v):
    t.requires_grad = v
show(lambda: setrg(x * 2, False))
show(lambda: setrg(torch.ones(2, dtype=torch.int32), True))
show(lambda: setrg(torch.ones(2), 1))
def setdata(t, v):
    t.data = v
show(lambda: setdata(x, [1, 2]))
show(lambda: setdata(x, torch.ones(5)))
show(lambda: (x, x.shape))
show(lambda: x.is_leaf)
show(lambda: x.grad_fn)
show(lambda: torch.ones(2).grad)
show(lambda: (x * 2).grad)
show(lambda: torch.ones(2, requires_grad=True).T)
show(lambda: torch.ones(2, 3, requires_grad=True).mT.grad_fn)
show(lambda: torch.ones(2, 3).H)
show(lambda: x.shape[0])
show(lambda: x.size(1))
show(lambda: x.dim())
show(lambda: x.ndim)
show(lambda: x.nelement())
show(lambda: x.element_size())
show(lambda: x.dtype.is_floating_point)
show(lambda: x.device)
show(lambda: x.is_cuda)
show(lambda: x.layout)
