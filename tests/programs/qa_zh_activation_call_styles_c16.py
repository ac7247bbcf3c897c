# Corpus program modelled on the Chinese note "PyTorch——激活函数调用的最佳实践"
# (https://joezjh.github.io/Notes/PyTorch/PyTorch%E2%80%94%E2%80%94%E6%BF%80%E6%B4%BB%E5%87%BD%E6%95%B0%E8%B0%83%E7%94%A8%E7%9A%84%E6%9C%80%E4%BD%B3%E5%AE%9E%E8%B7%B5.html:
# torch.relu, torch.nn.functional.relu and nn.ReLU() give the same result, inplace, and when to
# use which) and the two model styles of https://github.com/fayadchowdhury/PyTorch-Tutorials
# ("Activation functions": layers built in __init__ vs torch functions called in forward),
# with the activation passed to the model as an argument and reported by its __name__, as
# askers do when comparing activations.
# Changed: random inputs with a seed; a short loop over activations with their names; the
# in-place variants' aliasing checked. Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3)
print(x)
print(torch.relu(x))
print(F.relu(x))
print(nn.ReLU()(x))
print(torch.equal(torch.relu(x), F.relu(x)), torch.equal(F.relu(x), x.clamp(min=0)))
y = x.clone()
out = F.relu(y, inplace=True)
print(out is y, y)
y = x.clone()
relu = nn.ReLU(inplace=True)
print(relu, relu(y).data_ptr() == y.data_ptr())


class NeuralNetwork1(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(NeuralNetwork1, self).__init__()
        self.linear1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.linear2 = nn.Linear(hidden_size, 1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, x):
        out = self.linear1(x)
        out = self.relu(out)
        out = self.linear2(out)
        out = self.sigmoid(out)
        return out


class NeuralNetwork2(nn.Module):
    def __init__(self, input_size, hidden_size, activation=torch.relu):
        super(NeuralNetwork2, self).__init__()
        self.linear1 = nn.Linear(input_size, hidden_size)
        self.linear2 = nn.Linear(hidden_size, 1)
        self.activation = activation

    def forward(self, x):
        out = self.activation(self.linear1(x))
        out = torch.sigmoid(self.linear2(out))
        return out


torch.manual_seed(1)
net1 = NeuralNetwork1(3, 4)
torch.manual_seed(1)
net2 = NeuralNetwork2(3, 4)
print(net1)
print(net2)
print(torch.equal(net1(x), net2(x)), net2(x))

inputs = torch.linspace(-2, 2, 5)
for act in (torch.relu, F.relu, torch.sigmoid, torch.tanh, F.leaky_relu, F.elu, F.gelu,
            F.silu, F.softplus, F.relu6, F.hardtanh, F.softsign, torch.abs, torch.clip):
    if act is torch.clip:
        print(act.__name__, act(inputs, -1, 1))
        continue
    torch.manual_seed(2)
    model = NeuralNetwork2(3, 4, activation=act)
    print(f"{act.__name__:>10}: {act(inputs)}  model -> {model(x).squeeze().tolist()}")
print(torch.absolute.__name__, torch.clip.__name__, torch.negative.__name__,
      torch.multiply.__name__, torch.divide.__name__, torch.arctan2.__name__)
