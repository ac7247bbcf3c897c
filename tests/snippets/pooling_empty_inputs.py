# Pooling on empty inputs and inputs of the wrong rank: pool3d_shape_check's non-batch check (its
# message prints the empty dimension's size), adaptive pooling's empty-dimension checks (2-D: the
# spatial dimensions only; 3-D: every one after the first) and adaptive_avg_pool1d's rank error.
import torch
import torch.nn as nn
import torch.nn.functional as F
cases = [
    ("MaxPool3d unbatched empty",
     lambda: nn.MaxPool3d(2)(torch.empty(0, 4, 4, 4))),
    ("MaxPool3d batched empty", lambda: nn.MaxPool3d(2)(torch.empty(0, 1, 4, 4, 4))),
    ("MaxPool3d empty C", lambda: nn.MaxPool3d(2)(torch.empty(1, 0, 4, 4, 4))),
    ("MaxPool3d empty spatial", lambda: nn.MaxPool3d(2)(torch.empty(1, 1, 0, 4, 4))),
    ("MaxPool2d unbatched empty", lambda: nn.MaxPool2d(2)(torch.empty(0, 4, 4))),
    ("MaxPool2d batch empty", lambda: nn.MaxPool2d(2)(torch.empty(0, 1, 4, 4))),
    ("MaxPool1d empty", lambda: nn.MaxPool1d(2)(torch.empty(0, 4))),
    ("AvgPool3d unbatched empty", lambda: nn.AvgPool3d(2)(torch.empty(0, 4, 4, 4))),
    ("AvgPool2d empty", lambda: nn.AvgPool2d(2)(torch.empty(0, 1, 4, 4))),
    ("adaptive_avg_pool2d 5D", lambda: F.adaptive_avg_pool2d(torch.ones(1, 1, 2, 4, 4), 2)),
    ("adaptive_max_pool2d 5D", lambda: F.adaptive_max_pool2d(torch.ones(1, 1, 2, 4, 4), 2)),
    ("adaptive_avg_pool1d 4D", lambda: F.adaptive_avg_pool1d(torch.ones(1, 1, 2, 4), 2)),
    ("adaptive_avg_pool3d 6D", lambda: F.adaptive_avg_pool3d(torch.ones(1, 1, 1, 2, 4, 4), 2)),
    ("adaptive_avg_pool2d 2D", lambda: F.adaptive_avg_pool2d(torch.ones(4, 4), 2)),
    ("adaptive_avg_pool2d empty", lambda: F.adaptive_avg_pool2d(torch.ones(0, 1, 4, 4), 2)),
    ("adaptive_avg_pool2d empty C", lambda: F.adaptive_avg_pool2d(torch.ones(1, 0, 4, 4), 2)),
    ("adaptive_avg_pool2d empty H", lambda: F.adaptive_avg_pool2d(torch.ones(1, 1, 0, 4), 2)),
    ("adaptive_max_pool2d empty", lambda: F.adaptive_max_pool2d(torch.ones(0, 1, 4, 4), 2)),
    ("adaptive_avg_pool3d empty", lambda: F.adaptive_avg_pool3d(torch.ones(0, 1, 4, 4, 4), 2)),
    ("max_pool3d unbatched ok", lambda: nn.MaxPool3d(2)(torch.ones(1, 4, 4, 4)).shape),
    ("MaxPool3d grad empty", lambda: nn.MaxPool3d(2)(torch.empty(0, 1, 4, 4, 4, requires_grad=True)).sum().backward()),
]
for name, fn in cases:
    try:
        r = fn()
        print(name, "->", r if not isinstance(r, torch.Tensor) else (r.shape, r.grad_fn.name() if r.grad_fn else None))
    except Exception as e:
        print(name, "->", type(e).__name__, str(e).splitlines()[0] if str(e) else "")
more = [("maxpad", lambda: nn.MaxPool3d(2, padding=2)(torch.empty(1, 0, 4, 4, 4))),
        ("avg empty C", lambda: nn.AvgPool3d(2)(torch.empty(1, 0, 4, 4, 4))),
        ("avg empty batch", lambda: nn.AvgPool3d(2)(torch.empty(0, 1, 4, 4, 4)).shape),
        ("avg small", lambda: nn.AvgPool3d(2)(torch.empty(1, 0, 1, 4, 4))),
        ("aap3 empty", lambda: F.adaptive_avg_pool3d(torch.ones(1, 1, 0, 4, 4), 2)),
        ("aap3 emptyC", lambda: F.adaptive_avg_pool3d(torch.ones(1, 0, 2, 4, 4), 2)),
        ("amp2 emptyH", lambda: F.adaptive_max_pool2d(torch.ones(1, 1, 0, 4), 2)),
        ("aap2 3D emptyC", lambda: F.adaptive_avg_pool2d(torch.ones(0, 4, 4), 2)),
        ("aap2 3D emptyW", lambda: F.adaptive_avg_pool2d(torch.ones(2, 4, 0), 2)),
        ("aap2 mean path", lambda: F.adaptive_avg_pool2d(torch.ones(1, 1, 0, 4), 1)),
        ("aap1 emptyL", lambda: F.adaptive_avg_pool1d(torch.ones(1, 1, 0), 2)),
        ("amp3 empty", lambda: F.adaptive_max_pool3d(torch.ones(1, 1, 0, 4, 4), 2)),
        ("aap1 1D", lambda: F.adaptive_avg_pool1d(torch.ones(4), 2))]
for name, fn in more:
    try:
        r = fn()
        print(name, "->", r)
    except Exception as e:
        print(name, "->", type(e).__name__, str(e).splitlines()[0] if str(e) else "")
for name, fn in [("aap3 4D emptyC", lambda: F.adaptive_avg_pool3d(torch.ones(0, 2, 4, 4), 2)),
                 ("aap3 4D emptyD", lambda: F.adaptive_avg_pool3d(torch.ones(1, 0, 4, 4), 2))]:
    try: print(name, "->", fn())
    except Exception as e: print(name, "->", type(e).__name__, str(e).splitlines()[0])
