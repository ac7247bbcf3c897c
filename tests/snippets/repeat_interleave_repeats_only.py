# torch.repeat_interleave(repeats): with only a 1-d tensor of repeats, each index repeated (the
# docstring's example); a 0-d tensor of repeats is PyTorch's error.
import torch
print(torch.repeat_interleave(torch.tensor([1, 2, 3])))
print(torch.repeat_interleave(torch.tensor([0, 2])))
x = torch.tensor([[1, 2], [3, 4]])
print(torch.repeat_interleave(x, 2), x.repeat_interleave(torch.tensor([1, 2]), dim=0))
print(torch.repeat_interleave(x, 3, dim=1), torch.repeat_interleave(torch.tensor([2, 1]), output_size=3))
torch.repeat_interleave(torch.tensor(3))
