# Corpus program, written for gradsh (no code copied). Modelled on Justin Johnson's
# pytorch-examples (MIT): https://github.com/jcjohnson/pytorch-examples
# (tensor/two_layer_net_tensor.py, autograd/two_layer_net_custom_function.py,
# nn/two_layer_net_optim.py, nn/dynamic_net.py).
# Like the originals: N, D_in, H, D_out = 64, 1000, 100, 10; a bias-free ReLU net trained with
# hand-written backprop on tensors (mm, clamp(min=0), grad_h[h < 0] = 0, in-place updates with
# learning_rate 1e-6); the same net with a custom autograd.Function MyReLU (save_for_backward,
# grad_output.clone() with the mask assignment) and weights updated under no_grad with
# grad.zero_(); the nn.Sequential net with MSELoss(reduction='sum') and Adam(lr=1e-4); and the
# DynamicNet reusing middle_linear random.randint(0, 3) times, trained with SGD(momentum=0.9).
# Each prints `t loss.item()`.
# Differences: seeded (torch and random); 100 steps per part instead of 500, printing every 10th.
import random

import torch

torch.manual_seed(0)
random.seed(0)
device = torch.device('cpu')
N, D_in, H, D_out = 64, 1000, 100, 10

# Part 1: tensors and manual backprop
x = torch.randn(N, D_in, device=device)
y = torch.randn(N, D_out, device=device)
w1 = torch.randn(D_in, H, device=device)
w2 = torch.randn(H, D_out, device=device)
learning_rate = 1e-6
for t in range(100):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 10 == 0:
        print(t, loss.item())
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)
    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2


# Part 2: a custom autograd Function
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        grad_x = grad_output.clone()
        grad_x[x < 0] = 0
        return grad_x


w1 = torch.randn(D_in, H, device=device, requires_grad=True)
w2 = torch.randn(H, D_out, device=device, requires_grad=True)
for t in range(100):
    y_pred = MyReLU.apply(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 10 == 0:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(y_pred.grad_fn, y_pred.grad_fn.next_functions[0][0])

# Part 3: nn + optim
model = torch.nn.Sequential(
    torch.nn.Linear(D_in, H),
    torch.nn.ReLU(),
    torch.nn.Linear(H, D_out),
)
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
for t in range(100):
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    if t % 10 == 0:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


# Part 4: a dynamic graph
class DynamicNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super(DynamicNet, self).__init__()
        self.input_linear = torch.nn.Linear(D_in, H)
        self.middle_linear = torch.nn.Linear(H, H)
        self.output_linear = torch.nn.Linear(H, D_out)

    def forward(self, x):
        h_relu = self.input_linear(x).clamp(min=0)
        for _ in range(random.randint(0, 3)):
            h_relu = self.middle_linear(h_relu).clamp(min=0)
        y_pred = self.output_linear(h_relu)
        return y_pred


model = DynamicNet(D_in, H, D_out)
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
for t in range(100):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 10 == 0:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
