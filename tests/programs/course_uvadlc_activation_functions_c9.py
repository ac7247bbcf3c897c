# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 3 "Activation Functions" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial3/Activation_Functions.ipynb
# Like the original: set_seed for numpy and torch; ActivationFunction subclasses with a config
# dict (Sigmoid as 1/(1+exp(-x)), Tanh from exp, ReLU as x*(x>0).float(), LeakyReLU and ELU
# with torch.where, Swish); get_grads (clone().requires_grad_(), out.sum().backward());
# BaseNetwork building Linear + act_fn layers from hidden_sizes with a config; save_model /
# load_model with a JSON config and torch.save(state_dict); visualize_gradients as statistics
# of the weight gradients per layer (params.grad.data.view(-1).cpu().clone().numpy());
# measure_number_dead_neurons over a loader.
# Differences: the plots become printed numbers (values and gradients on 9 points, gradient
# std per layer, activation std per layer); synthetic "FashionMNIST" (512 images normalised
# to [-1, 1]); hidden sizes [64, 32, 32, 16]; a temporary checkpoint folder; seeded.
import json
import math
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.data as data


def set_seed(seed):
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed(seed)
        torch.cuda.manual_seed_all(seed)


set_seed(42)
device = torch.device("cpu") if not torch.cuda.is_available() else torch.device("cuda:0")
print("Using device", device)


class ActivationFunction(nn.Module):
    def __init__(self):
        super().__init__()
        self.name = self.__class__.__name__
        self.config = {"name": self.name}


class Sigmoid(ActivationFunction):
    def forward(self, x):
        return 1 / (1 + torch.exp(-x))


class Tanh(ActivationFunction):
    def forward(self, x):
        x_exp, neg_x_exp = torch.exp(x), torch.exp(-x)
        return (x_exp - neg_x_exp) / (x_exp + neg_x_exp)


class ReLU(ActivationFunction):
    def forward(self, x):
        return x * (x > 0).float()


class LeakyReLU(ActivationFunction):
    def __init__(self, alpha=0.1):
        super().__init__()
        self.config["alpha"] = alpha

    def forward(self, x):
        return torch.where(x > 0, x, self.config["alpha"] * x)


class ELU(ActivationFunction):
    def forward(self, x):
        return torch.where(x > 0, x, torch.exp(x) - 1)


class Swish(ActivationFunction):
    def forward(self, x):
        return x * torch.sigmoid(x)


act_fn_by_name = {"sigmoid": Sigmoid, "tanh": Tanh, "relu": ReLU,
                  "leakyrelu": LeakyReLU, "elu": ELU, "swish": Swish}


def get_grads(act_fn, x):
    x = x.clone().requires_grad_()
    out = act_fn(x)
    out.sum().backward()
    return x.grad


x = torch.linspace(-5, 5, 9)
for act_fn in [f() for f in act_fn_by_name.values()]:
    print(act_fn.name, act_fn.config)
    print("  y    ", act_fn(x))
    print("  grads", get_grads(act_fn, x))
print(Tanh()(x) - torch.tanh(x))


class BaseNetwork(nn.Module):
    def __init__(self, act_fn, input_size=784, num_classes=10, hidden_sizes=[64, 32, 32, 16]):
        super().__init__()
        layers = []
        layer_sizes = [input_size] + hidden_sizes
        for layer_index in range(1, len(layer_sizes)):
            layers += [nn.Linear(layer_sizes[layer_index - 1], layer_sizes[layer_index]), act_fn]
        layers += [nn.Linear(layer_sizes[-1], num_classes)]
        self.layers = nn.Sequential(*layers)
        self.config = {"act_fn": act_fn.config, "input_size": input_size,
                       "num_classes": num_classes, "hidden_sizes": hidden_sizes}

    def forward(self, x):
        x = x.view(x.size(0), -1)
        return self.layers(x)


def _get_config_file(model_path, model_name):
    return os.path.join(model_path, model_name + ".config")


def _get_model_file(model_path, model_name):
    return os.path.join(model_path, model_name + ".tar")


