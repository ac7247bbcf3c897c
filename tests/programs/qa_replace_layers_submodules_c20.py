# Corpus program modelled on the Q&A "children 和 modules 的用法" (replacing the fc layer of a
# pretrained model, cutting it with children(), https://www.codeprj.com/zh/blog/c17cf71.html)
# and the named_modules() guide (https://runebook.dev/ru/docs/pytorch/generated/torch.nn.module/torch.nn.Module.named_modules):
# assign a new module by attribute or index, walk named_modules() and setattr on the parent
# found with get_submodule, swap every ReLU for a LeakyReLU, drop the classifier with
# nn.Identity, cut a Sequential with children(), and count parameters before/after.
# Changed: a small hand-built CNN instead of torchvision's resnet50 (no download), a seed.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.bn = nn.BatchNorm2d(c)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.bn(self.conv(x))) + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU())
        self.layer1 = nn.Sequential(Block(8), Block(8))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = self.pool(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(x, 1))


model = Net()
print(model)
count = lambda m: sum(p.numel() for p in m.parameters())
print(count(model))
model.fc = nn.Linear(8, 3)
print(model.fc, count(model))
print(model.get_submodule("layer1.1.conv"))
print([n for n, m in model.named_modules() if isinstance(m, nn.ReLU)])
for name, module in list(model.named_modules()):
    if isinstance(module, nn.ReLU):
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, nn.LeakyReLU(0.1))
print(model.stem, model.layer1[0])
model.layer1[1] = nn.Identity()
print(model.layer1)
x = torch.randn(2, 3, 8, 8)
model.eval()
print(model(x))
model.fc = nn.Identity()
print(model(x).shape)
features = nn.Sequential(*list(model.children())[:-2])
print(features)
print(features(x).shape)
print(len(list(model.modules())), len(list(model.children())))
print(model.get_parameter("stem.0.bias").shape)
try:
    model.get_submodule("layer1.5")
except AttributeError as e:
    print("AttributeError:", e)
try:
    model.get_submodule("head")
except AttributeError as e:
    print("AttributeError:", e)
del model.layer1[0]
print(len(model.layer1), model.layer1)
model.register_module("extra", nn.Dropout(0.2))
model.add_module("extra2", nn.Sigmoid())
print(list(dict(model.named_children()).keys()))
try:
    model.add_module("bad.name", nn.ReLU())
except KeyError as e:
    print("KeyError:", e)
try:
    model.fc = "not a module"
except TypeError as e:
    print("TypeError:", e)
print(sum(1 for _ in model.named_modules(remove_duplicate=False)))
