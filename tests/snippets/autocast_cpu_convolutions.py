# torch.autocast on the CPU casts the convolutions (conv1d/2d, conv_transpose1d/2d, as
# functions, as torch.conv2d and through the nn modules) to the region's lower precision, as
# its products: their results, the float32 ops after them, and the gradients that flow back
# to float32 parameters; the bias gradients of half-precision convolutions, which accumulate in
# float32 (a sum in bfloat16 itself stalls). Left out: conv3d in bfloat16 (not served yet).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 6, 6)
w = torch.randn(4, 3, 3, 3, requires_grad=True)
b = torch.randn(4, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = F.conv2d(x, w, b, padding=1)
    print(y.dtype, y[0, 0, 0], y.grad_fn, y.grad_fn.next_functions)
    print(torch.conv2d(x, w).dtype, F.conv1d(torch.randn(1, 2, 5), torch.randn(3, 2, 2)).dtype)
    print(F.conv_transpose1d(torch.randn(1, 2, 5), torch.randn(2, 3, 2)).dtype,
          F.conv_transpose2d(x, torch.randn(3, 2, 3, 3)).dtype)
    net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.ConvTranspose2d(4, 2, 2, stride=2))
    out = net(x)
    print(out.dtype, out[0, 0, 0, :4])
    loss = F.mse_loss(out, torch.zeros_like(out))
    print(loss.dtype, loss)
    print(F.softmax(y, 1).dtype, F.cross_entropy(y.flatten(2).mean(2), torch.tensor([0, 1])))
loss.backward()
(y.float().sum()).backward()
print(w.grad.dtype, w.grad[0, 0], b.grad)
print(net[0].weight.grad.dtype, net[0].weight.grad[0, 0, 0], net[2].weight.grad[0, 0])
print(net[0].bias.grad, net[2].bias.grad)
with torch.autocast("cpu", dtype=torch.float16):
    print(F.conv2d(x, w.detach()).dtype)
with torch.autocast("cpu", enabled=False):
    print(F.conv2d(x, w.detach()).dtype)
print(F.conv2d(x.double(), w.detach().double()).dtype)
with torch.autocast("cpu"):
    print(F.conv2d(x.double(), w.detach().double()).dtype)
for dtype in (torch.bfloat16, torch.float16):
    conv = nn.Conv2d(3, 8, 3, padding=1).to(dtype)
    deconv = nn.ConvTranspose1d(3, 2, 3).to(dtype)
    (torch.relu(conv(torch.randn(8, 3, 12, 12, dtype=dtype))).float().sum() / 100).backward()
    deconv(torch.randn(16, 3, 40, dtype=dtype)).float().mul(0.01).sum().backward()
    print(dtype, conv.bias.grad, deconv.bias.grad)
