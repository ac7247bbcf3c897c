# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# leedl-tutorial (李宏毅深度学习教程), homework 15 (Meta Learning, MAML on Omniglot):
# https://github.com/datawhalechina/leedl-tutorial/blob/master/Homework/HW15_MetaLearning/HW15-MetaLearning.ipynb
# Like the homework: ConvBlock (Conv2d 3x3 pad 1, BatchNorm2d, ReLU, MaxPool2d 2) and its
# functional twin ConvBlockFunction (F.conv2d, F.batch_norm with running stats None and
# training=True, F.relu, F.max_pool2d); a Classifier with forward and functional_forward over an
# OrderedDict of named parameters; create_label with repeat_interleave; calculate_accuracy;
# BaseSolver (plain training on support sets; validation fine-tunes fast weights with
# torch.autograd.grad(create_graph=True)) and MetaSolver (MAML: inner SGD steps on fast
# weights through torch.autograd.grad with create_graph=not FO, the query loss of every task
# stacked and averaged, and the outer backward through the inner updates into the model), in
# second-order and first-order (FO) form, with Adam as the meta optimizer.
# Differences: synthetic "characters" (each class a fixed random 1x28x28 pattern plus noise)
# instead of the Omniglot download; 16 channels instead of 64; meta batches of 2 tasks,
# 5-way 1-shot 1-query, 3 meta steps per solver; no tqdm, DataLoader or seeding helper beyond
# torch / numpy seeds.
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
device = "cpu"


def ConvBlock(in_ch: int, out_ch: int):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, 3, padding=1),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(),
        nn.MaxPool2d(kernel_size=2, stride=2),
    )


def ConvBlockFunction(x, w, b, w_bn, b_bn):
    x = F.conv2d(x, w, b, padding=1)
    x = F.batch_norm(x, running_mean=None, running_var=None, weight=w_bn, bias=b_bn,
                     training=True)
    x = F.relu(x)
    x = F.max_pool2d(x, kernel_size=2, stride=2)
    return x


class Classifier(nn.Module):
    def __init__(self, in_ch, k_way, width=16):
        super(Classifier, self).__init__()
        self.conv1 = ConvBlock(in_ch, width)
        self.conv2 = ConvBlock(width, width)
        self.conv3 = ConvBlock(width, width)
        self.conv4 = ConvBlock(width, width)
        self.logits = nn.Linear(width, k_way)

    def forward(self, x):
        x = self.conv1(x)
        x = self.conv2(x)
        x = self.conv3(x)
        x = self.conv4(x)
        x = x.view(x.shape[0], -1)
        x = self.logits(x)
        return x

    def functional_forward(self, x, params):
        for block in [1, 2, 3, 4]:
            x = ConvBlockFunction(
                x,
                params[f"conv{block}.0.weight"],
                params[f"conv{block}.0.bias"],
                params.get(f"conv{block}.1.weight"),
                params.get(f"conv{block}.1.bias"),
            )
        x = x.view(x.shape[0], -1)
        x = F.linear(x, params["logits.weight"], params["logits.bias"])
        return x


def create_label(n_way, k_shot):
    return torch.arange(n_way).repeat_interleave(k_shot).long()


print(create_label(5, 2))


def calculate_accuracy(logits, labels):
    acc = np.asarray([(torch.argmax(logits, -1).cpu().numpy() == labels.cpu().numpy())]).mean()
    return acc


n_way, k_shot, q_query = 5, 1, 1
prototypes = torch.rand(40, 1, 28, 28)


def sample_task():
    """[n_way * (k_shot + q_query), 1, 28, 28]: support images first, then queries."""
    classes = torch.randperm(len(prototypes))[:n_way]
    shots = [prototypes[c] + 0.3 * torch.randn(k_shot + q_query, 1, 28, 28) for c in classes]
    imgs = torch.stack(shots)  # n_way, k_shot + q_query, 1, 28, 28
    support = imgs[:, :k_shot].reshape(-1, 1, 28, 28)
    query = imgs[:, k_shot:].reshape(-1, 1, 28, 28)
    return torch.cat([support, query])


