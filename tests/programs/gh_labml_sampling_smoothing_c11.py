# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated
# implementations (MIT licence) of sampling techniques for language models
# (labml_nn/sampling: GreedySampler, TemperatureSampler through
# torch.distributions.Categorical(logits=...), TopKSampler filling -inf with new_ones and
# scatter_, NucleusSampler with sort, cumsum, a shifted nucleus mask, log and boolean-mask
# assignment, gather) and of the label smoothing loss
# (labml_nn/transformers/label_smoothing_loss.py: fill_, scatter_, the padding column zeroed,
# torch.nonzero(as_tuple=False) rows cleared with index_fill_, KLDivLoss(reduction='sum'),
# and its _test_label_smoothing):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/sampling
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/blob/master/labml_nn/transformers/label_smoothing_loss.py
# Like the originals: the samplers as written, composed (top-k and nucleus over temperature);
# the label smoothing test's inputs, with the true distribution printed instead of shown
# with imshow and the loss curve printed at a few points instead of plotted.
# Differences: random logits of a (3, 12) "vocabulary" instead of a GPT-2 model's, a seed, 
# several draws per sampler; a gradient through the smoothing loss.
import torch
from torch import nn
from torch.distributions import Categorical


class Sampler:
    def __call__(self, logits: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError()


class GreedySampler(Sampler):
    def __call__(self, logits):
        return logits.argmax(dim=-1)


class TemperatureSampler(Sampler):
    def __init__(self, temperature: float = 1.0):
        self.temperature = temperature

    def __call__(self, logits):
        dist = Categorical(logits=logits / self.temperature)
        return dist.sample()


class TopKSampler(Sampler):
    def __init__(self, k: int, sampler: Sampler):
        self.k = k
        self.sampler = sampler

    def __call__(self, logits):
        zeros = logits.new_ones(logits.shape) * float('-inf')
        values, indices = torch.topk(logits, self.k, dim=-1)
        zeros.scatter_(-1, indices, values)
        return self.sampler(zeros)


class NucleusSampler(Sampler):
    def __init__(self, p: float, sampler: Sampler):
        self.p = p
        self.sampler = sampler
        self.softmax = nn.Softmax(dim=-1)

    def __call__(self, logits):
        probs = self.softmax(logits)
        sorted_probs, indices = torch.sort(probs, dim=-1, descending=True)
        cum_sum_probs = torch.cumsum(sorted_probs, dim=-1)
        nucleus = cum_sum_probs < self.p
        nucleus = torch.cat([nucleus.new_ones(nucleus.shape[:-1] + (1,)), nucleus[..., :-1]], dim=-1)
        sorted_log_probs = torch.log(sorted_probs)
        sorted_log_probs[~nucleus] = float('-inf')
        sampled_sorted_indexes = self.sampler(sorted_log_probs)
        res = indices.gather(-1, sampled_sorted_indexes.unsqueeze(-1))
        return res.squeeze(-1)


class LabelSmoothingLoss(nn.Module):
    def __init__(self, size: int, padding_idx: int, smoothing: float = 0.0):
        super().__init__()
        self.loss = nn.KLDivLoss(reduction='sum')
        self.padding_idx = padding_idx
        self.confidence = 1.0 - smoothing
        self.smoothing = smoothing
        self.size = size
        self.true_dist = None

    def forward(self, x, target):
        assert x.shape[1] == self.size
        true_dist = x.clone()
        true_dist.fill_(self.smoothing / (self.size - 2))
        true_dist.scatter_(1, target.unsqueeze(1), self.confidence)
        true_dist[:, self.padding_idx] = 0
        mask = torch.nonzero(target == self.padding_idx, as_tuple=False)
        if mask.dim() > 0:
            true_dist.index_fill_(0, mask.squeeze(), 0.0)
        self.true_dist = true_dist
        return self.loss(x, true_dist.detach())


torch.manual_seed(42)
logits = torch.randn(3, 12) * 2
print(logits)
samplers = {
    "greedy": GreedySampler(),
    "temperature=1.0": TemperatureSampler(1.0),
    "temperature=0.1": TemperatureSampler(0.1),
    "temperature=10": TemperatureSampler(10.0),
    "top_k=3": TopKSampler(3, TemperatureSampler(1.)),
    "nucleus p=0.5": NucleusSampler(0.5, TemperatureSampler(1.)),
    "nucleus p=0.95 t=0.8": NucleusSampler(0.95, TemperatureSampler(0.8)),
}
for name, sampler in samplers.items():
    draws = torch.stack([sampler(logits) for _ in range(6)])
    print(f"{name:22s}", draws.T.tolist())

nucleus = NucleusSampler(0.7, GreedySampler())
probs = nn.Softmax(dim=-1)(logits)
print(torch.sort(probs, dim=-1, descending=True)[0].cumsum(-1))
print(nucleus(logits))
dist = Categorical(logits=logits)
print(dist.probs.sum(-1), dist.entropy(), dist.log_prob(torch.tensor([0, 5, 11])))

smooth_loss = LabelSmoothingLoss(5, 0, 0.4)
predict = torch.tensor([[0, 0.2, 0.7, 0.1, 0],
                        [0, 0.2, 0.7, 0.1, 0],
                        [0, 0.2, 0.7, 0.1, 0]], dtype=torch.float)
loss = smooth_loss(predict.log(), torch.tensor([2, 1, 0], dtype=torch.long))
print("loss:", loss)
print(smooth_loss.true_dist)

smooth_loss = LabelSmoothingLoss(5, 0, 0.1)


def loss_sample(x):
    d = x + 3 * 1
    predict2 = torch.tensor([[0, x / d, 1 / d, 1 / d, 1 / d]], dtype=torch.float)
    return smooth_loss(predict2.log(), torch.tensor([1], dtype=torch.long)).item()


print([round(loss_sample(x), 6) for x in (1, 2, 5, 10, 50, 99)])
x = torch.randn(4, 5, requires_grad=True)
lsm = x.log_softmax(dim=-1)
loss = LabelSmoothingLoss(5, 0, 0.2)(lsm, torch.tensor([3, 0, 1, 4]))
loss.backward()
print(loss, x.grad)
