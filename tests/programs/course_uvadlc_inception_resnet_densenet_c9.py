# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 5 "Inception, ResNet and DenseNet" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial5/Inception_ResNet_DenseNet.ipynb
# Like the original: act_fn_by_name of activation classes; InceptionBlock (1x1, 3x3 and 5x5
# branches with 1x1 reductions, a 3x3 max-pool branch, torch.cat on channels) and GoogleNet
# with SimpleNamespace hparams and kaiming_normal_(nonlinearity=act_fn_name); ResNetBlock and
# PreActResNetBlock with strided subsampling and a 1x1 downsample, ResNet built from
# num_blocks/c_hidden with kaiming_normal_(mode='fan_out'); DenseLayer (BN-act-1x1-BN-act-3x3,
# cat with the input), DenseBlock, TransitionLayer (AvgPool2d) and DenseNet; model_dict /
# create_model; the optimizers of the notebook (Adam with weight_decay, SGD with momentum).
# Differences: a plain training loop instead of PyTorch Lightning: each model takes 3 steps
# on a synthetic batch of 16 3x16x16 images; widths and depths are reduced (GoogleNet with two
# Inception blocks, ResNet [1, 1, 1] x [8, 16, 32], DenseNet [2, 2] growth 4); seeded.
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

act_fn_by_name = {"tanh": nn.Tanh, "relu": nn.ReLU, "leakyrelu": nn.LeakyReLU, "gelu": nn.GELU}
model_dict = {}


def create_model(model_name, model_hparams):
    if model_name in model_dict:
        return model_dict[model_name](**model_hparams)
    else:
        assert False, f"Unknown model name \"{model_name}\". Available models are: {str(model_dict.keys())}"


class InceptionBlock(nn.Module):
    def __init__(self, c_in, c_red: dict, c_out: dict, act_fn):
        super().__init__()
        self.conv_1x1 = nn.Sequential(nn.Conv2d(c_in, c_out["1x1"], kernel_size=1),
                                      nn.BatchNorm2d(c_out["1x1"]), act_fn())
        self.conv_3x3 = nn.Sequential(
            nn.Conv2d(c_in, c_red["3x3"], kernel_size=1), nn.BatchNorm2d(c_red["3x3"]), act_fn(),
            nn.Conv2d(c_red["3x3"], c_out["3x3"], kernel_size=3, padding=1),
            nn.BatchNorm2d(c_out["3x3"]), act_fn())
        self.conv_5x5 = nn.Sequential(
            nn.Conv2d(c_in, c_red["5x5"], kernel_size=1), nn.BatchNorm2d(c_red["5x5"]), act_fn(),
            nn.Conv2d(c_red["5x5"], c_out["5x5"], kernel_size=5, padding=2),
            nn.BatchNorm2d(c_out["5x5"]), act_fn())
        self.max_pool = nn.Sequential(nn.MaxPool2d(kernel_size=3, padding=1, stride=1),
                                      nn.Conv2d(c_in, c_out["max"], kernel_size=1),
                                      nn.BatchNorm2d(c_out["max"]), act_fn())

    def forward(self, x):
        x_1x1 = self.conv_1x1(x)
        x_3x3 = self.conv_3x3(x)
        x_5x5 = self.conv_5x5(x)
        x_max = self.max_pool(x)
        return torch.cat([x_1x1, x_3x3, x_5x5, x_max], dim=1)


class GoogleNet(nn.Module):
    def __init__(self, num_classes=10, act_fn_name="relu", **kwargs):
        super().__init__()
        self.hparams = SimpleNamespace(num_classes=num_classes, act_fn_name=act_fn_name,
                                       act_fn=act_fn_by_name[act_fn_name])
        self._create_network()
        self._init_params()

    def _create_network(self):
        self.input_net = nn.Sequential(nn.Conv2d(3, 16, kernel_size=3, padding=1),
                                       nn.BatchNorm2d(16), self.hparams.act_fn())
        self.inception_blocks = nn.Sequential(
            InceptionBlock(16, c_red={"3x3": 8, "5x5": 4}, c_out={"1x1": 4, "3x3": 8, "5x5": 2, "max": 2},
                           act_fn=self.hparams.act_fn),
            nn.MaxPool2d(3, stride=2, padding=1),
            InceptionBlock(16, c_red={"3x3": 8, "5x5": 4}, c_out={"1x1": 8, "3x3": 12, "5x5": 6, "max": 6},
                           act_fn=self.hparams.act_fn))
        self.output_net = nn.Sequential(nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
                                        nn.Linear(32, self.hparams.num_classes))

    def _init_params(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, nonlinearity=self.hparams.act_fn_name)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.input_net(x)
        x = self.inception_blocks(x)
        return self.output_net(x)


