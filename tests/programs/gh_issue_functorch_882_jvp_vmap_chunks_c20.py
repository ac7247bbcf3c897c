# Corpus program modelled on pytorch/functorch issue #882 ("Can I use jvp with vmap?",
# https://github.com/pytorch/functorch/issues/882: wrap jvp in a function and vmap it), issue
# #724 (linearize, https://github.com/pytorch/functorch/issues/724) and PR #89376's chunked
# jacrev check (https://github.com/pytorch/pytorch/pull/89376): per-sample jvp under vmap,
# torch.func.linearize's reusable jvp function, vmap and jacrev with chunk_size, the
# vmap(jacrev(...)) result against torch.autograd.functional.jacobian row by row, and
# hessian/jacfwd on a small function. Changed: small sizes with a seed; printed values.
import torch
from torch.func import jvp, vmap, linearize, jacrev, jacfwd, hessian, vjp

torch.manual_seed(0)
xs = torch.randn(3)
tangents = torch.randn(3)


def f(x, tangent):
    return jvp(torch.sin, (x,), (tangent,))


output, output_tangents = vmap(f)(xs, tangents)
print(output, output_tangents)
print(torch.allclose(output_tangents, torch.cos(xs) * tangents))

x = torch.randn(5)
out, jvp_fn = linearize(lambda t: t.sin().sum() * t, x)
print(out)
for _ in range(2):
    v = torch.randn(5)
    print(jvp_fn(v))
print(jvp(lambda t: t.sin().sum() * t, (x,), (v,))[1])

x = torch.randn(5, 10)


def fn(x):
    return x.sin()


vec_jacobian = vmap(jacrev(fn, chunk_size=2))(x)
jacobians = []
for idx in range(5):
    jacobians.append(torch.autograd.functional.jacobian(fn, x[idx]))
torch.testing.assert_close(vec_jacobian, torch.stack(jacobians))
print(vec_jacobian.shape, vec_jacobian[0, :3, :3])
print(vmap(torch.dot, chunk_size=2)(torch.randn(5, 3), torch.randn(5, 3)))
print(jacrev(fn, chunk_size=1)(x[0])[:2, :2])


def g(w):
    return (w ** 3).sum() + w.prod()


w = torch.tensor([1.0, 2.0, -0.5])
print(jacfwd(g)(w), jacrev(g)(w))
print(hessian(g)(w))
(out, vjp_fn) = vjp(lambda t: t.exp() * 2, w)
print(out, vjp_fn(torch.ones(3)))
print(vmap(lambda a, b: a * b, in_dims=(0, None))(torch.arange(6.).view(3, 2), torch.tensor([10., 20.])))
print(vmap(torch.sum, in_dims=1, out_dims=0)(torch.arange(6.).view(2, 3)))
try:
    vmap(torch.sum, in_dims=2)(torch.ones(2, 3))
except ValueError as e:
    print("ValueError:", e)
