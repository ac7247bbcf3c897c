# Corpus program, written for gradsh (no code copied). Modelled on Chapter 7 ("Transfer
# Learning") of Daniel Voigt Godoy's "Deep Learning with PyTorch Step-by-Step", the parts that
# need no pretrained weights: https://github.com/dvgodoy/PyTorchStepByStep/blob/master/Chapter07.ipynb
# Like the source: F.adaptive_avg_pool2d to a fixed size; a 1x1 convolution turning RGB into
# grayscale; the toy Inception module (1x1, 5x5, 3x3 and pooling branches concatenated) and
# BasicConv2d; BatchNorm1d(affine=False, momentum=None) (a cumulative average) and
# momentum=0.1 on three mini-batches with its state_dict printed after each, the batch
# statistics (var unbiased or not), eval mode; BatchNorm2d on images; Dummy vs DummyResidual
# (the identity added back) trained on y = x with a minimal StepByStep, and their
# state_dict(); ResidualBlock with a 1x1 downsample, skip or not; freeze_model and
# preprocessed_dataset feeding a "top model" (a backbone with its head replaced by
# nn.Identity); StepByStep.correct / loader_apply.
# Differences: a random 3x32x32 "image" instead of the Rock-Paper-Scissors picture, a small
# random CNN in place of AlexNet/ResNet18 as the frozen backbone, fewer epochs; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

result1 = F.adaptive_avg_pool2d(torch.randn(16, 32, 32), output_size=(6, 6))
result2 = F.adaptive_avg_pool2d(torch.randn(16, 12, 12), output_size=(6, 6))
print(result1.shape, result2.shape)

torch.manual_seed(7)
image = torch.rand(1, 3, 32, 32)
weights = torch.tensor([0.2126, 0.7152, 0.0722]).view(1, 3, 1, 1)
convolved = F.conv2d(input=image, weight=weights)
print(convolved.shape, convolved[0, 0, 0, :5])


class Inception(nn.Module):
    def __init__(self, in_channels):
        super(Inception, self).__init__()
        self.branch1x1_1 = nn.Conv2d(in_channels, 2, kernel_size=1)
        self.branch5x5_1 = nn.Conv2d(in_channels, 2, kernel_size=1)
        self.branch5x5_2 = nn.Conv2d(2, 3, kernel_size=5, padding=2)
        self.branch3x3_1 = nn.Conv2d(in_channels, 2, kernel_size=1)
        self.branch3x3_2 = nn.Conv2d(2, 3, kernel_size=3, padding=1)
        self.branch_pool_1 = nn.AvgPool2d(kernel_size=3, stride=1, padding=1)
        self.branch_pool_2 = nn.Conv2d(in_channels, 2, kernel_size=1)

    def forward(self, x):
        branch1x1 = self.branch1x1_1(x)
        branch5x5 = self.branch5x5_2(self.branch5x5_1(x))
        branch3x3 = self.branch3x3_2(self.branch3x3_1(x))
        branch_pool = self.branch_pool_2(self.branch_pool_1(x))
        return torch.cat([branch1x1, branch5x5, branch3x3, branch_pool], 1)


class BasicConv2d(nn.Module):
    def __init__(self, in_channels, out_channels, **kwargs):
        super(BasicConv2d, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, bias=False, **kwargs)
        self.bn = nn.BatchNorm2d(out_channels, eps=0.001)

    def forward(self, x):
        x = self.conv(x)
        x = self.bn(x)
        return F.relu(x, inplace=True)


inception = Inception(in_channels=3)
output = inception(image)
print(output.shape, output.grad_fn)
print(output[0, :, 0, 0])
basic = BasicConv2d(3, 4, kernel_size=3, stride=2)
print(basic)
print(basic(image).shape, basic.bn.num_batches_tracked, basic.bn.running_mean)

