# Corpus program, written for gradsh (no code copied). Modelled on TingsongYu's Chinese book
# "PyTorch实用教程（第二版）", chapter 4 section 4 (Module的API) companion notebook, as mirrored in
# https://github.com/huaiyuechusan/pytorch-tutorial-2nd (code/chapter-4/04_module_api.ipynb):
# net.cuda()/net.cpu()/net.to(device) with is_cuda of the first parameter, TinnyCNN's
# state_dict printed, a weight changed to 12345. through the state_dict then load_state_dict,
# the load_state_dict error for another model's keys, parameters()/named_parameters() with
# their types, modules()/named_modules()/children()/named_children(), get_parameter and
# get_submodule, half()/float()/double()/bfloat16() parameter dtypes, and apply() with a
# @torch.no_grad() init function.
# Differences: no GPU here, so .cuda() is caught and its error printed; a small
# Sequential named like AlexNet's "features"/"classifier" stands in for torchvision's AlexNet
# (not installed); seeded; the forward pass of TinnyCNN is also run once per dtype that the
# CPU supports for it.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 3))
print("\nis_cuda: {}".format(next(net.parameters()).is_cuda))
try:
    net.cuda()
except (AssertionError, RuntimeError) as e:
    print(type(e).__name__, e)
net.cpu()
print("\nis_cuda: {}".format(next(net.parameters()).is_cuda))
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
same = net.to(device) is net
print("\nis_cuda: {} {} {}".format(next(net.parameters()).is_cuda, same, device))


class TinnyCNN(nn.Module):
    def __init__(self, cls_num=2):
        super(TinnyCNN, self).__init__()
        self.convolution_layer = nn.Conv2d(1, 1, kernel_size=(3, 3))
        self.fc = nn.Linear(36, cls_num)

    def forward(self, x):
        x = self.convolution_layer(x)
        x = x.view(x.size(0), -1)
        out = self.fc(x)
        return out


model = TinnyCNN(2)
state_dict = model.state_dict()
for key, parameter_value in state_dict.items():
    print(key)
    print(parameter_value, end="\n\n")

model = TinnyCNN(2)
state_dict_tinnycnn = model.state_dict()
state_dict_tinnycnn["convolution_layer.weight"][0, 0, 0, 0] = 12345.
model.load_state_dict(state_dict_tinnycnn)
for key, parameter_value in model.state_dict().items():
    print(key)
    print(parameter_value, end="\n\n")


class AlexNetLike(nn.Module):
    def __init__(self):
        super(AlexNetLike, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Dropout(), nn.Linear(16, 2))


alexnet = AlexNetLike()
try:
    alexnet.load_state_dict(state_dict_tinnycnn)
except RuntimeError as e:
    print("RuntimeError:", e)
result = alexnet.load_state_dict(state_dict_tinnycnn, strict=False)
print(result)
print(result.missing_keys, result.unexpected_keys)
bad = {k: v for k, v in state_dict_tinnycnn.items()}
bad["fc.weight"] = torch.zeros(3, 36)
try:
    model.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)

model = TinnyCNN(2)
for param in model.parameters():
    print(type(param), param.size())
    print(param, end="\n\n")
for name, param in model.named_parameters():
    print(name)
    print(param, end="\n\n")
for sub_module in model.modules():
    print(sub_module, end="\n\n")
for name, sub_module in model.named_modules():
    print(name)
    print(sub_module, end="\n\n")
for sub_module in model.children():
    print(sub_module, end="\n\n")
for name, sub_module in model.named_children():
    print(name)
    print(sub_module, end="\n\n")
print(model.get_parameter("fc.bias"))
print(model.get_submodule("convolution_layer"))
print(model.get_submodule("convolution_layer").get_parameter("bias"))

x = torch.randn(2, 1, 8, 8)
model = TinnyCNN(2)
for cast in ("float", "half", "float", "double", "bfloat16"):
    getattr(model, cast)()
    print(cast, [param.dtype for name, param in model.named_parameters()])
    print(model.fc.bias)
    if cast in ("float", "double"):
        print(model(x.to(model.fc.bias.dtype)))


@torch.no_grad()
def init_weights(m):
    if type(m) == nn.Linear:
        m.weight.fill_(1.0)


net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
for param in net.parameters():
    print(param, end="\n\n")
net.apply(init_weights)
print("执行apply之后:")
for name, param in net.named_parameters():
    print(name)
    print(param, end="\n\n")
net.zero_grad()
net(torch.ones(1, 2)).sum().backward()
print([p.grad for p in net.parameters()])
net.zero_grad()
print([p.grad for p in net.parameters()])
net.zero_grad(set_to_none=False)
print([p.grad for p in net.parameters()])
