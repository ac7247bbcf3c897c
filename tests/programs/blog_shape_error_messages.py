# Corpus program, written for gradsh (no code copied). Modelled on blog posts that explain
# PyTorch's shape errors, each reproducing the error and its fix:
# https://theneuralbase.pages.dev/pytorch/errors/runtimeerror-mat1-mat2-shapes-cannot-be-multiplied/
#   (torch.matmul of [2, 3] and [4, 5]; a Linear fed the wrong number of features)
# https://liu-nlp.ai/tdde09/blog/posts/2024-01-19/index.html
#   (torch.randn(2, 3, 2).permute(0, 2, 1).view(-1): "view size is not compatible ...", strides)
# https://www.marioraach.de/en/blog/pytorch-transpose-view
#   (a transposed 2x4 "image" flattened with view: the error, then contiguous() or reshape())
# http://www.kouhan.cn/en/article/00050409
#   (MSELoss on [N, C] outputs against [N] class labels: "The size of tensor a (.) must match
#   the size of tensor b (.) at non-singleton dimension 1", and the CrossEntropyLoss fix)
# http://www.wenzhangge.com/post/28944.html
#   ("Expected input batch_size (.) to match target batch_size (.)" from a wrong flatten size)
# Each case prints the exception type and message caught with try/except, then the fixed
# computation's shape and strides. Differences: our own code and sizes; a seed; warnings that
# torch prints to stderr are not part of the output.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
warnings.simplefilter("ignore")


def attempt(label, fn):
    try:
        out = fn()
        print(label, '->', tuple(out.shape) if hasattr(out, 'shape') else out)
    except Exception as e:
        print(label, '->', type(e).__name__ + ':', e)


mat1, mat2 = torch.randn(2, 3), torch.randn(4, 5)
attempt('matmul [2,3]@[4,5]', lambda: torch.matmul(mat1, mat2))
attempt('mm', lambda: torch.mm(mat1, mat2))
attempt('@ fixed', lambda: mat1 @ torch.randn(3, 5))
attempt('mm 3-d', lambda: torch.mm(torch.randn(2, 2, 3), torch.randn(3, 4)))
attempt('bmm', lambda: torch.bmm(torch.randn(2, 2, 3), torch.randn(3, 3, 4)))
lin = nn.Linear(784, 512)
attempt('Linear(784) on 12288', lambda: lin(torch.randn(6, 12288)))
attempt('Linear on 1-d', lambda: nn.Linear(1, 30)(torch.rand(10)))
attempt('Linear on [10,1]', lambda: nn.Linear(1, 30)(torch.rand(10, 1)))
attempt('matmul 1-d', lambda: torch.matmul(torch.randn(3), torch.randn(4)))
attempt('matmul vec-mat', lambda: torch.matmul(torch.randn(3), torch.randn(4, 2)))

x = torch.randn(2, 3, 2)
print(x.stride(), x.permute(0, 2, 1).stride(), x.permute(0, 2, 1).is_contiguous())
attempt('permute.view(-1)', lambda: x.permute(0, 2, 1).view(-1))
attempt('permute.reshape(-1)', lambda: x.permute(0, 2, 1).reshape(-1))
image = torch.arange(8.).view(2, 4)
rotated = image.transpose(0, 1)
attempt('transpose.view(1, 8)', lambda: rotated.view(1, 8))
print(rotated.contiguous().view(1, 8), rotated.reshape(1, 8).data_ptr() == rotated.data_ptr())
attempt('view wrong numel', lambda: image.view(3, 3))
attempt('view two -1', lambda: image.view(-1, -1))
attempt('reshape 5', lambda: image.reshape(5, -1))

outputs = torch.randn(4, 10, requires_grad=True)
labels = torch.tensor([1, 0, 3, 9])
attempt('mse [4,10] vs [4]', lambda: F.mse_loss(outputs, labels.float()))
attempt('mse long target', lambda: nn.MSELoss()(outputs, labels))
attempt('cross_entropy', lambda: F.cross_entropy(outputs, labels))
attempt('cross_entropy float 1-d target', lambda: F.cross_entropy(outputs, labels.float()))
attempt('cross_entropy one-hot', lambda: F.cross_entropy(outputs, F.one_hot(labels, 10)))
attempt('cross_entropy class 10', lambda: F.cross_entropy(outputs, torch.tensor([1, 0, 3, 10])))
attempt('nll 2-d target', lambda: F.nll_loss(outputs, labels.view(4, 1)))
attempt('add [4,10]+[4]', lambda: outputs + labels)
attempt('add [4,10]+[10]', lambda: outputs + torch.arange(10))

conv = nn.Conv2d(3, 16, 3)
attempt('conv 1 channel', lambda: conv(torch.randn(2, 1, 8, 8)))
attempt('conv 3-d unbatched', lambda: conv(torch.randn(3, 8, 8)))
attempt('conv too small', lambda: conv(torch.randn(1, 3, 2, 2)))
feat = conv(torch.randn(5, 3, 8, 8))
fc = nn.Linear(16 * 6 * 6, 4)
attempt('flatten wrong', lambda: F.cross_entropy(fc(feat.view(-1, 16 * 6 * 3)), torch.zeros(5, dtype=torch.long)))
attempt('flatten right', lambda: F.cross_entropy(fc(feat.view(feat.size(0), -1)), torch.zeros(5, dtype=torch.long)))
attempt('embedding out of range', lambda: nn.Embedding(5, 3)(torch.tensor([1, 5])))
attempt('embedding float index', lambda: nn.Embedding(5, 3)(torch.tensor([1.0, 2.0])))
attempt('cat dims', lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 4)]))
attempt('stack sizes', lambda: torch.stack([torch.randn(2, 3), torch.randn(3, 2)]))
attempt('index dim', lambda: torch.randn(2, 3).sum(dim=2))
attempt('squeeze dim', lambda: torch.randn(2, 3).transpose(0, 2))
attempt('bool of tensor', lambda: bool(torch.tensor([1, 2])))
attempt('item of tensor', lambda: torch.tensor([1.0, 2.0]).item())
attempt('expand', lambda: torch.randn(2, 3).expand(4, 3))
attempt('gather index', lambda: torch.randn(2, 3).gather(1, torch.tensor([[0], [3]])))
