# Corpus program modelled on the Qiita post "one_hot" by whale9490
# (https://qiita.com/whale9490/items/ade0c201b9d51846dadf): torch.nn.functional.one_hot of
# class indices with num_classes=4 and torch.argmax(one_hot, dim=1) to get the indices back;
# extended with what the post's readers hit next: num_classes inferred (-1), a 2-D label
# tensor, the one-hot as float for a loss, the scatter_ form it replaces, and the errors for
# float, negative and too-large labels (caught and printed).
# Changed: the extensions are this program's; the post's two calls are kept as written.
# Written for gradsh.
import torch
import torch.nn.functional as F

one_hot = torch.nn.functional.one_hot(torch.tensor([2, 0, 1]), num_classes=4)
print(one_hot)
print(torch.argmax(one_hot, dim=1))
print(one_hot.dtype, one_hot.shape)

print(F.one_hot(torch.tensor([3, 0, 3])))
labels = torch.tensor([[0, 2], [1, 1]])
oh = F.one_hot(labels, 3)
print(oh.shape)
print(oh)
print(oh.argmax(-1).equal(labels))

target = F.one_hot(torch.tensor([1, 0, 2]), 3).float()
logits = torch.tensor([[0.2, 1.5, -0.3], [2.0, 0.1, 0.0], [0.3, 0.3, 0.9]], requires_grad=True)
loss = F.cross_entropy(logits, target)
print(loss)
loss.backward()
print(logits.grad)
print(F.cross_entropy(logits.detach(), torch.tensor([1, 0, 2])))

idx = torch.tensor([2, 0, 1])
scat = torch.zeros(3, 4, dtype=torch.long).scatter_(1, idx.unsqueeze(1), 1)
print(scat, torch.equal(scat, one_hot))
print(torch.eye(4, dtype=torch.long)[idx])

for bad in (torch.tensor([1.0, 2.0]), torch.tensor([-1, 2]), torch.tensor([1, 5])):
    try:
        print(F.one_hot(bad, num_classes=4))
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    F.one_hot(torch.tensor([1, 2]), num_classes=0)
except RuntimeError as e:
    print("RuntimeError:", e)
print(F.one_hot(torch.tensor([], dtype=torch.long), num_classes=3).shape)
