# Corpus program, written for gradsh (no code copied). Modelled on chenyuntc's Chinese book
# "深度学习框架PyTorch：入门与实践" (2nd edition), chapter 3 Tensor和autograd (MIT):
# https://github.com/chenyuntc/pytorch-book/blob/master/Chapter3/chapter3.ipynb
# Like the book: a view and a slice share their tensor's Storage (b.storage().data_ptr() ==
# a.storage().data_ptr(), writes seen through both, data_ptr differences of 4-byte elements,
# t.Tensor(c.storage()) sharing the memory, storage_offset, a strided view not contiguous);
# .cuda(0) where no GPU is (the book assumes one); torch.set_grad_enabled shown as a notebook
# shows it; requires_grad propagation, grad_fn and next_functions of z = w * x + b,
# backward(retain_graph=True) accumulating, autograd.grad and a hook for y's gradient with
# Chinese output, a custom Function MultiplyAdd whose grad_fn.apply runs its backward.
# Differences: our own code; seeded; values a notebook would display are printed; the CUDA
# call is caught and its error printed; storages compared by data_ptr(), not by the id() of
# two temporaries (equal only when CPython reuses the first one's memory).
import torch as t

t.manual_seed(0)

a = t.arange(0, 6).float()
b = a.view(2, 3)
print(b.storage().data_ptr() == a.storage().data_ptr())
a[1] = 100
print(b)
c = a[2:]
print(c.storage().data_ptr() == a.storage().data_ptr())
print(c.data_ptr() - a.data_ptr())
c[0] = -100
print(a)
d = t.Tensor(c.storage())
d[0] = 6666
print(b)
print(a.storage().data_ptr() == b.storage().data_ptr() == c.storage().data_ptr()
      == d.storage().data_ptr())
print(a.storage_offset(), c.storage_offset(), d.storage_offset())
e = b[::2, ::2]
print(e.storage().data_ptr() == a.storage().data_ptr(), e.is_contiguous())
print(a.storage())
print(a.storage().size(), a.storage()[1], a.storage().type())

try:
    x = t.rand(10, requires_grad=True).cuda(0)
except RuntimeError as err:
    print("RuntimeError:", err)

print(repr(t.set_grad_enabled(False)))
print(t.ones(2, requires_grad=True) * 2)
print(repr(t.set_grad_enabled(True)))

x = t.ones(1)
b = t.rand(1, requires_grad=True)
w = t.rand(1, requires_grad=True)
y = w * x
z = y + b
print(x.requires_grad, b.requires_grad, w.requires_grad, y.requires_grad)
print(z.grad_fn)
print(z.grad_fn.next_functions)
print(y.grad_fn.next_functions)
print(w.grad_fn, x.grad_fn)
z.backward(retain_graph=True)
print(w.grad)
z.backward()
print(w.grad)
print((x.grad, w.grad, y.grad))

x = t.ones(3, requires_grad=True)
w = t.rand(3, requires_grad=True)
y = x * w
z = y.sum()
print(t.autograd.grad(z, y))


def variable_hook(grad):
    print("y的梯度：", grad)


y = x * w
hook_handle = y.register_hook(variable_hook)
y.sum().backward()
print(hook_handle.remove())


class MultiplyAdd(t.autograd.Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        return w * x + b

    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        return grad_output * x, grad_output * w, grad_output * 1


x = t.ones(1)
w = t.rand(1, requires_grad=True)
b = t.rand(1, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
z.backward()
print(x.grad, w.grad, b.grad)
z = MultiplyAdd.apply(w, x, b)
print(z.grad_fn)
print(z.grad_fn.apply(t.ones(1)))
