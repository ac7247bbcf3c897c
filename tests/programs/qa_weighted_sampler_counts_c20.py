# Corpus program modelled on the androidkt answer "Deal with an imbalanced dataset using
# WeightedRandomSampler in PyTorch"
# (https://androidkt.com/deal-with-an-imbalanced-dataset-using-weightedrandomsampler-in-pytorch/):
# SequentialSampler and RandomSampler, a dummy 8:2 imbalanced dataset, class counts per batch
# with shuffle=True, then sample weights 1/class_count in a WeightedRandomSampler and the
# balanced counts per batch. Changed: 200 samples and batch 40 instead of 1000/100, a seed,
# counts printed instead of plots; a torch-only bincount variant and the argument errors.
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler, SequentialSampler, RandomSampler

torch.manual_seed(0)
numSample = 200
batch_size = 40
sample = torch.randn(numSample, 10)
zero = np.zeros(int(numSample * 0.8), dtype=np.int32)
one = np.ones(int(numSample * 0.2), dtype=np.int32)
target = np.hstack((zero, one))
dataset = TensorDataset(sample, torch.from_numpy(target))
print(list(SequentialSampler(range(7))))
print(list(RandomSampler(range(7))))

loader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
for i, (data, t) in enumerate(loader):
    print("batch index {}, 0/1: {}/{}".format(i, len(np.where(t.numpy() == 0)[0]),
                                              len(np.where(t.numpy() == 1)[0])))

class_sample_count = np.array([len(np.where(target == t)[0]) for t in np.unique(target)])
weight = 1. / class_sample_count
print(class_sample_count, weight)
samples_weight = np.array([weight[t] for t in target])
samples_weight = torch.from_numpy(samples_weight)
print(samples_weight.dtype, samples_weight[:3], samples_weight[-3:])
sampler = WeightedRandomSampler(samples_weight.type('torch.DoubleTensor'), len(samples_weight))
print(sampler.num_samples, sampler.replacement)
loader = DataLoader(dataset, batch_size=batch_size, sampler=sampler)
for i, (data, t) in enumerate(loader):
    print("batch index {}, 0/1: {}/{}".format(i, len(np.where(t.numpy() == 0)[0]),
                                              len(np.where(t.numpy() == 1)[0])))

# torch-only version with bincount, and without replacement
labels = torch.from_numpy(target).long()
counts = torch.bincount(labels)
sw = (1.0 / counts.float())[labels]
print(counts, sw[:2], sw.sum())
s2 = WeightedRandomSampler(sw, num_samples=10, replacement=False)
idx = list(s2)
print(idx, labels[idx].tolist())
s3 = WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5, replacement=True)
print(list(s3), len(s3))
g = torch.Generator().manual_seed(42)
print(list(WeightedRandomSampler([1, 2, 3], 6, generator=g)))
try:
    WeightedRandomSampler([1.0, 2.0], num_samples=0)
except ValueError as e:
    print(e)
try:
    WeightedRandomSampler(torch.ones(2, 2), 3)
except ValueError as e:
    print(e)
