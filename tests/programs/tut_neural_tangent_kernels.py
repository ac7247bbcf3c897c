# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial "Neural
# Tangent Kernels" (torch.func), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/neural_tangent_kernels.py
# Like the original: a small CNN (three Conv2d with .relu() and a Linear over flatten(1)),
# params = {k: v.detach() for k, v in net.named_parameters()}, fnet_single calling
# functional_call on x.unsqueeze(0) and squeeze(0), method 1 (vmap(jacrev(fnet_single),
# (None, 0)) for both batches, j.flatten(2), torch.einsum('Naf,Mbf->NMab' / 'Naf,Maf->NM' /
# 'Naf,Maf->NMa') stacked and summed), method 2 (NTK-vector products: vjp of func_x1, jvp of
# func_x2 with the vjps, vmap over the rows of torch.eye(O), nested vmap over both batches,
# einsum 'NMKK->NM' and 'NMKK->NMK'), and the two methods compared with allclose.
# Differences: our own code; device 'cpu'; 3x10x10 inputs, 4/4/4 channels, 3 outputs,
# batches of 4 and 2; the shapes and allclose results printed with a few values; a seed.
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, jvp, vjp, vmap

torch.manual_seed(0)
device = 'cpu'


class CNN(nn.Module):
    def __init__(self):
        super(CNN, self).__init__()
        self.conv1 = nn.Conv2d(3, 4, (3, 3))
        self.conv2 = nn.Conv2d(4, 4, (3, 3))
        self.conv3 = nn.Conv2d(4, 4, (3, 3))
        self.fc = nn.Linear(64, 3)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = self.conv3(x)
        x = x.flatten(1)
        x = self.fc(x)
        return x


x_train = torch.randn(4, 3, 10, 10, device=device)
x_test = torch.randn(2, 3, 10, 10, device=device)
net = CNN().to(device)
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


print(fnet_single(params, x_test[0]))


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute='full'):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    einsum_expr = None
    if compute == 'full':
        einsum_expr = 'Naf,Mbf->NMab'
    elif compute == 'trace':
        einsum_expr = 'Naf,Maf->NM'
    elif compute == 'diagonal':
        einsum_expr = 'Naf,Maf->NMa'
    else:
        assert False
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    return result.sum(0)


jac = vmap(jacrev(fnet_single), (None, 0))(params, x_train)
print({k: tuple(v.shape) for k, v in jac.items()})
result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result.shape)
trace = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'trace')
print(trace.shape)
diag = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'diagonal')
print(diag.shape, torch.allclose(diag.sum(-1), trace, rtol=1e-4, atol=1e-4))


def empirical_ntk_ntk_vps(func, params, x1, x2, compute='full'):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == 'full':
        return result
    if compute == 'trace':
        return torch.einsum('NMKK->NM', result)
    if compute == 'diagonal':
        return torch.einsum('NMKK->NMK', result)


result_from_jacobian_contraction = empirical_ntk_jacobian_contraction(fnet_single, params, x_test, x_train)
result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_test, x_train)
print(result_from_ntk_vps.shape)
print(torch.allclose(result_from_jacobian_contraction, result_from_ntk_vps, rtol=1e-4, atol=1e-4))
t1 = empirical_ntk_ntk_vps(fnet_single, params, x_test, x_train, 'trace')
t2 = empirical_ntk_jacobian_contraction(fnet_single, params, x_test, x_train, 'trace')
print(torch.allclose(t1, t2, rtol=1e-4, atol=1e-4))
print(torch.allclose(result_from_jacobian_contraction[0, 0],
                     result_from_jacobian_contraction[0, 0].T, rtol=1e-4, atol=1e-4))
print((result_from_jacobian_contraction[1, 2].diagonal() > 0).all())
