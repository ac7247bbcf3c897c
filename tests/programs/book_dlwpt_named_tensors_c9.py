# Corpus program, written for gradsh (no code copied). Modelled on Stevens, Antiga and
# Viehmann, "Deep Learning with PyTorch", chapter 3 notebook 2_named_tensors.ipynb:
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch3/2_named_tensors.ipynb
# Like the original: RGB-to-gray of an image [channels, rows, columns] and a batch with a
# naive mean(-3), with weights unsqueezed twice (unsqueeze then unsqueeze_), with
# einsum('...chw,c->...hw'); named tensors: tensor(..., names=['channels']), refine_names(...,
# 'channels', 'rows', 'columns'), align_as, sum('channels'), the error from multiplying
# misaligned names (caught and printed), rename(None).
# Differences: seeded; the notebook's cell values are printed. PyTorch 2.13 no longer has
# named tensors, so each named-tensor cell runs in try/except and prints the error a reader
# running the book's code gets, and the plain-tensor equivalents follow.
import torch


def cell(f):
    try:
        print(f())
    except Exception as e:
        print(f"{type(e).__name__}: {e}")


torch.manual_seed(0)
cell(lambda: torch.tensor([0.2126, 0.7152, 0.0722], names=['c']))
img_t = torch.randn(3, 5, 5)
weights = torch.tensor([0.2126, 0.7152, 0.0722])
batch_t = torch.randn(2, 3, 5, 5)
img_gray_naive = img_t.mean(-3)
batch_gray_naive = batch_t.mean(-3)
print((img_gray_naive.shape, batch_gray_naive.shape))
unsqueezed_weights = weights.unsqueeze(-1).unsqueeze_(-1)
img_weights = (img_t * unsqueezed_weights)
batch_weights = (batch_t * unsqueezed_weights)
img_gray_weighted = img_weights.sum(-3)
batch_gray_weighted = batch_weights.sum(-3)
print((batch_weights.shape, batch_t.shape, unsqueezed_weights.shape))
img_gray_weighted_fancy = torch.einsum('...chw,c->...hw', img_t, weights)
batch_gray_weighted_fancy = torch.einsum('...chw,c->...hw', batch_t, weights)
print(batch_gray_weighted_fancy.shape)
print(img_gray_weighted_fancy)
print((img_gray_weighted_fancy - img_gray_weighted).abs().max())

cell(lambda: torch.tensor([0.2126, 0.7152, 0.0722], names=['channels']))
cell(lambda: img_t.refine_names(..., 'channels', 'rows', 'columns'))
cell(lambda: batch_t.names)
cell(lambda: weights.align_as(img_t))
cell(lambda: img_t.sum('channels'))
cell(lambda: img_t.rename(None))
cell(lambda: torch.zeros(2, 3, names=('a', 'b')))
cell(lambda: torch.randn(2, 3, names=None))
# the plain-tensor equivalents
weights_aligned = weights[:, None, None]
print((weights_aligned.shape, weights_aligned.dim()))
gray = (img_t * weights_aligned).sum(-3)
print((gray.shape, gray))
try:
    gray = (img_t[..., :3] * weights).sum(-3)
except Exception as e:
    print(e)
print((img_t[..., :3] * weights).sum(-3).shape)
print(batch_t.permute(0, 3, 1, 2).shape, batch_t.mean(-2).shape)
