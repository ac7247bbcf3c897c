# Corpus program modelled on the PyTorch issue "Module full backward hook does not work
# (perhaps because input does not require grad)": calling model.forward(...) directly skips
# the hooks; calling model(...) runs them, and with no input requiring grad the hook fires
# with grad_input (None,):
# https://github.com/pytorch/pytorch/issues/117925
# Changed: both calls are shown in one program; forward pre/post hooks added to show the same
# rule. Written for gradsh.
import torch
import torch.nn as nn


class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.some_param = nn.Parameter(torch.tensor(1.0))

    def forward(self, x):
        return self.some_param * x


def full_backward_hook(module, grad_input, grad_output):
    print("full_backward_hook called with", module, grad_input, grad_output)


model = MyModule()
model.register_full_backward_hook(full_backward_hook)
model.register_forward_pre_hook(lambda m, inp: print("pre hook", inp))
model.register_forward_hook(lambda m, inp, out: print("forward hook", inp, out))

print("model.some_param.grad:", model.some_param.grad)
out = model.forward(torch.tensor(5))
print("calling backward")
out.backward()
print("model.some_param.grad:", model.some_param.grad)

model.some_param.grad = None
out = model(torch.tensor(5))
print(out)
print("calling backward")
out.backward()
print("model.some_param.grad:", model.some_param.grad)

x = torch.tensor(2.0, requires_grad=True)
out = model(x)
out.backward()
print(x.grad, model.some_param.grad)
