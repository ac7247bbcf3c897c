# Corpus program, written for gradsh (no code copied). Modelled on Stanford CS231n's
# assignment 3 notebook "Generative_Adversarial_Networks" (GANs-PyTorch), spring 2019-2023:
# https://github.com/cs231n/cs231n.github.io/blob/master/assignments/2023/assignment3.md
# Like the notebook: sample_noise as uniform in [-1, 1) (torch.rand * 2 - 1); a Flatten /
# Unflatten pair; initialize_weights with xavier_uniform_ on Linear and ConvTranspose2d
# weights; the vanilla discriminator (Linear(784, 256) -> LeakyReLU(0.01) -> Linear(256,
# 256) -> LeakyReLU(0.01) -> Linear(256, 1)) and generator (Linear(noise, 1024) -> ReLU ->
# Linear(1024, 1024) -> ReLU -> Linear(1024, 784) -> Tanh); bce_loss through
# nn.BCEWithLogitsLoss; discriminator_loss and generator_loss; the least-squares variants
# ls_discriminator_loss / ls_generator_loss; Adam(lr=1e-3, betas=(0.5, 0.999)); the
# run_a_gan loop (discriminator step on real and detached fake images, then generator
# step), printing 'Iter: {}, D: {:.4}, G:{:.4}'; the DCGAN discriminator and generator
# (Conv2d / MaxPool2d / Unflatten, ConvTranspose2d with BatchNorm) applied to a batch and
# their output shapes and parameter counts.
# Differences: synthetic "images" (random blobs in [-1, 1]) instead of MNIST; hidden
# widths 1024 -> 64 and 256 -> 32; 12 iterations printing every 4th; batch 16; seeds.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(231)
NOISE_DIM = 96
dtype = torch.FloatTensor


def sample_noise(batch_size, dim, seed=None):
    if seed is not None:
        torch.manual_seed(seed)
    return torch.rand(batch_size, dim) * 2 - 1


z = sample_noise(3, 4, seed=231)
print(z, z.min() >= -1, z.max() <= 1)


class Flatten(nn.Module):
    def forward(self, x):
        N, C, H, W = x.size()
        return x.view(N, -1)


class Unflatten(nn.Module):
    def __init__(self, N=-1, C=128, H=7, W=7):
        super(Unflatten, self).__init__()
        self.N = N
        self.C = C
        self.H = H
        self.W = W

    def forward(self, x):
        return x.view(self.N, self.C, self.H, self.W)


def initialize_weights(m):
    if isinstance(m, nn.Linear) or isinstance(m, nn.ConvTranspose2d):
        nn.init.xavier_uniform_(m.weight.data)


def discriminator(seed=None):
    if seed is not None:
        torch.manual_seed(seed)
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(784, 32),
        nn.LeakyReLU(0.01),
        nn.Linear(32, 32),
        nn.LeakyReLU(0.01),
        nn.Linear(32, 1),
    )


def generator(noise_dim=NOISE_DIM, seed=None):
    if seed is not None:
        torch.manual_seed(seed)
    return nn.Sequential(
        nn.Linear(noise_dim, 64),
        nn.ReLU(),
        nn.Linear(64, 64),
        nn.ReLU(),
        nn.Linear(64, 784),
        nn.Tanh(),
    )


def count_params(model):
    return sum([p.numel() for p in model.parameters()])


def bce_loss(input, target):
    bce = nn.BCEWithLogitsLoss()
    return bce(input.squeeze(), target)


def discriminator_loss(logits_real, logits_fake):
    N = logits_real.size(0)
    true_labels = torch.ones(N).type(dtype)
    fake_labels = torch.zeros(N).type(dtype)
    loss = bce_loss(logits_real, true_labels) + bce_loss(logits_fake, fake_labels)
    return loss


def generator_loss(logits_fake):
    N = logits_fake.size(0)
    true_labels = torch.ones(N).type(dtype)
    return bce_loss(logits_fake, true_labels)


def ls_discriminator_loss(scores_real, scores_fake):
    return 0.5 * torch.mean((scores_real - 1) ** 2) + 0.5 * torch.mean(scores_fake ** 2)


def ls_generator_loss(scores_fake):
    return 0.5 * torch.mean((scores_fake - 1) ** 2)


logits_real = torch.tensor([0.5, -1.0, 2.0])
logits_fake = torch.tensor([-0.3, 0.4, -2.0])
print(discriminator_loss(logits_real, logits_fake), generator_loss(logits_fake))
print(ls_discriminator_loss(logits_real, logits_fake), ls_generator_loss(logits_fake))


