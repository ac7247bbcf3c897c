# Corpus program modelled on the PyTorch issue "`xlogy` returns wrong gradient when `input` is 0"
# (https://github.com/pytorch/pytorch/issues/80770): the gradcheck of x.xlogy(2) at 0,
# and the maintainers' follow-up in the same thread showing xlog1py with x = 0 and
# y = [0, 1, -1, -6] (values and gradients at and below log1p's pole), plus the TensorFlow
# counterpart "Wrong gradient for tf.math.xlog1py when x is 0"
# (https://github.com/tensorflow/tensorflow/issues/56873) written with torch.
# Changed: gradcheck's result is printed (raise_exception=False) instead of raising; the
# values and grads of each call are printed; float32 is shown next to float64. Written for
# gradsh.
import torch


def fn(input):
    fn_res = input.xlogy(2)
    return fn_res


input = torch.tensor([[0., 0., 0., 0.]], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(fn, (input), raise_exception=False))
fn(input).sum().backward()
print(input.grad)

for dtype in (torch.float64, torch.float32):
    x = torch.tensor([[0., 0., 0., 0.]], dtype=dtype, requires_grad=True)
    y = torch.tensor([[0., 1., -1., -6.]], dtype=dtype, requires_grad=True)
    z = torch.special.xlog1py(x, y)
    print(z)
    z.sum().backward()
    print(x.grad, y.grad)
    x.grad = y.grad = None
    z = torch.xlogy(x, y)
    print(z)
    z.sum().backward()
    print(x.grad, y.grad)

x = torch.zeros([1], requires_grad=True)
y = 1.0
print("x = ", x)
print("y = ", y)
res = torch.special.xlog1py(x, y)
res.backward()
print("gradient: ", x.grad)
print("log1p(y): ", torch.log1p(torch.tensor(y)))
print(torch.special.xlog1py(torch.tensor([1.0, 2.0]), torch.tensor([-1.0, -1.5])))
print(torch.special.xlog1py(3, torch.tensor([-1.0, 0.5])), torch.xlogy(0, torch.tensor([0.0, -1.0])))
