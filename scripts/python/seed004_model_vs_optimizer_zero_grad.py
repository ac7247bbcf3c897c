# Source article 004: model.zero_grad() vs optimizer.zero_grad().
#
# model.zero_grad() clears the grads of the model's parameters(); optimizer.zero_grad() those of
# its param_groups. With optimizer = SGD(model.parameters()) they are the same set, so the two
# agree; they differ when two models share one optimizer, or one model has two optimizers.
# PyTorch 2 (set_to_none=True by default) makes the grads None, not zeros: watch the grad column.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.tensor([[1., 2.], [3., 4.]])
# Two models, one optimizer over both: encoder.zero_grad() leaves the decoder's grads.
encoder = nn.Linear(2, 2)
decoder = nn.Linear(2, 1)
opt = torch.optim.SGD([*encoder.parameters(), *decoder.parameters()], lr=0.1)
loss = decoder(encoder(x)).sum()
loss.backward()
encoder.zero_grad()
print(encoder.weight.grad, decoder.weight.grad)
opt.zero_grad()
print(decoder.weight.grad)
# One model, two optimizers (a smaller learning rate for the bias): each clears only its own.
model = nn.Linear(2, 1)
opt_w = torch.optim.SGD([model.weight], lr=0.1)
opt_b = torch.optim.SGD([model.bias], lr=0.01)
model(x).sum().backward()
opt_w.step()
opt_w.zero_grad()
print(model.weight.grad, model.bias.grad)
opt_b.step()
model.zero_grad()
print(model.weight.grad, model.bias.grad)
# The article's source code zeroes in place (detach_ then zero_): set_to_none=False does that.
model(x).sum().backward()
model.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
