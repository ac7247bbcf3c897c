# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# leedl-tutorial (李宏毅深度学习教程), homework 10 (Adversarial Attack on CIFAR-10):
# https://github.com/datawhalechina/leedl-tutorial/blob/master/Homework/HW10_AdversarialAttack/HW10-AdversarialAttack.ipynb
# Like the homework: CIFAR-10 mean / std as (3, 1, 1) tensors, epsilon = 8/255/std and
# alpha = 0.8/255/std (per-channel steps); epoch_benign; fgsm (x.detach().clone(),
# requires_grad = True, loss.backward(), x + epsilon * grad.sign()); ifgsm calling fgsm with
# epsilon = alpha and clipping with torch.max(torch.min(x_adv, x + epsilon), x - epsilon);
# mifgsm with a momentum term; gen_adv_examples turning the adversarial batch back into
# 0-255 images (x * std + mean, clamp, * 255, .numpy().round(), transpose to NHWC, np.r_ over
# batches); an ensembleNet summing the logits of several models (res += m(x)) under a
# Softmax; each attack's accuracy and loss printed.
# Differences: small randomly initialised CNNs (seeded) stand in for the pretrained pytorchcv
# ResNet-110 / NIN / ResNet-20 models; 24 synthetic 32x32 images in 3 batches instead of the
# homework's 200 CIFAR images; 5 iterations instead of 20; no image files are written.
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(10)
device = 'cpu'
cifar_10_mean = (0.491, 0.482, 0.447)
cifar_10_std = (0.202, 0.199, 0.201)
mean = torch.tensor(cifar_10_mean).to(device).view(3, 1, 1)
std = torch.tensor(cifar_10_std).to(device).view(3, 1, 1)
epsilon = 8 / 255 / std
print(epsilon.flatten())

images = torch.rand(24, 3, 32, 32)
labels = torch.randint(0, 10, (24,))
adv_set = TensorDataset((images - mean) / std, labels)
adv_loader = DataLoader(adv_set, batch_size=8, shuffle=False)


def small_cnn(width):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
        nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2 * width, 10))


def epoch_benign(model, loader, loss_fn):
    model.eval()
    train_acc, train_loss = 0.0, 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        yp = model(x)
        loss = loss_fn(yp, y)
        train_acc += (yp.argmax(dim=1) == y).sum().item()
        train_loss += loss.item() * x.shape[0]
    return train_acc / len(loader.dataset), train_loss / len(loader.dataset)


def fgsm(model, x, y, loss_fn, epsilon=epsilon):
    x_adv = x.detach().clone()
    x_adv.requires_grad = True
    loss = loss_fn(model(x_adv), y)
    loss.backward()
    grad = x_adv.grad.detach()
    x_adv = x_adv + epsilon * grad.sign()
    return x_adv


alpha = 0.8 / 255 / std


def ifgsm(model, x, y, loss_fn, epsilon=epsilon, alpha=alpha, num_iter=5):
    x_adv = x
    for i in range(num_iter):
        x_adv = fgsm(model, x_adv, y, loss_fn, alpha)
        x_adv = torch.max(torch.min(x_adv, x + epsilon), x - epsilon)
    return x_adv


def mifgsm(model, x, y, loss_fn, epsilon=epsilon, alpha=alpha, num_iter=5, decay=1.0):
    x_adv = x
    momentum = torch.zeros_like(x).detach().to(device)
    for i in range(num_iter):
        x_adv = x_adv.detach().clone()
        x_adv.requires_grad = True
        loss = loss_fn(model(x_adv), y)
        loss.backward()
        grad = x_adv.grad.detach()
        grad = decay * momentum + grad / (grad.abs().sum() + 1e-8)
        momentum = grad
        x_adv = x_adv + alpha * grad.sign()
        x_adv = torch.max(torch.min(x_adv, x + epsilon), x - epsilon)
    return x_adv


def gen_adv_examples(model, loader, attack, loss_fn):
    model.eval()
    train_acc, train_loss = 0.0, 0.0
    for i, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        x_adv = attack(model, x, y, loss_fn)
        yp = model(x_adv)
        loss = loss_fn(yp, y)
        train_acc += (yp.argmax(dim=1) == y).sum().item()
        train_loss += loss.item() * x.shape[0]
        adv_ex = ((x_adv) * std + mean).clamp(0, 1)
        adv_ex = (adv_ex * 255).clamp(0, 255)
        adv_ex = adv_ex.detach().cpu().data.numpy().round()
        adv_ex = adv_ex.transpose((0, 2, 3, 1))
        adv_examples = adv_ex if i == 0 else np.r_[adv_examples, adv_ex]
    return adv_examples, train_acc / len(loader.dataset), train_loss / len(loader.dataset)


class ensembleNet(nn.Module):
    def __init__(self, models):
        super().__init__()
        self.models = nn.ModuleList(models)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        for i, m in enumerate(self.models):
            if i == 0:
                res = m(x)
                continue
            res += m(x)
        return self.softmax(res)


model = small_cnn(8).to(device)
loss_fn = nn.CrossEntropyLoss()
benign_acc, benign_loss = epoch_benign(model, adv_loader, loss_fn)
print(f'[ Base(未Attack图片评估) ] benign_acc = {benign_acc:.5f}, benign_loss = {benign_loss:.5f}')
for name, attack in (('FGSM', fgsm), ('I-FGSM', ifgsm), ('MI-FGSM', mifgsm)):
    adv_examples, acc, loss = gen_adv_examples(model, adv_loader, attack, loss_fn)
    print(f'[ Attack({name} Attack图片评估) ] acc = {acc:.5f}, loss = {loss:.5f}')
    print(adv_examples.shape, adv_examples.dtype, adv_examples[0, 0, :4, 0],
          float(adv_examples.mean()))

ensemble_model = ensembleNet([small_cnn(4), small_cnn(6), small_cnn(8)]).to(device)
ensemble_model.eval()
print(ensemble_model.models[0])
benign_acc, benign_loss = epoch_benign(ensemble_model, adv_loader, loss_fn)
print(f'[ Base(ensemble) ] benign_acc = {benign_acc:.5f}, benign_loss = {benign_loss:.5f}')
adv_examples, acc, loss = gen_adv_examples(ensemble_model, adv_loader, ifgsm, loss_fn)
print(f'[ Attack(ensemble I-FGSM) ] acc = {acc:.5f}, loss = {loss:.5f}')
x0 = adv_set.tensors[0][:2]
diff = (fgsm(ensemble_model, x0, adv_set.tensors[1][:2], loss_fn) - x0) * std * 255
print(diff[0, :, 0, :4])
