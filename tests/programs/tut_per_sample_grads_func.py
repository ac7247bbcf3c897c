# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Per-sample-gradients" (https://pytorch.org/tutorials/intermediate/per_sample_grads.html):
# a small model, the naive approach computing each sample's gradient with a loop of
# loss.backward / autograd.grad, then torch.func: detached params and buffers from
# named_parameters / named_buffers, compute_loss calling functional_call on a batch of one
# sample (unsqueeze(0)), ft_compute_grad = grad(compute_loss), vmap(ft_compute_grad,
# in_dims=(None, None, 0, 0)) over the batch, and the results compared with allclose.
# Differences: our own code; an MLP on synthetic data instead of the tutorial's CNN on MNIST
# shapes; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def loss_fn(predictions, targets):
    return F.nll_loss(F.log_softmax(predictions, dim=-1), targets)


batch_size = 5
data = torch.randn(batch_size, 6)
targets = torch.randint(3, (batch_size,))
model = SimpleMLP()


def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    loss = loss_fn(model(sample), target)
    return torch.autograd.grad(loss, list(model.parameters()))


def compute_sample_grads(data, targets):
    sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    sample_grads = zip(*sample_grads)
    return [torch.stack(shards) for shards in sample_grads]


per_sample_grads = compute_sample_grads(data, targets)
print(per_sample_grads[1].shape, per_sample_grads[0].shape)

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
print(list(params), buffers)


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return loss_fn(predictions, targets)


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    assert torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5)
print({k: tuple(v.shape) for k, v in ft_per_sample_grads.items()})
print(torch.allclose(ft_per_sample_grads["fc2.bias"].mean(0),
                     torch.autograd.grad(loss_fn(model(data), targets), model.fc2.bias)[0],
                     atol=1e-6))
print(vmap(torch.dot)(torch.ones(3, 2), torch.arange(6.0).view(3, 2)))
print(grad(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0])))
