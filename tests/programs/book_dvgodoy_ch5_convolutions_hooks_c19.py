# Corpus program, written for gradsh (no code copied). Modelled on Chapter 5 ("Convolutions") of
# Daniel Voigt Godoy's "Deep Learning with PyTorch Step-by-Step":
# https://github.com/dvgodoy/PyTorchStepByStep/blob/master/Chapter05.ipynb (with helpers.py:
# index_splitter through random_split of fractions as a tensor, make_balanced_sampler with a
# WeightedRandomSampler and its own torch.Generator; stepbystep/v1.py: the StepByStep class)
# Like the source: the 6x6 image convolved with an identity kernel by F.conv2d and by an
# nn.Conv2d whose weights are set under no_grad, stride 2, ConstantPad2d, ReplicationPad2d,
# ReflectionPad2d and F.pad(mode='circular'), the edge kernel, max pooling and Flatten, the
# LeNet built by add_module, softmax / log_softmax / NLLLoss (weight=, ignore_index=) /
# CrossEntropyLoss on the seed-11 logits, the small CNN trained by StepByStep with a balanced
# sampler, forward hooks registered from a {layer: name} dict over named_modules(), the
# hooks' captured shapes, correct() and loader_apply().
# Differences: our own line-image generator (diagonals and straight lines on 10x10 images,
# 300 of them, like data_generation/image_classification.py); Normalize(.5, .5) written as
# arithmetic in the Dataset instead of torchvision; 6 epochs; prints instead of plots.
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset, WeightedRandomSampler, random_split

single = np.array([[[[5, 0, 8, 7, 8, 1], [1, 9, 5, 0, 7, 7], [6, 0, 2, 4, 6, 6],
                     [9, 7, 6, 6, 8, 4], [8, 3, 8, 5, 1, 3], [7, 2, 7, 0, 1, 0]]]])
identity = np.array([[[[0, 0, 0], [0, 1, 0], [0, 0, 0]]]])
print(single.shape, identity.shape, (single[:, :, 0:3, 0:3] * identity).sum())
image = torch.as_tensor(single).float()
kernel_identity = torch.as_tensor(identity).float()
print(F.conv2d(image, kernel_identity, stride=1))

torch.manual_seed(0)
conv = nn.Conv2d(in_channels=1, out_channels=1, kernel_size=3, stride=1)
print(conv(image))
conv_multiple = nn.Conv2d(in_channels=1, out_channels=2, kernel_size=3, stride=1)
print(conv_multiple.weight)
with torch.no_grad():
    conv.weight[0] = kernel_identity
    conv.bias[0] = 0
print(conv(image))
print(F.conv2d(image, kernel_identity, stride=2))
print(nn.ConstantPad2d(padding=1, value=0)(image))
print(nn.ReplicationPad2d(padding=1)(image))
print(nn.ReflectionPad2d(padding=1)(image))
print(F.pad(image, pad=(1, 1, 1, 1), mode='circular'))
print(nn.ReflectionPad2d(padding=(2, 0, 1, 0)), F.pad(image, (2, 0, 1, 0), mode='reflect')[0, 0, :3])

kernel_edge = torch.as_tensor(np.array([[[[0, 1, 0], [1, -4, 1], [0, 1, 0]]]])).float()
padded = F.pad(image, (1, 1, 1, 1), mode='constant', value=0)
conv_padded = F.conv2d(padded, kernel_edge, stride=1)
print(conv_padded)
pooled = F.max_pool2d(conv_padded, kernel_size=2)
print(pooled)
print(nn.MaxPool2d(kernel_size=4)(conv_padded))
print(F.max_pool2d(conv_padded, kernel_size=3, stride=1))
print(nn.Flatten()(pooled), pooled.view(1, -1))

lenet = nn.Sequential()
lenet.add_module('C1', nn.Conv2d(in_channels=1, out_channels=6, kernel_size=5, padding=2))
lenet.add_module('func1', nn.ReLU())
lenet.add_module('S2', nn.MaxPool2d(kernel_size=2))
lenet.add_module('C3', nn.Conv2d(in_channels=6, out_channels=16, kernel_size=5))
lenet.add_module('func2', nn.ReLU())
lenet.add_module('S4', nn.MaxPool2d(kernel_size=2))
lenet.add_module('C5', nn.Conv2d(in_channels=16, out_channels=120, kernel_size=5))
lenet.add_module('func2', nn.ReLU())
lenet.add_module('flatten', nn.Flatten())
lenet.add_module('F6', nn.Linear(in_features=120, out_features=84))
lenet.add_module('func3', nn.ReLU())
lenet.add_module('OUTPUT', nn.Linear(in_features=84, out_features=10))
print(lenet)
print(lenet(torch.zeros(2, 1, 28, 28)).shape)

