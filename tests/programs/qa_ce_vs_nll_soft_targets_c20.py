# Corpus program modelled on the Q&A notes "Cross-entropy loss vs negative log likelihood loss"
# (https://ajkdrag.in/2-Zettels/cross-entropy-loss-vs-negative-log-likelihood-loss) and James
# McCaffrey's "PyTorch CrossEntropyLoss vs. NLLLoss"
# (https://jamesmccaffreyblog.com/2020/06/11/pytorch-crossentropyloss-vs-nllloss-cross-entropy-loss-vs-negative-log-likelihood-loss/):
# CrossEntropyLoss = LogSoftmax + NLLLoss, checked numerically; plus what the first lists as the
# difference: probability (one-hot or soft) targets and label smoothing, with class weights
# (the weighted mean divides by the summed weights), ignore_index, reduction='none' and
# K-dimensional inputs (N, C, d1). Changed: random logits with a seed; small shapes.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(5, 3, requires_grad=True)
target = torch.tensor([1, 0, 2, 2, 1])
ce = nn.CrossEntropyLoss()(logits, target)
nll = nn.NLLLoss()(F.log_softmax(logits, dim=1), target)
print(ce, nll, torch.allclose(ce, nll))
print(nn.NLLLoss()(F.softmax(logits, dim=1), target))
manual = -F.log_softmax(logits, 1)[torch.arange(5), target].mean()
print(manual)

w = torch.tensor([1.0, 2.0, 0.5])
lw = nn.CrossEntropyLoss(weight=w)(logits, target)
per = nn.CrossEntropyLoss(weight=w, reduction='none')(logits, target)
print(lw, per, per.sum() / w[target].sum())
ig = nn.CrossEntropyLoss(ignore_index=2)(logits, target)
print(ig, nn.CrossEntropyLoss(ignore_index=2, reduction='none')(logits, target))
print(nn.CrossEntropyLoss(weight=w, ignore_index=1, reduction='sum')(logits, target))

# all targets ignored
print(nn.CrossEntropyLoss(ignore_index=1)(logits[:1], target[:1]))

# K-dimensional: (N, C, L)
seq_logits = torch.randn(2, 3, 4)
seq_target = torch.tensor([[0, 1, 2, 1], [2, 2, 0, -100]])
print(F.cross_entropy(seq_logits, seq_target))
print(F.cross_entropy(seq_logits, seq_target, reduction='none'))

# probability targets
probs = F.softmax(torch.randn(5, 3), dim=1)
soft = F.cross_entropy(logits, probs)
print(soft, -(probs * F.log_softmax(logits, 1)).sum(1).mean())
print(F.cross_entropy(logits, probs, weight=w, reduction='none'))
print(F.cross_entropy(logits, target, label_smoothing=0.1))
print(F.cross_entropy(logits, probs, label_smoothing=0.2))
onehot = F.one_hot(target, 3).float()
print(F.cross_entropy(logits, onehot), ce)

total = ce + soft + F.cross_entropy(logits, target, weight=w, label_smoothing=0.3)
total.backward()
print(logits.grad)
try:
    F.cross_entropy(logits, probs, ignore_index=1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.nll_loss(logits, torch.tensor([0, 1, 3, 0, 1]))
except IndexError as e:
    print("IndexError:", e)
try:
    F.cross_entropy(logits, probs[:, :2])
except RuntimeError as e:
    print("RuntimeError:", e)
