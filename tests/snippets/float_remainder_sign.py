# Probe (issue 17): float remainder keeps fmod's zero sign (2. % -2 is 0.), PyTorch's CPU kernel.
import torch
f = torch.tensor([1., 2., 3., -2., -0., 0., 5.5, float("inf"), float("nan")])
for b in [-2, 2, -2.5, float("inf"), -float("inf"), 0.]:
    print(b, f % b, torch.remainder(f, torch.tensor(b)), torch.remainder(b, f))
print(torch.tensor([7, -7]) % 3, torch.tensor([7, -7]) % -3, torch.remainder(-7, torch.tensor([3, -3])))
print(torch.tensor([1., 2.], dtype=torch.float64) % -2, torch.tensor([2.], dtype=torch.float16) % -2)