torch.manual_seed(23)
dummy_points = torch.randn((200, 2)) + torch.rand((200, 2)) * 2
dummy_labels = torch.randint(2, (200, 1))
dummy_loader = DataLoader(TensorDataset(dummy_points, dummy_labels), batch_size=64, shuffle=True)
iterator = iter(dummy_loader)
batch1 = next(iterator)
batch2 = next(iterator)
batch3 = next(iterator)
mean1, var1 = batch1[0].mean(axis=0), batch1[0].var(axis=0)
print(mean1, var1)
batch_normalizer = nn.BatchNorm1d(num_features=2, affine=False, momentum=None)
print(batch_normalizer, batch_normalizer.state_dict())
normed1 = batch_normalizer(batch1[0])
print(batch_normalizer.state_dict())
print(normed1.mean(axis=0), normed1.var(axis=0))
print(normed1.var(axis=0, unbiased=False))
normed2 = batch_normalizer(batch2[0])
print(batch_normalizer.state_dict())
mean2, var2 = batch2[0].mean(axis=0), batch2[0].var(axis=0)
running_mean, running_var = (mean1 + mean2) / 2, (var1 + var2) / 2
print(running_mean, running_var)
batch_normalizer.eval()
normed3 = batch_normalizer(batch3[0])
print(normed3.mean(axis=0), normed3.var(axis=0, unbiased=False))
print(batch_normalizer.state_dict()['num_batches_tracked'])

batch_normalizer_mom = nn.BatchNorm1d(num_features=2, affine=False, momentum=0.1)
print(batch_normalizer_mom.state_dict())
normed1_mom = batch_normalizer_mom(batch1[0])
print(batch_normalizer_mom.state_dict())
running_mean = torch.zeros((1, 2))
running_mean = 0.1 * batch1[0].mean(axis=0) + (1 - 0.1) * running_mean
print(running_mean)

torch.manual_seed(39)
dummy_images = torch.rand((200, 3, 10, 10))
dummy_labels = torch.randint(2, (200, 1))
dummy_loader = DataLoader(TensorDataset(dummy_images, dummy_labels), batch_size=64, shuffle=True)
batch1 = next(iter(dummy_loader))
print(batch1[0].shape)
batch_normalizer = nn.BatchNorm2d(num_features=3, affine=False, momentum=None)
normed1 = batch_normalizer(batch1[0])
print(normed1.mean(axis=[0, 2, 3]), normed1.var(axis=[0, 2, 3], unbiased=False))
print(batch_normalizer.running_var, batch_normalizer.running_var.dtype)


class StepByStep(object):
    def __init__(self, model, loss_fn, optimizer):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.losses, self.val_losses = [], []
        self.train_loader = self.val_loader = None

    def set_loaders(self, train_loader, val_loader=None):
        self.train_loader, self.val_loader = train_loader, val_loader

    def train(self, n_epochs, seed=42):
        torch.manual_seed(seed)
        np.random.seed(seed)
        for epoch in range(n_epochs):
            losses = []
            for x, y in self.train_loader:
                self.model.train()
                loss = self.loss_fn(self.model(x), y)
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
                losses.append(loss.item())
            self.losses.append(np.mean(losses))
            if self.val_loader is not None:
                with torch.no_grad():
                    self.model.eval()
                    self.val_losses.append(np.mean([self.loss_fn(self.model(x), y).item()
                                                    for x, y in self.val_loader]))

    def predict(self, x):
        self.model.eval()
        y_hat = self.model(torch.as_tensor(x).float())
        self.model.train()
        return y_hat.detach().cpu().numpy()

    def correct(self, x, y, threshold=.5):
        self.model.eval()
        yhat = self.model(x)
        self.model.train()
        _, predicted = torch.max(yhat, 1)
        result = []
        for c in range(yhat.shape[1]):
            n_class = (y == c).sum().item()
            n_correct = (predicted[y == c] == c).sum().item()
            result.append((n_correct, n_class))
        return torch.tensor(result)

    @staticmethod
    def loader_apply(loader, func, reduce='sum'):
        results = torch.stack([func(x, y) for i, (x, y) in enumerate(loader)], axis=0)
        return results.sum(axis=0) if reduce == 'sum' else results.float().mean(axis=0)


torch.manual_seed(23)
dummy_points = torch.randn((100, 1))
dummy_loader = DataLoader(TensorDataset(dummy_points, dummy_points), batch_size=16, shuffle=True)


class Dummy(nn.Module):
    def __init__(self):
        super(Dummy, self).__init__()
        self.linear = nn.Linear(1, 1)
        self.activation = nn.ReLU()

    def forward(self, x):
        out = self.linear(x)
        out = self.activation(out)
        return out


