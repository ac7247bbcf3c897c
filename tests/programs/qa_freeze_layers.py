# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "How the pytorch freeze network in some layers, only the rest of the training?"
# (https://discuss.pytorch.org/t/how-the-pytorch-freeze-network-in-some-layers-only-the-rest-of-the-training/7088:
# set param.requires_grad = False for the frozen layers and pass only
# filter(lambda p: p.requires_grad, model.parameters()) to the optimizer) and the transfer
# learning tutorial's "ConvNet as fixed feature extractor" (freeze everything, replace the
# final layer, whose new parameters require grad by default), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/transfer_learning_tutorial.py
# Differences: our own code; a small CNN stands in for the pretrained ResNet; the frozen
# weights are checked to be unchanged after a few SGD steps; the grads of frozen params stay
# None; a frozen layer put in eval() mode keeps its BatchNorm statistics; seeded.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(self.features(x))


model_conv = Backbone()
for param in model_conv.parameters():
    param.requires_grad = False
num_ftrs = model_conv.fc.in_features
model_conv.fc = nn.Linear(num_ftrs, 2)
print(model_conv.fc, num_ftrs)
print([(n, p.requires_grad) for n, p in model_conv.named_parameters()])
trainable = filter(lambda p: p.requires_grad, model_conv.parameters())
optimizer_conv = optim.SGD(trainable, lr=0.001, momentum=0.9)
print(len(optimizer_conv.param_groups[0]["params"]))
exp_lr_scheduler = optim.lr_scheduler.StepLR(optimizer_conv, step_size=7, gamma=0.1)

frozen_before = model_conv.features[0].weight.clone()
fc_before = model_conv.fc.weight.clone()
bn_mean_before = model_conv.features[1].running_mean.clone()
criterion = nn.CrossEntropyLoss()
x = torch.randn(6, 3, 8, 8)
y = torch.tensor([0, 1, 1, 0, 1, 0])
model_conv.train()
model_conv.features.eval()
for step in range(3):
    optimizer_conv.zero_grad()
    loss = criterion(model_conv(x), y)
    loss.backward()
    optimizer_conv.step()
    exp_lr_scheduler.step()
    print(step, f"{loss.item():.4f}")
print(torch.equal(frozen_before, model_conv.features[0].weight))
print(torch.equal(fc_before, model_conv.fc.weight))
print(model_conv.features[0].weight.grad, model_conv.fc.weight.grad.shape)
print(torch.equal(bn_mean_before, model_conv.features[1].running_mean))
print(model_conv.features[1].num_batches_tracked)

model = Backbone()
for name, child in model.named_children():
    if name == "features":
        for p in child.parameters():
            p.requires_grad_(False)
out = model(x)
print(out.requires_grad, out.grad_fn.name())
with torch.no_grad():
    feats = model.features(x)
print(feats.requires_grad, feats.shape)
try:
    optim.SGD([p for p in model.parameters() if not p.requires_grad], lr=0.1).step()
    print("step on frozen params: no error")
except Exception as e:
    print(type(e).__name__, e)
model.features.requires_grad_(True)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
