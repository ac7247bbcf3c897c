# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# 《深入浅出PyTorch》 (thorough-pytorch), section 3.5 模型初始化:
# https://github.com/datawhalechina/thorough-pytorch/blob/main/source/第三章/3.5%20模型初始化.md
# Like the section: isinstance checks on a Conv2d and a Linear, their default .weight.data,
# kaiming_normal_ on the conv weight and constant_(0.3) on the linear weight, then an
# initialize_weights function (zeros_ / constant_ for Conv2d, normal_(mean 0.1) / zeros_ for
# Linear, fill_ / zero_ for BatchNorm2d) applied with model.apply to a small model and the
# weights printed before and after.
# Differences: a manual seed; the section's model (Conv2d(1,1,3) then Linear(10,1)) gets a
# BatchNorm2d too so the third branch runs, and a forward pass is printed; the section's
# m.bias.data.zeros_() (no such method) is written zero_(), and its AttributeError is shown.
import torch
import torch.nn as nn

torch.manual_seed(35)

conv = nn.Conv2d(1, 3, 3)
linear = nn.Linear(10, 1)
print(isinstance(conv, nn.Conv2d))
print(isinstance(linear, nn.Conv2d))
print(conv.weight.data)
print(linear.weight.data)
torch.nn.init.kaiming_normal_(conv.weight.data)
print(conv.weight.data)
torch.nn.init.constant_(linear.weight.data, 0.3)
print(linear.weight.data)
try:
    linear.bias.data.zeros_()
except AttributeError as err:
    print("AttributeError:", err)


def initialize_weights(model):
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            torch.nn.init.zeros_(m.weight.data)
            if m.bias is not None:
                torch.nn.init.constant_(m.bias.data, 0.3)
        elif isinstance(m, nn.Linear):
            torch.nn.init.normal_(m.weight.data, 0.1)
            if m.bias is not None:
                torch.nn.init.zeros_(m.bias.data)
        elif isinstance(m, nn.BatchNorm2d):
            m.weight.data.fill_(1)
            m.bias.data.zero_()


class MLP(nn.Module):
    def __init__(self, **kwargs):
        super(MLP, self).__init__(**kwargs)
        self.hidden = nn.Conv2d(1, 1, 3)
        self.bn = nn.BatchNorm2d(1)
        self.act = nn.ReLU()
        self.output = nn.Linear(10, 1)

    def forward(self, x):
        o = self.act(self.bn(self.hidden(x)))
        return self.output(o)


mlp = MLP()
print(mlp)
print(mlp.hidden.weight.data)
print(mlp.output.weight.data)
print("-------初始化-------")
returned = mlp.apply(initialize_weights)
print(returned is mlp)
print(mlp.hidden.weight.data)
print(mlp.hidden.bias.data)
print(mlp.output.weight.data)
print(mlp.output.bias.data)
print(mlp.bn.weight.data, mlp.bn.bias.data)
x = torch.randn(2, 1, 3, 12)
print(mlp(x))
for name, p in mlp.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
