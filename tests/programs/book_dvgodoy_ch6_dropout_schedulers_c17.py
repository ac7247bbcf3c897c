# Corpus program, written for gradsh (no code copied). Modelled on Chapter 6 of "Deep Learning
# with PyTorch Step-by-Step" (Daniel Voigt Godoy), its notebook:
# https://github.com/dvgodoy/PyTorchStepByStep/blob/master/Chapter06.ipynb
# Like the chapter: a three-channel convolution of integer (int64) regions with an integer
# filter via F.conv2d; nn.Dropout(p=0.5) on linspace(.1, 1.1, 11) in train and eval modes,
# output / input and F.linear with an integer zero bias; the distribution of 1000 dropped-out
# sums; make_lr_fn (exponential) with LambdaLR returning NumPy floats and get_last_lr; an LR
# range test that deep-copies and restores the model's and optimizer's state_dicts; Adam on
# the simple linear regression with gradient hooks capturing grad.tolist(), and the
# optimizer's state_dict printed; SGD with momentum and with Nesterov and their momentum
# buffers; StepLR, the equivalent LambdaLR, ReduceLROnPlateau and the three CyclicLR modes
# printing their learning rates.
# Differences: no images, plots or StepByStep class (a small train loop instead); the data is
# the book's synthetic linear regression; fewer epochs; values printed where the book plots.
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import CyclicLR, LambdaLR, ReduceLROnPlateau, StepLR
from torch.utils.data import DataLoader, TensorDataset, random_split

regions = np.array([[[[5, 0, 8], [1, 9, 5], [6, 0, 2]],
                     [[0, 5, 4], [8, 1, 9], [4, 8, 1]],
                     [[4, 2, 0], [6, 3, 0], [5, 2, 8]]]])
three_channel_filter = np.array([[[[0, 3, 0], [1, 0, 1], [2, 1, 0]],
                                  [[2, 1, 0], [0, 3, 1], [1, -1, 0]],
                                  [[0, 1, 3], [-1, -2, 0], [2, 0, 1]]]])
print(regions.shape, three_channel_filter.shape)
result = F.conv2d(torch.as_tensor(regions), torch.as_tensor(three_channel_filter))
print(result, result.shape, result.dtype)

dropping_model = nn.Sequential(nn.Dropout(p=0.5))
spaced_points = torch.linspace(.1, 1.1, 11)
print(spaced_points)
torch.manual_seed(44)
dropping_model.train()
output_train = dropping_model(spaced_points)
print(output_train)
print(output_train / spaced_points)
print(F.linear(output_train, weight=torch.ones(11), bias=torch.tensor(0)))
dropping_model.eval()
output_eval = dropping_model(spaced_points)
print(output_eval)
print(F.linear(output_eval, weight=torch.ones(11), bias=torch.tensor(0)))

torch.manual_seed(17)
p = 0.5
distrib_outputs = torch.tensor([F.linear(F.dropout(spaced_points, p=p),
                                         weight=torch.ones(11), bias=torch.tensor(0))
                                for _ in range(1000)])
print(distrib_outputs.shape, distrib_outputs.mean(), distrib_outputs.std())
print(distrib_outputs[:8])


def make_lr_fn(start_lr, end_lr, num_iter, step_mode='exp'):
    if step_mode == 'linear':
        factor = (end_lr / start_lr - 1) / num_iter

        def lr_fn(iteration):
            return 1 + iteration * factor
    else:
        factor = (np.log(end_lr) - np.log(start_lr)) / num_iter

        def lr_fn(iteration):
            return np.exp(factor) ** iteration
    return lr_fn


start_lr, end_lr, num_iter = 0.01, 0.1, 10
lr_fn = make_lr_fn(start_lr, end_lr, num_iter, step_mode='exp')
print(lr_fn(np.arange(num_iter + 1)))
print(start_lr * lr_fn(np.arange(num_iter + 1)))


