# Corpus program, written for gradsh (no code copied). Modelled on "Customizing DataLoader
# Behavior" (https://apxml.com/courses/getting-started-with-pytorch/chapter-5-efficient-data-handling/customizing-dataloader-behavior:
# an imbalanced dataset, class weights 1 / count, a per-sample weight vector and a
# WeightedRandomSampler(weights, num_samples, replacement=True) passed as sampler= with
# shuffle left False; SequentialSampler, RandomSampler, SubsetRandomSampler) and on "Create
# DataLoader with collate_fn() for variable-length input"
# (https://androidkt.com/create-dataloader-with-collate_fn-for-variable-length-input-in-pytorch/:
# a dataset of (token ids, label) of different lengths and a collate_fn that pads with
# pad_sequence(batch_first=True) and returns lengths).
# Differences: our own code; integer tokens instead of a torchtext tokenizer; seeded.
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (DataLoader, Dataset, RandomSampler, SequentialSampler,
                              SubsetRandomSampler, TensorDataset, WeightedRandomSampler)

torch.manual_seed(0)
targets = torch.cat([torch.zeros(90, dtype=torch.long), torch.ones(10, dtype=torch.long)])
features = torch.randn(100, 3)
dataset = TensorDataset(features, targets)
class_counts = torch.bincount(targets)
class_weights = 1.0 / class_counts.float()
sample_weights = class_weights[targets]
print(class_counts, class_weights)
sampler = WeightedRandomSampler(weights=sample_weights, num_samples=len(sample_weights),
                                replacement=True)
loader = DataLoader(dataset, batch_size=20, sampler=sampler)
counts = torch.zeros(2, dtype=torch.long)
for xb, yb in loader:
    counts += torch.bincount(yb, minlength=2)
print("sampled per class:", counts.tolist(), len(loader))

print(list(SequentialSampler(range(5))))
print(list(RandomSampler(range(5))))
print(len(list(RandomSampler(range(5), replacement=True, num_samples=8))))
print(sorted(SubsetRandomSampler([1, 3, 5, 7])))
try:
    DataLoader(dataset, batch_size=4, shuffle=True, sampler=sampler)
except ValueError as e:
    print("ValueError:", e)

sentences = [[4, 8, 15], [16, 23], [42, 4, 8, 15, 16], [23], [8, 8, 8, 8]]
labels = [1, 0, 1, 0, 1]


class SeqDataset(Dataset):
    def __len__(self):
        return len(sentences)

    def __getitem__(self, idx):
        return torch.tensor(sentences[idx]), labels[idx]


def collate_batch(batch):
    seqs, labs = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, torch.tensor(labs, dtype=torch.int64), lengths


seq_loader = DataLoader(SeqDataset(), batch_size=2, shuffle=False, collate_fn=collate_batch)
for padded, labs, lengths in seq_loader:
    print(padded, labs, lengths)
try:
    next(iter(DataLoader(SeqDataset(), batch_size=2)))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
print(pad_sequence([torch.ones(2), torch.ones(3) * 2]).shape)
