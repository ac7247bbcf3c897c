# Corpus program modelled on the Stack Overflow question "Understanding torch.nn.Parameter"
# (https://stackoverflow.com/questions/50935345) and its answers: a Parameter assigned as a
# module attribute is registered and returned by parameters(), a plain tensor attribute is not;
# the answer's NN_Network with nn.Parameter(torch.Tensor(...)) layers initialised by hand;
# Parameter's repr, requires_grad default, nn.ParameterList / ParameterDict, and what survives
# .to() and arithmetic (a Parameter times 2 is a plain tensor).
# Changed: small sizes, a seed, the hand-rolled weights filled with normal_ instead of left
# uninitialised. Written for gradsh.
import torch
import torch.nn as nn


class NN_Network(nn.Module):
    def __init__(self, in_dim, hid, out_dim):
        super(NN_Network, self).__init__()
        self.linear1 = nn.Linear(in_dim, hid)
        self.linear2 = nn.Linear(hid, out_dim)
        self.linear1.weight = torch.nn.Parameter(torch.zeros(hid, in_dim))
        self.linear1.bias = torch.nn.Parameter(torch.ones(hid))
        self.linear2.weight = torch.nn.Parameter(torch.zeros(out_dim, hid))
        self.linear2.bias = torch.nn.Parameter(torch.ones(out_dim))
        self.not_a_param = torch.randn(2)

    def forward(self, input_array):
        h = self.linear1(input_array)
        y_pred = self.linear2(h)
        return y_pred


torch.manual_seed(0)
in_d, hidn, out_d = 3, 4, 2
net = NN_Network(in_d, hidn, out_d)
for param in net.parameters():
    print(type(param), param.size())
print(list(net.named_parameters())[1])
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(p.requires_grad, p.is_leaf, type(p * 2).__name__, (p * 2))
print(nn.Parameter(torch.tensor([1.0]), requires_grad=False))
print(isinstance(p, torch.Tensor), type(p.data).__name__, type(p.detach()).__name__)
print(repr(nn.Parameter(torch.arange(3.0).reshape(1, 3))))
try:
    nn.Parameter(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
pi = nn.Parameter(torch.tensor([1, 2]), requires_grad=False)
print(pi)


class WithLists(nn.Module):
    def __init__(self):
        super().__init__()
        self.plist = nn.ParameterList([nn.Parameter(torch.randn(2, 2)) for _ in range(2)])
        self.pdict = nn.ParameterDict({"scale": nn.Parameter(torch.ones(1)),
                                       "shift": nn.Parameter(torch.zeros(3))})
        self.raw_list = [nn.Parameter(torch.randn(1))]


w = WithLists()
print(w)
print([n for n, _ in w.named_parameters()])
print(sum(q.numel() for q in w.parameters()))
x = torch.randn(5, in_d)
y = net(x)
print(y)
y.sum().backward()
print(net.linear1.weight.grad)
print(net.linear2.weight.grad)
net.double()
print(type(net.linear1.weight).__name__, net.linear1.weight.dtype, net.not_a_param.dtype)
