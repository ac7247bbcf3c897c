# Corpus program modelled on the GitHub issue "Bug report" of ngxbac/GAIN (Grad-CAM style
# attention: grad_logits = (logits * labels_ohe).sum(); grad_logits.backward(gradient=gradient)
# with a [10, 2] gradient for a scalar fails; the two fixes from the thread: pass the scalar
# itself, or do not sum):
# https://github.com/ngxbac/GAIN/issues/2
# Changed: a tiny linear "backbone" with a retained feature map stands in for the VGG; the
# 2019 message ("invalid gradient at index 0 - expected shape [] but got [10, 2]") is today's
# shape-mismatch text, caught and printed; a seed. Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
features = nn.Linear(6, 4)
head = nn.Linear(4, 2)
x = torch.randn(10, 6)
labels = torch.randint(0, 2, (10,))
labels_ohe = F.one_hot(labels, 2).float()


def forward():
    fmap = features(x)
    fmap.retain_grad()
    logits = head(torch.relu(fmap))
    return fmap, logits


fmap, logits = forward()
gradient = logits * labels_ohe
grad_logits = (logits * labels_ohe).sum()
try:
    grad_logits.backward(gradient=gradient, retain_graph=True)
except RuntimeError as e:
    print(e)

grad_logits.backward(gradient=grad_logits, retain_graph=True)
print(grad_logits)
print(fmap.grad)

features.zero_grad()
head.zero_grad()
fmap, logits = forward()
gradient = logits * labels_ohe
grad_logits = logits * labels_ohe
grad_logits.backward(gradient=gradient, retain_graph=True)
print(fmap.grad)
weights = F.adaptive_avg_pool1d(fmap.grad.unsqueeze(0), 1)
print(weights.shape, weights.flatten())
print(head.weight.grad)
