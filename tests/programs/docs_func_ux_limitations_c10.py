# Corpus program, written for gradsh (no code copied). Modelled on PyTorch's "UX Limitations"
# page of torch.func:
# https://github.com/pytorch/pytorch/blob/main/docs/source/func.ux_limitations.md
# Like the page: a function that stashes an intermediate in a global rewritten to return it
# through grad(has_aux=True); vmap as a for-loop over unbind(0) (compared with torch.stack of
# the per-example results); an in-place add_ into a batched x; diag_embed built with
# vec.new_zeros; control flow on x.dim() (custom_dot); and the Randomness section: a random
# op under the default "error" flag raising, add_noise with randomness="different" (three
# different values) and "same" (one value three times), plus reproducibility through
# torch.manual_seed outside vmap.
# Differences: seeded; the values the page describes are printed; the examples the page shows
# raising for batched in-place writes, .item(), data-dependent if and nonzero are left out
# (gradsh's vmap runs the function once per example, see the report of corpus10).
import torch
from torch.func import grad, vmap

torch.manual_seed(0)


def f(x):
    intermediate = x.sin()
    z = intermediate.sin()
    return z, intermediate


x = torch.randn([])
grad_x, intermediate = grad(f, has_aux=True)(x)
print(x, grad_x, intermediate)
print(torch.allclose(grad_x, x.sin().cos() * x.cos()))

g = lambda row: (row * row).sum(0)
x = torch.randn(3, 4)
print(vmap(g)(x))
print(torch.stack([g(x_i) for x_i in x.unbind(0)]))


def f_add(x, y):
    x.add_(y)
    return x


x = torch.randn(3, 1)
y = torch.randn(3, 1)
expected = x + y
out = vmap(f_add, in_dims=(0, 0))(x, y)
print(out.shape, torch.allclose(x, expected), x)


def diag_embed(vec):
    assert vec.dim() == 1
    result = vec.new_zeros(vec.shape[0], vec.shape[0])
    result.diagonal().copy_(vec)
    return result


vecs = torch.tensor([[0., 1, 2], [3., 4, 5]])
print(vmap(diag_embed)(vecs))
print(torch.diag_embed(vecs).equal(vmap(diag_embed)(vecs)))


def custom_dot(x):
    if x.dim() == 1:
        return torch.dot(x, x)
    return (x * x).sum()


x = torch.randn(3)
print(vmap(custom_dot)(x), custom_dot(x), x * x)
print(vmap(custom_dot)(torch.randn(2, 3)))


def add_noise(x):
    y = torch.randn(())
    return x + y


x = torch.ones(3)
try:
    vmap(add_noise)(x)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    vmap(add_noise, randomness="sometimes")
except RuntimeError as e:
    print("RuntimeError:", e)

result = vmap(add_noise, randomness="different")(x)
print(result, len(set(result.tolist())))
result = vmap(add_noise, randomness="same")(x)
print(result, len(set(result.tolist())))
print(torch.randn(2))

for trial in range(2):
    torch.manual_seed(1234)
    print(trial, vmap(add_noise, randomness="different")(x),
          vmap(add_noise, randomness="same")(torch.zeros(4)))


def noisy_layer(x):
    return torch.nn.functional.dropout(x, p=0.5, training=True)


torch.manual_seed(7)
print(vmap(noisy_layer, randomness="same")(torch.ones(3, 6)))
print(vmap(noisy_layer, randomness="different")(torch.ones(3, 6)))
try:
    vmap(noisy_layer)(torch.ones(3, 6))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
print(torch.rand(3))
