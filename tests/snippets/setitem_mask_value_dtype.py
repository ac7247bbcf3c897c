# t[mask] = value with a one-element value of another dtype: ATen's index_put_ fills through a
# single boolean mask with value.item() (canDispatchToMaskedFill), so the dtype need not match;
# integer indices, several values or a 0-d mask still need the same dtype. From issue #156212.
import torch
cases = {
    "mask<-long0d": (lambda x: x.__setitem__(x > 1, torch.tensor(7))),
    "mask<-long1d": (lambda x: x.__setitem__(x > 1, torch.tensor([7]))),
    "mask<-long2": (lambda x: x.__setitem__(x > 1, torch.tensor([7, 8]))),
    "mask<-double0d": (lambda x: x.__setitem__(x > 1, torch.tensor(7., dtype=torch.float64))),
    "idx<-long0d": (lambda x: x.__setitem__(torch.tensor([0, 2]), torch.tensor(7))),
    "list<-long0d": (lambda x: x.__setitem__([0, 2], torch.tensor(7))),
    "list<-long2": (lambda x: x.__setitem__([0, 2], torch.tensor([7, 8]))),
    "int<-long0d": (lambda x: x.__setitem__(1, torch.tensor(7))),
    "slice<-long2": (lambda x: x.__setitem__(slice(0, 2), torch.tensor([7, 8]))),
    "mask2d<-long0d": (lambda x: x.view(1, 3).__setitem__(x.view(1, 3) > 1, torch.tensor(7))),
    "tuple<-long0d": (lambda x: x.view(1, 3).__setitem__((0, torch.tensor([1])), torch.tensor(7))),
    "boolscalar<-long": (lambda x: x.__setitem__(torch.tensor(True), torch.tensor(7))),
    "mask<-int": (lambda x: x.__setitem__(x > 1, 7)),
    "mask<-bool0d": (lambda x: x.__setitem__(x > 1, torch.tensor(True))),
}
for name, f in cases.items():
    x = torch.tensor([1., 2., 3.])
    try:
        f(x)
        print(name, x)
    except Exception as e:
        print(name, type(e).__name__, e)
i = torch.tensor([1, 2, 3])
try:
    i[i > 1] = torch.tensor(2.5)
    print(i)
except Exception as e:
    print(type(e).__name__, e)
try:
    i[i > 1] = torch.tensor([2.5, 3.5])
    print(i)
except Exception as e:
    print(type(e).__name__, e)
def t(name, f):
    y = torch.zeros(3, requires_grad=True).clone()
    try:
        f(y); print(name, y, y.grad_fn)
    except Exception as e: print(name, type(e).__name__, str(e)[:90])
d = torch.float64
v = torch.tensor(2., requires_grad=True, dtype=d)
t("rg 0d f64 mask", lambda y: y.__setitem__(y == 0, v))
t("rg 2 f64 mask", lambda y: y.__setitem__(torch.tensor([True, True, False]), torch.tensor([2., 3.], requires_grad=True, dtype=d)))
t("nrg 0d f64 mask", lambda y: y.__setitem__(y == 0, torch.tensor(2., dtype=d)))
t("nrg 0d f64 idx", lambda y: y.__setitem__(torch.tensor([0, 1]), torch.tensor(2., dtype=d)))
y = torch.zeros(3, requires_grad=True)
z = y * 1
z[y == 0] = v * 3
z.sum().backward()
print(v.grad, y.grad)
x = torch.zeros(2, 3)
x[:, torch.tensor([True, False, True])] = torch.tensor(5)
print(x)
