# torch.asarray on tensors that require grad (tensor_new.cpp): an unspecified requires_grad is
# the tensor's own, with a warning once a process; requires_grad=False detaches a non-leaf.
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a + 2
for kw in [{}, {"requires_grad": False}, {"requires_grad": True}]:
    r = torch.asarray(b, **kw)
    print(kw, r is b, r.requires_grad, r.grad_fn, r.is_leaf, r.data_ptr() == b.data_ptr())
r = torch.asarray(b); print("again")
r = torch.asarray(a); print(r is a, r.requires_grad, r.is_leaf, r.grad_fn)
r = torch.asarray(a, requires_grad=False); print(r is a, r.requires_grad, r.is_leaf, r.grad_fn, a.requires_grad)
c = torch.tensor([1., 2.])
r = torch.asarray(c, requires_grad=True); print(r is c, r.requires_grad, c.requires_grad, r.is_leaf)
r = torch.asarray(b, dtype=torch.float64); print(r.requires_grad, r.grad_fn)
r = torch.asarray(b, dtype=torch.float64, requires_grad=False); print(r.requires_grad, r.grad_fn)
r = torch.asarray(b, copy=True); print(r.requires_grad, r.grad_fn)
r = torch.asarray([1., 2.], requires_grad=True); print(r)