def load_model(model_path, model_name, net=None):
    config_file, model_file = _get_config_file(model_path, model_name), _get_model_file(model_path, model_name)
    assert os.path.isfile(config_file), f"Could not find the config file \"{config_file}\"."
    assert os.path.isfile(model_file), f"Could not find the model file \"{model_file}\"."
    with open(config_file, "r") as f:
        config_dict = json.load(f)
    if net is None:
        act_fn_name = config_dict["act_fn"].pop("name").lower()
        act_fn = act_fn_by_name[act_fn_name](**config_dict.pop("act_fn"))
        net = BaseNetwork(act_fn=act_fn, **config_dict)
    net.load_state_dict(torch.load(model_file, map_location=device))
    return net


def save_model(model, model_path, model_name):
    config_dict = model.config
    os.makedirs(model_path, exist_ok=True)
    config_file, model_file = _get_config_file(model_path, model_name), _get_model_file(model_path, model_name)
    with open(config_file, "w") as f:
        json.dump(config_dict, f)
    torch.save(model.state_dict(), model_file)


images = (torch.rand(512, 1, 28, 28) - 0.5) / 0.5
labels = torch.randint(0, 10, (512,))
train_set = data.TensorDataset(images, labels)


def visualize_gradients(net):
    net.eval()
    small_loader = data.DataLoader(train_set, batch_size=256, shuffle=False)
    imgs, labels = next(iter(small_loader))
    imgs, labels = imgs.to(device), labels.to(device)
    net.zero_grad()
    preds = net(imgs)
    loss = F.cross_entropy(preds, labels)
    loss.backward()
    grads = {name: params.grad.data.view(-1).cpu().clone().numpy()
             for name, params in net.named_parameters() if "weight" in name}
    net.zero_grad()
    print(f"Gradient magnitude distribution for activation function {net.config['act_fn']['name']}")
    for key in grads:
        print(f"  {key}: std {grads[key].std():.6e} max|g| {np.abs(grads[key]).max():.6e}")


for i, act_fn_name in enumerate(act_fn_by_name):
    set_seed(42)
    act_fn = act_fn_by_name[act_fn_name]()
    net_actfn = BaseNetwork(act_fn=act_fn).to(device)
    visualize_gradients(net_actfn)


def measure_number_dead_neurons(net):
    neurons_dead = [torch.ones(layer.weight.shape[0], device=device, dtype=torch.bool)
                    for layer in net.layers[:-1] if isinstance(layer, nn.Linear)]
    net.eval()
    with torch.no_grad():
        for imgs, labels in data.DataLoader(train_set, batch_size=128, shuffle=False):
            layer_index = 0
            imgs = imgs.to(device)
            imgs = imgs.view(imgs.size(0), -1)
            for layer in net.layers[:-1]:
                imgs = layer(imgs)
                if isinstance(layer, ActivationFunction):
                    neurons_dead[layer_index] = torch.logical_and(neurons_dead[layer_index],
                                                                  (imgs == 0).all(dim=0))
                    layer_index += 1
    number_neurons_dead = [t.sum().item() for t in neurons_dead]
    print("Number of dead neurons:", number_neurons_dead)
    print("In percentage:", ", ".join([f"{(100.0 * num_dead / tens.shape[0]):4.2f}%"
                                       for tens, num_dead in zip(neurons_dead, number_neurons_dead)]))
    return neurons_dead


set_seed(42)
net_relu = BaseNetwork(act_fn=ReLU()).to(device)
dead = measure_number_dead_neurons(net_relu)
print(dead[-1])
with torch.no_grad():
    for layer in net_relu.layers:
        if isinstance(layer, nn.Linear):
            layer.bias.fill_(-0.3)
measure_number_dead_neurons(net_relu)

with tempfile.TemporaryDirectory() as checkpoint_path:
    set_seed(42)
    net = BaseNetwork(act_fn=LeakyReLU(alpha=0.05))
    save_model(net, checkpoint_path, "FashionMNIST_leakyrelu")
    with open(_get_config_file(checkpoint_path, "FashionMNIST_leakyrelu")) as f:
        print(f.read())
    loaded = load_model(checkpoint_path, "FashionMNIST_leakyrelu")
    print(loaded)
    same = all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), loaded.state_dict().values()))
    print("same weights:", same, "alpha:", loaded.layers[1].config)
    print(loaded(images[:3]))
