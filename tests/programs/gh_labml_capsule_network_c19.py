# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated Capsule
# Networks (MIT licence): labml_nn/capsule_networks/__init__.py (Squash with
# sum(dim=-1, keepdims=True), Router with a Parameter(torch.randn(in_caps, out_caps, in_d,
# out_d)) and dynamic routing by einsum 'ijnm,bin->bijm', 'bij,bijm->bjm', 'bjm,bijm->bij',
# u.new_zeros logits and nn.Softmax(dim=1); MarginLoss indexing torch.eye(n_labels)[labels])
# and its MNIST experiment (mnist.py: conv1 -> primary capsules conv with stride 2 -> view and
# squash -> digit capsules -> a reconstruction decoder masked by the predicted capsule, loss =
# margin + 0.0005 * MSE):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/capsule_networks
# Differences: 12x12 synthetic "digits" (4 classes of seeded stroke patterns) instead of MNIST;
# much smaller convolutions (16 and 4x4 channels, kernels 5 and 3), 4 output capsules of 8
# dimensions, 2 routing iterations; Adam for 8 steps; printed numbers instead of labml's
# tracker.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Squash(nn.Module):
    def __init__(self, epsilon=1e-8):
        super().__init__()
        self.epsilon = epsilon

    def forward(self, s):
        s2 = (s ** 2).sum(dim=-1, keepdims=True)
        return (s2 / (1 + s2)) * (s / torch.sqrt(s2 + self.epsilon))


class Router(nn.Module):
    def __init__(self, in_caps, out_caps, in_d, out_d, iterations):
        super().__init__()
        self.in_caps = in_caps
        self.out_caps = out_caps
        self.iterations = iterations
        self.softmax = nn.Softmax(dim=1)
        self.squash = Squash()
        self.weight = nn.Parameter(torch.randn(in_caps, out_caps, in_d, out_d), requires_grad=True)

    def forward(self, u):
        u_hat = torch.einsum('ijnm,bin->bijm', self.weight, u)
        b = u.new_zeros(u.shape[0], self.in_caps, self.out_caps)
        v = None
        for i in range(self.iterations):
            c = self.softmax(b)
            s = torch.einsum('bij,bijm->bjm', c, u_hat)
            v = self.squash(s)
            a = torch.einsum('bjm,bijm->bij', v, u_hat)
            b = b + a
        return v


class MarginLoss(nn.Module):
    def __init__(self, *, n_labels, lambda_=0.5, m_positive=0.9, m_negative=0.1):
        super().__init__()
        self.m_negative = m_negative
        self.m_positive = m_positive
        self.lambda_ = lambda_
        self.n_labels = n_labels

    def forward(self, v, labels):
        v_norm = torch.sqrt((v ** 2).sum(dim=-1))
        labels = torch.eye(self.n_labels, device=labels.device)[labels]
        loss = labels * F.relu(self.m_positive - v_norm) + \
            self.lambda_ * (1.0 - labels) * F.relu(v_norm - self.m_negative)
        return loss.sum(dim=-1).mean()


class MNISTCapsuleNetworkModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels=1, out_channels=16, kernel_size=5, stride=1)
        self.conv2 = nn.Conv2d(in_channels=16, out_channels=4 * 4, kernel_size=3, stride=2, padding=0)
        self.squash = Squash()
        self.digit_capsules = Router(4 * 3 * 3, 4, 4, 8, 2)
        self.decoder = nn.Sequential(
            nn.Linear(8 * 4, 64), nn.ReLU(),
            nn.Linear(64, 144), nn.Sigmoid())

    def forward(self, data):
        x = F.relu(self.conv1(data))
        caps = self.conv2(x).view(x.shape[0], 4, 4, -1).permute(0, 1, 3, 2)
        caps = self.squash(caps.reshape(caps.shape[0], -1, 4))
        caps = self.digit_capsules(caps)
        with torch.no_grad():
            pred = (caps ** 2).sum(-1).argmax(-1)
            mask = torch.eye(4)[pred]
        reconstructions = self.decoder((caps * mask[:, :, None]).view(x.shape[0], -1))
        reconstructions = reconstructions.view(-1, 1, 12, 12)
        return caps, reconstructions, pred


torch.manual_seed(0)
squash = Squash()
s = torch.tensor([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0]])
print(squash(s))
print(squash(s).norm(dim=-1))

n = 48
labels = torch.arange(n) % 4
images = torch.rand(n, 1, 12, 12) * 0.2
for k in range(4):
    rows = labels == k
    if k == 0:
        images[rows, 0, 2:10, 5:7] += 0.8
    elif k == 1:
        images[rows, 0, 5:7, 2:10] += 0.8
    elif k == 2:
        idx = torch.arange(2, 10)
        images[rows.nonzero().squeeze(1)[:, None], 0, idx, idx] += 0.8
    else:
        images[rows, 0, 2:10, 2:4] += 0.5
        images[rows, 0, 2:4, 2:10] += 0.5

model = MNISTCapsuleNetworkModel()
print(model)
print(model.digit_capsules.weight.shape)
print(sum(p.numel() for p in model.parameters()))
margin_loss = MarginLoss(n_labels=4)
reconstruction_loss = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(8):
    caps, reconstructions, pred = model(images)
    loss = margin_loss(caps, labels) + 0.0005 * reconstruction_loss(reconstructions, images)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    accuracy = pred.eq(labels).sum()
    print(f"step {step}: loss {loss.item():.6f} accuracy {accuracy.item()}/{n} "
          f"|router grad| {model.digit_capsules.weight.grad.norm():.5f}")

with torch.no_grad():
    caps, reconstructions, pred = model(images[:4])
print(caps.shape, reconstructions.shape)
print((caps ** 2).sum(-1).sqrt())
print(pred, labels[:4])
print(reconstructions[0, 0, :3, :6])
print(optimizer.state_dict()['state'][0]['step'], optimizer.state_dict()['param_groups'][0]['betas'])