class CNN2(nn.Module):
    def __init__(self, n_feature, p=0.0):
        super(CNN2, self).__init__()
        self.n_feature = n_feature
        self.p = p
        self.conv1 = nn.Conv2d(in_channels=3, out_channels=n_feature, kernel_size=3)
        self.conv2 = nn.Conv2d(in_channels=n_feature, out_channels=n_feature, kernel_size=3)
        self.fc1 = nn.Linear(n_feature * 5 * 5, 50)
        self.fc2 = nn.Linear(50, 3)
        self.drop = nn.Dropout(self.p)

    def featurizer(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), kernel_size=2)
        x = F.max_pool2d(F.relu(self.conv2(x)), kernel_size=2)
        return nn.Flatten()(x)

    def classifier(self, x):
        if self.p > 0:
            x = self.drop(x)
        x = F.relu(self.fc1(x))
        if self.p > 0:
            x = self.drop(x)
        return self.fc2(x)

    def forward(self, x):
        return self.classifier(self.featurizer(x))


dummy_model = CNN2(n_feature=5, p=0.3)
dummy_optimizer = optim.Adam(dummy_model.parameters(), lr=start_lr)
dummy_scheduler = LambdaLR(dummy_optimizer, lr_lambda=lr_fn)
dummy_optimizer.step()
dummy_scheduler.step()
print(dummy_scheduler.get_last_lr()[0])

# The book's rock-paper-scissors images replaced by random 3@28x28 images
torch.manual_seed(13)
images = torch.randn(64, 3, 28, 28)
labels = torch.randint(0, 3, (64,))
image_loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True)


def lr_range_test(model, optimizer, loss_fn, data_loader, end_lr, num_iter=100, alpha=0.05):
    previous_states = {'model': copy.deepcopy(model.state_dict()),
                       'optimizer': copy.deepcopy(optimizer.state_dict())}
    start_lr = optimizer.state_dict()['param_groups'][0]['lr']
    lr_fn = make_lr_fn(start_lr, end_lr, num_iter)
    scheduler = LambdaLR(optimizer, lr_lambda=lr_fn)
    tracking = {'loss': [], 'lr': []}
    iteration = 0
    while iteration < num_iter:
        for x_batch, y_batch in data_loader:
            yhat = model(x_batch)
            loss = loss_fn(yhat, y_batch)
            loss.backward()
            tracking['lr'].append(scheduler.get_last_lr()[0])
            if iteration == 0:
                tracking['loss'].append(loss.item())
            else:
                prev_loss = tracking['loss'][-1]
                tracking['loss'].append(alpha * loss.item() + (1 - alpha) * prev_loss)
            iteration += 1
            if iteration == num_iter:
                break
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
    optimizer.load_state_dict(previous_states['optimizer'])
    model.load_state_dict(previous_states['model'])
    return tracking


torch.manual_seed(13)
new_model = CNN2(n_feature=5, p=0.3)
multi_loss_fn = nn.CrossEntropyLoss(reduction='mean')
new_optimizer = optim.Adam(new_model.parameters(), lr=3e-4)
before = new_model.fc2.bias.detach().clone()
tracking = lr_range_test(new_model, new_optimizer, multi_loss_fn, image_loader, end_lr=1e-1, num_iter=12)
print([round(v, 6) for v in tracking['lr']])
print([round(v, 4) for v in tracking['loss']])
print(torch.equal(before, new_model.fc2.bias), new_optimizer.state_dict()['state'])
print(new_optimizer.state_dict()['param_groups'][0]['lr'])

# Simple linear regression data (the book's data generation)
true_b, true_w, N = 1, 2, 100
np.random.seed(42)
x = np.random.rand(N, 1)
y = true_b + true_w * x + (.1 * np.random.randn(N, 1))
torch.manual_seed(13)
x_tensor = torch.as_tensor(x).float()
y_tensor = torch.as_tensor(y).float()
dataset = TensorDataset(x_tensor, y_tensor)
train_data, val_data = random_split(dataset, [80, 20])
train_loader = DataLoader(dataset=train_data, batch_size=16, shuffle=True)
val_loader = DataLoader(dataset=val_data, batch_size=16)


