# Source article 003: model.eval() vs torch.no_grad().
#
# They answer different questions. eval() switches layers to evaluation behaviour: dropout keeps
# every value, batch norm normalises with its running statistics (and stops updating them).
# It does not stop autograd: outputs still require grad and have a grad_fn. no_grad stops
# autograd (no grad_fn, requires_grad False) but leaves dropout and batch norm in training mode.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.Dropout(0.5))
x = torch.randn(4, 3)
# Training mode: dropout zeroes entries (the rest doubled); batch norm updates running_mean.
y = model(x)
print(y, model[1].running_mean)
# no_grad in training mode: a graph-free result, yet dropout still drops and running_mean moves.
with torch.no_grad():
    y_no_grad = model(x)
print(y_no_grad, model[1].running_mean)
# eval(): no dropout, the running statistics, which stay put; autograd still records.
model.eval()
y_eval = model(x)
print(y_eval.requires_grad, y_eval.grad_fn, model[1].running_mean)
# Both: what inference wants, evaluation behaviour and no graph.
with torch.no_grad():
    y_infer = model(x)
print(y_infer.requires_grad, y_infer.grad_fn, (y_infer == y_eval).all())
# An eval() output can still be backpropagated into the weights.
y_eval.sum().backward()
model.train()
print(model[0].weight.grad, model.training)
