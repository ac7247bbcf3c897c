# Corpus program modelled on the Stack Overflow question "PyTorch: What's the difference between
# state_dict and parameters()?" and the PyTorch recipe its answers quote, "What is a state_dict
# in PyTorch" (https://pytorch.org/tutorials/recipes/recipes/what_is_state_dict.html): the
# "Model's state_dict:" / "Optimizer's state_dict:" printing loops, before and after steps,
# plus print(optimizer), param_groups and the optimizer state tensors.
# Changed: a seeded three-layer net (Linear, BatchNorm1d, Linear) on random data instead of the
# recipe's CNN; Adam and SGD with momentum and two param groups. Written for gradsh.
import torch
import torch.nn as nn
import torch.optim as optim


class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
        self.fc1 = nn.Linear(3, 2)
        self.bn = nn.BatchNorm1d(2)
        self.fc2 = nn.Linear(2, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


torch.manual_seed(0)
model = TheModelClass()
optimizer = optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
print(model)
print(optimizer)
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

x = torch.randn(6, 3)
y = torch.randn(6, 1)
for step in range(2):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    print(step, loss.item())

sd = optimizer.state_dict()
print(sd["param_groups"])
print(sorted(sd["state"].keys()))
print(sd["state"][0])
print(model.state_dict())
print(list(model.parameters())[0])
print([n for n, _ in model.named_parameters()])
print([n for n, _ in model.named_buffers()])

sgd = optim.SGD([{"params": model.fc1.parameters()},
                 {"params": model.fc2.parameters(), "lr": 0.5}], lr=0.1, momentum=0.9)
print(sgd)
sgd.zero_grad()
nn.functional.mse_loss(model(x), y).backward()
sgd.step()
print(sgd.state_dict()["state"][0])
print(sgd.state_dict()["param_groups"][1])
