# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# leedl-tutorial (李宏毅深度学习教程), homework 8 (anomaly detection with autoencoders):
# https://github.com/datawhalechina/leedl-tutorial/blob/master/Homework/HW8_AbnormalDetect/HW08_AbnormalDetect.ipynb
# Like the homework: fcn_autoencoder (Linear encoder to 3 units and back, Tanh), conv_autoencoder
# (three stride-2 Conv2d / ConvTranspose2d), and the VAE (two encoder heads for mu and logvar,
# reparametrize with std = logvar.mul(0.5).exp_() and eps = torch.FloatTensor(std.size())
# .normal_() wrapped in Variable, eps.mul(std).add_(mu)); loss_vae with the in-place chain
# mu.pow(2).add_(logvar.exp()).mul_(-1).add_(1).add_(logvar) and torch.sum(...).mul_(-0.5);
# CustomTensorDataset permuting NHWC uint8 images to NCHW and mapping them to [-1, 1];
# RandomSampler; training each model type with Adam, keeping the best mean loss and saving the
# whole model; evaluation with MSELoss(reduction='none') summed over [1, 2, 3] (or -1 for the
# fcn), torch.cat(anomality, axis=0) and torch.sqrt(...).reshape(len(test), 1) as the score.
# Differences: 64 synthetic 32x32 training images (smooth blobs) and 16 test images (half of
# them noise) instead of the 64x64 faces dataset; torchvision's transforms.Lambda pairs are
# plain functions; batch 16, 2 epochs per model; the model is saved to and loaded from an
# in-memory buffer (weights_only=False); the scores are printed instead of a submission.csv.
import io

import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, RandomSampler, TensorDataset

torch.manual_seed(8)
rng = np.random.RandomState(8)
yy, xx = np.mgrid[0:32, 0:32]


def blob():
    cy, cx = rng.uniform(8, 24, 2)
    img = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 40.0)
    color = rng.uniform(0.3, 1.0, 3)
    return (img[..., None] * color * 255).astype(np.uint8)


train = np.stack([blob() for _ in range(64)])
test = np.concatenate([np.stack([blob() for _ in range(8)]),
                       rng.randint(0, 256, size=(8, 32, 32, 3)).astype(np.uint8)])
print(train.shape, train.dtype, test.shape)


class fcn_autoencoder(nn.Module):
    def __init__(self):
        super(fcn_autoencoder, self).__init__()
        self.encoder = nn.Sequential(
            nn.Linear(32 * 32 * 3, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(),
            nn.Linear(64, 12), nn.ReLU(), nn.Linear(12, 3))
        self.decoder = nn.Sequential(
            nn.Linear(3, 12), nn.ReLU(), nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 128),
            nn.ReLU(), nn.Linear(128, 32 * 32 * 3), nn.Tanh())

    def forward(self, x):
        return self.decoder(self.encoder(x))


class conv_autoencoder(nn.Module):
    def __init__(self):
        super(conv_autoencoder, self).__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 12, 4, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(12, 24, 4, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(24, 48, 4, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(48, 24, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose2d(24, 12, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose2d(12, 3, 4, stride=2, padding=1), nn.Tanh())

    def forward(self, x):
        return self.decoder(self.encoder(x))


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 12, 4, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(12, 24, 4, stride=2, padding=1), nn.ReLU())
        self.enc_out_1 = nn.Sequential(nn.Conv2d(24, 48, 4, stride=2, padding=1), nn.ReLU())
        self.enc_out_2 = nn.Sequential(nn.Conv2d(24, 48, 4, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(48, 24, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose2d(24, 12, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose2d(12, 3, 4, stride=2, padding=1), nn.Tanh())

    def encode(self, x):
        h1 = self.encoder(x)
        return self.enc_out_1(h1), self.enc_out_2(h1)

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp_()
        eps = torch.FloatTensor(std.size()).normal_()
        eps = Variable(eps)
        return eps.mul(std).add_(mu)

    def decode(self, z):
        return self.decoder(z)

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = self.reparametrize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_vae(recon_x, x, mu, logvar, criterion):
    mse = criterion(recon_x, x)
    KLD_element = mu.pow(2).add_(logvar.exp()).mul_(-1).add_(1).add_(logvar)
    KLD = torch.sum(KLD_element).mul_(-0.5)
    return mse + KLD


class CustomTensorDataset(TensorDataset):
    def __init__(self, tensors):
        self.tensors = tensors
        if tensors.shape[-1] == 3:
            self.tensors = tensors.permute(0, 3, 1, 2)
        self.transform = [lambda x: x.to(torch.float32), lambda x: 2. * x / 255. - 1.]

    def __getitem__(self, index):
        x = self.tensors[index]
        if self.transform:
            for f in self.transform:
                x = f(x)
        return x

    def __len__(self):
        return len(self.tensors)


num_epochs = 2
batch_size = 16
learning_rate = 1e-3
train_dataset = CustomTensorDataset(torch.from_numpy(train))
print(train_dataset[0].shape, train_dataset[0].dtype, train_dataset[0].min(), train_dataset[0].max())
criterion = nn.MSELoss()
saved = {}
for model_type in ('fcn', 'cnn', 'vae'):
    torch.manual_seed(0)
    train_sampler = RandomSampler(train_dataset)
    train_dataloader = DataLoader(train_dataset, sampler=train_sampler, batch_size=batch_size)
    model = {'fcn': fcn_autoencoder, 'cnn': conv_autoencoder, 'vae': VAE}[model_type]()
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    best_loss = np.inf
    model.train()
    for epoch in range(num_epochs):
        tot_loss = list()
        for data in train_dataloader:
            img = data.float()
            if model_type in ['fcn']:
                img = img.view(img.shape[0], -1)
            output = model(img)
            if model_type in ['vae']:
                loss = loss_vae(output[0], img, output[1], output[2], criterion)
            else:
                loss = criterion(output, img)
            tot_loss.append(loss.item())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        mean_loss = np.mean(tot_loss)
        if mean_loss < best_loss:
            best_loss = mean_loss
            buffer = io.BytesIO()
            torch.save(model, buffer)
            saved[model_type] = buffer.getvalue()
        print(f'{model_type} epoch [{epoch + 1}/{num_epochs}] loss={mean_loss:.4f}')

eval_batch_size = 8
data = torch.tensor(test, dtype=torch.float32)
test_dataset = CustomTensorDataset(data)
test_dataloader = DataLoader(test_dataset, shuffle=False, batch_size=eval_batch_size)
eval_loss = nn.MSELoss(reduction='none')
for model_type in ('fcn', 'cnn', 'vae'):
    torch.manual_seed(1)
    model = torch.load(io.BytesIO(saved[model_type]), weights_only=False)
    model.eval()
    anomality = list()
    with torch.no_grad():
        for i, data in enumerate(test_dataloader):
            img = data.float()
            if model_type in ['fcn']:
                img = img.view(img.shape[0], -1)
            output = model(img)
            if model_type in ['vae']:
                output = output[0]
            if model_type in ['fcn']:
                loss = eval_loss(output, img).sum(-1)
            else:
                loss = eval_loss(output, img).sum([1, 2, 3])
            anomality.append(loss)
    anomality = torch.cat(anomality, axis=0)
    anomality = torch.sqrt(anomality).reshape(len(test), 1).cpu().numpy()
    print(model_type, type(model).__name__, anomality.shape)
    print(np.round(anomality[:, 0], 3))
