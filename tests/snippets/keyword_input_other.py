"""PyTorch's own names for a function's first arguments, given as keywords (the Chinese Dive
into DL's relu: torch.max(input=X, other=torch.tensor(0.0)))."""
import torch
import torch.nn.functional as F

x = torch.tensor([[1., -2.], [3., 4.]])
print(torch.max(input=x, other=torch.tensor(0.0)))
print(torch.min(x, other=torch.tensor(0.0)))
print(torch.max(input=x, dim=1, keepdim=True))
print(torch.sum(input=x), torch.mean(input=x, dim=0))
print(torch.relu(input=x), torch.exp(input=x))
print(torch.clamp(input=x, min=0))
print(torch.add(input=x, other=x, alpha=2))
print(torch.matmul(input=x, other=x), torch.mm(input=x, mat2=x), torch.mv(input=x, vec=x[0]))
print(torch.softmax(input=x, dim=1))
print(torch.gather(input=x, dim=1, index=torch.tensor([[0], [1]])))
print(x.max(other=torch.tensor(0.0)), x.add(other=x))
print(F.relu(input=x), torch.pow(input=x, exponent=2))
try:
    torch.sum(input=x, other=x)
except TypeError as e:
    print(type(e).__name__, e)
print(torch.dot(x[0], tensor=x[1]), torch.dot(input=x[0], tensor=x[1]))
