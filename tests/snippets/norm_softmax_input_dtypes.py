# Found by corpus10 (Q&A programs feeding float64 NumPy data or integer tensors to a float32
# model): the normalisations' CPU dtype checks (a float64 input to a float32 BatchNorm1d or
# LayerNorm raises "mixed dtype (CPU)", integer inputs name the kernel that refuses them,
# float16/bfloat16 inputs take float32 parameters) and softmax's kernel names per dimension.
import torch
import torch.nn.functional as F


def show(label, f):
    try:
        out = f()
        print(label, "->", out.dtype, tuple(out.shape))
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


kinds = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
x = torch.randn(2, 3, 4)
for di in kinds:
    for dw in kinds:
        tag = f"{str(di)[6:]}/{str(dw)[6:]}"
        show("bn " + tag, lambda: F.batch_norm(x.to(di), torch.zeros(3, dtype=dw),
                                               torch.ones(3, dtype=dw), torch.ones(3, dtype=dw),
                                               None, True))
        show("bn stats " + tag, lambda: F.batch_norm(x.to(di), torch.zeros(3, dtype=dw),
                                                     torch.ones(3, dtype=dw), training=False))
        show("ln " + tag, lambda: F.layer_norm(x.to(di), (4,), torch.ones(4, dtype=dw)))
        show("gn " + tag, lambda: F.group_norm(x.to(di), 1, None, torch.zeros(3, dtype=dw)))
ints = torch.arange(24).view(2, 3, 4)
for t in (ints, ints.int(), ints > 3):
    show("BatchNorm1d", lambda: torch.nn.BatchNorm1d(3)(t))
    show("batch_norm", lambda: F.batch_norm(t, None, None, training=True))
    show("instance_norm", lambda: F.instance_norm(t))
    show("LayerNorm", lambda: torch.nn.LayerNorm(4)(t))
    show("layer_norm", lambda: F.layer_norm(t, (4,)))
    show("GroupNorm", lambda: torch.nn.GroupNorm(1, 3)(t))
    show("group_norm", lambda: F.group_norm(t, 3))
    for d in (0, 1, 2, -1):
        show(f"softmax {d}", lambda: torch.softmax(t, d))
        show(f"log_softmax {d}", lambda: F.log_softmax(t, dim=d))
show("softmax 0-d", lambda: torch.softmax(torch.tensor(3), 0))
show("BatchNorm1d float64", lambda: torch.nn.BatchNorm1d(3)(x.double()))
show("BatchNorm1d eval float64", lambda: torch.nn.BatchNorm1d(3).eval()(x.double()))
show("BatchNorm1d double()", lambda: torch.nn.BatchNorm1d(3).double()(x.double()))
show("LayerNorm float64", lambda: torch.nn.LayerNorm(4)(x.double()))
show("LayerNorm double() on float", lambda: torch.nn.LayerNorm(4).double()(x))
show("InstanceNorm1d affine float64", lambda: torch.nn.InstanceNorm1d(3, affine=True)(x.double()))
