# Found by corpus10 (Q&A programs computing a Jacobian's rows in one call): torch.autograd.grad
# with is_grads_batched=True, the first dimension of each grad_output a batch of vectors.
import torch

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True))
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, requires_grad=True)
unused = torch.randn(1, requires_grad=True)
out = w @ x.sin() + b
jac = torch.autograd.grad(out, (w, x, b, unused), torch.eye(2), retain_graph=True,
                          is_grads_batched=True, allow_unused=True)
print([None if j is None else tuple(j.shape) for j in jac])
print(jac[1])
print(torch.autograd.functional.jacobian(lambda v: w @ v.sin() + b, x))
g, = torch.autograd.grad(out.sum() * x, x, torch.eye(3), is_grads_batched=True,
                         create_graph=True)
print(g.requires_grad, g)
print(torch.autograd.grad(g.sum(), w)[0])
z = torch.randn(2, 2, requires_grad=True)
t = z.exp()
try:
    torch.autograd.grad(t, z, torch.ones(3, 4), is_grads_batched=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.autograd.grad([t, z * 3], z, [torch.ones(2, 2, 2), torch.ones(2, 2, 2)],
                          is_grads_batched=True))
try:
    torch.autograd.grad(t, z, torch.ones(2, 2, 2), is_grads_batched=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
