# Corpus program, written for gradsh (no code copied). Modelled on the Chinese blog posts about
# "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"
# (https://deepinout.com/pytorch/pytorch-questions/75_pytorch_runtime_error_element_0_of_tensors_does_not_require_grad_and_does_not_have_a_grad_fn.html,
# https://duoke360.com/post/35061 and https://php.bkmy88.com/faq/1835025.html): the causes they
# list (a tensor created without requires_grad, .item() turning the result into a float,
# .detach() cutting the graph, every parameter frozen, an argmax in the loss path) each
# reproduced and printed, then the fixes (requires_grad=True, detach().numpy() and a new leaf,
# freezing only the first layer, the loss on the logits).
# Differences: our own code; each error caught and printed; seeded; no training data.
import torch
import torch.nn as nn

torch.manual_seed(0)

x = torch.tensor([1.0])
y = x * 2
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(y.requires_grad, y.grad_fn)

x = torch.tensor([1.0], requires_grad=True)
y = torch.sin(x)
z = y.item()
print(type(z).__name__, round(z, 4))
try:
    z.backward()
except AttributeError as e:
    print("AttributeError:", e)

x = torch.tensor([1.0], requires_grad=True)
y = x.detach()
z = y * 2
print(y.requires_grad, z.requires_grad, z.grad_fn)
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

model = nn.Linear(1, 1)
for param in model.parameters():
    param.requires_grad = False
out = model(torch.tensor([1.0]))
print(out.requires_grad, out.grad_fn)
try:
    out.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# the fixes
x = torch.tensor([1.0], requires_grad=True)
y = x * 2
y.backward()
print(x.grad)

x = torch.tensor([1.0], requires_grad=True)
y = x + 1
z = y.detach().numpy()
new_tensor = torch.from_numpy(z).requires_grad_(True)
print(z, new_tensor, new_tensor.is_leaf)

model = nn.Sequential(nn.Linear(10, 5), nn.ReLU(), nn.Linear(5, 1))
for param in model[0].parameters():
    param.requires_grad = False
print(any(p.requires_grad for p in model.parameters()))
print([name for name, p in model.named_parameters() if p.requires_grad])
model(torch.randn(3, 10)).sum().backward()
print(model[0].weight.grad, model[2].weight.grad.shape)

# argmax in the loss path: hard predictions have no grad_fn
clf = nn.Linear(4, 3)
X = torch.randn(6, 4)
y_true = torch.tensor([0, 1, 2, 1, 0, 2])
logits = clf(X)
preds = torch.softmax(logits, dim=1).argmax(dim=1).type(torch.float32)
print(preds, preds.requires_grad)
loss = nn.functional.mse_loss(preds, y_true.float())
try:
    loss.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
loss = nn.CrossEntropyLoss()(logits, y_true)
loss.backward()
print(loss.grad_fn.name(), clf.weight.grad.abs().sum() > 0)
