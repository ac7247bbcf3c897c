# Corpus program modelled on the PyTorch issue "register_full_backward_hook does not
# consistently fire" (hooks on both Linear layers of a small model; the first layer's input
# does not require grad) and the fix that made them fire (pytorch#56693):
# https://github.com/pytorch/pytorch/issues/56380
# Changed: a seed and a 6-sample batch; the hook also prints grad_input/grad_output shapes
# (None where the input needs no gradient); the warning 2.13 gives for that goes to stderr.
# Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TestModule(nn.Module):
    def __init__(self, input_size, output_size):
        super().__init__()
        internal_size = 5
        self.linear1 = nn.Linear(input_size, internal_size)
        self.linear2 = nn.Linear(internal_size, output_size)

    def forward(self, x):
        x = self.linear1(x)
        x = F.relu(x)
        x = self.linear2(x)
        return x


model = TestModule(4, 3)


def print_hook(module: nn.Module, _inputs, _outputs):
    print('hook triggered on', module)
    print('  grad_input:', [None if g is None else tuple(g.shape) for g in _inputs])
    print('  grad_output:', [None if g is None else tuple(g.shape) for g in _outputs])


for module in model.modules():
    if isinstance(module, nn.Linear):
        module.register_full_backward_hook(print_hook)
        print('added hook to', module)

x, y = torch.rand(size=(6, 4)), torch.randint(low=0, high=3, size=(6,))
loss = F.cross_entropy(model(x), y)

print('backward started')
loss.backward()
print('backward complete')
print(loss)
