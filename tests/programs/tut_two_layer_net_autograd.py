# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: Tensors and autograd" (two-layer ReLU net), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_autograd/two_layer_net_autograd.py
# Like the original: batch 64, 1000 -> 100 -> 10 without biases, y_pred = x.mm(w1).clamp(min=0)
# .mm(w2), squared error summed, updates under no_grad and w.grad.zero_(); loss every 100.
# Differences: our own code; seeded with torch.manual_seed(0).
import torch

torch.manual_seed(0)
N, D_in, H, D_out = 64, 1000, 100, 10

inputs = torch.randn(N, D_in)
targets = torch.randn(N, D_out)
w1 = torch.randn(D_in, H, requires_grad=True)
w2 = torch.randn(H, D_out, requires_grad=True)

lr = 1e-6
for t in range(500):
    hidden = inputs.mm(w1).clamp(min=0)
    out = hidden.mm(w2)
    loss = (out - targets).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= lr * w1.grad
        w2 -= lr * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
