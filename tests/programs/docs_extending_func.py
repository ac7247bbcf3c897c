# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs note
# "Extending torch.func with autograd.Function", BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/docs/source/notes/extending.func.rst
# (https://pytorch.org/docs/stable/notes/extending.func.html)
# Like the note: helpers to_numpy(); NumpySort, a Function whose forward (no ctx) sorts through
# numpy and returns the sorted values with the indices and their inverse, setup_context marking
# the indices non-differentiable and saving them, backward calling NumpyTake.apply; NumpyTake
# (np.take_along_axis) whose backward calls NumpyTake again, so double backward works; both
# used under torch.func.grad; MyCube with a jvp staticmethod (ctx.save_for_forward) for
# torch.func.jvp and generate_vmap_rule = True for torch.vmap; and the hand-written vmap
# staticmethods (info, in_dims, ...) moving the batch dimension with movedim / unsqueeze,
# returning (output, out_dims).
# Differences: our own code and sizes; a seed; results checked against the plain torch ops.
import numpy as np
import torch


def to_numpy(tensor):
    return tensor.cpu().numpy()


class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = to_numpy(x)
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (torch.tensor(result, device=device), torch.tensor(ind, device=device),
                torch.tensor(ind_inv, device=device))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None

    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        return NumpySort.apply(x, dim + 1), (0, 0, 0)


class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        x = to_numpy(x)
        ind = to_numpy(ind)
        return torch.tensor(np.take_along_axis(x, ind, dim), device=device)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None

    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x.dim() - 1
        dim = dim if dim >= 0 else dim + logical_dim

        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)

        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        ind_inv = maybe_expand_bdim_at_front(ind_inv, ind_inv_bdim)
        return NumpyTake.apply(x, ind, ind_inv, dim + 1), 0


def numpy_sort(x, dim=-1):
    result, _, _ = NumpySort.apply(x, dim)
    return result


torch.manual_seed(0)
x = torch.randn(2, 5)
print(numpy_sort(x, 1))
print(torch.equal(numpy_sort(x, 1), torch.sort(x, 1).values))
grad_x = torch.func.grad(lambda x: numpy_sort(x).sum())(x)
print(grad_x)
weights = torch.arange(5.)
grad_x = torch.func.grad(lambda x: (numpy_sort(x) * weights).sum())(x)
print(grad_x)
xr = x.clone().requires_grad_()
y = numpy_sort(xr)
print(y.grad_fn is not None, type(y.grad_fn).__name__)
(y * weights).sum().backward()
print(torch.equal(xr.grad, grad_x))
_, ind, ind_inv = NumpySort.apply(xr, 1)
print(ind.requires_grad, ind.dtype, ind_inv[0])

gg = torch.func.grad(lambda x: torch.func.grad(lambda x: (numpy_sort(x) ** 3).sum())(x).sum())(x)
print(torch.allclose(gg, 6 * x))

batched = torch.randn(3, 2, 4)
out = torch.vmap(numpy_sort)(batched)
print(out.shape, torch.equal(out, torch.sort(batched, -1).values))
out = torch.vmap(numpy_sort, in_dims=1)(batched)
print(out.shape, torch.equal(out, torch.sort(batched.movedim(1, 0), -1).values))
per_sample = torch.vmap(torch.func.grad(lambda v: (numpy_sort(v, 0) * weights[:4]).sum()))(batched[0])
print(per_sample)


class MyCube(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)
        ctx.save_for_forward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result

    @staticmethod
    def jvp(ctx, x_t):
        x, dx = ctx.saved_tensors
        return dx * x_t, 6 * x * x_t


def my_cube(x):
    result, _ = MyCube.apply(x)
    return result


x = torch.tensor([1.0, -2.0, 0.5])
print(torch.func.grad(lambda x: my_cube(x).sum())(x))
print(torch.func.grad(lambda x: torch.func.grad(lambda x: my_cube(x).sum())(x).sum())(x))
primal, tangent = torch.func.jvp(my_cube, (x,), (torch.ones(3),))
print(primal, tangent)
print(torch.vmap(my_cube)(torch.arange(6.).view(3, 2)))
print(torch.func.jacrev(my_cube)(x))
print(torch.func.jacfwd(my_cube)(x))
print(torch.vmap(torch.func.grad(lambda v: my_cube(v).sum()))(torch.arange(6.).view(3, 2)))
