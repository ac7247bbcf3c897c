# Corpus program, written for gradsh (no code copied). Modelled on the common "half precision
# inference" recipe of blog posts and forum answers on model.half() (e.g. the PyTorch forum
# thread https://discuss.pytorch.org/t/training-with-half-precision/11815 and the nn.Module
# docs of half()/bfloat16()/to(dtype)): convert a trained float32 model with .half() /
# .bfloat16(), feed inputs of the same dtype, compare with the float32 outputs, and see the
# dtype errors when input and weights disagree; float16's range (65504) overflowing where
# float32 does not; keeping BatchNorm in float32 while the rest is half.
# Differences: a small CNN + MLP of our own trained for a few steps on random data; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, 3, stride=2)
        self.fc1 = nn.Linear(8 * 3 * 3, 32)
        self.norm = nn.LayerNorm(32)
        self.fc2 = nn.Linear(32, 5)

    def forward(self, x):
        x = F.relu(self.bn(self.conv1(x)))
        x = F.gelu(self.conv2(x))
        x = torch.flatten(x, 1)
        x = self.norm(F.silu(self.fc1(x)))
        return F.log_softmax(self.fc2(x), dim=1)


model = SmallNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(16, 1, 8, 8)
y = torch.randint(0, 5, (16,))
for step in range(5):
    opt.zero_grad()
    loss = F.nll_loss(model(x), y)
    loss.backward()
    opt.step()
    print(step, loss.item())
model.eval()
with torch.no_grad():
    ref = model(x)
print(ref[:2])

for dtype in (torch.float16, torch.bfloat16):
    m = SmallNet()
    m.load_state_dict(model.state_dict())
    m.eval()
    m = m.half() if dtype is torch.float16 else m.bfloat16()
    print(dtype, m.conv1.weight.dtype, m.bn.running_mean.dtype, m.bn.num_batches_tracked.dtype)
    with torch.no_grad():
        out = m(x.to(dtype))
        print(out.dtype, out[:2])
        print((out.float() - ref).abs().max() < 0.1, out.argmax(1).tolist() == ref.argmax(1).tolist())
        h = F.relu(m.bn(m.conv1(x.to(dtype))))
        print(h.dtype, h[0, 0, :2])
        z = m.fc1(torch.flatten(F.gelu(m.conv2(h)), 1))
        print(z[0, :6], F.silu(z)[0, :6], m.norm(F.silu(z))[0, :6])
    try:
        m(x)
    except RuntimeError as e:
        print("RuntimeError:", e)

half_model = SmallNet()
half_model.load_state_dict(model.state_dict())
half_model.eval().half()
for module in half_model.modules():
    if isinstance(module, nn.BatchNorm2d):
        module.float()
print(half_model.bn.weight.dtype, half_model.conv1.weight.dtype)
try:
    with torch.no_grad():
        print(half_model(x.half())[:2])
except RuntimeError as e:
    print("RuntimeError:", e)

big = torch.tensor([300.0, 70000.0, 1e-8, 6e-5])
print(big.half(), big.bfloat16(), big.half().float())
print(torch.tensor([200.0], dtype=torch.float16) * 400, (torch.tensor([200.0]) * 400).half())
a = torch.full((256,), 300.0, dtype=torch.float16)
print(a.sum(), a.float().sum(), (a * a).sum(), a.dot(a) if False else (a.float() * a.float()).sum())
print(torch.softmax(torch.tensor([10.0, 11.0, 12.0], dtype=torch.float16), 0), torch.tensor([1.0001], dtype=torch.float16))
