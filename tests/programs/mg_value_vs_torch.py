# Corpus program, written for gradsh (no code copied). Modelled on karpathy/micrograd's
# test/test_engine.py, which checks a scalar autograd engine against PyTorch (MIT):
# https://github.com/karpathy/micrograd/blob/master/test/test_engine.py
# Like the original: the same kind of expression chains (relu, +=, **, /, negation, reverse
# operators with floats) computed once by a tiny scalar reverse-mode engine and once with
# double tensors made by torch.Tensor([v]).double() + requires_grad = True, comparing values
# and gradients.
# Differences: our own engine (a minimal Scalar class, not micrograd's) and our own
# expressions; the compared numbers are printed.
import torch


class Scalar:
    def __init__(self, value, parents=()):
        self.value = value
        self.grad = 0.0
        self.parents = parents  # pairs (parent, local derivative)

    def _wrap(self, other):
        return other if isinstance(other, Scalar) else Scalar(float(other))

    def __add__(self, other):
        other = self._wrap(other)
        return Scalar(self.value + other.value, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        other = self._wrap(other)
        return Scalar(self.value * other.value, ((self, other.value), (other, self.value)))

    def __pow__(self, k):
        return Scalar(self.value ** k, ((self, k * self.value ** (k - 1)),))

    def relu(self):
        return Scalar(max(self.value, 0.0), ((self, 1.0 if self.value > 0 else 0.0),))

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-self._wrap(other))

    def __truediv__(self, other):
        return self * self._wrap(other) ** -1

    __radd__ = __add__
    __rmul__ = __mul__

    def __rsub__(self, other):
        return self._wrap(other) - self

    def __rtruediv__(self, other):
        return self._wrap(other) / self

    def backward(self):
        order, seen = [], set()
        stack = [(self, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            elif id(node) not in seen:
                seen.add(id(node))
                stack.append((node, True))
                stack.extend((p, False) for p, _ in node.parents)
        self.grad = 1.0
        for node in reversed(order):
            for parent, local in node.parents:
                parent.grad += local * node.grad


def leaf(v):
    t = torch.Tensor([v]).double()
    t.requires_grad = True
    return t


def chain_one(x):
    z = 3 * x + 1 - x
    q = z.relu() + z * x
    h = (z * z).relu()
    return h + q + q * x


def chain_two(a, b):
    c = a + b
    d = a * b + b ** 3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    f = (c - d) ** 2
    g = f / 2.0
    return g + 10.0 / f


xs = Scalar(-3.0)
ys = chain_one(xs)
ys.backward()
xt = leaf(-3.0)
yt = chain_one(xt)
yt.backward()
print("chain_one", ys.value, yt.data.item(), xs.grad, xt.grad.item())

a_s, b_s = Scalar(-4.0), Scalar(2.0)
g_s = chain_two(a_s, b_s)
g_s.backward()
a_t, b_t = leaf(-4.0), leaf(2.0)
g_t = chain_two(a_t, b_t)
g_t.backward()
print("chain_two", g_s.value, g_t.data.item())
print("grads", a_s.grad, a_t.grad.item(), b_s.grad, b_t.grad.item())
print(abs(g_s.value - g_t.item()) < 1e-6, abs(a_s.grad - a_t.grad.item()) < 1e-6)
