# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "Indexing a tensor with another tensor vs an array"
# (https://discuss.pytorch.org/t/indexing-a-tensor-with-another-tensor-vs-an-array/66765:
# a 3x3x3 tensor indexed by a 2x2 index as a tensor, as a NumPy array and as nested lists)
# and on the usual NumPy-side indices: np.where, np.argsort, NumPy integers from a loop.
# Written for gradsh; the deprecation warning for nested lists goes to stderr.
import numpy as np
import torch

t = torch.arange(1, 28).reshape(3, 3, 3)
indices = torch.tensor([[0, 1], [0, 2]])
print(t[indices].shape)
print(t[indices.numpy()].shape)
print(t[indices.tolist()])
print(t[tuple(indices.tolist())])

scores = torch.tensor([0.3, 0.9, 0.1, 0.7])
order = np.argsort(scores.numpy())[::-1].copy()
print(order, scores[order])
keep = np.where(scores.numpy() > 0.5)[0]
print(keep, scores[keep], scores[scores.numpy() > 0.5])
for i in np.arange(2):
    print(i, type(i).__name__, scores[i], t[i, i])
print(t[np.int64(2), 1:np.int64(3)])

w = torch.ones(4, requires_grad=True)
picked = w[np.array([0, 2, 2])]
picked.sum().backward()
print(picked, w.grad)

masked = scores.clone()
masked[np.array([True, False, True, False])] = 0.0
masked[np.int64(1)] = -1
print(masked)
