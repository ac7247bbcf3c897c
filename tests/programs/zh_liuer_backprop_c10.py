# Corpus program, written for gradsh (no code copied). Modelled on Liu Er's Bilibili course
# "PyTorch深度学习实践" lecture 4 (反向传播), as kept in a learner's notebook:
# https://github.com/houchenll/nlp-origin (w = torch.Tensor([1.0]) with requires_grad, a
# forward() and loss() over x_data = [1, 2, 3], y = 2x; l.backward(), "\tgrad:" lines with
# w.grad.item(), w.data = w.data - 0.01 * w.grad.data, w.grad.data.zero_(), "progress:" per
# epoch, predictions before and after) and the lecture's homework (y = w1 x^2 + w2 x + b with
# three weights updated the same way).
# Differences: 12 epochs instead of 100 for the first model, 30 for the homework (printing
# every 10th); the homework's data is our own (y = 2x^2 + 3x + 1).
import torch

x_data = [1.0, 2.0, 3.0]
y_data = [2.0, 4.0, 6.0]

w = torch.Tensor([1.0])
w.requires_grad = True
print(w, w.is_leaf, w.grad)


def forward(x):
    return x * w


def loss(x, y):
    y_pred = forward(x)
    return (y_pred - y) ** 2


print("predict (before training)", 4, forward(4).item())
for epoch in range(12):
    for x, y in zip(x_data, y_data):
        l = loss(x, y)
        l.backward()
        print("\tgrad:", x, y, w.grad.item())
        w.data = w.data - 0.01 * w.grad.data
        w.grad.data.zero_()
    print("progress:", epoch, l.item())
print("predict (after training)", 4, forward(4).item())
print(l, l.grad_fn, w)

# homework: y_hat = w1 * x^2 + w2 * x + b
x_data = [1.0, 2.0, 3.0, 4.0]
y_data = [2 * x * x + 3 * x + 1 for x in x_data]
w1 = torch.tensor([1.0], requires_grad=True)
w2 = torch.tensor([1.0], requires_grad=True)
b = torch.tensor([1.0], requires_grad=True)


def forward2(x):
    return w1 * x ** 2 + w2 * x + b


print("predict (before training)", 5, forward2(5).item())
for epoch in range(30):
    for x, y in zip(x_data, y_data):
        l = (forward2(x) - y) ** 2
        l.backward()
        for p in (w1, w2, b):
            p.data = p.data - 0.001 * p.grad.data
            p.grad.data.zero_()
    if epoch % 10 == 0:
        print("progress:", epoch, l.item(), w1.grad, w2.data, b.data.item())
print("predict (after training)", 5, forward2(5).item())
print("w1 =", w1.item(), "w2 =", w2.item(), "b =", b.item())
print(forward2(5))
