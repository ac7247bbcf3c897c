# Corpus program, written for gradsh (no code copied). Modelled on wavefrontshaping's
# complexPyTorch (https://github.com/wavefrontshaping/complexPyTorch), complexLayers.py and
# complexFunctions.py: a complex linear layer as two real nn.Linear layers combined on the real
# and imaginary parts (apply_complex, .type(torch.complex64) + 1j * ...), complex_relu on each
# part, and a classifier trained on the magnitude of the complex output, as in the README's
# example network.
# Differences: fully connected layers only, a seeded synthetic dataset of complex vectors
# (two classes told apart by their phase) instead of MNIST, a few Adam steps; a complex
# matrix product against complex_matmul is printed as well.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def apply_complex(fr, fi, input, dtype=torch.complex64):
    return (fr(input.real) - fi(input.imag)).type(dtype) \
        + 1j * (fr(input.imag) + fi(input.real)).type(dtype)


def complex_relu(input):
    return F.relu(input.real).type(torch.complex64) + 1j * F.relu(input.imag).type(torch.complex64)


def complex_matmul(A, B):
    outp_real = torch.matmul(A.real, B.real) - torch.matmul(A.imag, B.imag)
    outp_imag = torch.matmul(A.real, B.imag) + torch.matmul(A.imag, B.real)
    return outp_real.type(torch.complex64) + 1j * outp_imag.type(torch.complex64)


class ComplexLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc_r = nn.Linear(in_features, out_features)
        self.fc_i = nn.Linear(in_features, out_features)

    def forward(self, input):
        return apply_complex(self.fc_r, self.fc_i, input)


class ComplexNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = ComplexLinear(6, 8)
        self.fc2 = ComplexLinear(8, 2)

    def forward(self, x):
        x = complex_relu(self.fc1(x))
        x = self.fc2(x)
        return F.log_softmax(x.abs(), dim=1)


A = torch.randn(3, 4, dtype=torch.cfloat)
B = torch.randn(4, 2, dtype=torch.cfloat)
print("matmul close:", torch.allclose(A @ B, complex_matmul(A, B), atol=1e-6))
print(A @ B)

n = 32
labels = torch.randint(0, 2, (n,))
phase = labels.float()[:, None] * 1.5 + 0.3 * torch.randn(n, 6)
data = torch.polar(torch.rand(n, 6) + 0.5, phase)
print("data:", data.dtype, data.shape, data[0, :3])

model = ComplexNet()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(5):
    out = model(data)
    loss = F.nll_loss(out, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (out.argmax(1) == labels).float().mean()
    print(f"epoch {epoch}: loss {loss.item():.4f} acc {acc.item():.3f}")
print("fc1 real grad:", model.fc1.fc_r.weight.grad[0])
print("output:", model.fc1(data[:2]))

# a complex leaf and its gradient (conjugate Wirtinger convention)
z = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
w = torch.tensor([1 + 1j, 2 - 1j, 0.5j])
(z * w).abs().sum().backward()
print("z.grad:", z.grad)
