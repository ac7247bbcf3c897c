# Corpus program modelled on pytorch/pytorch issue #28361 ("Improved Tensor subclassing support,
# preserving subclasses on function/method calls", https://github.com/pytorch/pytorch/issues/28361)
# and fastai issue #2616 (https://github.com/fastai/fastai/issues/2616), where fastai's
# TensorBase relies on it: a MyTensor with a class attribute stays a MyTensor through torch
# functions, methods, operators, indexing and reductions; as_subclass keeps the autograd graph
# (AliasBackward0) while _make_subclass makes a detached leaf; instance attributes do not
# survive as_subclass ("it seems to lose __dict__"), so a fastai-style __torch_function__
# copies its metadata onto results; two unrelated subclasses in one call (the TypeError), and
# nn.Parameter's ops.
# Changed: small tensors with a seed; the types, attributes and grads printed.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


class MyTensor(torch.Tensor):
    _additional_attribute = "Kartoffel"


a = torch.tensor([0., 1., 2., 3.]).as_subclass(MyTensor)
b = torch.sin(a)
print(type(b).__name__, b._additional_attribute)
print(b)
for r in (a + 1, a * a, a[1:], a.sum(), a.mean(), torch.stack([a, a]), a.view(2, 2), a.T if a.dim() == 2 else a.unsqueeze(0),
          F.relu(a - 1), a.max(), torch.where(a > 1, a, torch.zeros(4))):
    print(type(r).__name__, tuple(r.shape))
vals, idx = a.sort(descending=True)
print(type(vals).__name__, type(idx).__name__, idx)
print(type(a.tolist()).__name__, type(a.numpy()).__name__, a.dtype, a.shape)

x = torch.randn(3, requires_grad=True)
y = x.as_subclass(MyTensor)
print(y.requires_grad, y.is_leaf, type(y.grad_fn).__name__)
z = (y * y).sum()
print(type(z).__name__, type(z.grad_fn).__name__)
z.backward()
print(torch.allclose(x.grad, 2 * x.detach()), type(x.grad).__name__)
m = torch.Tensor._make_subclass(MyTensor, x.detach(), True)
print(type(m).__name__, m.is_leaf, m.requires_grad, m.grad_fn)
(m * 3).sum().backward()
print(type(m.grad).__name__, m.grad)

m.meta = {"img_size": 4}
c = m.as_subclass(MyTensor)
print(hasattr(c, "meta"), hasattr(m * 1, "meta"))


class TensorBase(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        res = super().__torch_function__(func, types, args, kwargs or {})
        metas = [getattr(x, "_meta", None) for x in args if isinstance(x, TensorBase)]
        meta = next((m for m in metas if m), None)
        if meta and isinstance(res, TensorBase):
            res._meta = dict(meta)
        return res


class TensorImage(TensorBase):
    pass


img = torch.rand(1, 2, 2).as_subclass(TensorImage)
img._meta = {"mode": "RGB"}
out = img * 2 + img.flip(-1)
print(type(out).__name__, out._meta)
print(type(img[0]).__name__, img[0]._meta, type(img.float()).__name__)
plain = torch.ones(1, 2, 2)
print(type(plain + img).__name__, type(torch.cat([plain, img])).__name__)
try:
    a.reshape(1, 2, 2) + img  # unrelated subclasses: both decline
except TypeError as e:
    print("TypeError:", e)
p = torch.nn.Parameter(torch.ones(2))
print(type(p * 2).__name__, type(p.as_subclass(MyTensor)).__name__)
print(isinstance(b, torch.Tensor), issubclass(TensorImage, torch.Tensor), torch.is_tensor(img))
