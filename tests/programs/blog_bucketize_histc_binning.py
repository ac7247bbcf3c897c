# Corpus program, written for gradsh (no code copied). Modelled on the CSDN post on
# torch.bucketize (https://blog.csdn.net/qq_27390023/article/details/144471927: basic use with
# float boundaries, batched inputs, out_int32 and right, then the bucket indices turned into
# one-hot features for feature engineering), the codegenes blog "PyTorch bucketize"
# (https://www.codegenes.net/blog/pytorch-bucketize: input [1.2, 2.5, 3.7, 4.1] against bins
# [2, 3, 4]) and the torch.bucketize reference example (boundaries [1, 3, 5, 7, 9],
# https://pytorch.org/docs/stable/generated/torch.bucketize.html), plus torch.searchsorted's
# right / side / sorter and torch.histc to count values per equal-width bin, as the posts
# compare them.
# Differences: our own code; a seeded sample for the histogram part.
import torch
import torch.nn.functional as F

input = torch.tensor([1.5, 2.5, 3.5, 4.5, 5.5])
boundaries = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
output = torch.bucketize(input, boundaries)
print("Input:", input)
print("Boundaries:", boundaries)
print("Output (Indices):", output)
inputs = torch.tensor([[1.5, 4.0, 6.0], [2.1, 3.3, 5.5]])
boundaries = torch.tensor([1.0, 3.0, 5.0])
print("Batch Output:", torch.bucketize(inputs, boundaries))
print(torch.bucketize(inputs, boundaries, right=True, out_int32=True))
boundaries = torch.tensor([0.0, 2.0, 4.0, 6.0])
indices = torch.bucketize(torch.tensor([1.5, 3.0, 5.5]), boundaries)
print(indices, F.one_hot(indices, num_classes=len(boundaries) + 1))

input_tensor = torch.tensor([1.2, 2.5, 3.7, 4.1])
bins = torch.tensor([2.0, 3.0, 4.0])
print("Output:", torch.bucketize(input_tensor, bins))

boundaries = torch.tensor([1, 3, 5, 7, 9])
v = torch.tensor([[3, 6, 9], [3, 6, 9]])
print(torch.bucketize(v, boundaries))
print(torch.bucketize(v, boundaries, right=True))
print(torch.searchsorted(boundaries, v), torch.searchsorted(boundaries, v, side="right"))
rows = torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
print(torch.searchsorted(rows, v, right=True))
unsorted = torch.tensor([9, 1, 5, 3, 7])
print(torch.searchsorted(unsorted, torch.tensor([4, 8]), sorter=torch.argsort(unsorted)))
print(torch.bucketize(5, boundaries), torch.bucketize(torch.tensor(float("nan")), boundaries.float()))

torch.manual_seed(0)
ages = torch.randn(1000) * 12 + 40
print(torch.histc(ages, bins=6, min=10, max=70))
counts = torch.histc(ages, bins=8)
print(counts, int(counts.sum().item()))
edges = torch.linspace(ages.min().item(), ages.max().item(), 9)
print(torch.bucketize(ages, edges[1:-1]).bincount(minlength=8))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3))
print(ages[:5].histc(bins=2), torch.histc(torch.tensor([5.0, 5.0]), bins=4))
try:
    torch.histc(torch.tensor([1, 2, 3]), bins=3)
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    torch.bucketize(v, rows)
except RuntimeError as e:
    print("RuntimeError:", e)
idx = torch.triu_indices(4, 4, offset=1)
print(idx)
pts = torch.randn(4, 2)
d = torch.cdist(pts, pts)
print(d[idx[0], idx[1]].shape, torch.tril_indices(3, 3).shape)
