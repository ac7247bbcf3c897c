# Corpus program, written for gradsh (no code copied). Modelled on the extra chapter ("Vanishing
# and Exploding Gradients") of Daniel Voigt Godoy's "Deep Learning with PyTorch Step-by-Step":
# https://github.com/dvgodoy/PyTorchStepByStep/blob/master/ChapterExtra.ipynb (with
# data_generation/ball.py, plots/chapterextra.py's build_model and get_plot_data, and
# stepbystep/v3.py's capture_gradients / capture_parameters / attach_hooks)
# Like the source: the 10-d "ball" data set, a 5-layer ReLU network built by add_module with
# names h1..h5/a1..a5 (optionally BatchNorm1d(affine=False) after each activation, linear bias
# off), one epoch of BCEWithLogitsLoss while forward hooks capture the activations,
# parameter hooks (register_hook) log each gradient with tolist(), and forward hooks log the
# weights; kaiming_uniform_(nonlinearity='relu') applied with model.apply under no_grad; a
# regression whose SGD(lr=0.01) training explodes to nan; clip_grad_value_ and clip_grad_norm_
# on a fake gradient; StepByStep's set_clip_grad_value / set_clip_grad_norm / set_clip_backprop
# (tensor hooks clamping each gradient during backprop), removed afterwards.
# Differences: 400 points instead of 1000; the regression data made with NumPy (a seeded linear
# target with noise, scaled like sklearn's make_regression) instead of sklearn; a trimmed
# StepByStep; per-layer standard deviations printed instead of violin plots; 3-4 epochs.
import random

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


def load_data(n_dims=10, n_points=1000, classif_radius_fraction=0.5, seed=13):
    np.random.seed(seed)
    radius = np.sqrt(n_dims)
    points = np.random.normal(size=(n_points, n_dims))
    sphere = radius * points / np.linalg.norm(points, axis=1).reshape(-1, 1)
    X = sphere * np.random.uniform(size=(n_points, 1)) ** (1 / n_dims)
    adjustment = 1 / np.std(X)
    radius *= adjustment
    X *= adjustment
    y = (np.abs(np.sum(X, axis=1)) > (radius * classif_radius_fraction)).astype(int)
    np.random.seed(seed)
    shuffled = np.random.permutation(range(X.shape[0]))
    return X[shuffled], y[shuffled].reshape(-1, 1)


def build_model(input_dim, n_layers, units, activation, use_bn=False):
    units = [units] * n_layers
    model = nn.Sequential()
    model.add_module('h1', nn.Linear(input_dim, units[0], bias=not use_bn))
    model.add_module('a1', activation())
    if use_bn:
        model.add_module('bn1', nn.BatchNorm1d(units[0], affine=False))
    for i in range(2, n_layers + 1):
        model.add_module('h{}'.format(i), nn.Linear(units[i - 2], units[i - 1], bias=not use_bn))
        model.add_module('a{}'.format(i), activation())
        if use_bn:
            model.add_module('bn{}'.format(i), nn.BatchNorm1d(units[i - 1], affine=False))
    model.add_module('o', nn.Linear(units[n_layers - 1], 1))
    return model


