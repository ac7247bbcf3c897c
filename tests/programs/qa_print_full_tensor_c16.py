# Corpus program modelled on the Stack Overflow questions on printing whole tensors ("How do I
# print the full tensor without truncation?" and its duplicates) and their answers, which all
# point at torch.set_printoptions (https://pytorch.org/docs/stable/generated/torch.set_printoptions.html):
# profile="full", threshold, edgeitems, linewidth, precision and sci_mode, then back to
# profile="default".
# Changed: small synthetic tensors (arange, a seeded randn, float64 and int64 and bool ones)
# instead of the askers' model outputs. Written for gradsh.
import torch

torch.manual_seed(0)
big = torch.arange(2000, dtype=torch.float32).reshape(40, 50) / 7
print(big)
torch.set_printoptions(profile="full")
print(big[:3, :30])
torch.set_printoptions(profile="default")
print(torch.arange(1001))

torch.set_printoptions(threshold=10, edgeitems=2)
print(torch.arange(20).reshape(4, 5))
print(torch.randn(3, 3, 3))
torch.set_printoptions(profile="default")

torch.set_printoptions(precision=8)
x = torch.randn(4)
print(x)
print(x.double())
torch.set_printoptions(precision=2)
print(x)
print(torch.tensor([1e-8, 1.0, 1e8]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-8, 1.0, 1e8]))
print(torch.tensor([123456.789, 0.001]))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-8, 1.0, 1e8]))
print(torch.tensor([123456.789, 0.001]))

torch.set_printoptions(linewidth=40)
print(torch.randn(2, 8))
print(torch.arange(30))
torch.set_printoptions(profile="default")

print(torch.randn(3, 4, dtype=torch.float64))
print(torch.tensor([True, False, True]).repeat(400))
print(torch.randint(-1000, 1000, (2, 600)))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 0.5]))
print(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.5, 2.25, 1e-4]))
print(torch.zeros(0, 3), torch.ones(2, 0, dtype=torch.int64))
