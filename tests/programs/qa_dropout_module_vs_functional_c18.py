# Corpus program modelled on the Stack Overflow question "Using Dropout in Pytorch: nn.Dropout
# vs. F.dropout" (https://stackoverflow.com/questions/53419474) and its accepted answer: a model
# with nn.Dropout layers switches them off in eval(), while F.dropout(x, p) in forward keeps
# dropping unless passed training=self.training; the answer's Model1/Model2 compared in train
# and eval mode; the 1/(1-p) scaling of kept values; Dropout2d zeroing whole channels.
# Changed: a seed, a small all-ones input so the dropped and scaled values are visible.
# Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model1(nn.Module):
    # Model 1 using functional dropout
    def __init__(self, p=0.0):
        super().__init__()
        self.p = p

    def forward(self, inputs):
        return F.dropout(inputs, p=self.p, training=True)


class Model2(nn.Module):
    # Model 2 using dropout module
    def __init__(self, p=0.0):
        super().__init__()
        self.drop_layer = nn.Dropout(p=p)

    def forward(self, inputs):
        return self.drop_layer(inputs)


model1 = Model1(p=0.5)  # functional dropout
model2 = Model2(p=0.5)  # dropout module
torch.manual_seed(0)
inputs = torch.ones(2, 8)
print('Normal (train) model:')
print('Model 1', model1(inputs))
print('Model 2', model2(inputs))
print()
model1.eval()
model2.eval()
print('Evaluation mode:')
print('Model 1', model1(inputs))
print('Model 2', model2(inputs))
print(model1)
print(model2)


class Fixed(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc(F.dropout(x, p=0.25, training=self.training))


torch.manual_seed(1)
f = Fixed()
f.train()
out = f(inputs)
print(out)
out.sum().backward()
print(f.fc.weight.grad)
f.eval()
print(torch.equal(f(inputs), f(inputs)))
torch.manual_seed(2)
d2 = nn.Dropout2d(0.5)
print(d2(torch.ones(1, 4, 2, 2)))
print(F.dropout(inputs, p=0.0), F.dropout(inputs, p=1.0))
try:
    F.dropout(inputs, p=1.5)
except ValueError as e:
    print("ValueError:", e)
x = torch.ones(3, requires_grad=True)
torch.manual_seed(3)
y = F.dropout(x, 0.5)
y.sum().backward()
print(y, y.grad_fn, x.grad)
