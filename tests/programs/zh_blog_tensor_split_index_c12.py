# Corpus program, written for gradsh (no code copied). Modelled on the Chinese study note
# "张量操作" (from the 深度之眼 PyTorch course; http://xfxia.com/100182.html): 一、拼接与切分
# (torch.cat along dims 0 and 1, torch.stack on a new dim, torch.chunk with a non-dividing
# count, torch.split by size and by a list) and 二、索引 (torch.index_select, torch.masked_select
# with a ge mask) printed with the note's "第{}个张量:{},shape is {}" format; and on
# mengxinzhao/ml_learning_note's "pytorch Tensor 操作总结" (https://github.com/mengxinzhao/ml_learning_note):
# slicing that keeps or drops a dimension (t[:, -1] vs t[:, -1:]), select / narrow /
# index_select equivalences, bool masks, torch.where and torch.take.
# Differences: a manual seed; torch.split also with sections that do not add up (the error
# is caught and printed); the equivalences are checked with torch.equal.
import torch

torch.manual_seed(1)

t = torch.ones([2, 3])
t_0 = torch.cat([t, t], dim=0)
t_1 = torch.cat([t, t], dim=1)
print("t_0:{} shape:{}\nt_1:{} shape:{}".format(t_0, t_0.shape, t_1, t_1.shape))
t_stack = torch.stack([t, t, t, t, t], dim=1)
print("\nt_stack:{} shape:{}".format(t_stack, t_stack.shape))

a = torch.ones((2, 7))
list_of_tensor = torch.chunk(a, dim=1, chunks=3)
for idx, tt in enumerate(list_of_tensor):
    print("第{}个张量:{},shape is {}".format(idx + 1, tt, tt.shape))
print(len(torch.chunk(torch.arange(6), 4)), [x.tolist() for x in torch.arange(6).chunk(4)])

t = torch.ones((2, 5))
list_of_tensors = torch.split(t, 2, dim=1)
for idx, tt in enumerate(list_of_tensors):
    print("第{}个张量:{},shape is {}".format(idx + 1, tt, tt.shape))
list_of_tensors = torch.split(t, [1, 1, 1, 2], dim=1)
for idx, tt in enumerate(list_of_tensors):
    print("第{}个张量:{},shape is {}".format(idx + 1, tt, tt.shape))
try:
    torch.split(t, [2, 1, 1], dim=1)
except RuntimeError as err:
    print('RuntimeError:', err)

t = torch.randint(0, 9, size=(3, 3))
idx = torch.tensor([0, 2], dtype=torch.long)
t_select = torch.index_select(t, dim=0, index=idx)
print("t:\n{}\nt_select:\n{}".format(t, t_select))
try:
    torch.index_select(t, dim=0, index=torch.tensor([0.0, 2.0]))
except (RuntimeError, IndexError) as err:
    print(type(err).__name__ + ':', err)
mask = t.ge(5)
t_select = torch.masked_select(t, mask)
print("t:\n{}\nmask:\n{}\nt_select:\n{} ".format(t, mask, t_select))

t = torch.rand(5, 5)
print(t[2:3, :])
print(t[:, 2:3])
print(t[:, -1:])
print(t[:, -1])
print(t.select(dim=1, index=3))
print(t.narrow(dim=1, start=2, length=2))
idx = torch.tensor([1, 3, 4])
print(t.index_select(dim=1, index=idx))
print(torch.equal(t.select(1, 3), t[:, 3]), torch.equal(t.narrow(1, 2, 2), t[:, 2:4]))
print(t[:, -1:].shape, t[:, -1].shape, t[..., 1:3].shape, t[None, :, None].shape)
mask = t > 0.5
print(t[mask], t[mask].shape)
print(torch.where(mask, t, torch.zeros_like(t)))
print(torch.where(mask))
print(torch.take(t, torch.tensor([0, 6, 24])))
print(t.narrow(0, 1, 2).is_contiguous(), t.narrow(1, 1, 2).is_contiguous(),
      t.narrow(1, 1, 2).stride(), t.select(0, 2).storage_offset())
