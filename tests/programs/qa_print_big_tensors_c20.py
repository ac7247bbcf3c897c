# Corpus program modelled on the Q&A "打印PyTorch张量的精确值" (how to print a PyTorch tensor fully
# and precisely, https://duoke360.com/post/34274) and the printing questions it answers: the default
# summarisation past 1000 elements, torch.set_printoptions(profile="full"), threshold /
# edgeitems / linewidth / precision / sci_mode, and profile="default" to restore; int,
# float64 and bool tensors. Changed: arange/seeded data instead of the question's tensors.
import torch

torch.manual_seed(0)
big = torch.arange(2000)
print(big)
print(torch.arange(1500.).reshape(30, 50))
print(torch.rand(1001, dtype=torch.float64))
print(torch.rand(20, 60) > 0.5)
torch.set_printoptions(threshold=50, edgeitems=2)
print(torch.arange(100).reshape(10, 10))
print(torch.randn(3, 4, 20))
torch.set_printoptions(profile="full")
print(torch.arange(60).reshape(3, 20) * 1000)
torch.set_printoptions(profile="default")
print(torch.arange(2000)[:10], torch.arange(1001))
torch.set_printoptions(precision=2, linewidth=40)
print(torch.randn(4, 6))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1e-5, 1.0, 123456.0]))
torch.set_printoptions(sci_mode=False, precision=6)
print(torch.tensor([1e-5, 1.0, 123456.0]))
torch.set_printoptions(profile="short")
print(torch.randn(5, 5, dtype=torch.float64))
print(torch.arange(1000))
torch.set_printoptions(profile="default")
print(torch.tensor([[1e10, 2.5], [-3.25e-8, 0.0]]))
print(torch.full((3, 1001), 7, dtype=torch.int16))
print(torch.linspace(0, 1, 1200, dtype=torch.float64).view(2, 600))
print(torch.zeros(0, 3), torch.empty(2, 0, dtype=torch.int64))
print(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5]))
print(torch.tensor([True, False]).repeat(600))
