# Corpus program, written for gradsh (no code copied). Modelled on the torch.cross and
# torch.linalg.cross documentation examples (https://pytorch.org/docs/stable/generated/torch.cross.html:
# a batch of 3-vectors, dim given, the deprecated default dim, broadcasting), plus the normal
# of a triangle from its corners and the gradient of its area.
# Written for gradsh; fixed vectors instead of randn.
import torch

a = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [2.0, -1.0, 3.0]])
b = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 4.0, -2.0]])
print(torch.cross(a, b, dim=1))
print(torch.cross(a, b))
print(a.cross(b[0].expand(3, 3), dim=-1))

corners = torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]],
                       requires_grad=True)
edge1 = corners[1] - corners[0]
edge2 = corners[2] - corners[0]
normal = torch.cross(edge1, edge2, dim=0)
area = normal.norm() / 2
print(normal, normal.grad_fn, area)
area.backward()
print(corners.grad)
try:
    torch.cross(torch.ones(2, 2), torch.ones(2, 2), dim=0)
except RuntimeError as err:
    print("RuntimeError:", err)
