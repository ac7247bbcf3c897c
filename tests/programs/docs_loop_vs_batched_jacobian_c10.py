# Corpus program, written for gradsh (no code copied). Modelled on the tad-mctc documentation
# page "Autograd Utility: Loop-based Jacobian"
# (https://tad-mctc.readthedocs.io/en/latest/modules/autograd/nonfunctorch.html): jac(a, b,
# create_graph=None, retain_graph=True) builds the Jacobian of a with respect to b row by row
# with torch.autograd.grad (create_graph defaulting to whether b requires grad ...), and a
# Hessian the same way on top of it; the page contrasts it with the functorch versions. The
# program compares the loop with torch.autograd.grad(..., is_grads_batched=True) (one call with
# the identity as a batch of grad_outputs), torch.func.jacrev and
# torch.autograd.functional.jacobian/hessian, on a small energy-like function of atom
# positions (pairwise distances, exp, sum).
# Differences: our own function and sizes; seeded; the outputs compared and printed.
import torch

torch.manual_seed(0)


def jac(a, b, create_graph=None, retain_graph=True):
    if create_graph is None:
        create_graph = torch.is_grad_enabled()
    aflat = a.reshape(-1)
    anumel, bnumel = a.numel(), b.numel()
    res = torch.empty((anumel, bnumel), dtype=a.dtype, device=a.device)
    for i in range(aflat.numel()):
        (g,) = torch.autograd.grad(aflat[i], b, create_graph=create_graph,
                                   retain_graph=retain_graph)
        res[i] = g.reshape(-1)
    return res


def hessian(f, inputs, create_graph=False):
    x = inputs.detach().requires_grad_(True)
    y = f(x)
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    return jac(g, x, create_graph=create_graph)


def pair_energy(pos):
    diff = pos.unsqueeze(0) - pos.unsqueeze(1)
    dist = (diff.pow(2).sum(-1) + torch.eye(pos.shape[0])).sqrt()
    return torch.exp(-dist).triu(1).sum()


def forces(pos):
    return pos.sin() * pos.sum(-1, keepdim=True)


pos = torch.randn(4, 3, requires_grad=True)
out = forces(pos)
j_loop = jac(out, pos)
print(j_loop.shape, j_loop.requires_grad)
print(j_loop[:3])
eye = torch.eye(out.numel()).view(-1, *out.shape)
(j_batched,) = torch.autograd.grad(out, pos, eye, retain_graph=True, is_grads_batched=True)
print(j_batched.shape)
print(torch.equal(j_batched.reshape(out.numel(), -1), j_loop.detach()))
j_func = torch.func.jacrev(forces)(pos.detach())
print(torch.allclose(j_func.reshape(out.numel(), -1), j_loop))
j_af = torch.autograd.functional.jacobian(forces, pos.detach(), vectorize=True)
print((j_af.reshape(out.numel(), -1) - j_loop).abs().max())

h_loop = hessian(pair_energy, pos)
print(h_loop.shape, h_loop.requires_grad)
print(h_loop[:3, :6])
h_af = torch.autograd.functional.hessian(pair_energy, pos.detach())
print(torch.allclose(h_af.reshape(12, 12), h_loop), (h_loop - h_loop.T).abs().max() < 1e-5)
energy = pair_energy(pos)
(g,) = torch.autograd.grad(energy, pos, create_graph=True)
(h_batched,) = torch.autograd.grad(g, pos, torch.eye(12).view(12, 4, 3), is_grads_batched=True,
                                   retain_graph=True)
print(torch.allclose(h_batched.reshape(12, 12), h_loop))
print(h_batched[0])
try:
    torch.autograd.grad(g, pos, torch.eye(12), is_grads_batched=True)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    out2 = forces(pos)
try:
    jac(out2, pos)
except RuntimeError as e:
    print("RuntimeError:", e)
