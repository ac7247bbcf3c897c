# Corpus program, written for gradsh (no code copied). Modelled on the Chinese notes on leaf
# tensors and in-place operations: lhycms's Deep_Learning_Notes ("区分是否是叶子节点",
# "Inplace Operation", "解决上述报错" 法一 clone / 法二 no_grad, "with no_grad() 上下文管理器"):
# https://github.com/lhycms/Deep_Learning_Notes
# and the CSDN wenku answer on "a view of a leaf Variable that requires grad is being used in
# an in-place operation" (https://wenku.csdn.net/answer/4mnygadxby): weight[0].add_(1) on a
# leaf, and the fixes (clone, no_grad, out-of-place).
# Like them: is_leaf of a plain tensor, a requires_grad tensor and a computed one; x += 1 on a
# leaf that requires grad (the error caught and printed); x.clone() then += 1 (AddBackward0);
# x += 1 under torch.no_grad (still a leaf requiring grad); the view-of-a-leaf error and its
# fixes; then the related error the notes warn about: a tensor saved for backward modified in
# place (version counter), and .numpy() on a tensor that requires grad.
# Differences: a manual seed instead of unseeded values; each error is caught and printed.
import torch

torch.manual_seed(7)

w = torch.tensor([1.0, 2.0, 3.0])
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x + 1
print(w.is_leaf, x.is_leaf, y.is_leaf)
print(w.requires_grad, x.requires_grad, y.requires_grad, y.grad_fn)

try:
    x += 1
except RuntimeError as err:
    print('RuntimeError:', err)
y = x + 1
print(y)

x2 = x.clone()
x2 += 1
print(x2)
print(x2.is_leaf, x2._version)

x = torch.rand(3, requires_grad=True)
with torch.no_grad():
    x += 1
    print(x)
    print(x.requires_grad)
print(x)
print(x.requires_grad, x.is_leaf, x._version)

weight = torch.randn(3, 3, requires_grad=True)
weight_view = weight[0]
print(weight_view.is_leaf, weight_view._base is weight)
try:
    weight_view.add_(1)
except RuntimeError as err:
    print('RuntimeError:', err)
try:
    weight[:, 1].mul_(2)
except RuntimeError as err:
    print('RuntimeError:', err)
try:
    weight.data[0].add_(1)
    print('through .data:', weight[0])
except RuntimeError as err:
    print('RuntimeError:', err)
w2 = weight.clone()
w2[0].add_(1)
print(w2)
print(type(w2.grad_fn).__name__)
w2.sum().backward()
print(weight.grad)
with torch.no_grad():
    weight[0].add_(1)
print(weight, weight.requires_grad)
weight = weight + 1
print(weight.is_leaf, type(weight.grad_fn).__name__)

a = torch.randn(4, requires_grad=True)
b = a.sigmoid()
c = b * 2
b.mul_(3)
try:
    c.sum().backward()
    print('c backward ok', a.grad)
except RuntimeError as err:
    print('RuntimeError:', err)
e = a.exp()
s = e.sum()
e.add_(1)
try:
    s.backward()
except RuntimeError as err:
    print('RuntimeError:', err)
f = a.exp()
g = f ** 2
f.zero_()
try:
    g.sum().backward()
except RuntimeError as err:
    print('RuntimeError:', err)

try:
    a.numpy()
except RuntimeError as err:
    print('RuntimeError:', err)
print(a.detach().numpy().dtype, a.data.requires_grad)
