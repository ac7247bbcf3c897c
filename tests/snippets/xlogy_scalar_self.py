# torch.special.xlogy with a number first (xlogy.Scalar_Self), the docstring's example.
import torch
x = torch.zeros(5,)
y = torch.tensor([-1, 0, 1, float('inf'), float('nan')])
print(torch.special.xlogy(x, y))
x = torch.tensor([1, 2, 3])
y = torch.tensor([3, 2, 1])
print(torch.special.xlogy(x, y))
print(torch.special.xlogy(x, 4))
print(torch.special.xlogy(2, y))
