# Corpus program, written for gradsh (no code copied). Modelled on "Deep Learning with PyTorch"
# chapter 6 notebooks (Apache-2.0):
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch6/1_neural_networks.ipynb
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch6/3_nn_module_subclassing.ipynb
# Like the originals: the book's thermometer readings (t_c, t_u) unsqueezed to columns, a
# randperm train / validation split, nn.Linear(1, 1) applied to one input, to a batch of ones
# and printed with its Parameter reprs; training_loop printing "Epoch ..., Training loss ...,
# Validation loss ..." with a hand-written MSE and with nn.MSELoss; nn.Sequential (plain and
# with an OrderedDict of names), the parameter shapes and named_parameters; the subclassed
# models (SubclassModel with Tanh module, SubclassFunctionalModel with torch.tanh) and the
# "{:21} {:19} {}" table of parameter names, shapes and numel; the hidden layer's gradient.
# Differences: fewer epochs (2000 / 2000 / 1500 instead of 3000 / 3000 / 5000), printing every
# 500; torch.manual_seed added.
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.optim as optim

torch.set_printoptions(edgeitems=2, linewidth=75)
torch.manual_seed(123)
t_c = [0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0]
t_u = [35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]
t_c = torch.tensor(t_c).unsqueeze(1)
t_u = torch.tensor(t_u).unsqueeze(1)
print(t_u.shape)
n_samples = t_u.shape[0]
n_val = int(0.2 * n_samples)
shuffled_indices = torch.randperm(n_samples)
train_indices = shuffled_indices[:-n_val]
val_indices = shuffled_indices[-n_val:]
print(train_indices, val_indices)
t_u_train = t_u[train_indices]
t_c_train = t_c[train_indices]
t_u_val = t_u[val_indices]
t_c_val = t_c[val_indices]
t_un_train = 0.1 * t_u_train
t_un_val = 0.1 * t_u_val

linear_model = nn.Linear(1, 1)
print(linear_model(t_un_val))
print(linear_model.weight)
print(linear_model.bias)
x = torch.ones(1)
print(linear_model(x))
x = torch.ones(10, 1)
print(linear_model(x))
linear_model = nn.Linear(1, 1)
optimizer = optim.SGD(linear_model.parameters(), lr=1e-2)
print(list(linear_model.parameters()))


def training_loop(n_epochs, optimizer, model, loss_fn, t_u_train, t_u_val, t_c_train, t_c_val):
    for epoch in range(1, n_epochs + 1):
        t_p_train = model(t_u_train)
        loss_train = loss_fn(t_p_train, t_c_train)
        t_p_val = model(t_u_val)
        loss_val = loss_fn(t_p_val, t_c_val)
        optimizer.zero_grad()
        loss_train.backward()
        optimizer.step()
        if epoch == 1 or epoch % 500 == 0:
            print(f"Epoch {epoch}, Training loss {loss_train.item():.4f},"
                  f" Validation loss {loss_val.item():.4f}")


def loss_fn(t_p, t_c):
    squared_diffs = (t_p - t_c)**2
    return squared_diffs.mean()


linear_model = nn.Linear(1, 1)
optimizer = optim.SGD(linear_model.parameters(), lr=1e-2)
training_loop(n_epochs=2000, optimizer=optimizer, model=linear_model, loss_fn=loss_fn,
              t_u_train=t_un_train, t_u_val=t_un_val, t_c_train=t_c_train, t_c_val=t_c_val)
print()
print(linear_model.weight)
print(linear_model.bias)

linear_model = nn.Linear(1, 1)
optimizer = optim.SGD(linear_model.parameters(), lr=1e-2)
training_loop(n_epochs=2000, optimizer=optimizer, model=linear_model, loss_fn=nn.MSELoss(),
              t_u_train=t_un_train, t_u_val=t_un_val, t_c_train=t_c_train, t_c_val=t_c_val)
print()
print(linear_model.weight)
print(linear_model.bias)

seq_model = nn.Sequential(nn.Linear(1, 13), nn.Tanh(), nn.Linear(13, 1))
print(seq_model)
print([param.shape for param in seq_model.parameters()])
for name, param in seq_model.named_parameters():
    print(name, param.shape)
seq_model = nn.Sequential(OrderedDict([
    ('hidden_linear', nn.Linear(1, 8)),
    ('hidden_activation', nn.Tanh()),
    ('output_linear', nn.Linear(8, 1))
]))
print(seq_model)
for name, param in seq_model.named_parameters():
    print(name, param.shape)
print(seq_model.output_linear.bias)
optimizer = optim.SGD(seq_model.parameters(), lr=1e-3)
training_loop(n_epochs=1500, optimizer=optimizer, model=seq_model, loss_fn=nn.MSELoss(),
              t_u_train=t_un_train, t_u_val=t_un_val, t_c_train=t_c_train, t_c_val=t_c_val)
print('output', seq_model(t_un_val))
print('answer', t_c_val)
print('hidden', seq_model.hidden_linear.weight.grad)


class SubclassModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden_linear = nn.Linear(1, 13)
        self.hidden_activation = nn.Tanh()
        self.output_linear = nn.Linear(13, 1)

    def forward(self, input):
        hidden_t = self.hidden_linear(input)
        activated_t = self.hidden_activation(hidden_t)
        return self.output_linear(activated_t)


class SubclassFunctionalModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden_linear = nn.Linear(1, 14)
        self.output_linear = nn.Linear(14, 1)

    def forward(self, input):
        hidden_t = self.hidden_linear(input)
        activated_t = torch.tanh(hidden_t)
        return self.output_linear(activated_t)


seq_model = nn.Sequential(nn.Linear(1, 11), nn.Tanh(), nn.Linear(11, 1))
namedseq_model = nn.Sequential(OrderedDict([
    ('hidden_linear', nn.Linear(1, 12)),
    ('hidden_activation', nn.Tanh()),
    ('output_linear', nn.Linear(12, 1))]))
subclass_model = SubclassModel()
print(subclass_model)
for type_str, model in [('seq', seq_model), ('namedseq', namedseq_model),
                        ('subclass', subclass_model)]:
    print(type_str)
    for name_str, param in model.named_parameters():
        print("{:21} {:19} {}".format(name_str, str(param.shape), param.numel()))
    print()
func_model = SubclassFunctionalModel()
print(func_model)
print(func_model(t_un_val), subclass_model(t_un_val))
