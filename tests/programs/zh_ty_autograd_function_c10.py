# Corpus program, written for gradsh (no code copied). Modelled on TingsongYu's Chinese book
# "PyTorch实用教程（第二版）", chapter 2 section 6 (autograd) companion notebook, as mirrored in
# https://github.com/huaiyuechusan/pytorch-tutorial-2nd (code/chapter-2/06_autograd.ipynb):
# backward(retain_graph=True) twice on y = (w + x)(w + 1) and the second-backward error without
# it; grad_tensors through loss = cat([y0, y1]); first and second derivatives with
# autograd.grad(create_graph=True); custom Functions Exp, GradCoeff (returns its input, scales
# the gradient by a coefficient), LegendrePolynomial3 applied to a Python number, MyConv2D
# (conv2d forward, conv2d/conv_transpose2d backward) checked with gradcheck in float64 and its
# weight.grad before/after backward; then the notebook's "knowledge points": gradients
# accumulate over four backward calls, requires_grad/is_leaf of dependent nodes, a = a + 1
# versus a += 1 (object identity), the in-place error on a leaf, and detach sharing memory.
# Differences: the errors are caught and printed; id() values are compared, not printed;
# MyConv2D's inputs are smaller (seeded) and the weight grad is summarised; seeded.
import torch
import torch.nn.functional as F
from torch.autograd.function import Function

torch.manual_seed(0)

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
y.backward(retain_graph=True)
print(w.grad)
y.backward()
print(w.grad)

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
y.backward()
print(w.grad)
try:
    y.backward()
    print(w.grad)
except RuntimeError as e:
    print("RuntimeError:", e)

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y0 = torch.mul(a, b)
y1 = torch.add(a, b)
loss = torch.cat([y0, y1], dim=0)
grad_tensors = torch.tensor([1., 2.])
loss.backward(gradient=grad_tensors)
print(w.grad, loss)

x = torch.tensor([3.], requires_grad=True)
y = torch.pow(x, 2)
grad_1 = torch.autograd.grad(y, x, create_graph=True)
print(grad_1)
grad_2 = torch.autograd.grad(grad_1[0], x)
print(grad_2)


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


x = torch.tensor([1.], requires_grad=True)
y = Exp.apply(x)
print(y)
y.backward()
print(x.grad)


class GradCoeff(Function):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        x.view_as(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return ctx.coeff * grad_output, None


x = torch.tensor([2.], requires_grad=True)
ret = GradCoeff.apply(x, -0.1)
print(ret, ret.grad_fn.__class__.__name__, ret is x, ret.is_leaf)
ret = ret ** 2
print(ret)
ret.backward()
print(x.grad)


class LegendrePolynomial3(Function):
    @staticmethod
    def forward(ctx, x):
        y = 0.5 * (5 * x ** 3 - 3 * x)
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        ret, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * ret ** 2 - 1)


a, b, c, d = 1, 2, 1, 2
x = 1
P3 = LegendrePolynomial3.apply
y_pred = a + b * P3(c + d * x)
print(y_pred, type(y_pred).__name__)
xt = torch.linspace(-1, 1, 5, requires_grad=True)
y_pred = a + b * P3(c + d * xt)
print(y_pred)
y_pred.sum().backward()
print(xt.grad)


def convolution_backward(grad_out, X, weight):
    grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
    grad_X = F.conv_transpose2d(grad_out, weight)
    return grad_X, grad_input


class MyConv2D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, weight):
        ctx.save_for_backward(X, weight)
        return F.conv2d(X, weight)

    @staticmethod
    def backward(ctx, grad_out):
        X, weight = ctx.saved_tensors
        return convolution_backward(grad_out, X, weight)


weight = torch.rand(2, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(4, 3, 5, 5, requires_grad=True, dtype=torch.double)
print("梯度检查: ", torch.autograd.gradcheck(MyConv2D.apply, (X, weight)))
y = MyConv2D.apply(X, weight)
label = torch.randn_like(y)
loss = F.mse_loss(y, label)
print("反向传播前，weight.grad: ", weight.grad)
loss.backward()
print("反向传播后，weight.grad: ", weight.grad[0])
print(y.grad_fn, X.grad.shape, loss)

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
for i in range(4):
    a = torch.add(w, x)
    b = torch.add(w, 1)
    y = torch.mul(a, b)
    y.backward()
    print(w.grad)

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
print(a.requires_grad, b.requires_grad, y.requires_grad)
print(a.is_leaf, b.is_leaf, y.is_leaf)

a = torch.ones((1, ))
first = id(a)
a = a + torch.ones((1, ))
second = id(a)
print(first == second, a)
a += torch.ones((1, ))
print(id(a) == second, a)

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
try:
    w.add_(1)
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
y.backward()
w_detach = w.detach()
w_detach.data[0] = 999
print(w, w.grad, w_detach.requires_grad)
