# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# section 6.6 "File I/O", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_builders-guide/read-write.md
# Like the book: torch.save(x, 'x-file') and torch.load of a single tensor, of a list
# [x, y] unpacked into x2, y2, and of a dict {'x': x, 'y': y}; an MLP (Linear(20, 256),
# relu, Linear(256, 10)) whose state_dict is saved to 'mlp.params', a clone MLP loading it
# with load_state_dict and eval(), and Y_clone == Y on the same input.
# Differences: our own code; io.BytesIO buffers instead of files; seeded; the saved
# objects' types are printed as well.
import io

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


def save(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return buf


x = torch.arange(4)
x2 = torch.load(save(x))
print(x2)
y = torch.zeros(4)
x2, y2 = torch.load(save([x, y]))
print(x2, y2)
mydict = {"x": x, "y": y}
mydict2 = torch.load(save(mydict))
print(mydict2)
print(type(mydict2).__name__, x2.dtype, y2.dtype, x2 is x)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.output = nn.Linear(256, 10)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))


net = MLP()
X = torch.randn(size=(2, 20))
Y = net(X)
params = save(net.state_dict())
clone = MLP()
print(clone.load_state_dict(torch.load(params)))
print(clone.eval())
Y_clone = clone(X)
print(Y_clone == Y)
params.seek(0)
state = torch.load(params, weights_only=True)
print({k: (tuple(v.shape), v.dtype, v.requires_grad) for k, v in state.items()})
nested = torch.load(save({"epoch": 3, "tensors": (x, [y, {"w": net.hidden.bias[:3]}])}))
print(nested)
