# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 4 "Optimization and Initialization" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial4/Optimization_and_Initialization.ipynb
# Like the original: a deep BaseNetwork of Linear layers with an identity activation, the
# initialisations const_init (fill_), constant_variance_init (normal_ std 0.01),
# xavier_init (normal_ with std sqrt(2 / (fan_in + fan_out)), zero biases) and kaiming_init
# (std sqrt(2 / fan_in), first layer sqrt(1 / fan_in)) applied through named_parameters;
# the per-layer variances of weights, gradients and activations printed
# ("Layer %i - Variance: %f", via register_forward_hook-free manual forward); the
# OptimizerTemplate class with zero_grad / step / update_param and the hand-written SGD,
# SGDMomentum and Adam (param_momentum / param_2nd_momentum dicts keyed by parameter, bias
# correction with param_step); the pathological curvature function
# curvature_loss(x, y) = x**2 * 0.02 + y**2 * 4 optimised by each from (-5, 5) with
# train_curve, and a small MLP trained with each optimiser.
# Differences: random 784-dim inputs instead of FashionMNIST, depth 6 and width 64, the
# statistics printed instead of plotted, 60 curvature steps, 30 MLP steps; seeded.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)


class Identity(nn.Module):
    def forward(self, x):
        return x


class BaseNetwork(nn.Module):
    def __init__(self, act_fn, input_size=784, num_classes=10, hidden_sizes=[64] * 6):
        super().__init__()
        layers = []
        layer_sizes = [input_size] + hidden_sizes
        for layer_index in range(1, len(layer_sizes)):
            layers += [nn.Linear(layer_sizes[layer_index - 1], layer_sizes[layer_index]), act_fn]
        layers += [nn.Linear(layer_sizes[-1], num_classes)]
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        for layer in self.layers:
            x = layer(x)
        return x


imgs = torch.randn(64, 1, 28, 28)
labels = torch.randint(0, 10, (64,))


def weight_variances(model):
    return {name: round(param.data.view(-1).var().item(), 6)
            for name, param in model.named_parameters() if name.endswith(".weight")}


def gradient_variances(model):
    model.zero_grad()
    preds = model(imgs)
    loss = F.cross_entropy(preds, labels)
    loss.backward()
    return {name: round(param.grad.data.view(-1).var().item(), 8)
            for name, param in model.named_parameters() if "weight" in name}


def activation_variances(model):
    feats = imgs.view(imgs.shape[0], -1)
    with torch.no_grad():
        for layer_index, layer in enumerate(model.layers[:-1]):
            feats = layer(feats)
            if isinstance(layer, nn.Linear):
                print("Layer %i - Variance: %f" % (layer_index, torch.var(feats.view(-1)).item()))


def const_init(model, fill=0.0):
    for name, param in model.named_parameters():
        param.data.fill_(fill)


def constant_variance_init(model, std=0.01):
    for name, param in model.named_parameters():
        param.data.normal_(mean=0.0, std=std)


def xavier_init(model):
    for name, param in model.named_parameters():
        if name.endswith(".bias"):
            param.data.fill_(0)
        else:
            bound = math.sqrt(6) / math.sqrt(param.shape[0] + param.shape[1])
            param.data.uniform_(-bound, bound)


def kaiming_init(model):
    for name, param in model.named_parameters():
        if name.endswith(".bias"):
            param.data.fill_(0)
        elif name.startswith("layers.0"):
            param.data.normal_(0, 1 / math.sqrt(param.shape[1]))
        else:
            param.data.normal_(0, math.sqrt(2) / math.sqrt(param.shape[1]))


for init_name, init_fn, act in (("const", lambda m: const_init(m, 0.005), Identity()),
                                ("constant variance", constant_variance_init, Identity()),
                                ("xavier", xavier_init, Identity()),
                                ("kaiming relu", kaiming_init, nn.ReLU())):
    print("==", init_name)
    model = BaseNetwork(act_fn=act)
    init_fn(model)
    print(list(weight_variances(model).values())[:3])
    grads = gradient_variances(model)
    print(list(grads.values())[:3], list(grads)[-1])
    activation_variances(model)


