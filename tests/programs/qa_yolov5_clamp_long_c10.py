# Corpus program, written for gradsh (no code copied). Modelled on the YOLOv5 issue thread
# "RuntimeError: result type Float can't be cast to the desired output type long int"
# (https://github.com/ppogg/YOLOv5-Lite/issues/215, pointing at utils/loss.py's build_targets:
# `indices.append((b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))`, and the fix
# of casting the bound to an integer, as the linked CSDN post and later YOLOv5 versions do with
# `shape[2] - 1`). The program runs a build_targets of the same shape as YOLOv5's ComputeLoss
# (gain, anchor indices appended to the targets, the wh-ratio anchor match, the neighbouring
# cell offsets, gij = (gxy - offsets).long(), the clamped grid indices, tbox and anch) on
# synthetic targets, first with the float bounds the thread reports (a 0-d float tensor, then
# a Python float as `w - 1` after scaling) and their errors, then with the integer fixes.
# Differences: two detection layers with 3 anchors each, feature maps given by shape only;
# the targets are seeded random boxes; printing what the thread's users inspect.
import torch

torch.manual_seed(0)
na, nl = 3, 2
anchors = torch.tensor([[[1.25, 1.625], [2.0, 3.75], [4.125, 2.875]],
                        [[1.875, 3.8125], [3.875, 2.8125], [3.6875, 7.4375]]])
shapes = [(1, na, 20, 24, 9), (1, na, 10, 12, 9)]
nt = 6
targets = torch.cat([torch.randint(0, 2, (nt, 1)).float(), torch.randint(0, 4, (nt, 1)).float(),
                     torch.rand(nt, 2) * 0.8 + 0.1, torch.rand(nt, 2) * 0.3 + 0.02], 1)
print(targets)


def build_targets(targets, bound):
    tcls, tbox, indices, anch = [], [], [], []
    gain = torch.ones(7)
    ai = torch.arange(na).float().view(na, 1).repeat(1, nt)
    targets = torch.cat((targets.repeat(na, 1, 1), ai[:, :, None]), 2)
    g = 0.5
    off = torch.tensor([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]]).float() * g
    for i in range(nl):
        anchors_i, shape = anchors[i], shapes[i]
        gain[2:6] = torch.tensor(shape)[[3, 2, 3, 2]]
        t = targets * gain
        r = t[:, :, 4:6] / anchors_i[:, None]
        j = torch.max(r, 1 / r).max(2)[0] < 4.0
        t = t[j]
        gxy = t[:, 2:4]
        gxi = gain[[2, 3]] - gxy
        j, k = ((gxy % 1 < g) & (gxy > 1)).T
        l, m = ((gxi % 1 < g) & (gxi > 1)).T
        j = torch.stack((torch.ones_like(j), j, k, l, m))
        t = t.repeat((5, 1, 1))[j]
        offsets = (torch.zeros_like(gxy)[None] + off[:, None])[j]
        b, c = t[:, :2].long().T
        gxy = t[:, 2:4]
        gwh = t[:, 4:6]
        gij = (gxy - offsets).long()
        gi, gj = gij.T
        a = t[:, 6].long()
        if bound == "tensor":
            hi_j, hi_i = gain[3] - 1, gain[2] - 1
        elif bound == "float":
            hi_j, hi_i = float(gain[3]) * 1.0 - 1, float(gain[2]) - 1
        elif bound == "long":
            hi_j, hi_i = gain[3].long() - 1, gain[2].long() - 1
        else:
            hi_j, hi_i = shape[2] - 1, shape[3] - 1
        indices.append((b, a, gj.clamp_(0, hi_j), gi.clamp_(0, hi_i)))
        tbox.append(torch.cat((gxy - gij, gwh), 1))
        anch.append(anchors_i[a])
        tcls.append(c)
    return tcls, tbox, indices, anch


for bound in ("tensor", "float", "long", "int"):
    try:
        tcls, tbox, indices, anch = build_targets(targets, bound)
    except RuntimeError as e:
        print(bound, "RuntimeError:", e)
        continue
    print(bound, [len(c) for c in tcls])
    for i in range(nl):
        b, a, gj, gi = indices[i]
        print(i, b, a, gj, gi, gj.dtype)
        print(tbox[i][:4])
        print(anch[i][:3], tcls[i])

gi = torch.tensor([-2, 5, 30, 12])
for lo, hi in ((0, 23.0), (0.0, 23), (0, 23)):
    try:
        print(lo, hi, gi.clone().clamp_(lo, hi))
    except RuntimeError as e:
        print(lo, hi, "RuntimeError:", e)
print(gi.clamp(0, 23.0), gi.clamp(0, 23), gi.clamp(min=torch.tensor(1)))
for dt in (torch.int32, torch.int16, torch.uint8):
    try:
        gi.abs().to(dt).clamp_(max=7.5)
    except RuntimeError as e:
        print(dt, "RuntimeError:", e)
