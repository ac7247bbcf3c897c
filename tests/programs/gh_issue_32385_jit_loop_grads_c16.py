# Corpus program modelled on the PyTorch issue "[JIT] Incorrect gradient results under script
# mode" (https://github.com/pytorch/pytorch/issues/32385): a module that loops tanh(h +
# linear(xs[i])) over the first axis; the weight gradient of y.sum() eager, traced with
# torch.jit.trace and compiled with torch.jit.script (the issue reported the script one wrong on
# the second call; in PyTorch 2.13 all three agree).
# Changed: a seed; torch.jit.script(mymod) without the stray example-inputs argument; the
# scripted module is called twice (the failing case); print(script_mod.code) is left
# out (TorchScript source text) and the modules' reprs are printed instead; the gradients are
# compared with torch.allclose. Written for gradsh.
import torch


class MyModule(torch.nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.linear = torch.nn.Linear(4, 4, bias=False)

    def forward(self, xs):
        h = torch.zeros(3, 4)
        for i in range(xs.size(0)):
            h = torch.tanh(h + self.linear(xs[i]))
        return h


torch.manual_seed(0)
mymod = MyModule()
x = torch.rand(10, 3, 4)

y = mymod(x)
y.sum().backward()
eager = mymod.linear.weight.grad.clone()
print(mymod.linear.weight.grad)
mymod.linear.weight.grad.zero_()

traced_mod = torch.jit.trace(mymod, (x,))
print(traced_mod)
y = traced_mod(x)
y.sum().backward()
print(traced_mod.linear.weight.grad)
print(torch.allclose(traced_mod.linear.weight.grad, eager))
traced_mod.linear.weight.grad.zero_()

script_mod = torch.jit.script(mymod)
print(script_mod)
for call in range(2):
    y = script_mod(x)
    y.sum().backward()
    print(call, script_mod.linear.weight.grad)
    print(torch.allclose(script_mod.linear.weight.grad, eager))
    script_mod.linear.weight.grad.zero_()
print(mymod.linear.weight.grad)
