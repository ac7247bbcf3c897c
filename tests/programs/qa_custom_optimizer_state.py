# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "Writing a custom optimizer" (https://discuss.pytorch.org/t/custom-optimizer-in-pytorch/22397:
# subclass torch.optim.Optimizer, keep per-parameter state, step under torch.no_grad()) and on
# the state initialisation torch.optim's own optimizers use, which such answers copy:
# torch.zeros_like(p, memory_format=torch.preserve_format). Also Tensor.contiguous and
# Module.to with a memory_format, as performance answers suggest.
# Written for gradsh; synthetic regression data, 30 steps, seeded.
import torch
import torch.nn as nn


class PlainAdam(torch.optim.Optimizer):
    """Adam written out by hand, its state made the way torch.optim makes it."""

    def __init__(self, params, lr=1e-2, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(
                        p, memory_format=torch.preserve_format)
                state["step"] += 1
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                exp_avg.mul_(beta1).add_(p.grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)
                bias1 = 1 - beta1 ** state["step"]
                bias2 = 1 - beta2 ** state["step"]
                denom = (exp_avg_sq / bias2).sqrt().add_(group["eps"])
                p.addcdiv_(exp_avg, denom, value=-group["lr"] / bias1)
        return loss


torch.manual_seed(0)
x = torch.randn(64, 5)
y = x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]]) + 0.1 * torch.randn(64, 1)


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))


results = {}
for name in ("PlainAdam", "torch.optim.Adam"):
    model = make_model()
    opt = PlainAdam(model.parameters()) if name == "PlainAdam" else \
        torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(30):
        def closure():
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            return loss
        loss = opt.step(closure)
        if step % 10 == 0:
            print(f"{name} step {step:2d} loss {loss.item():.6f}")
    results[name] = [p.detach().clone() for p in model.parameters()]
    state = opt.state[model[0].weight]
    print(name, "state keys", sorted(state), "exp_avg strides", state["exp_avg"].stride())

for a, b in zip(results["PlainAdam"], results["torch.optim.Adam"]):
    print("max difference", (a - b).abs().max().item())

# memory formats: a 4-d input made channels-last, a module's 4-d weights converted
images = torch.randn(2, 3, 8, 8)
cl = images.contiguous(memory_format=torch.channels_last)
print(cl.stride(), cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last))
print(torch.equal(cl, images), torch.zeros_like(cl).stride(), torch.empty_like(images).stride())
conv = nn.Conv2d(3, 4, 3).to(memory_format=torch.channels_last)
print(conv.weight.stride(), conv.bias.stride(), conv.weight.is_contiguous())
back = cl.contiguous()
print(back.stride(), back.is_contiguous())
try:
    torch.randn(3, 4).contiguous(memory_format=torch.channels_last)
except RuntimeError as error:
    print("RuntimeError:", error)