class OptimizerTemplate:
    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()

    @torch.no_grad()
    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            self.update_param(p)

    def update_param(self, p):
        raise NotImplementedError


class SGD(OptimizerTemplate):
    def update_param(self, p):
        p_update = -self.lr * p.grad
        p.add_(p_update)


class SGDMomentum(OptimizerTemplate):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params, lr)
        self.momentum = momentum
        self.param_momentum = {p: torch.zeros_like(p.data) for p in self.params}

    def update_param(self, p):
        self.param_momentum[p] = (1 - self.momentum) * p.grad + self.momentum * self.param_momentum[p]
        p_update = -self.lr * self.param_momentum[p]
        p.add_(p_update)


class Adam(OptimizerTemplate):
    def __init__(self, params, lr, beta1=0.9, beta2=0.999, eps=1e-8):
        super().__init__(params, lr)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.param_step = {p: 0 for p in self.params}
        self.param_momentum = {p: torch.zeros_like(p.data) for p in self.params}
        self.param_2nd_momentum = {p: torch.zeros_like(p.data) for p in self.params}

    def update_param(self, p):
        self.param_step[p] += 1
        self.param_momentum[p] = (1 - self.beta1) * p.grad + self.beta1 * self.param_momentum[p]
        self.param_2nd_momentum[p] = (1 - self.beta2) * (p.grad)**2 + self.beta2 * self.param_2nd_momentum[p]
        bias_correction_1 = 1 - self.beta1 ** self.param_step[p]
        bias_correction_2 = 1 - self.beta2 ** self.param_step[p]
        p_2nd_mom = self.param_2nd_momentum[p] / bias_correction_2
        p_mom = self.param_momentum[p] / bias_correction_1
        p_lr = self.lr / (torch.sqrt(p_2nd_mom) + self.eps)
        p_update = -p_lr * p_mom
        p.add_(p_update)


def pathological_curve_loss(w1, w2):
    x1_loss = torch.tanh(w1)**2 + 0.01 * torch.abs(w1)
    x2_loss = torch.sigmoid(w2)
    return x1_loss + x2_loss


def curvature_loss(x, y):
    return x**2 * 0.02 + y**2 * 4


def train_curve(optimizer_func, curve_func=pathological_curve_loss, num_updates=60,
                init=[5, 5]):
    weights = nn.Parameter(torch.FloatTensor(init), requires_grad=True)
    optimizer = optimizer_func([weights])
    list_points = []
    for _ in range(num_updates):
        loss = curve_func(weights[0], weights[1])
        list_points.append(torch.cat([weights.data.detach(), loss.unsqueeze(dim=0).detach()],
                                     dim=0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    points = torch.stack(list_points, dim=0).numpy()
    return points


for name, opt_fn in (("SGD", lambda params: SGD(params, lr=1)),
                     ("SGDMom", lambda params: SGDMomentum(params, lr=1, momentum=0.9)),
                     ("Adam", lambda params: Adam(params, lr=1))):
    pts = train_curve(opt_fn)
    print(name, pts[-1].round(5), pts[::20, 2].round(5))
    pts = train_curve(opt_fn, curve_func=curvature_loss, init=[-5, 5])
    print(name, "curvature", pts[-1].round(5))

for name, opt_fn in (("SGD", lambda params: SGD(params, lr=1e-1)),
                     ("SGDMom", lambda params: SGDMomentum(params, lr=1e-1, momentum=0.9)),
                     ("Adam", lambda params: Adam(params, lr=1e-3))):
    torch.manual_seed(42)
    model = BaseNetwork(act_fn=nn.ReLU(), hidden_sizes=[32, 32])
    kaiming_init(model)
    opt = opt_fn(model.parameters())
    for step in range(30):
        loss = F.cross_entropy(model(imgs), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(name, f"{loss.item():.6f}", (model(imgs).argmax(-1) == labels).float().mean().item())
