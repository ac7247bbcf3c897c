"""nn.init after a seed: PyTorch's random draws."""
import torch
import torch.nn as nn

torch.manual_seed(4)
w = torch.empty(3, 5)
for name, fn in [("uniform_", lambda t: nn.init.uniform_(t, -2, 2)),
                 ("normal_", lambda t: nn.init.normal_(t, 1.0, 0.5)),
                 ("xavier_uniform_", lambda t: nn.init.xavier_uniform_(t, gain=nn.init.calculate_gain("tanh"))),
                 ("xavier_normal_", nn.init.xavier_normal_),
                 ("kaiming_uniform_", lambda t: nn.init.kaiming_uniform_(t, nonlinearity="relu")),
                 ("kaiming_normal_", lambda t: nn.init.kaiming_normal_(t, mode="fan_out")),
                 ("trunc_normal_", lambda t: nn.init.trunc_normal_(t, std=0.5)),
                 ("trunc_normal_narrow", lambda t: nn.init.trunc_normal_(t, a=0.5, b=0.6)),
                 ("constant_", lambda t: nn.init.constant_(t, 0.3)),
                 ("eye_", nn.init.eye_), ("zeros_", nn.init.zeros_), ("ones_", nn.init.ones_)]:
    print(name, fn(w))
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("selu"))
conv = torch.empty(2, 2, 3, 3)
print(nn.init.dirac_(conv)[0, 0])
q = nn.init.orthogonal_(torch.empty(3, 5))
print(torch.allclose(q @ q.t(), torch.eye(3), atol=1e-6), q.shape)
p = nn.Parameter(torch.empty(2, 2))
nn.init.normal_(p)
print(p.requires_grad, p.is_leaf, p.grad_fn)
for bad in (lambda: nn.init.calculate_gain("foo"), lambda: nn.init.xavier_uniform_(torch.empty(3)),
            lambda: nn.init.kaiming_uniform_(torch.empty(2, 2), mode="fan")):
    try:
        bad()
    except ValueError as e:
        print(e)
