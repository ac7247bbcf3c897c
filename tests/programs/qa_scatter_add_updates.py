# Corpus program, written for gradsh (no code copied). Modelled on the exercise "Sparse Updates
# with scatter_add_" (https://mlkatas.com/kata/221: add values at sparse indices into an output
# tensor, repeated indices accumulate) and the torch.Tensor.scatter_ / scatter_add_ /
# index_add_ documentation examples (https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_.html),
# ending with a per-group mean whose gradient flows back through index_add_.
# Written for gradsh.
import torch

output = torch.zeros(5)
indices = torch.tensor([1, 3, 1, 4])
values = torch.tensor([1.0, 2.0, 3.0, 4.0])
output.scatter_add_(0, indices, values)
print(output)

src = torch.arange(1, 11).reshape((2, 5))
index = torch.tensor([[0, 1, 2, 0]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_(0, index, src))
index = torch.tensor([[0, 1, 2], [0, 1, 4]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_(1, index, src))
print(torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]), 1.23))

# group sums and means with index_add_
features = torch.arange(12.0).reshape(6, 2).requires_grad_()
group = torch.tensor([0, 1, 0, 2, 1, 0])
sums = torch.zeros(3, 2).index_add_(0, group, features)
counts = torch.zeros(3).index_add_(0, group, torch.ones(6))
means = sums / counts.unsqueeze(1)
print(sums, counts, means, sep="\n")
means.sum().backward()
print(features.grad)

# the same with scatter_add and an expanded index
idx = group.unsqueeze(1).expand(-1, 2)
print(torch.zeros(3, 2).scatter_add(0, idx, features.detach()))
try:
    torch.zeros(3, 2).scatter_(0, idx, torch.ones(6, 2, dtype=torch.long))
except RuntimeError as err:
    print("RuntimeError:", err)
