# Corpus program modelled on the PyTorch issue "Gradients given by Pytorch 0.4.0 and 0.4.1 are
# different when backward?" (a learned step size w: x = x - w * x.grad inside a loop, losses
# summed, retain_grad on the new x, then the sum is backpropagated to w):
# https://github.com/pytorch/pytorch/issues/30073
# Changed: .cuda() dropped (CPU); printing as in the issue, so reading a non-leaf .grad warns on
# stderr. In 2.13 the second iteration's backward fails (x.grad, saved by -w * x.grad, is
# accumulated into in place): the error is caught and printed, then the loop is rerun with
# x.grad.clone(), the usual fix, to finish the steps. Written for gradsh.
import torch

x = torch.ones([1], requires_grad=True)
w = torch.tensor([0.2], requires_grad=True)
print('x====: {}'.format(x))
print('w====: {}'.format(w))


def f(x):
    return torch.pow(x, 2).sum()


def SGD(grad, lr=0.2):
    return -lr * grad


def optimizer(grad):
    return -w * grad


def run(x, fix):
    sum_losses = 0
    for i in range(2):
        loss = f(x)
        sum_losses += loss
        loss.backward(torch.ones_like(loss), retain_graph=True)
        print('x.grad: {}'.format(x.grad))
        print('w1.grad: {}'.format(w.grad))

        update = optimizer(x.grad.clone() if fix else x.grad)
        x = x + update
        print('x-:{}'.format(x))
        print('x-.grad: {}'.format(x.grad))

        x.retain_grad()
        update.retain_grad()
    return x, update, sum_losses


try:
    run(x, fix=False)
except RuntimeError as e:
    print(e)
w.grad = None
x = torch.ones([1], requires_grad=True)
x, update, sum_losses = run(x, fix=True)

print(sum_losses)
sum_losses.backward()
print('w.grad: {}'.format(w.grad))
print('x.grad: {}'.format(x.grad), 'update.grad: {}'.format(update.grad))

w_update = SGD(w.grad, lr=0.1)
w = w + w_update
print('w====: {}'.format(w))