class StepByStep(object):
    def __init__(self, model, loss_fn, optimizer):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.train_loader = None
        self.losses = []
        self.total_epochs = 0
        self.visualization = {}
        self.handles = {}
        self.clipping = None

    def set_loaders(self, train_loader, val_loader=None):
        self.train_loader = train_loader

    def set_seed(self, seed=42):
        torch.manual_seed(seed)
        np.random.seed(seed)
        random.seed(seed)

    def _train_step(self, x, y):
        self.model.train()
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        if callable(self.clipping):
            self.clipping()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()

    def train(self, n_epochs, seed=42):
        self.set_seed(seed)
        for epoch in range(n_epochs):
            self.total_epochs += 1
            losses = [self._train_step(x, y) for x, y in self.train_loader]
            self.losses.append(np.mean(losses))

    def attach_hooks(self, layers_to_hook, hook_fn=None):
        self.visualization = {}
        modules = list(self.model.named_modules())
        layer_names = {layer: name for name, layer in modules[1:]}
        if hook_fn is None:
            def hook_fn(layer, inputs, outputs):
                name = layer_names[layer]
                values = outputs.detach().cpu().numpy()
                if self.visualization[name] is None:
                    self.visualization[name] = values
                else:
                    self.visualization[name] = np.concatenate([self.visualization[name], values])
        for name, layer in modules:
            if name in layers_to_hook:
                self.visualization[name] = None
                self.handles[name] = layer.register_forward_hook(hook_fn)

    def remove_hooks(self):
        for handle in self.handles.values():
            handle.remove()
        self.handles = {}

    def capture_gradients(self, layers_to_hook):
        if not isinstance(layers_to_hook, list):
            layers_to_hook = [layers_to_hook]
        self._gradients = {}

        def make_log_fn(name, parm_id):
            def log_fn(grad):
                self._gradients[name][parm_id].append(grad.tolist())
                return
            return log_fn

        for name, layer in self.model.named_modules():
            if name in layers_to_hook:
                self._gradients.update({name: {}})
                for parm_id, p in layer.named_parameters():
                    if p.requires_grad:
                        self._gradients[name].update({parm_id: []})
                        log_fn = make_log_fn(name, parm_id)
                        self.handles[f'{name}.{parm_id}.grad'] = p.register_hook(log_fn)

    def capture_parameters(self, layers_to_hook):
        modules = list(self.model.named_modules())
        layer_names = {layer: name for name, layer in modules}
        self._parameters = {}
        for name, layer in modules:
            if name in layers_to_hook:
                self._parameters.update({name: {}})
                for parm_id, p in layer.named_parameters():
                    self._parameters[name].update({parm_id: []})

        def fw_hook_fn(layer, inputs, outputs):
            name = layer_names[layer]
            for parm_id, parameter in layer.named_parameters():
                self._parameters[name][parm_id].append(parameter.tolist())

        self.attach_hooks(layers_to_hook, fw_hook_fn)

    def set_clip_grad_value(self, clip_value):
        self.clipping = lambda: nn.utils.clip_grad_value_(self.model.parameters(), clip_value=clip_value)

    def set_clip_grad_norm(self, max_norm, norm_type=2):
        self.clipping = lambda: nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=max_norm,
                                                         norm_type=norm_type)

    def set_clip_backprop(self, clip_value):
        if self.clipping is None:
            self.clipping = []
        for p in self.model.parameters():
            if p.requires_grad:
                func = lambda grad: torch.clamp(grad, -clip_value, clip_value)
                handle = p.register_hook(func)
                self.clipping.append(handle)

    def remove_clip(self):
        if isinstance(self.clipping, list):
            for handle in self.clipping:
                handle.remove()
        self.clipping = None


X, y = load_data(n_points=400, n_dims=10)
print(X.shape, y.shape, y.mean(), X.std())
ball_dataset = TensorDataset(torch.as_tensor(X).float(), torch.as_tensor(y).float())
ball_loader = DataLoader(ball_dataset, batch_size=len(X))


