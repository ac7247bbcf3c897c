# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# leedl-tutorial (李宏毅深度学习教程), homework 13 (Network Compression: a small student trained
# by knowledge distillation from a ResNet teacher):
# https://github.com/datawhalechina/leedl-tutorial/blob/master/Homework/HW13_NetworkCompress/HW13-networkCompress.ipynb
# Like the homework: dwpw_conv (a depthwise Conv2d with groups=in_channels then a 1x1
# pointwise Conv2d); StudentNetOrg (plain convolutions) and StudentNet (the same with
# dwpw_conv blocks), both ending in AdaptiveAvgPool2d((1, 1)) and Linear(100, 11), compared
# by a layer summary and parameter count; the Softmax of a random vector at temperatures
# 1, 1.15 and 0.5; loss_fn_kd = alpha * T^2 * KLDivLoss(reduction='mean', log_target=True)
# of the two softened distributions + (1 - alpha) * CrossEntropyLoss; a few distillation
# steps with the teacher in eval mode under torch.no_grad.
# Differences: torchsummary is not available, so the summary table (Layer (type), Output
# Shape, Param #) is printed from forward hooks in its format; a small randomly initialised
# residual CNN (seeded) replaces the pretrained ResNet-18 teacher checkpoint; 3x64x64
# synthetic images (batch 8) instead of the food-11 dataset at 224x224; 3 steps.
import torch
import torch.nn as nn

torch.manual_seed(13)


def dwpw_conv(in_channels, out_channels, kernel_size, stride=1, padding=0):
    return nn.Sequential(
        nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding,
                  groups=in_channels),
        nn.Conv2d(in_channels, out_channels, 1)
    )


def block(conv, channels, pool=True):
    layers = [conv, nn.BatchNorm2d(channels), nn.ReLU()]
    return layers + ([nn.MaxPool2d(2, 2, 0)] if pool else [])


class StudentNetOrg(nn.Module):
    def __init__(self):
        super(StudentNetOrg, self).__init__()
        self.cnn = nn.Sequential(
            *block(nn.Conv2d(3, 32, 3), 32, pool=False),
            *block(nn.Conv2d(32, 32, 3), 32),
            *block(nn.Conv2d(32, 64, 3), 64),
            *block(nn.Conv2d(64, 100, 3), 100),
            nn.AdaptiveAvgPool2d((1, 1))
        )
        self.fc = nn.Sequential(nn.Linear(100, 11))

    def forward(self, x):
        out = self.cnn(x)
        out = out.view(out.size()[0], -1)
        return self.fc(out)


class StudentNet(nn.Module):
    def __init__(self):
        super(StudentNet, self).__init__()
        self.cnn = nn.Sequential(
            *block(dwpw_conv(3, 32, 3, stride=1, padding=0), 32, pool=False),
            *block(dwpw_conv(32, 32, 3, stride=1, padding=0), 32),
            *block(dwpw_conv(32, 64, 3, stride=1, padding=0), 64),
            *block(dwpw_conv(64, 100, 3, stride=1, padding=0), 100),
            nn.AdaptiveAvgPool2d((1, 1))
        )
        self.fc = nn.Sequential(nn.Linear(100, 11))

    def forward(self, x):
        out = self.cnn(x)
        out = out.view(out.size()[0], -1)
        return self.fc(out)


def summary(model, input_size):
    rows, hooks = [], []

    def hook(module, inputs, output):
        name = f"{type(module).__name__}-{len(rows) + 1}"
        params = sum(p.numel() for p in module.parameters(recurse=False))
        rows.append((name, [-1] + list(output.shape[1:]), params))

    for m in model.modules():
        if not isinstance(m, (nn.Sequential, nn.ModuleList)) and m is not model:
            hooks.append(m.register_forward_hook(hook))
    model.eval()
    with torch.no_grad():
        model(torch.zeros(2, *input_size))
    for h in hooks:
        h.remove()
    print("----------------------------------------------------------------")
    print("{:>20}  {:>25} {:>15}".format("Layer (type)", "Output Shape", "Param #"))
    print("================================================================")
    for name, shape, params in rows:
        print("{:>20}  {:>25} {:>15}".format(name, str(shape), "{0:,}".format(params)))
    total = sum(p.numel() for p in model.parameters())
    print("================================================================")
    print("Total params: {0:,}".format(total))
    print("----------------------------------------------------------------")


student_model = StudentNet()
student_model_org = StudentNetOrg()
print('**' * 35)
print("[ StudentNetOrg ]")
summary(student_model_org, (3, 64, 64))
print('**' * 35)
print("[ StudentNet ]")
summary(student_model, (3, 64, 64))
print(student_model.cnn[0])


class Residual(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c),
                                  nn.ReLU(), nn.Conv2d(c, c, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(c))

    def forward(self, x):
        return torch.relu(self.body(x) + x)


teacher_model = nn.Sequential(nn.Conv2d(3, 16, 7, 2, 3, bias=False), nn.BatchNorm2d(16),
                              nn.ReLU(), nn.MaxPool2d(3, 2, 1), Residual(16), Residual(16),
                              nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 11))
print(sum(p.numel() for p in teacher_model.parameters()))

a = torch.randn(4)
print(a)
sft = nn.Softmax(dim=-1)
print(sft(a), sft(a / 1.15), sft(a / 0.5))


def loss_fn_kd(student_logits, labels, teacher_logits, alpha=0.5, temperature=1.15):
    kl_loss = torch.nn.KLDivLoss(reduction='mean', log_target=True)
    ce_loss = torch.nn.CrossEntropyLoss(reduction='mean')
    sft = nn.Softmax(dim=-1)
    return alpha * temperature * temperature * kl_loss(sft(student_logits / temperature),
                                                      sft(teacher_logits / temperature)) \
        + (1 - alpha) * ce_loss(student_logits, labels)


images = torch.randn(8, 3, 64, 64)
labels = torch.randint(0, 11, (8,))
optimizer = torch.optim.Adam(student_model.parameters(), lr=3e-4, weight_decay=1e-5)
teacher_model.eval()
student_model.train()
for step in range(3):
    with torch.no_grad():
        teacher_logits = teacher_model(images)
    logits = student_model(images)
    loss = loss_fn_kd(logits, labels, teacher_logits)
    optimizer.zero_grad()
    loss.backward()
    grad_norm = nn.utils.clip_grad_norm_(parameters=student_model.parameters(), max_norm=10)
    optimizer.step()
    acc = (logits.argmax(dim=-1) == labels).float().mean()
    print(f"step {step}: loss = {loss.item():.5f}, grad_norm = {grad_norm:.5f}, acc = {acc:.5f}")
print(student_model.cnn[0][0].weight.grad[0])
print(student_model.fc[0].bias)