logits = torch.tensor([1.3863, 0.0000, -0.6931])
odds_ratios = torch.exp(logits)
print(odds_ratios, odds_ratios / odds_ratios.sum())
print(nn.Softmax(dim=-1)(logits), F.softmax(logits, dim=-1))
log_probs = F.log_softmax(logits, dim=-1)
print(log_probs, F.nll_loss(log_probs.view(-1, 3), torch.tensor([2])))
torch.manual_seed(11)
dummy_logits = torch.randn((5, 3))
dummy_labels = torch.tensor([0, 0, 1, 2, 1])
dummy_log_probs = F.log_softmax(dummy_logits, dim=-1)
print(dummy_log_probs)
print(nn.NLLLoss()(dummy_log_probs, dummy_labels))
print(nn.NLLLoss(weight=torch.tensor([1., 1., 2.]))(dummy_log_probs, dummy_labels))
print(nn.NLLLoss(ignore_index=2)(dummy_log_probs, dummy_labels))
print(nn.CrossEntropyLoss()(dummy_logits, dummy_labels))


def gen_img(start, target, img_size=10):
    img = np.zeros((img_size, img_size))
    row = start if start > 0 else None
    col = abs(start) if start <= 0 else None
    if target == 0:
        if row is None:
            img[:, col] = 1
        else:
            img[row, :] = 1
    else:
        col = 1 if col == 0 else col
        if target == 1:
            if row is not None:
                idx = (list(range(row, -1, -1)), list(range(0, row + 1)))
            else:
                idx = (list(range(img_size - 1, col - 1, -1)), list(range(col, img_size)))
        else:
            if row is not None:
                idx = (list(range(row, img_size)), list(range(0, img_size - row)))
            else:
                idx = (list(range(0, img_size - col)), list(range(col, img_size)))
        img[idx] = 1
    return 255 * img.reshape(1, img_size, img_size)


np.random.seed(17)
starts = np.random.randint(-9, 10, size=(300,))
targets = np.random.randint(0, 3, size=(300,))
images = np.array([gen_img(s, t) for s, t in zip(starts, targets)], dtype=np.uint8)
print(images.shape, images.dtype, np.bincount(targets))


def index_splitter(n, splits, seed=13):
    idx = torch.arange(n)
    splits_tensor = torch.as_tensor(splits)
    total = splits_tensor.sum().float()
    if not total.isclose(torch.ones(1)[0]):
        splits_tensor = splits_tensor / total
    torch.manual_seed(seed)
    return random_split(idx, splits_tensor)


def make_balanced_sampler(y):
    classes, counts = y.unique(return_counts=True)
    weights = 1.0 / counts.float()
    sample_weights = weights[y.squeeze().long()]
    generator = torch.Generator()
    return WeightedRandomSampler(weights=sample_weights, num_samples=len(sample_weights),
                                 generator=generator, replacement=True)


class TransformedTensorDataset(Dataset):
    def __init__(self, x, y, transform=None):
        self.x = x
        self.y = y
        self.transform = transform

    def __getitem__(self, index):
        x = self.x[index]
        if self.transform:
            x = self.transform(x)
        return x, self.y[index]

    def __len__(self):
        return len(self.x)


x_tensor = torch.as_tensor(images / 255).float()
y_tensor = torch.as_tensor(targets).long()
train_idx, val_idx = index_splitter(len(x_tensor), [80, 20])
print(type(train_idx).__name__, len(train_idx), len(val_idx), train_idx.indices[:8])
x_train_tensor, y_train_tensor = x_tensor[train_idx], y_tensor[train_idx]
x_val_tensor, y_val_tensor = x_tensor[val_idx], y_tensor[val_idx]
normalize = lambda x: (x - .5) / .5
train_dataset = TransformedTensorDataset(x_train_tensor, y_train_tensor, transform=normalize)
val_dataset = TransformedTensorDataset(x_val_tensor, y_val_tensor, transform=normalize)
sampler = make_balanced_sampler(y_train_tensor)
print(sampler.weights[:6], sampler.num_samples, sampler.replacement)
train_loader = DataLoader(dataset=train_dataset, batch_size=16, sampler=sampler)
val_loader = DataLoader(dataset=val_dataset, batch_size=16)


