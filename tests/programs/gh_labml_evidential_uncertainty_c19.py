# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated
# "Evidential Deep Learning to Quantify Classification Uncertainty" (MIT licence):
# labml_nn/uncertainty/evidence/__init__.py (MaximumLikelihoodLoss, CrossEntropyBayesRisk with
# torch.digamma, SquaredErrorBayesRisk, KLDivergenceLoss with torch.lgamma and
# new_tensor(float(n_classes)), TrackStatistics with argmax/eq, max(dim=-1) and masked_select
# of uncertainty masses for right and wrong predictions) and experiment.py (a LeNet-style
# model, outputs turned into evidence by nn.Softplus or nn.ReLU, the KL term annealed in with
# a piecewise schedule, Adam with weight_decay=0.005):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/uncertainty/evidence
# Differences: a small MLP on seeded synthetic 3-class blobs instead of the MNIST CNN; the
# annealing coefficient min(1, step / 20) stands in for labml's RelativePiecewise; tracker
# values printed; each of the three losses trained for 12 steps.
import torch
from torch import nn


class MaximumLikelihoodLoss(nn.Module):
    def forward(self, evidence, target):
        alpha = evidence + 1.
        strength = alpha.sum(dim=-1)
        loss = (target * (strength.log()[:, None] - alpha.log())).sum(dim=-1)
        return loss.mean()


class CrossEntropyBayesRisk(nn.Module):
    def forward(self, evidence, target):
        alpha = evidence + 1.
        strength = alpha.sum(dim=-1)
        loss = (target * (torch.digamma(strength)[:, None] - torch.digamma(alpha))).sum(dim=-1)
        return loss.mean()


class SquaredErrorBayesRisk(nn.Module):
    def forward(self, evidence, target):
        alpha = evidence + 1.
        strength = alpha.sum(dim=-1)
        p = alpha / strength[:, None]
        err = (target - p) ** 2
        var = p * (1 - p) / (strength[:, None] + 1)
        loss = (err + var).sum(dim=-1)
        return loss.mean()


class KLDivergenceLoss(nn.Module):
    def forward(self, evidence, target):
        alpha = evidence + 1.
        n_classes = evidence.shape[-1]
        alpha_tilde = target + (1 - target) * alpha
        strength_tilde = alpha_tilde.sum(dim=-1)
        first = (torch.lgamma(alpha_tilde.sum(dim=-1))
                 - torch.lgamma(alpha_tilde.new_tensor(float(n_classes)))
                 - (torch.lgamma(alpha_tilde)).sum(dim=-1))
        second = ((alpha_tilde - 1) *
                  (torch.digamma(alpha_tilde) - torch.digamma(strength_tilde)[:, None])).sum(dim=-1)
        loss = first + second
        return loss.mean()


class TrackStatistics(nn.Module):
    def forward(self, evidence, target):
        n_classes = evidence.shape[-1]
        match = evidence.argmax(dim=-1).eq(target.argmax(dim=-1))
        stats = {'accuracy': match.sum() / match.shape[0]}
        alpha = evidence + 1.
        strength = alpha.sum(dim=-1)
        expected_probability = alpha / strength[:, None]
        expected_probability, _ = expected_probability.max(dim=-1)
        uncertainty_mass = n_classes / strength
        stats['u.succ'] = uncertainty_mass.masked_select(match)
        stats['u.fail'] = uncertainty_mass.masked_select(~match)
        stats['prob.succ'] = expected_probability.masked_select(match)
        stats['prob.fail'] = expected_probability.masked_select(~match)
        return stats


torch.manual_seed(7)
n = 90
centers = torch.tensor([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
y = torch.arange(n) % 3
x = centers[y] + torch.randn(n, 2) * 0.9
target = torch.eye(3)[y]
print(target[:4])

ev = torch.tensor([[10.0, 0.5, 0.0], [0.2, 0.2, 0.3], [0.0, 40.0, 1.0]])
t3 = torch.eye(3)[torch.tensor([0, 2, 1])]
for loss_fn in (MaximumLikelihoodLoss(), CrossEntropyBayesRisk(), SquaredErrorBayesRisk(), KLDivergenceLoss()):
    print(type(loss_fn).__name__, loss_fn(ev, t3))
print(torch.digamma(ev + 1), torch.lgamma(ev + 1), sep='\n')

kl_div_loss = KLDivergenceLoss()
stats_fn = TrackStatistics()
for name, loss_func, to_evidence in (("maximum_likelihood", MaximumLikelihoodLoss(), nn.ReLU()),
                                     ("cross_entropy_bayes_risk", CrossEntropyBayesRisk(), nn.Softplus()),
                                     ("squared_error_bayes_risk", SquaredErrorBayesRisk(), nn.Softplus())):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 3))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=0.005)
    print(name, to_evidence)
    for step in range(12):
        model.train()
        outputs = model(x)
        evidence = to_evidence(outputs)
        loss = loss_func(evidence, target)
        kl = kl_div_loss(evidence, target)
        annealing_coef = min(1., step / 20)
        loss = loss + annealing_coef * kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 4 == 3:
            print(f"  step {step:2d} loss={loss.item():.5f} kl={kl.item():.5f} coef={annealing_coef:.2f}")
    model.eval()
    with torch.no_grad():
        evidence = to_evidence(model(x))
        stats = stats_fn(evidence, target)
    print('  accuracy', stats['accuracy'])
    for key in ('u.succ', 'u.fail', 'prob.succ', 'prob.fail'):
        value = stats[key]
        print(f"  {key}: n={value.numel()} mean={value.mean().item() if value.numel() else float('nan'):.4f}")
    print('  ', stats['u.succ'][:5])