model_dict["GoogleNet"] = GoogleNet


class ResNetBlock(nn.Module):
    def __init__(self, c_in, act_fn, subsample=False, c_out=-1):
        super().__init__()
        if not subsample:
            c_out = c_in
        self.net = nn.Sequential(
            nn.Conv2d(c_in, c_out, kernel_size=3, padding=1, stride=1 if not subsample else 2, bias=False),
            nn.BatchNorm2d(c_out), act_fn(),
            nn.Conv2d(c_out, c_out, kernel_size=3, padding=1, bias=False), nn.BatchNorm2d(c_out))
        self.downsample = nn.Conv2d(c_in, c_out, kernel_size=1, stride=2) if subsample else None
        self.act_fn = act_fn()

    def forward(self, x):
        z = self.net(x)
        if self.downsample is not None:
            x = self.downsample(x)
        out = z + x
        return self.act_fn(out)


class PreActResNetBlock(nn.Module):
    def __init__(self, c_in, act_fn, subsample=False, c_out=-1):
        super().__init__()
        if not subsample:
            c_out = c_in
        self.net = nn.Sequential(
            nn.BatchNorm2d(c_in), act_fn(),
            nn.Conv2d(c_in, c_out, kernel_size=3, padding=1, stride=1 if not subsample else 2, bias=False),
            nn.BatchNorm2d(c_out), act_fn(),
            nn.Conv2d(c_out, c_out, kernel_size=3, padding=1, bias=False))
        self.downsample = nn.Sequential(
            nn.BatchNorm2d(c_in), act_fn(),
            nn.Conv2d(c_in, c_out, kernel_size=1, stride=2, bias=False)) if subsample else None

    def forward(self, x):
        z = self.net(x)
        if self.downsample is not None:
            x = self.downsample(x)
        return z + x


resnet_blocks_by_name = {"ResNetBlock": ResNetBlock, "PreActResNetBlock": PreActResNetBlock}


class ResNet(nn.Module):
    def __init__(self, num_classes=10, num_blocks=[3, 3, 3], c_hidden=[16, 32, 64],
                 act_fn_name="relu", block_name="ResNetBlock", **kwargs):
        super().__init__()
        assert block_name in resnet_blocks_by_name
        self.hparams = SimpleNamespace(num_classes=num_classes, c_hidden=c_hidden,
                                       num_blocks=num_blocks, act_fn_name=act_fn_name,
                                       act_fn=act_fn_by_name[act_fn_name],
                                       block_class=resnet_blocks_by_name[block_name])
        self._create_network()
        self._init_params()

    def _create_network(self):
        c_hidden = self.hparams.c_hidden
        if self.hparams.block_class == PreActResNetBlock:
            self.input_net = nn.Sequential(nn.Conv2d(3, c_hidden[0], kernel_size=3, padding=1, bias=False))
        else:
            self.input_net = nn.Sequential(nn.Conv2d(3, c_hidden[0], kernel_size=3, padding=1, bias=False),
                                           nn.BatchNorm2d(c_hidden[0]), self.hparams.act_fn())
        blocks = []
        for block_idx, block_count in enumerate(self.hparams.num_blocks):
            for bc in range(block_count):
                subsample = (bc == 0 and block_idx > 0)
                blocks.append(self.hparams.block_class(
                    c_in=c_hidden[block_idx if not subsample else (block_idx - 1)],
                    act_fn=self.hparams.act_fn, subsample=subsample, c_out=c_hidden[block_idx]))
        self.blocks = nn.Sequential(*blocks)
        self.output_net = nn.Sequential(nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
                                        nn.Linear(c_hidden[-1], self.hparams.num_classes))

    def _init_params(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode='fan_out', nonlinearity=self.hparams.act_fn_name)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.input_net(x)
        x = self.blocks(x)
        return self.output_net(x)


model_dict["ResNet"] = ResNet


class DenseLayer(nn.Module):
    def __init__(self, c_in, bn_size, growth_rate, act_fn):
        super().__init__()
        self.net = nn.Sequential(
            nn.BatchNorm2d(c_in), act_fn(),
            nn.Conv2d(c_in, bn_size * growth_rate, kernel_size=1, bias=False),
            nn.BatchNorm2d(bn_size * growth_rate), act_fn(),
            nn.Conv2d(bn_size * growth_rate, growth_rate, kernel_size=3, padding=1, bias=False))

    def forward(self, x):
        out = self.net(x)
        return torch.cat([out, x], dim=1)


