# Corpus program modelled on the Q&A "PyTorch torch.no_grad versus requires_grad=False"
# (https://codemia.io/knowledge-hub/path/pytorch_torchno_grad_versus_requires_gradfalse):
# no_grad builds no graph at all (outputs have requires_grad False even for trainable inputs),
# requires_grad_(False) freezes parameters but gradients still flow to earlier layers and
# inputs, set_grad_enabled, inference_mode's tensors, the decorator form, and the error when
# backward finds no graph. Changed: a tiny two-layer model with a seed; errors caught and printed.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(2, 3, requires_grad=True)

with torch.no_grad():
    y = model(x)
print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# freeze the first layer only
for p in model[0].parameters():
    p.requires_grad_(False)
y = model(x)
print(y.requires_grad, type(y.grad_fn).__name__)
y.sum().backward()
print(model[0].weight.grad, model[2].weight.grad)
print(x.grad)
print([n for n, p in model.named_parameters() if p.requires_grad])

# freeze everything: input still gets a gradient
model.requires_grad_(False)
x.grad = None
y = model(x)
print(y.requires_grad)
y.sum().backward()
print(x.grad)

# nothing requires grad at all
z = model(torch.randn(2, 3))
print(z.requires_grad, z.grad_fn)
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

model.requires_grad_(True)
with torch.set_grad_enabled(False):
    print(model(x).requires_grad)
with torch.set_grad_enabled(True):
    print(model(x).requires_grad)


@torch.no_grad()
def predict(inp):
    return model(inp)


print(predict(x).requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    w = model(x)
print(w.requires_grad, w.is_inference(), torch.is_inference_mode_enabled())
try:
    w.requires_grad_()
    (w * 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# parameters updated under no_grad, as optimizers do
with torch.no_grad():
    for p in model.parameters():
        p -= 0.1 * torch.ones_like(p)
print(model[2].bias, model[2].bias.requires_grad, model[2].bias.is_leaf)
try:
    model[2].bias -= 1
except RuntimeError as e:
    print("RuntimeError:", e)
h = x * 2
with torch.no_grad():
    k = h * 3
print(h.requires_grad, k.requires_grad, k.is_leaf)
d = h.detach()
print(d.requires_grad, d.is_leaf, d.data_ptr() == h.data_ptr())
