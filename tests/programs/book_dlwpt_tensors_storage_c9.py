# Corpus program, written for gradsh (no code copied). Modelled on Stevens, Antiga and
# Viehmann, "Deep Learning with PyTorch", chapter 3 notebook 1_tensors.ipynb:
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch3/1_tensors.ipynb
# Like the original: lists vs tensors, float(a[1]), points as a 3x2 tensor, points.storage()
# (printed, indexed, written through), storage_offset/size/stride of a row view, writing
# through a view vs a clone, t() sharing storage (id of the storages compared as in the book),
# transpose strides of a 3x4x5 tensor, is_contiguous and contiguous(), double/short dtypes by
# dtype=, .double()/.short(), .to(dtype=...), float64 * int16 promotion, slicing with None,
# numpy round trip, torch.save/torch.load by path and by file object, the cuda lines (caught:
# this machine has no GPU), transpose and zero_().
# Differences: a temporary folder instead of ../data/p1ch3, no h5py; cell values printed.
import os
import tempfile
import warnings

import torch

warnings.filterwarnings("ignore", category=UserWarning)
a = [1.0, 2.0, 1.0]
print(a[0])
a[2] = 3.0
print(a)
a = torch.ones(3)
print(a, a[1], float(a[1]))
a[2] = 2.0
print(a)
points = torch.zeros(6)
points[0] = 4.0
points[1] = 1.0
points[2] = 5.0
points[3] = 3.0
points[4] = 2.0
points[5] = 1.0
print(points)
points = torch.tensor([4.0, 1.0, 5.0, 3.0, 2.0, 1.0])
print(float(points[0]), float(points[1]))
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
print(points, points.shape)
print(torch.zeros(3, 2))
print(points[0, 1], points[0])

print(points.storage())
points_storage = points.storage()
print(points_storage[0], points.storage()[1], len(points_storage))
points_storage[0] = 2.0
print(points)
print(type(points_storage).__name__, points_storage.dtype, points_storage.size())
print(points.untyped_storage().nbytes())

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1]
print(second_point.storage_offset(), second_point.size(), second_point.shape)
print(points.stride(), second_point.stride())
second_point[0] = 10.0
print(points)
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1].clone()
second_point[0] = 10.0
print(points)
points_t = points.t()
print(points_t)
print(points.untyped_storage().data_ptr() == points_t.untyped_storage().data_ptr())
print(points.stride(), points_t.stride())
some_t = torch.ones(3, 4, 5)
transpose_t = some_t.transpose(0, 2)
print(some_t.shape, transpose_t.shape, some_t.stride(), transpose_t.stride())
print(points.is_contiguous(), points_t.is_contiguous())
print(points_t.storage())
points_t_cont = points_t.contiguous()
print(points_t_cont, points_t_cont.stride())
print(points_t_cont.storage())

double_points = torch.ones(10, 2, dtype=torch.double)
short_points = torch.tensor([[1, 2], [3, 4]], dtype=torch.short)
print(short_points.dtype, short_points, double_points[:2])
double_points = torch.zeros(10, 2).double()
short_points = torch.ones(10, 2).short()
print(double_points.dtype, short_points.dtype)
double_points = torch.zeros(10, 2).to(torch.double)
short_points = torch.ones(10, 2).to(dtype=torch.short)
torch.manual_seed(0)
points_64 = torch.rand(5, dtype=torch.double)
points_short = points_64.to(torch.short)
print(points_64, points_short)
print(points_64 * points_short)
print((points_64 * 10).to(torch.short), (points_64 * 10).to(torch.short) * points_short)

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
some_list = list(range(6))
print(some_list[:], some_list[1:4], some_list[1:], some_list[:4], some_list[:-1], some_list[1:4:2])
print(points[1:], points[1:, :], points[1:, 0], points[None], points[None].shape)

points = torch.ones(3, 4)
points_np = points.numpy()
print(points_np)
points = torch.from_numpy(points_np)
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, 'ourpoints.t')
    torch.save(points, path)
    with open(path, 'wb') as f:
        torch.save(points, f)
    points = torch.load(path)
    with open(path, 'rb') as f:
        points = torch.load(f)
    print(points)

for attempt in (lambda: torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]], device='cuda'),
                lambda: points.to(device='cuda'),
                lambda: points.to(device='cuda:0'),
                lambda: points.cuda()):
    try:
        attempt()
    except (AssertionError, RuntimeError) as e:
        print(type(e).__name__, e)
points = 2 * points
points_cpu = points.to(device='cpu')
print(points_cpu.device, points.cpu() is points)

a = torch.ones(3, 2)
a_t = torch.transpose(a, 0, 1)
print((a.shape, a_t.shape))
a = torch.ones(3, 2)
a_t = a.transpose(0, 1)
print((a.shape, a_t.shape))
a = torch.ones(3, 2)
a.zero_()
print(a)