def weights_init(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_uniform_(m.weight, nonlinearity='relu')
        if m.bias is not None:
            nn.init.zeros_(m.bias)


n_layers, hidden_units = 5, 100
hidden_layers = [f'h{i}' for i in range(1, n_layers + 1)]
activation_layers = [f'a{i}' for i in range(1, n_layers + 1)]
for scheme, activation_fn, use_bn, init in (("default", nn.ReLU, False, False),
                                            ("tanh", nn.Tanh, False, False),
                                            ("kaiming", nn.ReLU, False, True),
                                            ("batchnorm", nn.ReLU, True, False)):
    torch.manual_seed(11)
    model = build_model(X.shape[1], n_layers, hidden_units, activation_fn, use_bn=use_bn)
    if init:
        with torch.no_grad():
            model.apply(weights_init)
    if scheme == "default" or scheme == "batchnorm":
        print(model)
    sbs = StepByStep(model, nn.BCEWithLogitsLoss(), optim.SGD(model.parameters(), lr=1e-2))
    sbs.set_loaders(ball_loader)
    sbs.capture_parameters(hidden_layers)
    sbs.capture_gradients(hidden_layers)
    sbs.attach_hooks(activation_layers)
    sbs.train(1)
    sbs.remove_hooks()
    weights = [np.array(sbs._parameters[n]['weight']).reshape(-1) for n in hidden_layers]
    grads = [np.array(sbs._gradients[n]['weight']).reshape(-1) for n in hidden_layers]
    acts = [sbs.visualization[n].reshape(-1) for n in activation_layers]
    print(scheme, f"loss {sbs.losses[0]:.5f}")
    print("  weights std ", " ".join(f"{w.std():.4f}" for w in weights))
    print("  grads std   ", " ".join(f"{g.std():.3e}" for g in grads))
    print("  acts std    ", " ".join(f"{a.std():.4f}" for a in acts))
    print("  acts zero % ", " ".join(f"{100 * (a == 0).mean():.1f}" for a in acts))
    print("  handles", list(sbs.handles), sorted(sbs._gradients['h1']))

rng = np.random.RandomState(42)
X_reg = rng.randn(400, 10)
coef = 100 * rng.rand(10)
y_reg = X_reg @ coef + 0.1 * rng.randn(400)
X_reg = torch.as_tensor(X_reg).float()
y_reg = torch.as_tensor(y_reg).float().view(-1, 1)
print(y_reg.mean(), y_reg.std())
dataset = TensorDataset(X_reg, y_reg)
torch.manual_seed(13)
train_loader = DataLoader(dataset=dataset, batch_size=32, shuffle=True)

torch.manual_seed(11)
model = nn.Sequential()
model.add_module('fc1', nn.Linear(10, 15))
model.add_module('act', nn.ReLU())
model.add_module('fc2', nn.Linear(15, 1))
optimizer = optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
sbs_reg = StepByStep(model, loss_fn, optimizer)
sbs_reg.set_loaders(train_loader)
sbs_reg.capture_gradients(['fc1'])
sbs_reg.train(2)
print(sbs_reg.losses)
grads = np.array(sbs_reg._gradients['fc1']['weight'])
print(grads.shape, np.isnan(grads).sum())
print(np.round(grads.mean(axis=(1, 2))[:6], 3))
sbs_reg.remove_hooks()

torch.manual_seed(42)
parm = nn.Parameter(torch.randn(2, 1))
fake_grads = torch.tensor([[2.5], [.8]])
parm.grad = fake_grads.clone()
nn.utils.clip_grad_value_(parm, clip_value=1.0)
print(parm.grad.view(-1,))
parm.grad = fake_grads.clone()
total = nn.utils.clip_grad_norm_(parm, max_norm=1.0, norm_type=2)
print(total, fake_grads.norm(), parm.grad.view(-1,), parm.grad.norm())

for mode in ("value", "norm", "backprop"):
    torch.manual_seed(42)
    with torch.no_grad():
        model.apply(weights_init)
    optimizer = optim.SGD(model.parameters(), lr=0.1 if mode != "norm" else 0.01)
    sbs = StepByStep(model, loss_fn, optimizer)
    sbs.set_loaders(train_loader)
    if mode == "value":
        sbs.set_clip_grad_value(1.0)
    elif mode == "norm":
        sbs.set_clip_grad_norm(max_norm=1.0, norm_type=2)
    else:
        sbs.set_clip_backprop(1.0)
        print(type(sbs.clipping), len(sbs.clipping))
    sbs.capture_gradients(['fc1'])
    sbs.train(4)
    sbs.remove_clip()
    sbs.remove_hooks()
    avg_grad = np.array(sbs._gradients['fc1']['weight']).mean(axis=(1, 2))
    print(mode, [f"{v:.2f}" for v in sbs.losses], f"{avg_grad.min():.4f} {avg_grad.max():.4f}",
          sbs.clipping)
