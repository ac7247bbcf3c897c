# Corpus program, written for gradsh (no code copied). Modelled on the torch.round
# documentation (https://pytorch.org/docs/stable/generated/torch.round.html: round half to
# even, decimals= positive and negative, integers returned as they are) and the common
# question of rounding a tensor of probabilities to n decimals for printing.
# Written for gradsh.
import torch

print(torch.round(torch.tensor((4.7, -2.3, 9.1, -7.7))))
print(torch.round(torch.tensor([-0.5, 0.5, 1.5, 2.5])))
print(torch.round(torch.tensor([0.1234567]), decimals=3))
print(torch.round(torch.tensor([1200.1234567]), decimals=-3))
print(torch.tensor([1, 5, 15]).round())

probs = torch.tensor([[0.12345, 0.87655], [0.5, 0.5], [0.33333, 0.66667]])
print(probs.round(decimals=2))
print([[round(v, 2) for v in row] for row in probs.tolist()])

x = torch.tensor([2.71828, 3.14159], requires_grad=True)
y = (x * 10).round(decimals=1)
print(y)
y.sum().backward()
print(x.grad)
z = x.detach().clone()
z.round_(decimals=2)
print(z, torch.floor(x.detach() * 100) / 100, x.detach().trunc(), x.detach().frac())
