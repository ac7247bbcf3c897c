# Corpus program modelled on the Stack Overflow question "What is the difference between
# register_parameter and register_buffer in PyTorch?" (https://stackoverflow.com/questions/57540745)
# and its answers: parameters are returned by parameters() and trained, buffers are not but
# are saved in state_dict (unless persistent=False) and move with .to()/.double(); a plain
# tensor attribute is neither; errors when registering under a taken name.
# Changed: a small module and a seed; errors are caught and printed. Written for gradsh.
import torch
import torch.nn as nn


class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_parameter("w", nn.Parameter(torch.ones(2, 2)))
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("scratch", torch.arange(3), persistent=False)
        self.plain = torch.full((2,), 7.0)
        self.lin = nn.Linear(2, 1)

    def forward(self, x):
        self.running.add_(x.mean(0))
        return self.lin(x @ self.w)


torch.manual_seed(0)
m = MyModule()
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_buffers()])
print(list(m.state_dict().keys()))
print(m.state_dict())
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.randn(4, 2)
loss = m(x).pow(2).sum()
loss.backward()
opt.step()
print(m.w)
print(m.running, m.running.requires_grad)
m.double()
print(m.w.dtype, m.running.dtype, m.scratch.dtype, m.plain.dtype)
try:
    m.register_buffer("w", torch.zeros(1))
except KeyError as e:
    print("KeyError", e)
try:
    m.register_parameter("running", nn.Parameter(torch.zeros(1)))
except KeyError as e:
    print("KeyError", e)
try:
    m.register_buffer("bad.name", torch.zeros(1))
except KeyError as e:
    print("KeyError", e)
try:
    m.w = torch.zeros(2, 2)
except TypeError as e:
    print("TypeError", e)
try:
    m.register_buffer("b2", [1, 2])
except TypeError as e:
    print("TypeError", e)
m.running = None
print(list(m.state_dict().keys()))
m.register_buffer("extra", None)
print([n for n, _ in m.named_buffers()], "extra" in m.state_dict())
m2 = MyModule()
missing = m2.load_state_dict({k: v.float() for k, v in MyModule().state_dict().items()})
print(missing)
print(m2)
