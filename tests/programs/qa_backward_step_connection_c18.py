# Corpus program modelled on the Stack Overflow question "pytorch - connection between
# loss.backward() and optimizer.step()" (https://stackoverflow.com/questions/53975717) and its
# answers: the optimizer holds references to the parameters, loss.backward() fills each
# parameter's .grad, optimizer.step() reads .grad and updates the data in place (the answer's
# x.grad / x example with SGD, then the same by hand); a tensor the optimizer does not know
# is not updated; zero_grad(set_to_none) and the optimizer's repr.
# Changed: a seed, small synthetic data. Written for gradsh.
import torch

x = torch.tensor([1., 2.], requires_grad=True)
y = 100 * x
loss = y.sum()
print(x.grad)
loss.backward()
print(x.grad)
optimizer = torch.optim.SGD([x], lr=0.001)
optimizer.step()
print(x)
print(optimizer)
print(optimizer.param_groups[0]["params"][0] is x)

with torch.no_grad():
    x_manual = torch.tensor([1., 2.]) - 0.001 * torch.tensor([100., 100.])
print(torch.equal(x.detach(), x_manual))

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
other = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-2)
print(opt)
data = torch.randn(8, 3)
target = data @ torch.tensor([1.0, -2.0, 0.5])
for step in range(3):
    opt.zero_grad()
    loss = ((data @ w + data @ other - target) ** 2).mean()
    loss.backward()
    print(step, round(loss.item(), 5), w.grad is not None, other.grad.norm().item() > 0)
    opt.step()
print(w)
print(other)
print(opt.state[w]["momentum_buffer"])
opt.zero_grad(set_to_none=False)
print(w.grad)
opt.zero_grad()
print(w.grad)
other.grad = None
opt.add_param_group({"params": [other], "lr": 0.5})
print(opt)
