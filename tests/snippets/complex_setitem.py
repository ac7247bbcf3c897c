# Complex Python numbers assigned into tensors: t[0] = 1 + 2j (gaps3: gradsh refused any complex
# value); into a real tensor, PyTorch's checked conversion.
import torch
def p(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, str(e).split('\n')[0][:150])
def s(t, k, v):
    t[k] = v; return t
p(lambda: s(torch.zeros(2, dtype=torch.complex64), 0, 1+2j))
p(lambda: s(torch.zeros(2, dtype=torch.complex128), slice(None), 3j))
p(lambda: s(torch.zeros(2, dtype=torch.complex64), 0, 2.5))
p(lambda: s(torch.zeros(2), 0, 1+2j))
p(lambda: s(torch.zeros(2), 0, 1+0j))
p(lambda: s(torch.zeros(2, dtype=torch.long), 0, 1j))
p(lambda: s(torch.zeros(2, dtype=torch.bool), 0, 1j))
p(lambda: s(torch.zeros(2, dtype=torch.complex64), torch.tensor([True, False]), 1-1j))
