# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "Training with Half Precision" (https://discuss.pytorch.org/t/training-with-half-precision/11815)
# and its answers: converting the model with .half() (or .bfloat16()) and feeding inputs of the
# same dtype, keeping the loss in float32 (output.float()), looking at the gradients' dtype and
# at underflow to zero in float16, and the advice to keep a float32 master copy of the weights
# (the optimizer steps on float32 copies, the half model gets the rounded weights back).
# Differences: a small Conv2d + Linear + LayerNorm classifier on random data; both float16 and
# bfloat16; a few steps; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 8 * 8, 10)
        self.ln = nn.LayerNorm(10)

    def forward(self, x):
        return self.ln(self.fc(F.relu(self.conv(x)).flatten(1)))


torch.manual_seed(1)
x = torch.randn(8, 3, 8, 8)
y = torch.randint(0, 10, (8,))
for dtype in (torch.float16, torch.bfloat16):
    torch.manual_seed(0)
    model = Net().to(dtype)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(3):
        opt.zero_grad()
        out = model(x.to(dtype))
        loss = F.cross_entropy(out.float(), y)
        loss.backward()
        opt.step()
        print(dtype, step, loss.item(), out.dtype, model.conv.weight.grad.dtype)
    print(model.conv.weight.grad[0, 0], model.ln.weight.grad, model.ln.bias.grad)
    print(model.fc.bias.grad[:4], model.conv.bias.grad)

tiny = torch.tensor([1e-4, 1e-6, 1e-8], dtype=torch.float16)
print(tiny, tiny * tiny, torch.tensor([1e-4, 1e-6, 1e-8]).bfloat16() ** 2)

torch.manual_seed(0)
model = Net().half()
master = [p.detach().clone().float().requires_grad_() for p in model.parameters()]
opt = torch.optim.SGD(master, lr=0.05, momentum=0.9)
scale = 128.0
for step in range(3):
    model.zero_grad()
    loss = F.cross_entropy(model(x.half()).float(), y)
    (loss * scale).backward()
    for m, p in zip(master, model.parameters()):
        m.grad = p.grad.float() / scale
    opt.step()
    with torch.no_grad():
        for m, p in zip(master, model.parameters()):
            p.copy_(m)
    print("master", step, loss.item(), master[0].dtype, model.fc.weight.dtype)
print(master[2][0, :4], model.fc.weight[0, :4])
print(opt.state[master[-1]]["momentum_buffer"])
