# Corpus program, written for gradsh (no code copied). Modelled on Jeremy Howard and Sylvain
# Gugger's fastbook chapter 4 "Under the Hood: Training a Digit Classifier" (GPL-3.0 text,
# code in plain PyTorch): https://github.com/fastai/fastbook/blob/master/04_mnist_basics.ipynb
# Like the original: the pixel-similarity baseline (torch.stack of the images, float()/255,
# the mean "ideal 3" and "ideal 7", (a - b).abs().mean((-1, -2)) as mnist_distance, F.l1_loss
# and F.mse_loss(...).sqrt(), broadcasting a whole validation stack against the mean image,
# is_3 and its accuracy); the linear model from scratch (init_params with requires_grad_(),
# linear1 = xb @ weights + bias, mnist_loss with torch.where and sigmoid, calc_grad,
# train_epoch with p.data -= p.grad * lr and p.grad.zero_(), batch_accuracy, validate_epoch
# with round(..., 4)); the BasicOptim class; nn.Linear with SGD; the two-layer simple_net.
# Differences: synthetic 28x28 "3"s and "7"s (two noisy templates) instead of the MNIST
# download, a plain TensorDataset + DataLoader instead of fastai's DataLoaders and Learner,
# batch size 64, few epochs; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
template3 = torch.zeros(28, 28)
template3[5:8, 8:20] = 1
template3[12:15, 10:20] = 1
template3[20:23, 8:20] = 1
template3[5:23, 17:20] = 1
template7 = torch.zeros(28, 28)
template7[5:8, 6:22] = 1
for r in range(8, 24):
    c = 21 - (r - 8) // 2
    template7[r, c - 2:c + 1] = 1


def make(template, n):
    imgs = (template[None] * 200 + torch.rand(n, 28, 28) * 55).clamp(0, 255)
    shift = torch.randint(-1, 2, (n,))
    return torch.stack([torch.roll(img, int(s), dims=1) for img, s in zip(imgs, shift)]).byte()


threes, sevens = make(template3, 120), make(template7, 110)
print(threes.shape, threes.dtype, threes[0, 4:9, 6:12])
stacked_threes = torch.stack(list(threes)).float() / 255
stacked_sevens = torch.stack(list(sevens)).float() / 255
print(stacked_threes.shape, len(stacked_threes.shape), stacked_threes.ndim)
mean3 = stacked_threes.mean(0)
mean7 = stacked_sevens.mean(0)
a_3 = stacked_threes[1]
dist_3_abs = (a_3 - mean3).abs().mean()
dist_3_sqr = ((a_3 - mean3)**2).mean().sqrt()
print(dist_3_abs, dist_3_sqr)
dist_7_abs = (a_3 - mean7).abs().mean()
dist_7_sqr = ((a_3 - mean7)**2).mean().sqrt()
print(dist_7_abs, dist_7_sqr)
print(F.l1_loss(a_3.float(), mean7), F.mse_loss(a_3, mean7).sqrt())

valid_3_tens = make(template3, 40).float() / 255
valid_7_tens = make(template7, 40).float() / 255
print(valid_3_tens.shape, valid_7_tens.shape)


def mnist_distance(a, b):
    return (a - b).abs().mean((-1, -2))


print(mnist_distance(a_3, mean3))
valid_3_dist = mnist_distance(valid_3_tens, mean3)
print(valid_3_dist, valid_3_dist.shape)
print(torch.tensor([1, 2, 3]) + torch.tensor(1))
print((valid_3_tens - mean3).shape)


def is_3(x):
    return mnist_distance(x, mean3) < mnist_distance(x, mean7)


print(is_3(a_3), is_3(a_3).float())
print(is_3(valid_3_tens))
accuracy_3s = is_3(valid_3_tens).float().mean()
accuracy_7s = (1 - is_3(valid_7_tens).float()).mean()
print(accuracy_3s, accuracy_7s, (accuracy_3s + accuracy_7s) / 2)

