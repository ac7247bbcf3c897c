# Corpus program, written for gradsh (no code copied). Modelled on chenyuntc's pytorch-book
# (陈云《深度学习框架PyTorch：入门与实践》), Chapter 5 (常用工具模块: data loading, samplers, devices):
# https://github.com/chenyuntc/pytorch-book/blob/master/Chapter5/chapter5.ipynb
# Like the chapter (torch imported as t): a DogCat Dataset labelling files by name (dog -> 1)
# whose items are t.from_numpy of HxWx3 uint8 arrays, iterated and printed with size, float
# mean and label; the same with a transform pipeline (resize the short side, centre crop,
# to [0, 1] CxHxW, normalise to [-1, 1]); a DataLoader(batch_size=3, shuffle=True) batch;
# NewDogCat returning (None, None) for unreadable items and my_collate_fn filtering them
# before default_collate; WeightedRandomSampler with dogs weighted 2 (with and without
# replacement); CrossEntropyLoss(weight=t.Tensor([1, 3])) and its _buffers; t.device forms,
# t.empty / new_full / new_zeros / ones_like / zeros_like keeping the device.
# Differences: 8 synthetic images held in memory (a dict of file name -> array, one of them
# "corrupt") instead of files read with PIL; the torchvision transforms are written with
# F.interpolate(antialias=False) and slicing at 32x32; a manual seed; the CUDA cells run on the
# CPU device; t.empty's values (uninitialised) are not printed.
import numpy as np
import torch as t
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.dataloader import default_collate
from torch.utils.data.sampler import WeightedRandomSampler

t.manual_seed(5)
rng = np.random.RandomState(5)
shapes = [(45, 60), (48, 36), (45, 59), (59, 45), (28, 34), (44, 59), (40, 40), (36, 50)]
names = ['dog.1.jpg', 'dog.2.jpg', 'dog.3.jpg', 'cat.1.jpg', 'cat.2.jpg', 'cat.3.jpg',
         'dog.4.jpg', 'cat.4.jpg']
files = {f'./data/dogcat/{n}': rng.randint(0, 256, size=s + (3,)).astype(np.uint8)
         for n, s in zip(names, shapes)}
broken = {'./data/dogcat/dog.2.jpg'}


class DogCat(Dataset):
    def __init__(self, root, transforms=None):
        self.imgs = sorted(p for p in files if p.startswith(root))
        self.transforms = transforms

    def __getitem__(self, index):
        img_path = self.imgs[index]
        label = 1 if 'dog' in img_path.split('/')[-1] else 0
        array = files[img_path]
        data = t.from_numpy(array)
        if self.transforms:
            data = self.transforms(data)
        return data, label

    def __len__(self):
        return len(self.imgs)


dataset = DogCat('./data/dogcat/')
img, label = dataset[0]
for img, label in dataset:
    print(img.size(), img.float().mean(), label, img.dtype)


def transform(img, size=32):
    x = img.permute(2, 0, 1).float().div(255).unsqueeze(0)
    h, w = x.shape[-2:]
    scale = size / min(h, w)
    x = F.interpolate(x, size=(max(size, round(h * scale)), max(size, round(w * scale))),
                      mode='bilinear', align_corners=False, antialias=False)
    h, w = x.shape[-2:]
    top, left = int(round((h - size) / 2.0)), int(round((w - size) / 2.0))
    x = x[0, :, top:top + size, left:left + size]
    mean = t.tensor([.5, .5, .5]).view(3, 1, 1)
    std = t.tensor([.5, .5, .5]).view(3, 1, 1)
    return (x - mean) / std


dataset = DogCat('./data/dogcat/', transforms=transform)
for img, label in dataset:
    print(img.size(), label, round(img.mean().item(), 5))
dataloader = DataLoader(dataset, batch_size=3, shuffle=True, num_workers=0, drop_last=False)
dataiter = iter(dataloader)
imgs, labels = next(dataiter)
print(imgs.size(), labels)


class NewDogCat(DogCat):
    def __getitem__(self, index):
        try:
            if self.imgs[index] in broken:
                raise OSError('cannot identify image file')
            return super().__getitem__(index)
        except OSError:
            return None, None


def my_collate_fn(batch):
    batch = [_ for _ in batch if _[0] is not None]
    if len(batch) == 0:
        return t.Tensor()
    return default_collate(batch)


dataset = NewDogCat('./data/dogcat/', transforms=transform)
print(dataset[5])
dataloader = DataLoader(dataset, 2, collate_fn=my_collate_fn, num_workers=0, shuffle=True)
for batch_datas, batch_labels in dataloader:
    print(batch_datas.size(), batch_labels.size(), batch_labels)

dataset = DogCat('./data/dogcat/', transforms=transform)
weights = [2 if label == 1 else 1 for data, label in dataset]
print(weights)
sampler = WeightedRandomSampler(weights, num_samples=9, replacement=True)
dataloader = DataLoader(dataset, batch_size=3, sampler=sampler)
for datas, labels in dataloader:
    print(labels.tolist())
sampler = WeightedRandomSampler(weights, 8, replacement=False)
print(list(sampler))
dataloader = DataLoader(dataset, batch_size=4, sampler=sampler)
for datas, labels in dataloader:
    print(labels.tolist())

criterion = t.nn.CrossEntropyLoss(weight=t.Tensor([1, 3]))
input = t.randn(4, 2)
target = t.Tensor([1, 0, 0, 1]).long()
loss = criterion(input, target)
print(loss)
print(criterion._buffers)
print(criterion)

print(t.device('cpu'), repr(t.device('cpu', 0)), t.device('cuda:0'), t.device('cuda', 1))
device = t.device("cuda" if t.cuda.is_available() else "cpu")
print(device)
x = t.empty((2, 3), device=device)
print(x.shape, x.device)
x_cpu = t.empty(2, device='cpu')
print(x_cpu.shape, x_cpu.is_cuda)
y_cpu = x_cpu.new_full((3, 4), 3.1415)
print(y_cpu, y_cpu.is_cuda)
y_gpu = x_cpu.new_zeros(3, 4)
print(y_gpu, y_gpu.is_cuda)
z_cpu = t.ones_like(x_cpu)
print(z_cpu, z_cpu.is_cuda)
z_gpu = t.zeros_like(x_cpu)
print(z_gpu, z_gpu.is_cuda)
print(t.tensor([1, 2]).new_full((2,), 7), t.tensor([1.5]).new_tensor([1, 2]).dtype)
