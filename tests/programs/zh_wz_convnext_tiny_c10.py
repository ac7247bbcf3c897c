# Corpus program, written for gradsh (no code copied). Modelled on the ConvNeXt model of
# WZMIAOMIAO's Chinese tutorial repository deep-learning-for-image-processing
# (https://github.com/WZMIAOMIAO/deep-learning-for-image-processing/blob/master/pytorch_classification/ConvNeXt/model.py,
# after facebookresearch/ConvNeXt): drop_path (keep_prob + torch.rand, floor_, x.div(keep_prob)
# * mask) and DropPath, a LayerNorm module for channels_last (F.layer_norm) and channels_first
# (mean/var over dim 1 by hand), the Block (7x7 depthwise conv, permute, LayerNorm, Linear,
# GELU, Linear, layer scale gamma, permute back, residual), the ConvNeXt with its stem and
# downsample layers, linspace drop-path rates read with .item(), trunc_normal_ init through
# apply(), head scaling with .data.mul_, global average pooling by x.mean([-2, -1]).
# Differences: a tiny configuration (dims 8/16/24/32, depths 1/1/2/1) on seeded random 32x32
# images, three AdamW steps; the source's Block passes the drop_path function itself to
# DropPath when drop_rate > 0, so the model is built with drop_path_rate=0 as its defaults do,
# and drop_path is exercised directly.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def drop_path(x, drop_prob: float = 0., training: bool = False):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = keep_prob + torch.rand(shape, dtype=x.dtype, device=x.device)
    random_tensor.floor_()
    output = x.div(keep_prob) * random_tensor
    return output


class DropPath(nn.Module):
    def __init__(self, drop_prob=None):
        super(DropPath, self).__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape, eps=1e-6, data_format="channels_last"):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = eps
        self.data_format = data_format
        if self.data_format not in ["channels_last", "channels_first"]:
            raise ValueError(f"not support data format '{self.data_format}'")
        self.normalized_shape = (normalized_shape,)

    def forward(self, x):
        if self.data_format == "channels_last":
            return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        elif self.data_format == "channels_first":
            mean = x.mean(1, keepdim=True)
            var = (x - mean).pow(2).mean(1, keepdim=True)
            x = (x - mean) / torch.sqrt(var + self.eps)
            x = self.weight[:, None, None] * x + self.bias[:, None, None]
            return x


class Block(nn.Module):
    def __init__(self, dim, drop_rate=0., layer_scale_init_value=1e-6):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = LayerNorm(dim, eps=1e-6, data_format="channels_last")
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale_init_value * torch.ones((dim,)),
                                  requires_grad=True) if layer_scale_init_value > 0 else None
        self.drop_path = DropPath(drop_path) if drop_rate > 0. else nn.Identity()

    def forward(self, x):
        shortcut = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)
        x = self.norm(x)
        x = self.pwconv1(x)
        x = self.act(x)
        x = self.pwconv2(x)
        if self.gamma is not None:
            x = self.gamma * x
        x = x.permute(0, 3, 1, 2)
        x = shortcut + self.drop_path(x)
        return x


class ConvNeXt(nn.Module):
    def __init__(self, in_chans=3, num_classes=1000, depths=None, dims=None,
                 drop_path_rate=0., layer_scale_init_value=1e-6, head_init_scale=1.):
        super().__init__()
        self.downsample_layers = nn.ModuleList()
        stem = nn.Sequential(nn.Conv2d(in_chans, dims[0], kernel_size=4, stride=4),
                             LayerNorm(dims[0], eps=1e-6, data_format="channels_first"))
        self.downsample_layers.append(stem)
        for i in range(3):
            downsample_layer = nn.Sequential(
                LayerNorm(dims[i], eps=1e-6, data_format="channels_first"),
                nn.Conv2d(dims[i], dims[i + 1], kernel_size=2, stride=2))
            self.downsample_layers.append(downsample_layer)
        self.stages = nn.ModuleList()
        dp_rates = [x.item() for x in torch.linspace(0, drop_path_rate, sum(depths))]
        cur = 0
        for i in range(4):
            stage = nn.Sequential(*[Block(dim=dims[i], drop_rate=dp_rates[cur + j],
                                          layer_scale_init_value=layer_scale_init_value)
                                    for j in range(depths[i])])
            self.stages.append(stage)
            cur += depths[i]
        self.norm = nn.LayerNorm(dims[-1], eps=1e-6)
        self.head = nn.Linear(dims[-1], num_classes)
        self.apply(self._init_weights)
        self.head.weight.data.mul_(head_init_scale)
        self.head.bias.data.mul_(head_init_scale)

    def _init_weights(self, m):
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.trunc_normal_(m.weight, std=0.2)
            nn.init.constant_(m.bias, 0)

    def forward_features(self, x):
        for i in range(4):
            x = self.downsample_layers[i](x)
            x = self.stages[i](x)
        return self.norm(x.mean([-2, -1]))

    def forward(self, x):
        x = self.forward_features(x)
        x = self.head(x)
        return x


model = ConvNeXt(depths=[1, 1, 2, 1], dims=[8, 16, 24, 32], num_classes=5,
                 layer_scale_init_value=0.1, head_init_scale=0.5)
print(model.stages[2])
print(sum(p.numel() for p in model.parameters()))
print(model.head.bias, model.stages[0][0].gamma)
x = torch.randn(4, 3, 32, 32)
y = torch.tensor([0, 3, 1, 4])
out = model(x)
print(out)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
for step in range(3):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
    loss.backward()
    optimizer.step()
    print(step, loss.item(), model.stages[0][0].gamma.grad[:3])
print(model.downsample_layers[0][1].weight[:4], model.head.weight.grad.norm())

ln_first = LayerNorm(8, data_format="channels_first")
t = torch.randn(2, 8, 3, 3)
ref = F.layer_norm(t.permute(0, 2, 3, 1), (8,), eps=1e-6).permute(0, 3, 1, 2)
print((ln_first(t) - ref).abs().max() < 1e-5)
try:
    LayerNorm(8, data_format="channels_middle")
except ValueError as e:
    print("ValueError:", e)

feat = torch.ones(6, 2, 2, 2)
dp = DropPath(0.5)
print(dp(feat).equal(feat))
print(drop_path(feat, 0.5, training=True)[:, 0, 0, 0])
dp.eval()
print(dp(feat).equal(feat))
broken = DropPath(drop_path)
try:
    broken(feat)
except TypeError as e:
    print("TypeError:", e)
