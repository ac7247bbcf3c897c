# Corpus program, written for gradsh (no code copied). Modelled on the blog posts on
# CrossEntropyLoss options (e.g. "Cross Entropy Loss from scratch",
# https://nishantbhansali.com/blog/cross-entropy-from-scratch, checking a hand-written softmax +
# -log(probability of the correct class) + mean against nn.CrossEntropyLoss on a batch of 3
# with 5 classes; and the GitHub notebook https://github.com/netrasagarmal/ml_projects
# "Cross-Entropy Loss from scratch": MyCrossEntropyLoss(nn.Module) on logits [[2, 1, 0.1],
# [0.5, 2.5, 0.3]] with targets [0, 1]), extended with the options the PyTorch docs describe:
# class weights, ignore_index, label_smoothing, reduction='none' / 'sum', probabilities as
# targets, the K-dimensional case (N, C, d1), and a focal loss built on it.
# Differences: our own code; seeded; rounded prints.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MyCrossEntropyLoss(nn.Module):
    def forward(self, logits, targets):
        probs = torch.softmax(logits, dim=1)
        log_probs = torch.log(probs[range(logits.shape[0]), targets])
        return -torch.mean(log_probs)


logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], requires_grad=True)
targets = torch.tensor([0, 1])
loss = MyCrossEntropyLoss()(logits, targets)
print("Cross-Entropy Loss:", round(loss.item(), 6))
print(round(nn.CrossEntropyLoss()(logits, targets).item(), 6))
loss.backward()
print(logits.grad)

predictions = torch.randn(3, 5)
t = torch.tensor([1, 0, 4])
stable = predictions - predictions.max(dim=1, keepdim=True).values
manual = -(stable.gather(1, t[:, None]).squeeze(1) - stable.exp().sum(1).log()).mean()
print(torch.allclose(manual, F.cross_entropy(predictions, t)))

w = torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0])
print(round(F.cross_entropy(predictions, t, weight=w).item(), 4))
print(round(F.cross_entropy(predictions, torch.tensor([1, -100, 4])).item(), 4))
print(round(F.cross_entropy(predictions, torch.tensor([1, 0, 4]), ignore_index=0).item(), 4))
print(round(F.cross_entropy(predictions, t, label_smoothing=0.1).item(), 4))
print(F.cross_entropy(predictions, t, reduction="none"))
print(round(F.cross_entropy(predictions, t, reduction="sum").item(), 4))
soft = torch.softmax(torch.randn(3, 5), dim=1)
print(round(F.cross_entropy(predictions, soft).item(), 4))
print(round(F.cross_entropy(predictions, soft, label_smoothing=0.2).item(), 4))
seg = torch.randn(2, 3, 4)
seg_t = torch.randint(0, 3, (2, 4))
print(F.cross_entropy(seg, seg_t, reduction="none").shape, round(F.cross_entropy(seg, seg_t).item(), 4))
print(nn.CrossEntropyLoss(weight=torch.ones(3), label_smoothing=0.05))


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, reduction="none")
        pt = torch.exp(-ce)
        return ((1 - pt) ** self.gamma * ce).mean()


x = torch.randn(6, 3, requires_grad=True)
y = torch.tensor([0, 1, 2, 0, 1, 2])
fl = FocalLoss()(x, y)
fl.backward()
print(round(fl.item(), 4), x.grad.abs().sum() > 0)
try:
    F.cross_entropy(predictions, torch.tensor([1, 0, 5]))
except IndexError as e:
    print("IndexError:", e)
try:
    F.cross_entropy(predictions, t.float())
except RuntimeError as e:
    print("RuntimeError:", e)
