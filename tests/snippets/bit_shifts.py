# Probe (issue 17): << and >> on tensors (bitwise_left_shift/right_shift), their in-place forms
# and errors.
import torch
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)
i = torch.tensor([1, 2, 3])
show(lambda: torch.tensor([1.5]) << 2)
show(lambda: i << 2)
show(lambda: i >> 1)
show(lambda: 1 << i)
show(lambda: 16 >> i)
show(lambda: i << i)
show(lambda: i.bitwise_left_shift(1))
show(lambda: torch.bitwise_right_shift(i, 1))
show(lambda: torch.bitwise_left_shift(i, torch.tensor(2)))
show(lambda: i << 64)
show(lambda: i >> -1)
show(lambda: -i >> 70)
show(lambda: torch.tensor([True]) << 1)
show(lambda: torch.tensor([200], dtype=torch.uint8) << 1)
show(lambda: torch.tensor([-128], dtype=torch.int8) >> 3)
x = i.clone(); x <<= 1; show(lambda: x)
x >>= 1; show(lambda: x)
show(lambda: i.float().requires_grad_() << 1)
show(lambda: i << 1.5)
show(lambda: i << "a")
def ishift():
    y = i.clone()
    y <<= 1.5
show(ishift)
