# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 17 "Self-Supervised Contrastive Learning with SimCLR" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial17/SimCLR.ipynb
# Like the original: the InfoNCE loss (F.cosine_similarity of feats[:, None, :] and
# feats[None, :, :], the diagonal masked with masked_fill_(self_mask, -9e15), the positive
# pairs found with self_mask.roll(shifts=N//2), division by the temperature, logsumexp), the
# ranking metrics (torch.cat of the positive similarity in front, argsort twice,
# argmin over the == 0 position, top-1 / top-5 / mean position), an encoder whose last Linear
# is replaced by a projection head (4 * hidden_dim, ReLU, hidden_dim), AdamW with
# CosineAnnealingLR(eta_min=lr / 50); the logistic-regression probe on frozen features.
# Differences: no Lightning / STL10 / torchvision: a small CNN instead of ResNet-18, two
# "views" made by flipping and adding noise to random 3x12x12 images, 8 steps; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)


def augment(imgs, g):
    flip = torch.rand(imgs.shape[0], generator=g) < 0.5
    out = torch.where(flip[:, None, None, None], imgs.flip(-1), imgs)
    out = out * (0.8 + 0.4 * torch.rand(imgs.shape[0], 3, 1, 1, generator=g))
    return out + 0.1 * torch.randn(out.shape, generator=g)


class SimCLR(nn.Module):
    def __init__(self, hidden_dim, temperature):
        super().__init__()
        self.temperature = temperature
        self.convnet = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Linear(16, 4 * hidden_dim))
        self.convnet[-1] = nn.Sequential(
            self.convnet[-1], nn.ReLU(inplace=True), nn.Linear(4 * hidden_dim, hidden_dim))

    def info_nce_loss(self, imgs):
        feats = self.convnet(imgs)
        cos_sim = F.cosine_similarity(feats[:, None, :], feats[None, :, :], dim=-1)
        self_mask = torch.eye(cos_sim.shape[0], dtype=torch.bool, device=cos_sim.device)
        cos_sim.masked_fill_(self_mask, -9e15)
        pos_mask = self_mask.roll(shifts=cos_sim.shape[0] // 2, dims=0)
        cos_sim = cos_sim / self.temperature
        nll = -cos_sim[pos_mask] + torch.logsumexp(cos_sim, dim=-1)
        nll = nll.mean()
        comb_sim = torch.cat([cos_sim[pos_mask][:, None], cos_sim.masked_fill(pos_mask, -9e15)],
                             dim=-1)
        sim_argsort = comb_sim.argsort(dim=-1, descending=True).argmin(dim=-1)
        metrics = {"acc_top1": (sim_argsort == 0).float().mean().item(),
                   "acc_top5": (sim_argsort < 5).float().mean().item(),
                   "acc_mean_pos": 1 + sim_argsort.float().mean().item()}
        return nll, metrics


g = torch.Generator().manual_seed(0)
data = torch.rand(10, 3, 12, 12)
model = SimCLR(hidden_dim=8, temperature=0.07)
print(model.convnet[-1])
lr = 5e-3
optimizer = optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
lr_scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=8, eta_min=lr / 50)
for step in range(8):
    imgs = torch.cat([augment(data, g), augment(data, g)], dim=0)
    loss, metrics = model.info_nce_loss(imgs)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    lr_scheduler.step()
    print(f"step {step} loss {loss.item():.5f}", {k: round(v, 4) for k, v in metrics.items()},
          f"{lr_scheduler.get_last_lr()[0]:.6f}")

# the ranking in detail on a tiny similarity matrix
feats = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.9, 0.1], [0.2, 0.8]])
cos_sim = F.cosine_similarity(feats[:, None, :], feats[None, :, :], dim=-1)
self_mask = torch.eye(4, dtype=torch.bool)
print(cos_sim)
print(self_mask.roll(shifts=2, dims=0))
cos_sim.masked_fill_(self_mask, -9e15)
print(cos_sim)
print(torch.logsumexp(cos_sim / 0.07, dim=-1))

# logistic regression on the frozen features
model.eval()
network = model.convnet
network.fc = nn.Identity()
with torch.no_grad():
    feats = network[:-1](data)
print(feats.shape, feats.mean().item())
labels = (data.mean(dim=(1, 2, 3)) > 0.5).long()
probe = nn.Linear(feats.shape[1], 2)
opt = optim.AdamW(probe.parameters(), lr=1e-2, weight_decay=1e-3)
sched = optim.lr_scheduler.MultiStepLR(opt, milestones=[6, 8], gamma=0.1)
for epoch in range(10):
    preds = probe(feats)
    loss = F.cross_entropy(preds, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
print(loss.item(), (preds.argmax(dim=-1) == labels).float().mean().item())