class DummyResidual(Dummy):
    def forward(self, x):
        identity = x
        out = self.linear(x)
        out = self.activation(out)
        out = out + identity
        return out


for cls, epochs in ((Dummy, 60), (DummyResidual, 30)):
    torch.manual_seed(555)
    dummy_model = cls()
    dummy_sbs = StepByStep(dummy_model, nn.MSELoss(), optim.SGD(dummy_model.parameters(), lr=0.1))
    dummy_sbs.set_loaders(dummy_loader)
    dummy_sbs.train(epochs)
    print(cls.__name__, f"{dummy_sbs.losses[-1]:.6f}")
    print(np.concatenate([dummy_points[:5].numpy(), dummy_sbs.predict(dummy_points)[:5]], axis=1))
    print(dummy_model.state_dict())
print(dummy_points.max())


class ResidualBlock(nn.Module):
    def __init__(self, in_channels, out_channels, stride=1, skip=True):
        super(ResidualBlock, self).__init__()
        self.skip = skip
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1,
                               stride=stride, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample = None
        if out_channels != in_channels:
            self.downsample = nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=stride)

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        if self.skip:
            if self.downsample is not None:
                identity = self.downsample(identity)
            out += identity
        out = self.relu(out)
        return out


seed = 14
torch.manual_seed(seed)
skip_image = ResidualBlock(3, 3)(image)
torch.manual_seed(seed)
noskip_image = ResidualBlock(3, 3, skip=False)(image)
print(skip_image.grad_fn, skip_image.shape)
print((skip_image - image).abs().mean(), (noskip_image - image).abs().mean())
print(noskip_image[0, :, 0, :4])
block = ResidualBlock(3, 8, stride=2)
print(block)
print(block(image).shape, [k for k in block.state_dict() if 'bn1' in k])


def freeze_model(model):
    for parameter in model.parameters():
        parameter.requires_grad = False


def preprocessed_dataset(model, loader):
    features = None
    labels = None
    for i, (x, y) in enumerate(loader):
        model.eval()
        output = model(x)
        if i == 0:
            features = output.detach().cpu()
            labels = y.cpu()
        else:
            features = torch.cat([features, output.detach().cpu()])
            labels = torch.cat([labels, y.cpu()])
    return TensorDataset(features, labels)


torch.manual_seed(3)
n = 96
labels = torch.arange(n) % 3
images = torch.rand(n, 3, 16, 16) * 0.5
images[labels == 0, 0] += 0.5
images[labels == 1, 1, 4:12, 4:12] += 0.8
images[labels == 2, 2, :, ::2] += 0.6
backbone = nn.Sequential(ResidualBlock(3, 8, stride=2), ResidualBlock(8, 8),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1000))
freeze_model(backbone)
backbone[4] = nn.Identity()
print(backbone[3:])
print([name for name, p in backbone.named_parameters() if p.requires_grad])
train_loader = DataLoader(TensorDataset(images[:72], labels[:72]), batch_size=16, shuffle=True)
val_loader = DataLoader(TensorDataset(images[72:], labels[72:]), batch_size=16)
train_preproc = preprocessed_dataset(backbone, train_loader)
val_preproc = preprocessed_dataset(backbone, val_loader)
print(train_preproc.tensors[0].shape, train_preproc.tensors[1][:10], train_preproc.tensors[0].requires_grad)
train_preproc_loader = DataLoader(train_preproc, batch_size=16, shuffle=True)
val_preproc_loader = DataLoader(val_preproc, batch_size=16)
torch.manual_seed(17)
top_model = nn.Sequential(nn.Linear(8, 3))
sbs_top = StepByStep(top_model, nn.CrossEntropyLoss(reduction='mean'),
                     optim.Adam(top_model.parameters(), lr=3e-2))
sbs_top.set_loaders(train_preproc_loader, val_preproc_loader)
sbs_top.train(10)
print([round(v, 4) for v in sbs_top.losses])
print([round(v, 4) for v in sbs_top.val_losses])
print(StepByStep.loader_apply(val_preproc_loader, sbs_top.correct))
backbone[4] = top_model
print(backbone[4])
sbs_temp = StepByStep(backbone, None, None)
print(StepByStep.loader_apply(val_loader, sbs_temp.correct))
