# Corpus program, written for gradsh (no code copied). Modelled on Sung Kim's "PyTorch Zero To
# All" 09_01_softmax_loss.py:
# https://github.com/hunkim/PyTorchZeroToAll/blob/master/09_01_softmax_loss.py
# Like the original: `from torch import nn, tensor, max` (shadowing the builtin); a one-hot
# cross entropy computed with NumPy for two predictions; nn.CrossEntropyLoss on logits for a
# single sample and for a batch of three, printed with .item() and with an f-string format
# of the 0-d tensor itself (f'{l2.data:.4f}'); the predicted classes from max(Y_pred.data, 1).
# Differences: the per-sample losses (reduction='none'), the gradient of the batch loss and the
# NLLLoss(log_softmax) equivalence are printed too.
from torch import nn, tensor, max
import numpy as np
import torch

Y = np.array([1, 0, 0])
Y_pred1 = np.array([0.7, 0.2, 0.1])
Y_pred2 = np.array([0.1, 0.3, 0.6])
print(f'Loss1: {np.sum(-Y * np.log(Y_pred1)):.4f}')
print(f'Loss2: {np.sum(-Y * np.log(Y_pred2)):.4f}')

loss = nn.CrossEntropyLoss()
Y = tensor([0], requires_grad=False)
Y_pred1 = tensor([[2.0, 1.0, 0.1]])
Y_pred2 = tensor([[0.5, 2.0, 0.3]])
l1 = loss(Y_pred1, Y)
l2 = loss(Y_pred2, Y)
print(f'PyTorch Loss1: {l1.item():.4f} \nPyTorch Loss2: {l2.item():.4f}')
print(f'Y_pred1: {max(Y_pred1.data, 1)[1].item()}')
print(f'Y_pred2: {max(Y_pred2.data, 1)[1].item()}')
print(max(Y_pred1.data, 1))

Y = tensor([2, 0, 1], requires_grad=False)
Y_pred1 = tensor([[0.1, 0.2, 0.9],
                  [1.1, 0.1, 0.2],
                  [0.2, 2.1, 0.1]], requires_grad=True)
Y_pred2 = tensor([[0.8, 0.2, 0.3],
                  [0.2, 0.3, 0.5],
                  [0.2, 0.2, 0.5]])
l1 = loss(Y_pred1, Y)
l2 = loss(Y_pred2, Y)
print(f'Batch Loss1:  {l1.item():.4f} \nBatch Loss2: {l2.data:.4f}')
print(f'{l1:.6f} {l2:10.3e} {l2.data!r}')
print(l1)
l1.backward()
print(Y_pred1.grad)
print(nn.CrossEntropyLoss(reduction='none')(Y_pred2, Y))
print(nn.NLLLoss()(torch.log_softmax(Y_pred2, dim=1), Y))
print(nn.CrossEntropyLoss(reduction='sum')(Y_pred2, Y), nn.CrossEntropyLoss(label_smoothing=0.1)(Y_pred2, Y))
print(max(Y_pred2, Y_pred2.flip(0)))
print(max(Y_pred2))
