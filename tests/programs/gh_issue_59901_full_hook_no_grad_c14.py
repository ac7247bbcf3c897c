# Corpus program modelled on the PyTorch issue "Full Backward Hooks get applied even when grad
# is disabled" (a module with a full backward hook called under torch.no_grad: its output does
# not require grad, and a later backward raises "element 0 of tensors does not require grad and
# does not have a grad_fn", not a hook error):
# https://github.com/pytorch/pytorch/issues/59901
# Changed: a small Linear stands in for the model; the errors are caught and printed;
# the same call with grad enabled fires the hook. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Linear(2, 2)
m.register_full_backward_hook(lambda mod, gi, go: print("hook fired", gi, go))

t1 = torch.randn(1, 2, requires_grad=True)
with torch.no_grad():
    t2 = m(t1)
print(t2.requires_grad, t2.grad_fn)
t3 = t2.sum()
try:
    t3.backward()
except RuntimeError as e:
    print(e)

with torch.inference_mode():
    t4 = m(t1)
print(t4.requires_grad, t4.is_inference())

t5 = m(t1)
print(t5.grad_fn)
t5.sum().backward()
print(t1.grad)

with torch.set_grad_enabled(False):
    t6 = m(t1.detach())
print(t6.requires_grad)
with torch.enable_grad():
    t7 = m(torch.ones(1, 2))
t7.sum().backward()
print(m.weight.grad)
