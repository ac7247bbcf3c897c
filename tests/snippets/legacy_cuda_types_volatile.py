# Old code on PyTorch's CPU build: Variable(volatile=...) and .volatile (warnings only),
# torch.cuda.FloatTensor and friends (types that cannot be instantiated, x.type(...) of one
# raises the ATen_cuda error), the dtype = cuda-or-cpu tensor type idiom.
import torch
torch.manual_seed(0)
x = torch.ones(2)
x.volatile = True
print(x.volatile)
for f in [lambda: torch.cuda.FloatTensor, lambda: torch.cuda.FloatTensor([1, 2]), lambda: torch.cuda.LongTensor(2), lambda: torch.ones(2).type(torch.cuda.FloatTensor),
          lambda: torch.ones(2).type("torch.cuda.FloatTensor"), lambda: isinstance(torch.ones(2), torch.cuda.FloatTensor), lambda: torch.cuda.FloatTensor.dtype,
          lambda: [n for n in dir(torch.cuda) if n.endswith("Tensor")], lambda: torch.ones(2).type("torch.DoubleTensor"),
          lambda: torch.ones(2).type("torch.cuda.Foo")]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
use_cuda = torch.cuda.is_available()
dtype = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor
print(torch.randn(2).type(dtype), dtype)
