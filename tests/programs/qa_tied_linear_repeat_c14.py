# Corpus program modelled on the PyTorch forum thread "Tied weights within one linear layer"
# (a layer storing 4 weights and 4 biases whose 4x4 weight matrix repeats each input's weight
# along a row; does autograd send the gradient of all 16 entries back to the 4 stored ones?):
# https://discuss.pytorch.org/t/tied-weights-within-one-linear-layer/8762
# Changed: the question's loop of repeat/cat (which did not run) becomes the answer's
# expand; a seed; the gradient is checked against the summed full-matrix gradient. Written for
# gradsh.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import Parameter


class tiedLinear(nn.Module):
    def __init__(self, in_features, bias=True):
        super(tiedLinear, self).__init__()
        self.in_features = in_features
        self.weight = Parameter(torch.Tensor(in_features))
        if bias:
            self.bias = Parameter(torch.Tensor(in_features))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1. / math.sqrt(self.weight.size(0))
        self.weight.data.uniform_(-stdv, stdv)
        if self.bias is not None:
            self.bias.data.uniform_(-stdv, stdv)

    def forward(self, input):
        repeated_weight = self.weight.unsqueeze(1).expand(self.in_features, self.in_features)
        return F.linear(input, repeated_weight, self.bias)


torch.manual_seed(0)
layer = tiedLinear(4)
print(layer)
print(list(layer.named_parameters()))
x = torch.randn(3, 4)
out = layer(x)
print(out)
out.pow(2).sum().backward()
print(layer.weight.grad, layer.bias.grad)

W = layer.weight.detach().unsqueeze(1).expand(4, 4).clone().requires_grad_()
F.linear(x, W, layer.bias.detach()).pow(2).sum().backward()
print(W.grad)
print(W.grad.sum(1))
print(torch.allclose(W.grad.sum(1), layer.weight.grad))

no_bias = tiedLinear(4, bias=False)
print(no_bias.bias, [n for n, _ in no_bias.named_parameters()])
