# Corpus program modelled on a Chinese Q&A post "PyTorch ValueError: Expected more than 1 value
# per channel when training" (duoke360): BatchNorm with a single sample per channel raises in
# train mode and works in eval mode, and the answer's causes (a last batch of one sample, a
# model that averages away the batch dimension):
# https://duoke360.com/post/34428
# Changed: the post's BatchNorm2d example on (1, 3, 24, 24) in fact runs (24*24 values per
# channel), so it is printed next to BatchNorm1d on (1, C), which raises; errors are caught and
# printed; a DataLoader whose last batch has one sample, with drop_last=True as the fix; a seed.
# Written for gradsh.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
bn = nn.BatchNorm2d(num_features=3)
input = torch.randn(1, 3, 24, 24)
bn.train()
output = bn(input)
print(output.shape, bn.running_mean)
bn.eval()
print(bn(input)[0, :, 0, 0])

bn1 = nn.BatchNorm1d(4)
try:
    bn1(torch.randn(1, 4))
except ValueError as e:
    print(e)
bn1.eval()
print(bn1(torch.randn(1, 4)))
try:
    nn.BatchNorm2d(3)(torch.randn(1, 3, 1, 1))
except ValueError as e:
    print(e)


class BadNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(6)

    def forward(self, x):
        x = x.mean(dim=0, keepdim=True)
        return self.bn(x)


try:
    BadNet()(torch.randn(5, 6))
except ValueError as e:
    print(e)

model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
dataset = TensorDataset(torch.randn(9, 3), torch.randn(9, 1))
for drop_last in (False, True):
    loader = DataLoader(dataset, batch_size=4, drop_last=drop_last)
    for x, y in loader:
        try:
            loss = nn.functional.mse_loss(model(x), y)
            print(drop_last, x.shape[0], round(loss.item(), 4))
        except ValueError as e:
            print(drop_last, x.shape[0], e)
print(model[1].num_batches_tracked, model[1].running_var)