class DenseBlock(nn.Module):
    def __init__(self, c_in, num_layers, bn_size, growth_rate, act_fn):
        super().__init__()
        layers = []
        for layer_idx in range(num_layers):
            layers.append(DenseLayer(c_in=c_in + layer_idx * growth_rate, bn_size=bn_size,
                                     growth_rate=growth_rate, act_fn=act_fn))
        self.block = nn.Sequential(*layers)

    def forward(self, x):
        return self.block(x)


class TransitionLayer(nn.Module):
    def __init__(self, c_in, c_out, act_fn):
        super().__init__()
        self.transition = nn.Sequential(nn.BatchNorm2d(c_in), act_fn(),
                                        nn.Conv2d(c_in, c_out, kernel_size=1, bias=False),
                                        nn.AvgPool2d(kernel_size=2, stride=2))

    def forward(self, x):
        return self.transition(x)


class DenseNet(nn.Module):
    def __init__(self, num_classes=10, num_layers=[6, 6, 6, 6], bn_size=2, growth_rate=16,
                 act_fn_name="relu", **kwargs):
        super().__init__()
        self.hparams = SimpleNamespace(num_classes=num_classes, num_layers=num_layers,
                                       bn_size=bn_size, growth_rate=growth_rate,
                                       act_fn_name=act_fn_name, act_fn=act_fn_by_name[act_fn_name])
        self._create_network()
        self._init_params()

    def _create_network(self):
        c_hidden = self.hparams.growth_rate * self.hparams.bn_size
        self.input_net = nn.Sequential(nn.Conv2d(3, c_hidden, kernel_size=3, padding=1))
        blocks = []
        for block_idx, num_layers in enumerate(self.hparams.num_layers):
            blocks.append(DenseBlock(c_in=c_hidden, num_layers=num_layers,
                                     bn_size=self.hparams.bn_size,
                                     growth_rate=self.hparams.growth_rate,
                                     act_fn=self.hparams.act_fn))
            c_hidden = c_hidden + num_layers * self.hparams.growth_rate
            if block_idx < len(self.hparams.num_layers) - 1:
                blocks.append(TransitionLayer(c_in=c_hidden, c_out=c_hidden // 2,
                                              act_fn=self.hparams.act_fn))
                c_hidden = c_hidden // 2
        self.blocks = nn.Sequential(*blocks)
        self.output_net = nn.Sequential(nn.BatchNorm2d(c_hidden), self.hparams.act_fn(),
                                        nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
                                        nn.Linear(c_hidden, self.hparams.num_classes))

    def _init_params(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, nonlinearity=self.hparams.act_fn_name)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.input_net(x)
        x = self.blocks(x)
        return self.output_net(x)


model_dict["DenseNet"] = DenseNet

torch.manual_seed(42)
imgs = torch.randn(16, 3, 16, 16)
labels = torch.randint(0, 10, (16,))
runs = [
    ("GoogleNet", {"num_classes": 10, "act_fn_name": "relu"}, "Adam", {"lr": 1e-3, "weight_decay": 1e-4}),
    ("ResNet", {"num_classes": 10, "c_hidden": [8, 16, 32], "num_blocks": [1, 1, 1], "act_fn_name": "relu"},
     "SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 1e-4}),
    ("ResNet", {"num_classes": 10, "c_hidden": [8, 16, 32], "num_blocks": [1, 1, 1], "act_fn_name": "relu",
                "block_name": "PreActResNetBlock"}, "SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 1e-4}),
    ("DenseNet", {"num_classes": 10, "num_layers": [2, 2], "bn_size": 2, "growth_rate": 4,
                  "act_fn_name": "relu"}, "Adam", {"lr": 1e-3, "weight_decay": 1e-4}),
]
for model_name, model_hparams, optimizer_name, optimizer_hparams in runs:
    torch.manual_seed(42)
    model = create_model(model_name, model_hparams)
    print(model_name, model_hparams.get("block_name", ""), model.hparams.act_fn,
          sum(p.numel() for p in model.parameters()))
    if model_name == "DenseNet":
        print(model)
    optimizer = getattr(optim, optimizer_name)(model.parameters(), **optimizer_hparams)
    for step in range(3):
        preds = model(imgs)
        loss = F.cross_entropy(preds, labels)
        acc = (preds.argmax(dim=-1) == labels).float().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"  step {step} loss {loss.item():.6f} acc {acc.item():.4f}")
    model.eval()
    with torch.no_grad():
        print("  eval logits", model(imgs[:2])[0])
try:
    create_model("VGG", {})
except AssertionError as e:
    print("AssertionError:", e)
