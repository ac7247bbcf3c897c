# Corpus program, written for gradsh (no code copied). Modelled on the torch.Tensor.scatter_reduce_
# reference (https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_reduce_.html: src =
# [1, 2, 3, 4, 5, 6], index = [0, 1, 0, 1, 2, 1], input = [1, 2, 3, 4], reduce="sum" and
# "amax" with include_self True and False) and on the neighbourhood aggregations that graph
# networks written without PyTorch Geometric build from it (sum, mean and max of the messages
# sent to each node, e.g. the "scatter" helpers of GNN-from-scratch notebooks), with the
# gradients of each aggregation, ties in amax sharing the gradient, and torch_scatter-like
# segment means checked against a loop.
# Differences: our own code and graph; seeded.
import torch

src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
index = torch.tensor([0, 1, 0, 1, 2, 1])
input = torch.tensor([1.0, 2.0, 3.0, 4.0])
print(input.scatter_reduce(0, index, src, reduce="sum"))
print(input.scatter_reduce(0, index, src, reduce="sum", include_self=False))
input2 = torch.tensor([5.0, 4.0, 3.0, 2.0])
print(input2.scatter_reduce(0, index, src, reduce="amax"))
print(input2.scatter_reduce(0, index, src, reduce="amax", include_self=False))
for reduce in ("prod", "mean", "amin"):
    print(reduce, input.scatter_reduce(0, index, src, reduce, include_self=False))

torch.manual_seed(0)
num_nodes, dim = 5, 3
edge_src = torch.tensor([0, 1, 2, 3, 4, 0, 2])
edge_dst = torch.tensor([1, 2, 0, 0, 3, 3, 3])
h = torch.randn(num_nodes, dim, requires_grad=True)
messages = h[edge_src]
idx = edge_dst.view(-1, 1).expand(-1, dim)
zeros = torch.zeros(num_nodes, dim)
agg_sum = zeros.scatter_reduce(0, idx, messages, "sum", include_self=False)
agg_mean = zeros.scatter_reduce(0, idx, messages, "mean", include_self=False)
agg_max = zeros.scatter_reduce(0, idx, messages, "amax", include_self=False)
print(agg_sum, agg_mean, agg_max, sep="\n")
print(agg_mean.grad_fn)
loop_mean = torch.stack([messages[edge_dst == n].mean(0) if (edge_dst == n).any()
                         else torch.zeros(dim) for n in range(num_nodes)])
print(torch.allclose(agg_mean, loop_mean))
(agg_sum.sum() + 2 * agg_mean.sum() + 3 * agg_max.sum()).backward()
print(h.grad)
tied = torch.tensor([1.0, 5.0, 5.0, 2.0], requires_grad=True)
out = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0, 0, 1]), tied, "amax",
                                    include_self=False)
out.sum().backward()
print(out, tied.grad)
counts = torch.zeros(num_nodes, dtype=torch.long).scatter_reduce(
    0, edge_dst, torch.ones_like(edge_dst), "sum")
print(counts, torch.bincount(edge_dst, minlength=num_nodes))
acc = torch.zeros(3)
acc.scatter_reduce_(0, torch.tensor([2, 2, 0]), torch.tensor([1.5, 2.5, -1.0]), "sum")
print(acc)
print(input.scatter_reduce(0, index, src, reduce="max"))
try:
    input.scatter_reduce(0, index, src, reduce="maximum")
except RuntimeError as e:
    print("RuntimeError:", e)
