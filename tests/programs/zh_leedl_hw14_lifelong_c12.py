# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# leedl-tutorial (李宏毅深度学习教程), homework 14 (Life-Long Learning on rotated MNIST):
# https://github.com/datawhalechina/leedl-tutorial/blob/master/Homework/HW14_LifeLongML/HW14-LifeLongMachineLearning.ipynb
# Like the homework: tasks that are the same digits rotated by 20 * task degrees; an MLP
# 784 -> ... -> 10; train() adding lll_lambda * lll_object.penalty(model) to the
# cross-entropy (total_loss += ...), evaluating every test task seen so far after each epoch
# ("[ Val | Epoch ..] acc=..%"); evaluate() with torch.max(outputs.data, 1); the baseline
# (zero importance), EWC (squared gradients of F.nll_loss(F.log_softmax) averaged over
# batches, accumulated with earlier guards: out[n].data += p.grad.data ** 2 / number_data)
# and MAS (sqrt of squared gradients of mean(sum(pred ** 2))) regularisers, each rebuilt on
# the finished task's loader with prev_guards after every task, and a fresh Adam per task.
# Differences: synthetic 28x28 "digits" (ten fixed random patterns plus noise) rotated with
# F.affine_grid / F.grid_sample instead of downloading MNIST and rotating with torchvision;
# 3 tasks, 1 epoch each, 128 training and 64 test images per task, hidden sizes 128-64-32
# instead of 1024-512-256; no tqdm or plots.
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(14)
patterns = torch.rand(10, 1, 28, 28)


def rotate(imgs, angle):
    theta = math.radians(angle)
    mat = torch.tensor([[math.cos(theta), -math.sin(theta), 0.0],
                        [math.sin(theta), math.cos(theta), 0.0]])
    grid = F.affine_grid(mat.expand(imgs.shape[0], 2, 3), list(imgs.shape), align_corners=False)
    return F.grid_sample(imgs, grid, align_corners=False)


def make_split(n, angle):
    labels = torch.randint(0, 10, (n,))
    imgs = patterns[labels] + 0.2 * torch.randn(n, 1, 28, 28)
    return TensorDataset(rotate(imgs, angle), labels)


task_number = 3
angle_list = [20 * x for x in range(task_number)]
train_dataloaders = [DataLoader(make_split(128, a), batch_size=32, shuffle=True)
                     for a in angle_list]
test_dataloaders = [DataLoader(make_split(64, a), batch_size=64, shuffle=True)
                    for a in angle_list]
print([round(float(dl.dataset.tensors[0].mean()), 4) for dl in train_dataloaders])


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()
        self.fc1 = nn.Linear(1 * 28 * 28, 128)
        self.fc2 = nn.Linear(128, 64)
        self.fc3 = nn.Linear(64, 32)
        self.fc4 = nn.Linear(32, 10)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = x.view(-1, 1 * 28 * 28)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.relu(self.fc3(x))
        return self.fc4(x)


print(Model())


def train(model, optimizer, dataloader, epochs_per_task, lll_object, lll_lambda,
          test_dataloaders, evaluate, device, log_step=1):
    model.train()
    model.zero_grad()
    objective = nn.CrossEntropyLoss()
    acc_per_epoch = []
    for epoch in range(epochs_per_task):
        for imgs, labels in dataloader:
            outputs = model(imgs)
            loss = objective(outputs, labels)
            total_loss = loss
            lll_loss = lll_object.penalty(model)
            total_loss += lll_lambda * lll_loss
            lll_object.update(model)
            optimizer.zero_grad()
            total_loss.backward()
            optimizer.step()
            loss = total_loss.item()
        acc_average = []
        for test_dataloader in test_dataloaders:
            acc_test = evaluate(model, test_dataloader, device)
            acc_average.append(acc_test)
        average = np.mean(np.array(acc_average))
        acc_per_epoch.append(average * 100.0)
        print(f"[ Val | Epoch {epoch + 1:02d}/{epochs_per_task:02d} ] acc={average * 100:.3f} % "
              f"loss={loss:.5f}")
    return model, optimizer, acc_per_epoch


def evaluate(model, test_dataloader, device):
    model.eval()
    correct_cnt = 0
    total = 0
    for imgs, labels in test_dataloader:
        outputs = model(imgs)
        _, pred_label = torch.max(outputs.data, 1)
        correct_cnt += (pred_label == labels.data).sum().item()
        total += torch.ones_like(labels.data).sum().item()
    return correct_cnt / total


class Importance(object):
    """The homework's baseline / ewc / mas share everything but the importance estimate."""

    kind = 'baseline'

    def __init__(self, model, dataloader, device, prev_guards=[None]):
        self.model = model
        self.dataloader = dataloader
        self.device = device
        self.params = {n: p for n, p in self.model.named_parameters() if p.requires_grad}
        self.p_old = {}
        self.previous_guard_list = prev_guards
        self._precision_matrices = self._calculate_importance()
        for n, p in self.params.items():
            self.p_old[n] = p.clone().detach()

    def _calculate_importance(self):
        out = {}
        for n, p in self.params.items():
            out[n] = p.clone().detach().fill_(0)
            for prev_guard in self.previous_guard_list:
                if prev_guard:
                    out[n] += prev_guard[n]
        self.model.eval()
        if self.dataloader is not None and self.kind != 'baseline':
            number_data = len(self.dataloader)
            for x, y in self.dataloader:
                self.model.zero_grad()
                pred = self.model(x)
                if self.kind == 'ewc':
                    loss = F.nll_loss(F.log_softmax(pred, dim=1), y)
                else:
                    loss = torch.mean(torch.sum(pred ** 2, axis=1))
                loss.backward()
                for n, p in self.model.named_parameters():
                    if self.kind == 'ewc':
                        out[n].data += p.grad.data ** 2 / number_data
                    else:
                        out[n].data += torch.sqrt(p.grad.data ** 2) / number_data
        out = {n: p for n, p in out.items()}
        return out

    def penalty(self, model: nn.Module):
        loss = 0
        for n, p in model.named_parameters():
            _loss = self._precision_matrices[n] * (p - self.p_old[n]) ** 2
            loss += _loss.sum()
        return loss

    def update(self, model):
        return


class ewc(Importance):
    kind = 'ewc'


class mas(Importance):
    kind = 'mas'


results = {}
for method, lll_lambda in ((Importance, 0), (ewc, 100), (mas, 0.1)):
    print("RUN", method.kind)
    torch.manual_seed(0)
    model = Model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    lll_object = method(model=model, dataloader=None, device='cpu')
    accs = []
    prev_guards = []
    for train_indexes in range(task_number):
        print(f'train_indexes={train_indexes}\n', '--' * 25)
        model, _, acc_list = train(model, optimizer, train_dataloaders[train_indexes], 1,
                                   lll_object, lll_lambda, evaluate=evaluate, device='cpu',
                                   test_dataloaders=test_dataloaders[:train_indexes + 1])
        prev_guards.append(lll_object._precision_matrices)
        lll_object = method(model=model, dataloader=train_dataloaders[train_indexes],
                            device='cpu', prev_guards=prev_guards)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        accs.extend(acc_list)
    print(accs)
    print({n: round(float(m.sum()), 6) for n, m in lll_object._precision_matrices.items()})
    results[method.kind] = accs
