# Corpus program modelled on the PyTorch forum thread "Why weight sharing of input and output
# embeddings is not broken by optim.step()?" (fc1.weight = fc2.weight = one Parameter; the
# gradient from both uses accumulates in the shared .grad, the optimizer updates it once):
# https://discuss.pytorch.org/t/why-weight-sharing-of-input-and-output-embeddings-is-not-broken-by-optim-step/170976
# Changed: torchviz's graph picture is replaced by printing grad_fn chains and the grads; an SGD
# step shows both layers still share the updated value. Written for gradsh.
import torch
import torch.nn as nn

fc1 = nn.Linear(1, 1)
fc2 = nn.Linear(1, 1)

# parameter initialisation
with torch.no_grad():
    fc1.weight = fc2.weight = nn.Parameter(torch.tensor([[2.0]]))  # weight sharing
    fc1.bias = nn.Parameter(torch.tensor([1.0]))
    fc2.bias = nn.Parameter(torch.tensor([-1.0]))

x = torch.tensor([[3.0]])
h = fc1(x)
out = fc2(h)
print(h, out)
print(out.grad_fn, out.grad_fn.next_functions)
out.backward()
print("shared weight grad:", fc1.weight.grad, fc2.weight.grad)
print("biases:", fc1.bias.grad, fc2.bias.grad)
print(fc1.weight is fc2.weight)

model = nn.Sequential(fc1, fc2)
print([n for n, _ in model.named_parameters()])
print(len(list(model.parameters())))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.step()
print(fc1.weight, fc2.weight)
print(model.state_dict())