class StepByStep(object):
    def __init__(self, model, loss_fn, optimizer):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.device = 'cpu'
        self.model.to(self.device)
        self.train_loader = None
        self.val_loader = None
        self.losses = []
        self.val_losses = []
        self.total_epochs = 0
        self.visualization = {}
        self.handles = {}

    def set_loaders(self, train_loader, val_loader=None):
        self.train_loader = train_loader
        self.val_loader = val_loader

    def _mini_batch(self, validation=False):
        data_loader = self.val_loader if validation else self.train_loader
        if data_loader is None:
            return None
        mini_batch_losses = []
        for x_batch, y_batch in data_loader:
            if validation:
                self.model.eval()
                loss = self.loss_fn(self.model(x_batch), y_batch)
            else:
                self.model.train()
                loss = self.loss_fn(self.model(x_batch), y_batch)
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
            mini_batch_losses.append(loss.item())
        return np.mean(mini_batch_losses)

    def set_seed(self, seed=42):
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
        torch.manual_seed(seed)
        np.random.seed(seed)
        random.seed(seed)
        try:
            self.train_loader.sampler.generator.manual_seed(seed)
        except AttributeError:
            pass

    def train(self, n_epochs, seed=42):
        self.set_seed(seed)
        for epoch in range(n_epochs):
            self.total_epochs += 1
            loss = self._mini_batch(validation=False)
            self.losses.append(loss)
            with torch.no_grad():
                val_loss = self._mini_batch(validation=True)
                self.val_losses.append(val_loss)

    def predict(self, x):
        self.model.eval()
        y_hat_tensor = self.model(torch.as_tensor(x).float())
        self.model.train()
        return y_hat_tensor.detach().cpu().numpy()

    def count_parameters(self):
        return sum(p.numel() for p in self.model.parameters() if p.requires_grad)

    def attach_hooks(self, layers_to_hook, hook_fn=None):
        self.visualization = {}
        modules = list(self.model.named_modules())
        layer_names = {layer: name for name, layer in modules[1:]}
        if hook_fn is None:
            def hook_fn(layer, inputs, outputs):
                name = layer_names[layer]
                values = outputs.detach().cpu().numpy()
                if self.visualization[name] is None:
                    self.visualization[name] = values
                else:
                    self.visualization[name] = np.concatenate([self.visualization[name], values])
        for name, layer in modules:
            if name in layers_to_hook:
                self.visualization[name] = None
                self.handles[name] = layer.register_forward_hook(hook_fn)

    def remove_hooks(self):
        for handle in self.handles.values():
            handle.remove()
        self.handles = {}

    def correct(self, x, y, threshold=.5):
        self.model.eval()
        yhat = self.model(x)
        self.model.train()
        n_samples, n_dims = yhat.shape
        if n_dims > 1:
            _, predicted = torch.max(yhat, 1)
        else:
            n_dims += 1
            predicted = (F.sigmoid(yhat) > threshold).long()
        result = []
        for c in range(n_dims):
            n_class = (y == c).sum().item()
            n_correct = (predicted[y == c] == c).sum().item()
            result.append((n_correct, n_class))
        return torch.tensor(result)

    @staticmethod
    def loader_apply(loader, func, reduce='sum'):
        results = [func(x, y) for i, (x, y) in enumerate(loader)]
        results = torch.stack(results, axis=0)
        if reduce == 'sum':
            results = results.sum(axis=0)
        elif reduce == 'mean':
            results = results.float().mean(axis=0)
        return results


torch.manual_seed(13)
model_cnn1 = nn.Sequential()
n_channels = 1
model_cnn1.add_module('conv1', nn.Conv2d(in_channels=1, out_channels=n_channels, kernel_size=3))
model_cnn1.add_module('relu1', nn.ReLU())
model_cnn1.add_module('maxp1', nn.MaxPool2d(kernel_size=2))
model_cnn1.add_module('flatten', nn.Flatten())
model_cnn1.add_module('fc1', nn.Linear(in_features=n_channels * 4 * 4, out_features=10))
model_cnn1.add_module('relu2', nn.ReLU())
model_cnn1.add_module('fc2', nn.Linear(in_features=10, out_features=3))
multi_loss_fn = nn.CrossEntropyLoss(reduction='mean')
optimizer_cnn1 = optim.SGD(model_cnn1.parameters(), lr=0.1)
sbs_cnn1 = StepByStep(model_cnn1, multi_loss_fn, optimizer_cnn1)
sbs_cnn1.set_loaders(train_loader, val_loader)
sbs_cnn1.train(6)
print(sbs_cnn1.count_parameters(), sbs_cnn1.total_epochs)
print([f"{v:.4f}" for v in sbs_cnn1.losses])
print([f"{v:.4f}" for v in sbs_cnn1.val_losses])
print(model_cnn1.conv1.weight)

dummy_model = nn.Linear(1, 1)
dummy_list = []


def dummy_hook(layer, inputs, outputs):
    dummy_list.append((layer, inputs, outputs))


dummy_handle = dummy_model.register_forward_hook(dummy_hook)
print(type(dummy_handle).__name__)
dummy_x = torch.tensor([0.3])
dummy_model.forward(dummy_x)
print(dummy_list)
dummy_model(dummy_x)
print(dummy_list)
dummy_handle.remove()

modules = list(sbs_cnn1.model.named_modules())
print(modules[:3])
layer_names = {layer: name for name, layer in modules[1:]}
print(layer_names)
sbs_cnn1.attach_hooks(layers_to_hook=['conv1', 'relu1', 'maxp1', 'flatten', 'fc1', 'relu2', 'fc2'])
images_batch, labels_batch = next(iter(val_loader))
logits = sbs_cnn1.predict(images_batch)
sbs_cnn1.remove_hooks()
print(sbs_cnn1.visualization.keys())
print({k: v.shape for k, v in sbs_cnn1.visualization.items()})
print(np.round(sbs_cnn1.visualization['fc2'][:3], 4))
predicted = np.argmax(logits, 1)
print(predicted)
print(sbs_cnn1.correct(images_batch, labels_batch))
print(StepByStep.loader_apply(sbs_cnn1.val_loader, sbs_cnn1.correct))
print(StepByStep.loader_apply(sbs_cnn1.val_loader, sbs_cnn1.correct, reduce='mean'))
