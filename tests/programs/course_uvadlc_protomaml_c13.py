# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 16 "Meta-Learning - Learning to Learn" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial16/Meta_Learning.ipynb
# Like the original: split_batch (chunk into support and query), ProtoNet's
# calculate_prototypes (torch.unique over the targets, the mean feature per class, stacked) and
# classify_feats (negative squared Euclidean distance via (feats[:, None] - prototypes[None])
# .pow(2).sum(-1), F.log_softmax, accuracy); ProtoMAML's adapt_few_shot: the prototypes
# initialise an output layer (init_weight = 2 * prototypes, init_bias = -norm(prototypes)**2),
# a deepcopy of the model trained with an inner SGD, output weights made from
# init_weight.detach().requires_grad_(), and the first-order trick of adding the prototype
# gradient (output_weight - init_weight) back into the outer graph; outer gradients summed
# from each task's local model into the meta-model (p_global.grad += p_local.grad) before an
# AdamW step.
# Differences: no Lightning / CIFAR100 / DenseNet: a small MLP encoder on 2-D Gaussian
# "classes", N=3-way K=4-shot tasks, 3 inner steps and 5 outer steps; seeded.
from copy import deepcopy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)


def split_batch(imgs, targets):
    support_imgs, query_imgs = imgs.chunk(2, dim=0)
    support_targets, query_targets = targets.chunk(2, dim=0)
    return support_imgs, query_imgs, support_targets, query_targets


def calculate_prototypes(features, targets):
    classes, _ = torch.unique(targets).sort()
    prototypes = []
    for c in classes:
        p = features[torch.where(targets == c)[0]].mean(dim=0)
        prototypes.append(p)
    prototypes = torch.stack(prototypes, dim=0)
    return prototypes, classes


def classify_feats(prototypes, classes, feats, targets):
    dist = torch.pow(prototypes[None, :] - feats[:, None], 2).sum(dim=2)
    preds = F.log_softmax(-dist, dim=1)
    labels = (classes[None, :] == targets[:, None]).long().argmax(dim=-1)
    acc = (preds.argmax(dim=1) == labels).float().mean()
    return preds, labels, acc


def get_convnet(output_size):
    return nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, output_size))


centres = torch.randn(10, 2) * 3


def sample_task(n_way=3, k_shot=4):
    cls = torch.randperm(10)[:n_way]
    xs, ys = [], []
    for half in range(2):
        for c in cls:
            xs.append(centres[c] + torch.randn(k_shot, 2))
            ys.append(torch.full((k_shot,), int(c)))
    return torch.cat(xs), torch.cat(ys)


# ProtoNet on one task
net = get_convnet(8)
imgs, targets = sample_task()
feats = net(imgs)
support_feats, query_feats, support_targets, query_targets = split_batch(feats, targets)
prototypes, classes = calculate_prototypes(support_feats, support_targets)
print(classes, prototypes.shape)
preds, labels, acc = classify_feats(prototypes, classes, query_feats, query_targets)
loss = F.cross_entropy(preds, labels)
print(labels, f"{loss.item():.5f}", acc)


class ProtoMAML(nn.Module):
    def __init__(self, proto_dim, lr, lr_inner, lr_output, num_inner_steps):
        super().__init__()
        self.model = get_convnet(output_size=proto_dim)
        self.lr, self.lr_inner, self.lr_output = lr, lr_inner, lr_output
        self.num_inner_steps = num_inner_steps

    def run_model(self, local_model, output_weight, output_bias, imgs, labels):
        feats = local_model(imgs)
        preds = F.linear(feats, output_weight, output_bias)
        loss = F.cross_entropy(preds, labels)
        acc = (preds.argmax(dim=1) == labels).float()
        return loss, preds, acc

    def adapt_few_shot(self, support_imgs, support_targets):
        support_feats = self.model(support_imgs)
        prototypes, classes = calculate_prototypes(support_feats, support_targets)
        support_labels = (classes[None, :] == support_targets[:, None]).long().argmax(dim=-1)
        local_model = deepcopy(self.model)
        local_model.train()
        local_optim = optim.SGD(local_model.parameters(), lr=self.lr_inner)
        local_optim.zero_grad()
        init_weight = 2 * prototypes
        init_bias = -torch.norm(prototypes, dim=1)**2
        output_weight = init_weight.detach().requires_grad_()
        output_bias = init_bias.detach().requires_grad_()
        for _ in range(self.num_inner_steps):
            loss, _, _ = self.run_model(local_model, output_weight, output_bias, support_imgs,
                                        support_labels)
            loss.backward()
            local_optim.step()
            output_weight.data -= self.lr_output * output_weight.grad
            output_bias.data -= self.lr_output * output_bias.grad
            local_optim.zero_grad()
            output_weight.grad.fill_(0)
            output_bias.grad.fill_(0)
        output_weight = (output_weight - init_weight).detach() + init_weight
        output_bias = (output_bias - init_bias).detach() + init_bias
        return local_model, output_weight, output_bias, classes

    def outer_loop(self, tasks, optimizer):
        accuracies, losses = [], []
        self.model.zero_grad()
        for imgs, targets in tasks:
            support_imgs, query_imgs, support_targets, query_targets = split_batch(imgs, targets)
            local_model, output_weight, output_bias, classes = self.adapt_few_shot(
                support_imgs, support_targets)
            query_labels = (classes[None, :] == query_targets[:, None]).long().argmax(dim=-1)
            loss, preds, acc = self.run_model(local_model, output_weight, output_bias,
                                              query_imgs, query_labels)
            loss.backward()
            for p_global, p_local in zip(self.model.parameters(), local_model.parameters()):
                p_global.grad += p_local.grad
            accuracies.append(acc.mean().detach())
            losses.append(loss.detach())
        optimizer.step()
        optimizer.zero_grad()
        return sum(losses) / len(losses), sum(accuracies) / len(accuracies)


maml = ProtoMAML(proto_dim=8, lr=1e-3, lr_inner=0.1, lr_output=0.1, num_inner_steps=3)
optimizer = optim.AdamW(maml.parameters(), lr=maml.lr)
scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=[3], gamma=0.1)
print(optimizer)
for step in range(5):
    tasks = [sample_task() for _ in range(2)]
    loss, acc = maml.outer_loop(tasks, optimizer)
    scheduler.step()
    print(f"outer step {step}: loss {loss.item():.5f} acc {acc.item():.4f}")
print(maml.model[0].weight.grad)
print(optimizer.state_dict()["param_groups"][0]["lr"], len(optimizer.state))