train_x = torch.cat([stacked_threes, stacked_sevens]).view(-1, 28 * 28)
train_y = torch.tensor([1] * len(threes) + [0] * len(sevens)).unsqueeze(1)
print(train_x.shape, train_y.shape)
dset = list(zip(train_x, train_y))
x, y = dset[0]
print(x.shape, y)
valid_x = torch.cat([valid_3_tens, valid_7_tens]).view(-1, 28 * 28)
valid_y = torch.tensor([1] * len(valid_3_tens) + [0] * len(valid_7_tens)).unsqueeze(1)


def init_params(size, std=1.0):
    return (torch.randn(size) * std).requires_grad_()


weights = init_params((28 * 28, 1))
bias = init_params(1)
print((train_x[0] * weights.T).sum() + bias)


def linear1(xb):
    return xb @ weights + bias


preds = linear1(train_x)
print(preds)
corrects = (preds > 0.0).float() == train_y
print(corrects)
print(corrects.float().mean().item())
with torch.no_grad():
    weights[0] *= 1.0001
preds = linear1(train_x)
print(((preds > 0.0).float() == train_y).float().mean().item())

trgts = torch.tensor([1, 0, 1])
prds = torch.tensor([0.9, 0.4, 0.2])


def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets == 1, 1 - predictions, predictions).mean()


print(torch.where(trgts == 1, 1 - prds, prds))
print(mnist_loss(prds, trgts), mnist_loss(torch.tensor([0.9, 0.4, 0.8]), trgts))

dl = DataLoader(TensorDataset(train_x, train_y), batch_size=64, shuffle=True)
valid_dl = DataLoader(TensorDataset(valid_x, valid_y), batch_size=64)
xb, yb = next(iter(dl))
print(xb.shape, yb.shape)


def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()


batch = train_x[:4]
calc_grad(batch, train_y[:4], linear1)
print(weights.grad.mean(), bias.grad)
calc_grad(batch, train_y[:4], linear1)
print(weights.grad.mean(), bias.grad)
weights.grad.zero_()
bias.grad.zero_()


def train_epoch(model, lr, params):
    for xb, yb in dl:
        calc_grad(xb, yb, model)
        for p in params:
            p.data -= p.grad * lr
            p.grad.zero_()


def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds > 0.5) == yb
    return correct.float().mean()


print(batch_accuracy(linear1(batch), train_y[:4]))


def validate_epoch(model):
    accs = [batch_accuracy(model(xb), yb) for xb, yb in valid_dl]
    return round(torch.stack(accs).mean().item(), 4)


print(validate_epoch(linear1))
lr = 1.
params = weights, bias
train_epoch(linear1, lr, params)
print(validate_epoch(linear1))
for i in range(5):
    train_epoch(linear1, lr, params)
    print(validate_epoch(linear1), end=' ')
print()

linear_model = nn.Linear(28 * 28, 1)
w, b = linear_model.parameters()
print(w.shape, b.shape)


class BasicOptim:
    def __init__(self, params, lr):
        self.params, self.lr = list(params), lr

    def step(self, *args, **kwargs):
        for p in self.params:
            p.data -= p.grad.data * self.lr

    def zero_grad(self, *args, **kwargs):
        for p in self.params:
            p.grad = None


opt = BasicOptim(linear_model.parameters(), lr)


def train_epoch2(model):
    for xb, yb in dl:
        calc_grad(xb, yb, model)
        opt.step()
        opt.zero_grad()


def train_model(model, epochs):
    for i in range(epochs):
        train_epoch2(model)
        print(validate_epoch(model), end=' ')
    print()


train_model(linear_model, 5)
linear_model = nn.Linear(28 * 28, 1)
opt = torch.optim.SGD(linear_model.parameters(), lr)
train_model(linear_model, 5)

simple_net = nn.Sequential(nn.Linear(28 * 28, 30), nn.ReLU(), nn.Linear(30, 1))
print(simple_net)
opt = torch.optim.SGD(simple_net.parameters(), lr=0.1)
train_model(simple_net, 6)
print(simple_net[0].weight.grad, [p.grad for p in simple_net.parameters()][-1])
