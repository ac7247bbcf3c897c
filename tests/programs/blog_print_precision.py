# Corpus program, written for gradsh (no code copied). Modelled on the CSDN-derived posts
# "Pytorch中tensor的打印精度" (https://www.codeprj.com/zh/blog/f64f5c1.html and
# https://796t.com/article.php?id=192852: a = torch.tensor([1/3]) printed with the default and
# with set_printoptions(precision=20), .double() not adding precision, a float64 tensor made
# directly, 100 + b) and "打印PyTorch张量的精确值" (https://duoke360.com/post/34274: precision=10
# with sci_mode=False, threshold / edgeitems / linewidth, .numpy() printing, per-element
# f-strings, float16 / float32 / float64 side by side); the options reset with
# set_printoptions(profile="default").
# Differences: our own code; a few more shapes to show the summarisation; no randomness.
import torch

a = torch.tensor([1 / 3])
print(a)
torch.set_printoptions(precision=20)
print(a)
c = a.double()
print(c)
b = torch.tensor([1 / 3], dtype=torch.double)
print(b)
d = 100 + b
print(d)
torch.set_printoptions(profile="default")

x = torch.tensor([1.234567890123456789, 0.0001234567890123456789])
print("default:", x)
torch.set_printoptions(precision=10, sci_mode=False)
print("precise:", x)
torch.set_printoptions(profile="default")
print("numpy:", x.numpy())
for i, val in enumerate(x):
    print(f"element {i}: {val:.20f}")
for dt in (torch.float16, torch.float32, torch.float64):
    print(dt, torch.tensor([1.234567890123456789], dtype=dt))

torch.set_printoptions(precision=1)
print(torch.tensor([1.23456789, 2.34567891, 3.45678912]))
torch.set_printoptions(precision=4, sci_mode=True)
print(torch.tensor([1.5, 250.0, 0.001]))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-5, 1.0, 1e5]))
print(torch.tensor([1e-5, 1.0, 100.0]))
big = torch.arange(2000.0)
print(big)
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
print(torch.arange(30).reshape(5, 6))
torch.set_printoptions(profile="full")
print(torch.arange(12).reshape(2, 6))
torch.set_printoptions(profile="short")
print(torch.tensor([1.23456789, 2.5]))
print(torch.arange(1200))
torch.set_printoptions(profile="default", linewidth=40)
print(torch.linspace(0, 1, 12))
torch.set_printoptions(profile="default")
print(torch.linspace(0, 1, 12))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 0.5]))
print(torch.tensor([[1, -2], [300, 4]]))
print(torch.tensor([True, False]), torch.tensor([], dtype=torch.float64))
