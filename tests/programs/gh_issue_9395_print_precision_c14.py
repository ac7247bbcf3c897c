# Corpus program modelled on the PyTorch issue "Strange tensor printing behavior" (1e-5 printed
# in scientific notation but 2e-5 as 0.0000; set_printoptions(precision=5) as the workaround)
# https://github.com/pytorch/pytorch/issues/9395
# and the examples of the pull requests that settled the rules: "Fix print precision and match
# numpy behavior" https://github.com/pytorch/pytorch/pull/12746 (integers never scientific;
# floats when max/min > 1000, max > 1e8 or min < 1e-4), "Improve number formatting in tensor
# print" https://github.com/pytorch/pytorch/pull/7632 (summarised 1001 elements, wrapped 20,
# float64 suffix) and the sci_mode option of https://github.com/pytorch/pytorch/pull/40919
# Changed: a seed for the random examples; complex values left out. Written for gradsh.
import torch

torch.manual_seed(0)
print(torch.Tensor([1e-5]))
print(torch.Tensor([2e-5]))
print(torch.tensor([1e-05]), torch.tensor([2e-05]))
torch.set_printoptions(precision=5)
print(torch.tensor([1e-05]), torch.tensor([2e-05]))
torch.set_printoptions(precision=4)

for v in (1, 10, 99000000, 100000000, 100000001, 1000000000):
    print(torch.tensor(v))
print(torch.tensor([1, 1000]), torch.tensor([1, 1010]))
print(torch.tensor(2341234123412341))
print(torch.tensor([1e28, 1e-28]))
print(torch.tensor([1e28, -1e-28]))
print(torch.tensor([1, 2]), torch.tensor([1, -2]))
print(torch.randn(1001))
print(torch.randn(20))
print(torch.randn(5, dtype=torch.double))
print(torch.tensor([1.0, 1000.0]), torch.tensor([1.0, 1001.0]), torch.tensor([1e8, 1.0]))
print(torch.tensor([1e-4, 1.0]), torch.tensor([9.9e-5, 1.0]))

x = torch.tensor([1e2, 1e-2])
print(x)
torch.set_printoptions(sci_mode=False)
print(x)
print(torch.tensor([1e-5, 2e-5, 1e10]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 2.25]), torch.tensor([3, 4]))
torch.set_printoptions(sci_mode=None)

A = torch.tensor([10, 1e-1, 1e-2])
B = torch.tensor([10, 1e-1, 1e-1])
print(A, B)
torch.set_printoptions(sci_mode=False)
print(A, B)
torch.set_printoptions(profile="default")
print(torch.tensor([float('inf'), -float('inf'), float('nan'), 1e-9]))
print(torch.tensor([0.0, -0.0, 1e-30]))
