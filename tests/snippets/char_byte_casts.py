"""Tensor.char() and .byte(), among the casts the Chinese PyTorch handbook (2.1.1) lists."""
import torch

t = torch.tensor([[-1.7, 0.5], [2.9, 100.0]])
print(t.long(), t.int(), t.short(), t.char(), t.abs().byte(), sep="\n")
print(t.char().dtype, t.byte().dtype, t.char().type(), t.byte().type())
w = torch.ones(2, requires_grad=True)
print(w.char(), w.byte().requires_grad, (w * 2).byte().grad_fn)
print(torch.tensor([1, 2], dtype=torch.int8).char() is not None)
