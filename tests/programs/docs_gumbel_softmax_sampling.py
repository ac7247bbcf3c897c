# Corpus program, written for gradsh (no code copied). Modelled on the reference of
# torch.nn.functional.gumbel_softmax (https://pytorch.org/docs/main/generated/torch.nn.functional.gumbel_softmax.html:
# logits = torch.randn(20, 32), a soft sample with the reparametrization trick, a hard
# one-hot sample with the straight-through trick y_hard - y_soft.detach() + y_soft) and the
# CSDN notes that collect it with the Zhihu answer on Gumbel-softmax
# (https://blog.csdn.net/weixin_37804469/article/details/108192032): temperature tau making
# samples sharper, samples summing to 1, the hard sample's gradient being the soft one's, and
# sampling frequencies approaching softmax(logits).
# Differences: our own code; smaller logits; seeded; rounded prints.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(20, 32)
soft = F.gumbel_softmax(logits, tau=1, hard=False)
hard = F.gumbel_softmax(logits, tau=1, hard=True)
print(soft.shape, soft.sum(dim=-1)[:4], hard.sum(dim=-1)[:4])
print(hard[0].nonzero().flatten(), hard.max().item(), (hard == 0).sum().item())

logits = torch.tensor([[1.0, 2.0, 0.5]], requires_grad=True)
for tau in (5.0, 1.0, 0.1):
    torch.manual_seed(1)
    y = F.gumbel_softmax(logits, tau=tau)
    print(tau, [round(v, 3) for v in y[0].tolist()])

torch.manual_seed(2)
y_hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
torch.manual_seed(2)
y_soft = F.gumbel_softmax(logits, tau=0.5, hard=False)
print(y_hard, y_hard.grad_fn)
w = torch.tensor([1.0, -1.0, 3.0])
(y_hard * w).sum().backward()
g_hard = logits.grad.clone()
logits.grad = None
(y_soft * w).sum().backward()
print(torch.allclose(g_hard, logits.grad), [round(v, 4) for v in g_hard[0].tolist()])

torch.manual_seed(3)
samples = F.gumbel_softmax(logits.detach().expand(4000, 3), tau=1.0, hard=True)
freq = samples.mean(dim=0)
print([round(v, 2) for v in freq.tolist()], [round(v, 2) for v in F.softmax(logits, -1)[0].tolist()])
print(F.gumbel_softmax(torch.zeros(2, 3), dim=0).sum(dim=0))
