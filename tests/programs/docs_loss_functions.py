# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# the torch.nn loss modules, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/loss.py
# Like the docs: each loss built as a module, called on torch.randn inputs (requires_grad=True)
# and a target, then output.backward(): L1Loss, MSELoss, CrossEntropyLoss with class indices
# and with class probabilities, NLLLoss after LogSoftmax (also on a 4-D image batch),
# PoissonNLLLoss, GaussianNLLLoss, KLDivLoss with log_target, BCELoss after Sigmoid,
# BCEWithLogitsLoss with pos_weight, HuberLoss, SmoothL1Loss, SoftMarginLoss,
# MultiLabelSoftMarginLoss, HingeEmbeddingLoss, CosineEmbeddingLoss, MarginRankingLoss,
# MultiMarginLoss, TripletMarginLoss; reduction='none' / 'sum'.
# Differences: our own code and sizes; the loss values and one gradient per loss are printed;
# seeded.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def show(name, output, *inputs):
    output.backward()
    grads = [f"{i.grad.abs().sum().item():.4f}" for i in inputs]
    print(f"{name:26s} {output.item():.4f} {grads}")


input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
show("L1Loss", nn.L1Loss()(input, target), input)
input.grad = None
show("MSELoss", nn.MSELoss()(input, target), input)
input.grad = None
print(nn.MSELoss(reduction="none")(input, target).shape, nn.L1Loss(reduction="sum")(input, target))

input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, dtype=torch.long).random_(5)
show("CrossEntropyLoss idx", nn.CrossEntropyLoss()(input, target), input)
input.grad = None
target = torch.randn(3, 5).softmax(dim=1)
show("CrossEntropyLoss prob", nn.CrossEntropyLoss()(input, target), input)
input.grad = None
target = torch.tensor([1, 0, 4])
show("CE label_smoothing", nn.CrossEntropyLoss(label_smoothing=0.1)(input, target), input)

m = nn.LogSoftmax(dim=1)
input = torch.randn(3, 5, requires_grad=True)
target = torch.tensor([1, 0, 4])
show("NLLLoss", nn.NLLLoss()(m(input), target), input)
N, C = 5, 4
data = torch.randn(N, 16, 10, 10)
conv = nn.Conv2d(16, C, (3, 3))
target = torch.empty(N, 8, 8, dtype=torch.long).random_(0, C)
output = nn.NLLLoss()(m(conv(data)), target)
output.backward()
print("NLLLoss 2d", f"{output.item():.4f}", conv.bias.grad.shape)

log_input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
show("PoissonNLLLoss", nn.PoissonNLLLoss()(log_input, target), log_input)
input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
var = torch.ones(5, 2, requires_grad=True)
show("GaussianNLLLoss", nn.GaussianNLLLoss()(input, target, var), input, var)

kl = nn.KLDivLoss(reduction="batchmean")
input = F.log_softmax(torch.randn(3, 5, requires_grad=True), dim=1)
target = F.softmax(torch.rand(3, 5), dim=1)
print("KLDivLoss", f"{kl(input, target).item():.4f}")
log_target = F.log_softmax(torch.rand(3, 5), dim=1)
print("KLDivLoss log_target",
      f"{nn.KLDivLoss(reduction='batchmean', log_target=True)(input, log_target).item():.4f}")

m = nn.Sigmoid()
input = torch.randn(3, 2, requires_grad=True)
target = torch.rand(3, 2)
show("BCELoss", nn.BCELoss()(m(input), target), input)
input = torch.randn(3, requires_grad=True)
target = torch.empty(3).random_(2)
show("BCEWithLogitsLoss", nn.BCEWithLogitsLoss()(input, target), input)
target = torch.ones([10, 64], dtype=torch.float32)
output = torch.full([10, 64], 1.5)
pos_weight = torch.ones([64])
print("BCEWithLogits pos_weight", nn.BCEWithLogitsLoss(pos_weight=pos_weight)(output, target))

input = torch.randn(4, 3, requires_grad=True)
target = torch.randn(4, 3) * 3
show("HuberLoss", nn.HuberLoss(delta=0.5)(input, target), input)
input.grad = None
show("SmoothL1Loss", nn.SmoothL1Loss(beta=0.5)(input, target), input)
y = torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0], [1.0, 1.0, -1.0], [-1.0, 1.0, 1.0]])
input.grad = None
show("SoftMarginLoss", nn.SoftMarginLoss()(input, y), input)
input.grad = None
show("MultiLabelSoftMarginLoss", nn.MultiLabelSoftMarginLoss()(input, (y > 0).float()), input)
input.grad = None
show("HingeEmbeddingLoss", nn.HingeEmbeddingLoss(margin=0.5)(input, y), input)

input1 = torch.randn(4, 6, requires_grad=True)
input2 = torch.randn(4, 6, requires_grad=True)
target = torch.tensor([1, -1, 1, -1])
show("CosineEmbeddingLoss", nn.CosineEmbeddingLoss(margin=0.1)(input1, input2, target), input1, input2)
input1 = torch.randn(3, requires_grad=True)
input2 = torch.randn(3, requires_grad=True)
target = torch.randn(3).sign()
show("MarginRankingLoss", nn.MarginRankingLoss()(input1, input2, target), input1, input2)

x = torch.tensor([[0.1, 0.2, 0.4, 0.8]], requires_grad=True)
y = torch.tensor([3])
show("MultiMarginLoss", nn.MultiMarginLoss()(x, y), x)
anchor = torch.randn(10, 8, requires_grad=True)
positive = torch.randn(10, 8, requires_grad=True)
negative = torch.randn(10, 8, requires_grad=True)
show("TripletMarginLoss", nn.TripletMarginLoss(margin=1.0, p=2)(anchor, positive, negative), anchor)
print(nn.CrossEntropyLoss(reduction="sum", ignore_index=2), nn.HuberLoss(delta=0.5))
print(nn.BCEWithLogitsLoss(pos_weight=torch.ones(2)), nn.KLDivLoss(reduction="batchmean"))
print(nn.MSELoss()(torch.ones(3, requires_grad=True), torch.zeros(3, 1)))
try:
    nn.MSELoss()(torch.randn(3, requires_grad=True), torch.randn(2, 1, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
