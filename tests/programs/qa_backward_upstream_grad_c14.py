# Corpus program modelled on the Stack Overflow question "Backward function in PyTorch" and its
# answer (a[i,j]*a[i,j] summed element by element, then out.backward(g) with a 2x3 upstream
# gradient, then torch.ones(2, 3)):
# seen as the mirrored translation https://isolution.pro/pl/q/so70246575/funkcja-wsteczna-w-pytorch
# Changed: the question's integer tensor with requires_grad is shown raising (caught and
# printed); a.grad is reset between the answer's cases. Written for gradsh.
import torch

try:
    torch.tensor([[1, 2, 3], [4, 5, 6]], requires_grad=True)
except RuntimeError as e:
    print(e)

a = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.float, requires_grad=True)
for i in range(2):
    for j in range(3):
        out = a[i, j] * a[i, j]
        out.backward()
print(a.grad)

a.grad = None
out = a * a
out.backward(a)
print(a.grad)

a.grad = None
out = a * a
out.backward(torch.ones(2, 3))
print(a.grad)

a.grad = None
out = a * a
try:
    out.backward()
except RuntimeError as e:
    print(e)
try:
    out.backward(torch.ones(3))
except RuntimeError as e:
    print(e)