def BaseSolver(model, optimizer, x, n_way, k_shot, q_query, loss_fn, inner_train_step=1,
               inner_lr=0.4, train=True, return_labels=False):
    criterion, task_loss, task_acc = loss_fn, [], []
    labels = []
    for meta_batch in x:
        support_set = meta_batch[: n_way * k_shot]
        query_set = meta_batch[n_way * k_shot:]
        if train:
            labels = create_label(n_way, k_shot).to(device)
            logits = model.forward(support_set)
            loss = criterion(logits, labels)
            task_loss.append(loss)
            task_acc.append(calculate_accuracy(logits, labels))
        else:
            fast_weights = OrderedDict(model.named_parameters())
            for inner_step in range(inner_train_step):
                train_label = create_label(n_way, k_shot).to(device)
                logits = model.functional_forward(support_set, fast_weights)
                loss = criterion(logits, train_label)
                grads = torch.autograd.grad(loss, fast_weights.values(), create_graph=True)
                fast_weights = OrderedDict(
                    (name, param - inner_lr * grad)
                    for ((name, param), grad) in zip(fast_weights.items(), grads))
            val_label = create_label(n_way, q_query).to(device)
            logits = model.functional_forward(query_set, fast_weights)
            loss = criterion(logits, val_label)
            task_loss.append(loss)
            task_acc.append(calculate_accuracy(logits, val_label))
    batch_loss = torch.stack(task_loss).mean()
    task_acc = np.mean(task_acc)
    if train:
        model.train()
        optimizer.zero_grad()
        batch_loss.backward()
        optimizer.step()
    return batch_loss, task_acc


def MetaSolver(model, optimizer, x, n_way, k_shot, q_query, loss_fn, inner_train_step=1,
               inner_lr=0.4, train=True, return_labels=False, FO=False):
    criterion, task_loss, task_acc = loss_fn, [], []
    labels = []
    for meta_batch in x:
        support_set = meta_batch[: n_way * k_shot]
        query_set = meta_batch[n_way * k_shot:]
        fast_weights = OrderedDict(model.named_parameters())
        for inner_step in range(inner_train_step):
            train_label = create_label(n_way, k_shot).to(device)
            logits = model.functional_forward(support_set, fast_weights)
            loss = criterion(logits, train_label)
            grads = torch.autograd.grad(loss, fast_weights.values(), create_graph=not FO)
            fast_weights = OrderedDict(
                (name, param - inner_lr * (grad.detach().data if FO else grad))
                for ((name, param), grad) in zip(fast_weights.items(), grads))
        if not return_labels:
            val_label = create_label(n_way, q_query).to(device)
            logits = model.functional_forward(query_set, fast_weights)
            loss = criterion(logits, val_label)
            task_loss.append(loss)
            task_acc.append(calculate_accuracy(logits, val_label))
        else:
            logits = model.functional_forward(query_set, fast_weights)
            labels.extend(torch.argmax(logits, -1).cpu().numpy())
    if return_labels:
        return labels
    model.train()
    optimizer.zero_grad()
    meta_batch_loss = torch.stack(task_loss).mean()
    task_acc = np.mean(task_acc)
    if train:
        meta_batch_loss.backward()
        optimizer.step()
    return meta_batch_loss, task_acc


loss_fn = nn.CrossEntropyLoss()
for name, solver, kwargs in (("base", BaseSolver, {}), ("maml", MetaSolver, {}),
                             ("fo-maml", MetaSolver, {"FO": True})):
    torch.manual_seed(1)
    model = Classifier(1, n_way).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    for step in range(3):
        x = torch.stack([sample_task() for _ in range(2)])
        loss, acc = solver(model, optimizer, x, n_way, k_shot, q_query, loss_fn, **kwargs)
        print(name, step, tuple(x.shape), round(loss.item(), 4), acc)
    print(name, 'logits.bias', model.logits.bias.data)
    print(name, 'conv1 bn weight grad', model.conv1[1].weight.grad[:4])
    val = torch.stack([sample_task() for _ in range(2)])
    vloss, vacc = solver(model, optimizer, val, n_way, k_shot, q_query, loss_fn,
                         inner_train_step=3, train=False, **kwargs)
    print(name, 'val', round(vloss.item(), 4), vacc, vloss.requires_grad)
labels = MetaSolver(model, optimizer, val, n_way, k_shot, q_query, loss_fn,
                    inner_train_step=3, train=False, return_labels=True)
print([int(v) for v in labels])