def get_optimizer(model):
    return optim.Adam(model.parameters(), lr=1e-3, betas=(0.5, 0.999))


centers = torch.rand(4, 784) * 2 - 1


def real_batch(n):
    idx = torch.randint(0, 4, (n,))
    return (centers[idx] + 0.1 * torch.randn(n, 784)).clamp(-1, 1).view(n, 1, 28, 28)


def run_a_gan(D, G, D_solver, G_solver, discriminator_loss, generator_loss, show_every=4,
              batch_size=16, noise_size=96, num_iters=12):
    iter_count = 0
    for it in range(num_iters):
        x = real_batch(batch_size)
        D_solver.zero_grad()
        real_data = x.type(dtype)
        logits_real = D(2 * (real_data - 0.5)).type(dtype)
        g_fake_seed = sample_noise(batch_size, noise_size).type(dtype)
        fake_images = G(g_fake_seed).detach()
        logits_fake = D(fake_images.view(batch_size, 1, 28, 28))
        d_total_error = discriminator_loss(logits_real, logits_fake)
        d_total_error.backward()
        D_solver.step()

        G_solver.zero_grad()
        g_fake_seed = sample_noise(batch_size, noise_size).type(dtype)
        fake_images = G(g_fake_seed)
        gen_logits_fake = D(fake_images.view(batch_size, 1, 28, 28))
        g_error = generator_loss(gen_logits_fake)
        g_error.backward()
        G_solver.step()

        if iter_count % show_every == 0:
            print('Iter: {}, D: {:.4}, G:{:.4}'.format(iter_count, d_total_error.item(), g_error.item()))
        iter_count += 1
    return fake_images


D = discriminator().type(dtype)
G = generator().type(dtype)
D.apply(initialize_weights)
G.apply(initialize_weights)
print(count_params(D), count_params(G))
D_solver = get_optimizer(D)
G_solver = get_optimizer(G)
imgs = run_a_gan(D, G, D_solver, G_solver, discriminator_loss, generator_loss)
print(imgs.shape, imgs[0, :5])

D_LS = discriminator().type(dtype)
G_LS = generator().type(dtype)
D_LS_solver = get_optimizer(D_LS)
G_LS_solver = get_optimizer(G_LS)
run_a_gan(D_LS, G_LS, D_LS_solver, G_LS_solver, ls_discriminator_loss, ls_generator_loss)


def build_dc_classifier(batch_size):
    return nn.Sequential(
        Unflatten(batch_size, 1, 28, 28),
        nn.Conv2d(1, 8, kernel_size=5, stride=1),
        nn.LeakyReLU(0.01),
        nn.MaxPool2d(kernel_size=2, stride=2),
        nn.Conv2d(8, 16, kernel_size=5, stride=1),
        nn.LeakyReLU(0.01),
        nn.MaxPool2d(kernel_size=2, stride=2),
        Flatten(),
        nn.Linear(4 * 4 * 16, 4 * 4 * 16),
        nn.LeakyReLU(0.01),
        nn.Linear(4 * 4 * 16, 1),
    )


def build_dc_generator(noise_dim=NOISE_DIM):
    return nn.Sequential(
        nn.Linear(noise_dim, 128),
        nn.ReLU(),
        nn.BatchNorm1d(128),
        nn.Linear(128, 7 * 7 * 16),
        nn.ReLU(),
        nn.BatchNorm1d(7 * 7 * 16),
        Unflatten(-1, 16, 7, 7),
        nn.ConvTranspose2d(16, 8, kernel_size=4, stride=2, padding=1),
        nn.ReLU(),
        nn.BatchNorm2d(8),
        nn.ConvTranspose2d(8, 1, kernel_size=4, stride=2, padding=1),
        nn.Tanh(),
        Flatten(),
    )


D_DC = build_dc_classifier(16).type(dtype)
D_DC.apply(initialize_weights)
G_DC = build_dc_generator().type(dtype)
G_DC.apply(initialize_weights)
print(D_DC)
print(count_params(D_DC), count_params(G_DC))
D_DC_solver = get_optimizer(D_DC)
G_DC_solver = get_optimizer(G_DC)
run_a_gan(D_DC, G_DC, D_DC_solver, G_DC_solver, discriminator_loss, generator_loss, num_iters=5, show_every=2)
print(G_DC[2].running_mean[:4], G_DC[9].running_var)
