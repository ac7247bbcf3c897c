# Probe (issue 17): x.view(dtype): the bytes reinterpreted, not differentiable, shared version
# counter; the size checks.
import torch
def show(f):
    try:
        r = f()
        print(repr(r))
    except Exception as e:
        print(type(e).__name__ + ":", e)
r = torch.arange(6.).reshape(2,3).requires_grad_()
for v in [r.view(torch.float32), r.view(torch.int32), (r*2).view(torch.float32), r.view(torch.float16), r.detach().view(torch.int32), r.view(dtype=torch.int16)]:
    print(v.dtype, v.requires_grad, v.is_leaf, v.grad_fn, v._base is not None, v.shape, v.stride(), v.storage_offset())
x = torch.arange(6.)
v = x.view(torch.int32); v[0] = 1; print(x, x._version, v._version)
y = x[1:].view(torch.float16); print(y.storage_offset(), y.shape, y.stride())
show(lambda: x[1:].view(torch.float64))
show(lambda: x[2:].view(torch.float64))
show(lambda: torch.tensor(1.).view(torch.float64))
show(lambda: torch.tensor(1.).view(torch.int32))
show(lambda: x.reshape(2,3).t().view(torch.float16))
show(lambda: x.reshape(3,2)[:, :1].view(torch.float64))
show(lambda: torch.arange(8.).reshape(2,4)[:, :2].view(torch.float64))
show(lambda: torch.arange(12.).reshape(3,4)[:, 1:3].view(torch.float64))
show(lambda: torch.arange(4.).view(torch.uint8))
show(lambda: torch.tensor([1.,2.]).view(torch.int64))
show(lambda: torch.tensor([True, False]).view(torch.uint8))
show(lambda: torch.tensor([1, 2]).view(torch.float64))
show(lambda: x.view(size=(3, 2)))
show(lambda: x.view(size=[3, 2]))
show(lambda: x.view(-1, 2))
show(lambda: x.view(torch.float32) is x)
