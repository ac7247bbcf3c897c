# torch.autocast on the CPU (bfloat16 products, float32 losses, cached casts of parameters,
# nested regions, the decorator form, the deprecated torch.cpu.amp / torch.cuda.amp spellings)
# and torch.amp.GradScaler ("cpu": scaling, inf skips, backoff, growth; a CUDA scaler warns
# and turns itself off on the CPU build), as PyTorch's amp docs use them.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(36, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scaler = torch.amp.GradScaler("cpu")
x = torch.randn(8, 1, 6, 6)
y = torch.randint(0, 3, (8,))
for step in range(3):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = model(x)
        loss = F.cross_entropy(out, y)
    print(step, out.dtype, loss.dtype, loss.item(), loss.grad_fn)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    print(scaler.get_scale(), model[3].weight.grad.abs().sum())
w = torch.randn(3, 3, requires_grad=True)
with torch.autocast("cpu"):
    a = torch.mm(w, w)
    b = w @ w
    with torch.autocast("cpu", enabled=False):
        c = torch.mm(w, w)
    print(a.dtype, b.dtype, c.dtype, a.grad_fn.next_functions[0][0] is a.grad_fn.next_functions[1][0])
    (a.float().sum() + b.float().sum()).backward()
print(w.grad)
with torch.autocast("cpu", cache_enabled=False):
    a = torch.mm(w, w)
    print(a.grad_fn.next_functions[0][0] is a.grad_fn.next_functions[1][0])
with torch.autocast("cpu", dtype=torch.float32):
    print(torch.mm(w, w).dtype)
print(scaler.state_dict())
s2 = torch.amp.GradScaler("cpu", init_scale=4.0, growth_interval=1)
p = nn.Parameter(torch.ones(2))
o2 = torch.optim.SGD([p], lr=1.0)
(s2.scale(p * float("inf")).sum()).backward()
s2.step(o2); s2.update()
print(p, s2.get_scale())
(s2.scale(p * 2).sum()).backward()
s2.unscale_(o2)
print(p.grad)
s2.step(o2); s2.update()
print(p, s2.get_scale())
lin = nn.Linear(8, 4)
x = torch.randn(5, 8)
y = torch.randn(5, 4)
print(torch.is_autocast_enabled(), torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
with torch.autocast("cpu", dtype=torch.bfloat16):
    print(torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled())
    out = lin(x)
    print(out, out.grad_fn, out.grad_fn.next_functions)
    loss = F.mse_loss(out, y)
    print(loss, loss.grad_fn, loss.grad_fn.next_functions)
    z = x @ x.t()
    print(z.dtype, (x + 1).dtype, torch.relu(out).dtype, out.sum().dtype, torch.cat([out, y]).dtype)
    print(F.cross_entropy(out, torch.tensor([0, 1, 2, 3, 0])).dtype, out.softmax(1).dtype)
    print(torch.mm(x.double(), x.double().t()).dtype)
loss.backward()
print(lin.weight.grad, lin.weight.grad.dtype)
with torch.autocast(device_type="cpu"):
    print(lin(x).dtype)
with torch.autocast("cpu", enabled=False):
    print(lin(x).dtype)
with torch.amp.autocast("cpu", dtype=torch.float16):
    print(lin(x).dtype)
with torch.cpu.amp.autocast():
    print(lin(x).dtype)
@torch.autocast("cpu")
def f(a):
    return lin(a)
print(f(x).dtype)
with torch.autocast("cuda"):
    print(lin(x).dtype)
scaler2 = torch.amp.GradScaler("cpu")
print(scaler2.is_enabled(), scaler2.get_scale())
