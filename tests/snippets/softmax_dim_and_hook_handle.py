# Probe (issue 17): torch.softmax/Tensor.softmax require dim (F.softmax infers it, warning); a
# hook handle's class.
import torch
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)
x = torch.ones(2, 3)
show(lambda: x.softmax())
show(lambda: x.log_softmax())
show(lambda: torch.softmax(x))
show(lambda: torch.log_softmax(x))
show(lambda: x.softmax(dim=None))
show(lambda: x.softmax(None))
show(lambda: torch.softmax(x, None))
show(lambda: x.softmax(0, torch.float64))
show(lambda: x.softmax(-1).grad_fn)
h = torch.ones(1, requires_grad=True).register_hook(lambda g: g)
print(h)
print(type(h), type(h).__module__)
