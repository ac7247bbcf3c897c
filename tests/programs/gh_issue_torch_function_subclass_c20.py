# Corpus program modelled on pytorch/pytorch issue #47117 (its LoggingTensor, copied from the
# "Extending PyTorch" notes, https://github.com/pytorch/pytorch/issues/47117) and issue #28361
# ("preserving subclasses on function/method calls", https://github.com/pytorch/pytorch/issues/28361):
# a Tensor subclass with a __torch_function__ that logs the functions it sees and keeps its
# type through arithmetic and indexing, a subclass carrying an attribute made with
# _make_subclass, and one with __torch_function__ disabled. Changed: the log is printed per
# step; small tensors with a seed.
import torch

torch.manual_seed(0)


class LoggingTensor(torch.Tensor):
    log = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        cls.log.append(getattr(func, '__name__', str(func)))
        return super().__torch_function__(func, types, args, kwargs)


t = torch.randn(2, 3).as_subclass(LoggingTensor)
print(type(t).__name__, isinstance(t, torch.Tensor))
u = t * 2 + 1
print(type(u).__name__, LoggingTensor.log)
LoggingTensor.log.clear()
s = u.sum()
print(type(s).__name__, LoggingTensor.log)
LoggingTensor.log.clear()
r = torch.relu(t)
print(type(r).__name__, LoggingTensor.log)
LoggingTensor.log.clear()
v = t[0]
print(type(v).__name__, v.shape)
plain = torch.ones(2, 3)
w = plain + t
print(type(w).__name__)
print(type(torch.cat([plain, t])).__name__)
print(type(t.detach()).__name__, type(t.clone()).__name__)
print(type(t.tolist()).__name__, type(t.shape).__name__)


class Tagged(torch.Tensor):
    @staticmethod
    def __new__(cls, data, tag=None):
        obj = torch.Tensor._make_subclass(cls, data)
        obj.tag = tag
        return obj

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        out = super().__torch_function__(func, types, args, kwargs or {})
        tags = [a.tag for a in args if isinstance(a, Tagged) and hasattr(a, 'tag')]
        if isinstance(out, Tagged) and tags and not hasattr(out, 'tag'):
            out.tag = tags[0]
        return out


a = Tagged(torch.arange(4.), tag="meters")
b = a * 3
print(type(b).__name__, b.tag)
print(a.tag, (a + a).tag)
x = Tagged(torch.randn(3), tag="x").requires_grad_()
y = (x * x).sum()
y.backward()
print(type(x.grad).__name__, type(y).__name__)
print(torch.allclose(x.grad, 2 * x.detach()))


class NoTorchFunction(torch.Tensor):
    __torch_function__ = torch._C._disabled_torch_function_impl


n = torch.ones(2).as_subclass(NoTorchFunction)
print(type(n + 1).__name__, type(n).__name__)
print(torch.overrides.has_torch_function((t,)), torch.overrides.has_torch_function((plain,)))
print(torch.overrides.is_tensor_like(t), torch.overrides.is_tensor_like([1]))
