# Corpus program, written for gradsh (no code copied). Modelled on L1aoXingyu's
# code-of-learn-deep-learning-with-pytorch (廖星宇《深度学习入门之PyTorch》), chapter 2 notebooks
# Tensor-and-Variable.ipynb and autograd.ipynb:
# https://github.com/L1aoXingyu/code-of-learn-deep-learning-with-pytorch/tree/master/chapter2_PyTorch-Basics
# Like the notebooks: torch.Tensor(ndarray) vs torch.from_numpy (float32 vs float64), .type()
# strings, dim / numel, .type(torch.DoubleTensor) then numpy dtype, long() / float(), max over
# dim 1 with indices, sum over dim 1, unsqueeze / squeeze / permute / transpose / view,
# unsqueeze_ / transpose_ / add_ in place, slice assignment; torch.autograd.Variable wrapping
# tensors (z.data, z.grad_fn), z = (x + 2)**2 + 3 and its gradient, the mean of y - x @ w with
# gradients of x, y, w, a 1x2 n filled from m by index assignment and n.backward(ones_like),
# retain_graph=True then a second backward accumulating, and the exercise building the
# Jacobian of k(x) row by row with k.backward(v, retain_graph=True) and x.grad.data.zero_().
# Differences: a manual seed and np.random.RandomState instead of np.random; 4x5 / 3x4 sizes
# printed in full where the notebooks print 10x20 only by shape; the CUDA cells are left out;
# grad_fn by type name.
import numpy as np
import torch
from torch.autograd import Variable

torch.manual_seed(20)
numpy_tensor = np.random.RandomState(2).randn(4, 5)
pytorch_tensor1 = torch.Tensor(numpy_tensor)
pytorch_tensor2 = torch.from_numpy(numpy_tensor)
print(pytorch_tensor1)
print(pytorch_tensor2)
numpy_array = pytorch_tensor1.numpy()
print(numpy_array.dtype, pytorch_tensor2.numpy().dtype)
print(pytorch_tensor1.shape)
print(pytorch_tensor1.size())
print(pytorch_tensor1.type(), pytorch_tensor2.type())
print(pytorch_tensor1.dim())
print(pytorch_tensor1.numel())

x = torch.randn(3, 2)
x = x.type(torch.DoubleTensor)
x_array = x.numpy()
print(x_array.dtype, x.type())

x = torch.ones(2, 2)
print(x)
print(x.type())
x = x.long()
print(x, x.type())
x = x.float()
print(x)

x = torch.randn(4, 3)
print(x)
max_value, max_idx = torch.max(x, dim=1)
print(max_value)
print(max_idx)
sum_x = torch.sum(x, dim=1)
print(sum_x)
print(x.shape)
x = x.unsqueeze(0)
print(x.shape)
x = x.unsqueeze(1)
print(x.shape)
x = x.squeeze(0)
print(x.shape)
x = x.squeeze()
print(x.shape)

x = torch.randn(3, 4, 5)
print(x.shape)
x = x.permute(1, 0, 2)
print(x.shape)
x = x.transpose(0, 2)
print(x.shape, x.is_contiguous(), x.stride())
x = torch.randn(3, 4, 5)
x = x.view(-1, 5)
print(x.shape)
x = x.view(3, 20)
print(x.shape)

x = torch.ones(3, 3)
print(x.shape)
x.unsqueeze_(0)
print(x.shape)
x.transpose_(1, 0)
print(x.shape, x.stride())
x = torch.ones(3, 3)
y = torch.ones(3, 3)
x.add_(y)
print(x)
x = torch.ones(4, 4).float()
x[1:3, 1:3] = 2
print(x)

x_tensor = torch.randn(3, 4)
y_tensor = torch.randn(3, 4)
x = Variable(x_tensor, requires_grad=True)
y = Variable(y_tensor, requires_grad=True)
print(type(x), x.requires_grad, Variable(x_tensor).requires_grad)
z = torch.sum(x + y)
print(z.data)
print(type(z.grad_fn).__name__)
z.backward()
print(x.grad)
print(y.grad)

x = Variable(torch.FloatTensor([2]), requires_grad=True)
y = x ** 2
y.backward()
print(x.grad)

x = Variable(torch.Tensor([2]), requires_grad=True)
y = x + 2
z = y ** 2 + 3
print(z)
z.backward()
print(x.grad)

x = Variable(torch.randn(4, 6), requires_grad=True)
y = Variable(torch.randn(4, 3), requires_grad=True)
w = Variable(torch.randn(6, 3), requires_grad=True)
out = torch.mean(y - torch.matmul(x, w))
out.backward()
print(x.grad)
print(y.grad)
print(w.grad)

m = Variable(torch.FloatTensor([[2, 3]]), requires_grad=True)
n = Variable(torch.zeros(1, 2))
print(m)
print(n)
n[0, 0] = m[0, 0] ** 2
n[0, 1] = m[0, 1] ** 3
print(n)
n.backward(torch.ones_like(n))
print(m.grad)

x = Variable(torch.FloatTensor([3]), requires_grad=True)
y = x * 2 + x ** 2 + 3
print(y)
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as err:
    print(str(err).split('.')[0])

x = Variable(torch.FloatTensor([2, 3]), requires_grad=True)
k = Variable(torch.zeros(2))
k[0] = x[0] ** 2 + 3 * x[1]
k[1] = x[1] ** 2 + 2 * x[0]
print(k)
j = torch.zeros(2, 2)
k.backward(torch.FloatTensor([1, 0]), retain_graph=True)
j[0] = x.grad.data
x.grad.data.zero_()
k.backward(torch.FloatTensor([0, 1]))
j[1] = x.grad.data
print(j)
print(torch.autograd.functional.jacobian(lambda v: torch.stack([v[0] ** 2 + 3 * v[1], v[1] ** 2 + 2 * v[0]]), torch.tensor([2., 3.])))