def train(model, loss_fn, optimizer, n_epochs, scheduler=None, seed=42):
    torch.manual_seed(seed)
    losses, val_losses, lrs = [], [], []
    for epoch in range(n_epochs):
        model.train()
        batch_losses = []
        for x_batch, y_batch in train_loader:
            loss = loss_fn(model(x_batch), y_batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            batch_losses.append(loss.item())
        losses.append(np.mean(batch_losses))
        model.eval()
        with torch.no_grad():
            val_losses.append(np.mean([loss_fn(model(xb), yb).item() for xb, yb in val_loader]))
        if scheduler is not None:
            if isinstance(scheduler, ReduceLROnPlateau):
                scheduler.step(val_losses[-1])
            else:
                scheduler.step()
            lrs.append(list(map(lambda d: d['lr'], optimizer.state_dict()['param_groups'])))
    return losses, val_losses, lrs


torch.manual_seed(42)
model = nn.Sequential()
model.add_module('linear', nn.Linear(1, 1))
optimizer = optim.Adam(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss(reduction='mean')
gradients = {'weight': [], 'bias': []}


def make_log_fn(parm_id):
    def log_fn(grad):
        gradients[parm_id].append(grad.tolist())
    return log_fn


handles = [p.register_hook(make_log_fn(name)) for name, p in model.linear.named_parameters()]
losses, val_losses, _ = train(model, loss_fn, optimizer, 10)
for h in handles:
    h.remove()
print(np.round(losses, 5), np.round(val_losses, 5))
print(len(gradients['weight']), gradients['weight'][:3], gradients['bias'][-2:])
print(optimizer.state_dict())
print(model.state_dict())

for name, parms in [('SGD + Momentum', {'lr': 0.1, 'momentum': 0.9}),
                    ('SGD + Nesterov', {'lr': 0.1, 'momentum': 0.9, 'nesterov': True})]:
    torch.manual_seed(42)
    model = nn.Sequential()
    model.add_module('linear', nn.Linear(1, 1))
    optimizer = optim.SGD(model.parameters(), **parms)
    losses, val_losses, _ = train(model, loss_fn, optimizer, 10)
    print(name, np.round(losses[-3:], 5))
    print(optimizer.state_dict())

dummy_optimizer = optim.SGD([nn.Parameter(torch.randn(1))], lr=0.01)
dummy_scheduler = StepLR(dummy_optimizer, step_size=2, gamma=0.1)
for epoch in range(4):
    print(dummy_scheduler.get_last_lr())
    dummy_optimizer.step()
    dummy_scheduler.step()
    dummy_optimizer.zero_grad()

dummy_optimizer = optim.SGD([nn.Parameter(torch.randn(1))], lr=0.01)
dummy_scheduler = LambdaLR(dummy_optimizer, lr_lambda=lambda epoch: 0.1 ** (epoch // 2))
lrs = []
for epoch in range(6):
    dummy_optimizer.step()
    dummy_scheduler.step()
    lrs.append(dummy_scheduler.get_last_lr()[0])
print(lrs)

dummy_optimizer = optim.SGD([nn.Parameter(torch.randn(1))], lr=0.01)
dummy_scheduler = ReduceLROnPlateau(dummy_optimizer, patience=4, factor=0.1)
lrs = []
for epoch in range(14):
    dummy_optimizer.step()
    dummy_scheduler.step(1.0)
    lrs.append(dummy_optimizer.param_groups[0]['lr'])
print(lrs, dummy_scheduler.num_bad_epochs, dummy_scheduler.best)

for mode, extra in [('triangular', {}), ('triangular2', {}), ('exp_range', {'gamma': np.sqrt(.5)})]:
    dummy_parm = [nn.Parameter(torch.randn(1))]
    dummy_optimizer = optim.SGD(dummy_parm, lr=0.01)
    dummy_scheduler = CyclicLR(dummy_optimizer, base_lr=1e-4, max_lr=1e-3, step_size_up=2, mode=mode, **extra)
    lrs = []
    for it in range(10):
        dummy_optimizer.step()
        dummy_scheduler.step()
        lrs.append(dummy_scheduler.get_last_lr()[0])
    print(mode, [f'{v:.6f}' for v in lrs])

torch.manual_seed(42)
model = nn.Sequential()
model.add_module('linear', nn.Linear(1, 1))
optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
scheduler = StepLR(optimizer, step_size=4, gamma=0.5)
losses, val_losses, lrs = train(model, loss_fn, optimizer, 10, scheduler=scheduler)
print(lrs)
print(np.round(losses, 5))
print(scheduler.state_dict())
