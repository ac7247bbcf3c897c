# Corpus program, written for gradsh (no code copied). Modelled on the "Example::" sections of
# PyTorch's reference pages for less common tensor functions
# (https://pytorch.org/docs/stable/torch.html and the generated pages of each function:
# Tensor.unfold, bucketize, searchsorted, unique_consecutive, cartesian_prod, combinations,
# block_diag, cdist, kron, tensordot, trapezoid, cumulative_trapezoid, diff, gradient,
# logcumsumexp, cummax, cummin, renorm, vander, tril_indices, triu_indices, rot90, histogram,
# histc, bincount, aminmax, nanmedian, quantile, nanquantile, mode, kthvalue, scatter_reduce,
# index_copy_, index_add_, put_, masked_scatter_, as_strided, index_put, take_along_dim, take,
# count_nonzero, argwhere, heaviside, logaddexp, hypot, nextafter, frexp, ldexp, copysign,
# float_power, xlogy, sinc, clamp with tensor bounds, lerp, polygamma, mvlgamma, igamma, and
# torch.special's zeta, entr, ndtri, log_ndtr, i0e, logit, xlog1py, erfcx, round).
# Like the docs: each example's inputs (where they are literal) and the call printed.
# Differences: seeded random inputs where the docs use unseeded ones; several examples per line.
import torch
torch.manual_seed(0)
x = torch.arange(1., 8)
print(x.unfold(0, 2, 1)); print(x.unfold(0, 2, 2))
print(torch.bucketize(torch.tensor([[1, 3, 9], [3, 6, 9]]), torch.tensor([1, 3, 5, 7, 9]), right=True))
print(torch.searchsorted(torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]]), torch.tensor([[3, 6, 9], [3, 6, 9]]), side='right'))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True, return_counts=True))
print(torch.cartesian_prod(torch.tensor([1, 2, 3]), torch.tensor([4, 5])))
print(torch.combinations(torch.tensor([1, 2, 3]), r=2, with_replacement=True))
print(torch.block_diag(torch.tensor([[0, 1], [1, 0]]), torch.tensor([[3, 4, 5], [6, 7, 8]]), torch.tensor(7), torch.tensor([1, 2, 3])))
a = torch.tensor([[0.9041, 0.0196], [-0.3108, -2.4423], [-0.4821, 1.059]])
b = torch.tensor([[-2.1763, -0.4713], [-0.6986, 1.3702]])
print(torch.cdist(a, b, p=2), torch.cdist(a, b, p=1), torch.cdist(a, b, p=float('inf')))
print(torch.kron(torch.eye(2), torch.ones(2, 2)))
print(torch.tensordot(torch.arange(60.).reshape(3, 4, 5), torch.arange(24.).reshape(4, 3, 2), dims=([1, 0], [0, 1])))
print(torch.trapezoid(torch.tensor([1, 5, 10])), torch.trapezoid(torch.tensor([1., 5., 10.]), dx=2), torch.cumulative_trapezoid(torch.tensor([1., 5., 10.])))
print(torch.diff(torch.tensor([1, 3, 2])), torch.diff(torch.tensor([1, 3, 2]), append=torch.tensor([4, 5])), torch.diff(torch.tensor([[1, 2, 3], [3, 4, 5]]), dim=0))
print(torch.gradient(torch.tensor([4., 1., 1., 16.]), spacing=(torch.tensor([-2., -1., 1., 4.]),)))
print(torch.gradient(torch.tensor([[1, 2, 4, 8], [10, 20, 40, 80]]), spacing=[3., 2.]))
print(torch.gradient(torch.tensor([[1, 2, 4, 8], [10, 20, 40, 80]]), dim=1, edge_order=2))
print(torch.logcumsumexp(torch.tensor([0.1, 0.5, -1.0, 2.0]), dim=0), torch.cummax(torch.tensor([1., 3, 2, 5, 4]), 0), torch.cummin(torch.tensor([5, 3, 4, 1, 2]), 0))
print(torch.renorm(torch.ones(3, 3) * torch.tensor([[1.], [2.], [3.]]), 1, 0, 5))
print(torch.vander(torch.tensor([1, 2, 3, 5])), torch.vander(torch.tensor([1., 2, 3]), N=3, increasing=True))
print(torch.tril_indices(4, 3, -1), torch.triu_indices(3, 3, 1))
print(torch.rot90(torch.arange(4).view(2, 2), 1, [0, 1]), torch.rot90(torch.arange(8).view(2, 2, 2), -1, [1, 2]))
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=torch.tensor([1., 2., 4.])))
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=torch.tensor([1., 2., 4.]), density=True))
print(torch.histc(torch.tensor([1., 2, 1]), bins=4, min=0, max=3), torch.bincount(torch.tensor([4, 3, 6, 3, 4]), weights=torch.linspace(0, 1, steps=5)))
print(torch.aminmax(torch.tensor([1, -3, 5])), torch.aminmax(torch.arange(10).view(2, 5), dim=0, keepdim=True))
print(torch.nanmedian(torch.tensor([1, float('nan'), 3, 2])), torch.tensor([[2, 3, 1], [float('nan'), 1, float('nan')]]).nanmedian(0))
q = torch.tensor([0.0, 1.0, 2.0, 3.0])
print(torch.quantile(q, 0.6, interpolation='linear'), torch.quantile(q, 0.4, interpolation='lower'), torch.quantile(q, 0.4, interpolation='higher'), torch.quantile(q, 0.4, interpolation='midpoint'), torch.quantile(q, 0.4, interpolation='nearest'))
print(torch.quantile(torch.randn(2, 3), torch.tensor([0.25, 0.5, 0.75]), dim=1, keepdim=True))
print(torch.nanquantile(torch.tensor([float('nan'), 1, 2]), 0.5), torch.nanquantile(torch.tensor([[float('nan'), float('nan')], [1, 2]]), 0.5, dim=0))
print(torch.mode(torch.tensor([[6, 5, 1, 0, 2], [0, 0, 4, 1, 2], [6, 4, 2, 4, 1]]), 0), torch.kthvalue(torch.arange(1., 6.), 4))
src = torch.tensor([1., 2., 3., 4., 5., 6.]); index = torch.tensor([0, 1, 0, 1, 2, 1]); inp = torch.tensor([1., 2., 3., 4.])
print(inp.scatter_reduce(0, index, src, reduce="sum"), inp.scatter_reduce(0, index, src, reduce="sum", include_self=False), inp.scatter_reduce(0, index, src, reduce="amax"), inp.scatter_reduce(0, index, src, reduce="mean"), inp.scatter_reduce(0, index, src, reduce="prod", include_self=False))
t = torch.zeros(5, 3); print(t.index_copy_(0, torch.tensor([0, 4, 2]), torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=torch.float)))
t = torch.ones(5, 3); print(t.index_add_(0, torch.tensor([0, 4, 2]), torch.ones(3, 3), alpha=-1))
t = torch.tensor([[1, 2], [3, 4]]); print(t.put_(torch.tensor([1, 3]), torch.tensor([9, 10])), t.put_(torch.tensor([0, 0]), torch.tensor([1, 2]), accumulate=True))
s = torch.zeros(3, 5); m = torch.tensor([[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]], dtype=torch.bool); print(s[:2].masked_scatter_(m, torch.arange(10.).view(2, 5)))
x = torch.randn(3, 3); print(torch.as_strided(x, (2, 2), (1, 2)), torch.as_strided(x, (2, 2), (1, 2), 1), x.storage_offset(), x[1:].storage_offset())
print(torch.index_put(torch.zeros(3, 3), (torch.tensor([0, 2]), torch.tensor([1, 1])), torch.tensor([5., 6.]), accumulate=True))
print(torch.take_along_dim(torch.tensor([[10, 30, 20], [60, 40, 50]]), torch.tensor([[0], [2]]), dim=1), torch.take(torch.tensor([[4, 3, 5], [6, 7, 8]]), torch.tensor([0, 2, 5])))
print(torch.count_nonzero(torch.tensor([[0, 1, 7], [0, 0, 4]]), dim=0), torch.argwhere(torch.tensor([[1, 0, 1], [0, 1, 1]])))
print(torch.heaviside(torch.tensor([-1.5, 0, 2.0]), torch.tensor([0.5])), torch.logaddexp(torch.tensor([-1.0]), torch.tensor([-1.0, -2, -3])), torch.hypot(torch.tensor([4.0]), torch.tensor([3.0, 4.0, 5.0])))
print(torch.nextafter(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 1.0])) == torch.tensor([1.0, 2.0]), torch.frexp(torch.arange(9.)), torch.ldexp(torch.tensor([1.]), torch.tensor([1, 2, 3])))
print(torch.copysign(torch.tensor([1., -2, 3]), -1), torch.float_power(torch.tensor([4, 6]), 2), torch.xlogy(torch.zeros(3), torch.tensor([0., float('nan'), 2])), torch.sinc(torch.tensor([0., 0.5, 1.])))
print(torch.clamp(torch.tensor([1, 5, 9]), min=torch.tensor([2, 2, 2]), max=torch.tensor([4, 6, 8])), torch.lerp(torch.arange(1., 5.), torch.empty(4).fill_(10), torch.full((4,), 0.5)))
print(torch.polygamma(1, torch.tensor([1, 0.5])), torch.mvlgamma(torch.tensor([2.5, 3.0]), 2), torch.igamma(torch.tensor([4.0]), torch.tensor([3.0])), torch.special.zeta(torch.tensor([2., 4.]), 1))
print(torch.special.entr(torch.tensor([-1., 0, 0.5, 1])), torch.special.ndtri(torch.tensor([0, 0.25, 0.5, 0.75, 1])), torch.special.log_ndtr(torch.tensor([-3., -2, -1, 0, 1])), torch.special.i0e(torch.arange(3.)))
print(torch.special.logit(torch.tensor([0.25, 0.5]), eps=1e-6), torch.special.xlog1py(torch.tensor([1., 2, 3]), torch.tensor([3., 2, 1])), torch.special.erfcx(torch.tensor([0, -1., 10.])), torch.special.round(torch.tensor([0.5, 1.5, 2.5])))
