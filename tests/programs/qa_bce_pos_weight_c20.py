# Corpus program modelled on the discuss.pytorch.org thread "Weights in BCEWithLogitsLoss"
# (https://discuss.pytorch.org/t/weights-in-bcewithlogitsloss/27452) and the follow-up
# "Loss function for binary classification" (https://discuss.pytorch.org/t/loss-function-for-binary-classification/72150):
# pos_weight weights only the positive term (one value per class), weight rescales every
# element; the answers check the docs' formula by hand, compute pos_weight = negatives /
# positives per class for a multi-label target, and compare with BCELoss after a sigmoid.
# Changed: synthetic logits and targets with a seed, small sizes; shapes error caught and printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
target = torch.ones([10, 64], dtype=torch.float32)
output = torch.full([10, 64], 1.5)
pos_weight = torch.ones([64])
criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
print(criterion(output, target))
print(-torch.log(torch.sigmoid(torch.tensor(1.5))))

# binary case: 90 negatives, 10 positives
logits = torch.randn(100, requires_grad=True)
labels = torch.cat([torch.zeros(90), torch.ones(10)])
pw = torch.tensor([90 / 10])
crit = nn.BCEWithLogitsLoss(pos_weight=pw)
loss = crit(logits, labels)
print(crit)
print(loss)
loss.backward()
print(logits.grad[85:95])

# by hand, the docs' formula
x = logits.detach()
manual = -(pw * labels * F.logsigmoid(x) + (1 - labels) * F.logsigmoid(-x)).mean()
print(manual, torch.allclose(manual, loss))

# multi-label: class frequencies -> pos_weight per class
nBatch, nClass = 8, 4
y = (torch.rand(nBatch, nClass) < torch.tensor([0.6, 0.55, 0.2, 0.1])).float()
pos = y.sum(0)
neg = nBatch - pos
pos_weight = neg / pos.clamp(min=1)
print(y)
print(pos, neg, pos_weight)
z = torch.randn(nBatch, nClass, requires_grad=True)
weight = torch.rand(nBatch, nClass)
loss_none = F.binary_cross_entropy_with_logits(z, y, weight=weight, pos_weight=pos_weight,
                                               reduction='none')
print(loss_none)
loss_mean = F.binary_cross_entropy_with_logits(z, y, weight=weight, pos_weight=pos_weight)
print(loss_mean, loss_none.mean())
loss_sum = nn.BCEWithLogitsLoss(weight=weight, pos_weight=pos_weight, reduction='sum')(z, y)
print(loss_sum)
loss_sum.backward()
print(z.grad)

# BCELoss after sigmoid agrees when pos_weight is 1
p = torch.sigmoid(z.detach())
print(nn.BCELoss()(p, y), nn.BCEWithLogitsLoss()(z.detach(), y))
# the class-weight trick from the second thread
loss_get = nn.BCEWithLogitsLoss(reduction='none')(z.detach(), y)
loss_flat = loss_get.flatten()
loss_flat[y.flatten() == 1] *= 3.0
print(loss_flat.mean())

# wrong target shape
try:
    crit(torch.randn(4, 1), torch.ones(4))
except ValueError as e:
    print(e)
try:
    nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))(torch.randn(2, 4), torch.ones(2, 4))
except RuntimeError as e:
    print(e)
