# Corpus program, written for gradsh (no code copied). Modelled on Alfredo Canziani's NYU
# Deep Learning course (DS-GA 1008, Spring 2020), notebook 01 "tensor_tutorial" (CC BY-NC-SA):
# https://github.com/Atcold/NYU-DLSP20/blob/master/01-tensor_tutorial.ipynb
# Like the notebook: the legacy constructor torch.Tensor(2, 3, 4), its type, size() joined
# with ' × ', numel() and dim(); random_(10) in place; r = torch.Tensor(t), which shares t's
# memory, resized permanently with resize_(3, 8) and cleared with zero_() (t is cleared too);
# clone() and fill_(1) leaving the original alone; 1-D tensors from lists, element-wise *,
# the @ dot product, slicing; torch.arange and pow; a 2x4 matrix with size(0) / size(1),
# m[0][2] and m[0, 2], column and row slices with a list index ([[1]], [[0]]), m @ v;
# t() and transpose(0, 1); arange with a float step, linspace viewed as a row, zeros, ones,
# eye; the device checks and .to(device); double() and byte() casts; numpy() sharing
# memory both ways (from_numpy and an in-place mul_); torch.cat along both dimensions.
# Differences: our own code; random values seeded; the notebook's print of the
# uninitialized tensor, its histograms and shell cells are left out.
import numpy as np
import torch

torch.manual_seed(0)

t = torch.Tensor(2, 3, 4)
print(type(t))
print(t.size())
print("t size:", " \u00d7 ".join(map(str, t.size())))
print(f"point in a {t.numel()} dimensional space")
print(f"organised in {t.dim()} sub-dimensions")
print(t.random_(10))
print(t)

# r shares t's memory: resizing r keeps it, zeroing r zeroes t
r = torch.Tensor(t)
r.resize_(3, 8)
print(r)
print(r.zero_())
print(t)
print("r is t:", r is t, "same memory:", r.data_ptr() == t.data_ptr())

s = r.clone()
s.fill_(1)
print(s)
print(r)

v = torch.Tensor([1, 2, 3, 4])
print(v)
print(f"dim: {v.dim()}, size: {v.size()[0]}")
w = torch.Tensor([1, 0, 2, 0])
print(w)
print(v * w)
print(v @ w)
x = torch.Tensor(5).random_(10)
print(x)
print(f"first: {x[0]}, last: {x[-1]}")
print(x[1:2 + 1])
v = torch.arange(1, 4 + 1)
print(v)
print(v.pow(2), v)

m = torch.Tensor([[2, 5, 3, 7],
                  [4, 2, 1, 9]])
print(m)
print(m.dim())
print(m.size(0), m.size(1), m.size(), sep=" -- ")
print(m.numel())
print(m[0][2])
print(m[0, 2])
print(m[:, 1])
print(m[:, [1]])
print(m[[0], :])
print(m[0, :])
v = torch.arange(1., 4 + 1)
print(m @ v)
print(m[[0], :] @ v)
print(m[[1], :] @ v)
print(m + torch.rand(2, 4))
print(m - torch.rand(2, 4))
print(m * torch.rand(2, 4))
print(m / torch.rand(2, 4))
print(m.t())
print(m.transpose(0, 1))

print(torch.arange(3., 8 + 1))
print(torch.arange(5.7, -2.1, -3))
print(torch.linspace(3, 8, 20).view(1, -1))
print(torch.zeros(3, 5))
print(torch.ones(3, 2, 5))
print(torch.eye(3))

device = ("cuda" if torch.cuda.is_available()
          else "mps" if torch.backends.mps.is_available() else "cpu")
print("Device: ", device)
z = torch.ones(2, 3, 5)
z_1 = z.to(device)
print(f"Tensor on {device}:\n", z_1)
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
print(f"Tensor on {device}:\n", z.to(device))
gpus = []
if torch.cuda.is_available():
    gpus = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
print(gpus)

m_double = m.double()
print(m_double)
m_byte = m.byte()
print(m_byte)
print(m.to(device))
m_np = m.numpy()
print(m_np)
m_np[0, 0] = -1
print(m_np)
print(m)
n_np = np.arange(5)
n = torch.from_numpy(n_np)
print(n_np, n)
n.mul_(2)
print(n_np)

a = torch.Tensor([[1, 2, 3, 4]])
b = torch.Tensor([[5, 6, 7, 8]])
print(a.size(), b)
print(torch.cat((a, b), 0))
print(torch.cat((a, b), 1))
