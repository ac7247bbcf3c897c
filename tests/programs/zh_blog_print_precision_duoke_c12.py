# Corpus program, written for gradsh (no code copied). Modelled on the Chinese post
# "打印PyTorch张量的精确值(浮点精度)" (duoke360, 老郭): https://duoke360.com/post/34274
# Like the post: a float32 tensor of 1.234567890123456789 and 0.0001234567890123456789
# printed by default, then with torch.set_printoptions(precision=10, sci_mode=False), through
# .numpy(), element by element with an f-string ".20f" format; the same value in float32,
# float64 and float16; and the other options the post lists (threshold, edgeitems, linewidth)
# applied to a larger tensor.
# Differences: the options are reset between sections (set_printoptions(profile='default'))
# so each section shows one option; a manual seed for the larger tensors; format specs are
# applied to 0-dim tensors directly as well as to .item().
import numpy as np
import torch

torch.manual_seed(0)
x = torch.tensor([1.234567890123456789, 0.0001234567890123456789])
print("默认打印:", x)
torch.set_printoptions(precision=10, sci_mode=False)
print("高精度打印:", x)
print("Numpy转换打印:", x.numpy())
for i, val in enumerate(x):
    print(f"元素{i}: {val:.20f}")
for i, val in enumerate(x):
    print(f"元素{i}: {val.item():.20f} {val.item()!r}")
torch.set_printoptions(profile='default')

x_float32 = torch.tensor([1.234567890123456789], dtype=torch.float32)
x_float64 = torch.tensor([1.234567890123456789], dtype=torch.float64)
x_float16 = torch.tensor([1.234567890123456789], dtype=torch.float16)
print(x_float32, x_float64, x_float16)
torch.set_printoptions(precision=10)
print(x_float32, x_float64, x_float16)
print(x_float32.item(), x_float64.item(), x_float16.item())
torch.set_printoptions(precision=20)
print(x_float32, x_float64)
torch.set_printoptions(profile='default')

y = torch.randn(40, 30) * 1000
print(y)
torch.set_printoptions(threshold=5000)
print(y[:3])
torch.set_printoptions(profile='default')
torch.set_printoptions(edgeitems=1)
print(y)
torch.set_printoptions(profile='default')
torch.set_printoptions(linewidth=40)
print(y[:2, :8])
torch.set_printoptions(profile='default')
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 2.25, 100.0]))
torch.set_printoptions(profile='full')
print(torch.arange(1200).view(2, 600)[:, :5], torch.arange(1200).sum())
torch.set_printoptions(profile='short')
print(y[:4, :4])
torch.set_printoptions(profile='default')
print(torch.tensor([1e-8, 1.0, 1e8]), torch.tensor([1e-5, 0.5]), torch.tensor([123456.0, 0.1]))
print(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.0]))
print(np.float32(1.234567890123456789), torch.tensor(0.1, dtype=torch.float64) * 3)
print(format(torch.tensor(3.14159), '.3f'), f"{torch.tensor(2):05d}", f"{torch.tensor(1.5):e}")
try:
    print(f"{torch.tensor([1.0, 2.0]):.2f}")
except TypeError as err:
    print('TypeError:', err)
