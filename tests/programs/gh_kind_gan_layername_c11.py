# Corpus program, written for gradsh (no code copied). Modelled on GunhoChoi's
# Kind-PyTorch-Tutorial, 09_GAN_LayerName_MultiGPU/GAN_LayerName_MultiGPU.py:
# https://github.com/GunhoChoi/Kind-PyTorch-Tutorial/blob/master/09_GAN_LayerName_MultiGPU/GAN_LayerName_MultiGPU.py
# Like the original: a Generator (Linear to a 7x7 map, then nn.Sequential(OrderedDict(...))
# blocks of ConvTranspose2d with stride 2 and output_padding 1, LeakyReLU and BatchNorm2d,
# named conv1/relu1/bn1 ...) and a Discriminator (named Conv2d/LeakyReLU/BatchNorm2d/MaxPool2d
# blocks, Linear + Sigmoid), both wrapped in nn.DataParallel; BCELoss; Adam(lr=0.0002); the
# parameter names from state_dict().keys(); the "model restore" try/except around torch.load
# of a file that does not exist; five generator steps per discriminator step, the generator's
# backward keeping the graph; the iteration print of both losses.
# Differences: channels divided by 8 (and the Linear to match), batch 8 of synthetic
# "images" instead of MNIST batches of 6000, one "GPU", 3 iterations; `retain_graph=True`
# for the removed `retain_variables=True`; the original's discriminator loss reuses the
# generator's output after the generator's optimizer stepped, which PyTorch now rejects: the
# error is caught and printed, and the discriminator step is redone on a detached fake batch
# (the failed backward already freed the real batch's graph, so that is recomputed too).
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)
epoch = 3
batch_size = 8
learning_rate = 0.0002
num_gpus = 1


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.layer1 = nn.Linear(100, 7 * 7 * 32)
        self.layer2 = nn.Sequential(OrderedDict([
            ('conv1', nn.ConvTranspose2d(32, 16, 3, 2, 1, 1)),
            ('relu1', nn.LeakyReLU()),
            ('bn1', nn.BatchNorm2d(16)),
            ('conv2', nn.ConvTranspose2d(16, 8, 3, 1, 1)),
            ('relu2', nn.LeakyReLU()),
            ('bn2', nn.BatchNorm2d(8)),
        ]))
        self.layer3 = nn.Sequential(OrderedDict([
            ('conv3', nn.ConvTranspose2d(8, 4, 3, 1, 1)),
            ('relu3', nn.LeakyReLU()),
            ('bn3', nn.BatchNorm2d(4)),
            ('conv4', nn.ConvTranspose2d(4, 1, 3, 2, 1, 1)),
            ('relu4', nn.LeakyReLU()),
        ]))

    def forward(self, z):
        out = self.layer1(z)
        out = out.view(batch_size // num_gpus, 32, 7, 7)
        out = self.layer2(out)
        return self.layer3(out)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.layer1 = nn.Sequential(OrderedDict([
            ('conv1', nn.Conv2d(1, 4, 3, padding=1)),
            ('relu1', nn.LeakyReLU()),
            ('bn1', nn.BatchNorm2d(4)),
            ('conv2', nn.Conv2d(4, 8, 3, padding=1)),
            ('relu2', nn.LeakyReLU()),
            ('bn2', nn.BatchNorm2d(8)),
            ('max1', nn.MaxPool2d(2, 2)),
        ]))
        self.layer2 = nn.Sequential(OrderedDict([
            ('conv3', nn.Conv2d(8, 8, 3, padding=1)),
            ('relu3', nn.LeakyReLU()),
            ('bn3', nn.BatchNorm2d(8)),
            ('max2', nn.MaxPool2d(2, 2)),
            ('conv4', nn.Conv2d(8, 16, 3, padding=1)),
            ('relu4', nn.LeakyReLU()),
        ]))
        self.fc = nn.Sequential(nn.Linear(16 * 7 * 7, 1), nn.Sigmoid())

    def forward(self, x):
        out = self.layer1(x)
        out = self.layer2(out)
        out = out.view(batch_size // num_gpus, -1)
        return self.fc(out)


generator = nn.DataParallel(Generator())
discriminator = nn.DataParallel(Discriminator())
print(generator.module.layer2)
loss_func = nn.BCELoss()
gen_optim = torch.optim.Adam(generator.parameters(), lr=learning_rate)
dis_optim = torch.optim.Adam(discriminator.parameters(), lr=learning_rate)
ones_label = torch.ones(batch_size, 1)
zeros_label = torch.zeros(batch_size, 1)

gen_params = generator.state_dict().keys()
dis_params = discriminator.state_dict().keys()
print(list(gen_params)[:8])
print(len(dis_params), [k for k in dis_params if k.endswith("num_batches_tracked")])

try:
    generator, discriminator = torch.load('./model/vanilla_gan.pkl')
    print("\n--------model restored--------\n")
except Exception:
    print("\n--------model not restored--------\n")

images = (torch.rand(2, batch_size, 1, 28, 28) > 0.7).float()
for i in range(epoch):
    for j, image in enumerate(images):
        for k in range(5):
            z = torch.rand(batch_size, 100)
            gen_optim.zero_grad()
            gen_fake = generator.forward(z)
            dis_fake = discriminator.forward(gen_fake)
            gen_loss = torch.sum(loss_func(dis_fake, ones_label))
            gen_loss.backward(retain_graph=True)
            gen_optim.step()
        dis_optim.zero_grad()
        dis_real = discriminator.forward(image)
        dis_loss = torch.sum(loss_func(dis_fake, zeros_label)) + torch.sum(loss_func(dis_real, ones_label))
        try:
            dis_loss.backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
            dis_optim.zero_grad()
            dis_fake = discriminator.forward(gen_fake.detach())
            dis_real = discriminator.forward(image)
            dis_loss = torch.sum(loss_func(dis_fake, zeros_label)) + torch.sum(loss_func(dis_real, ones_label))
            dis_loss.backward()
        dis_optim.step()
    print("{}th iteration gen_loss: {} dis_loss: {}".format(i, gen_loss.data, dis_loss.data))
print(gen_fake.shape, gen_fake.data[0:2].mean(), discriminator.module.layer1.bn1.running_mean)
