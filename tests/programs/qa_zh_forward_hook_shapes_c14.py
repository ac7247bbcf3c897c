# Corpus program modelled on a Chinese blog answer on register_forward_hook (hbase.cn): a
# SimpleCNN (conv 1->32, ReLU, max-pool, linear to 10) whose conv1 gets a hook printing the
# module's class name and the input/output shapes; the hook is removed afterwards:
# http://hbase.cn/archives/1576.html
# Changed: a seed and a batch of 2; the post's global hook (register_module_forward_hook) is
# shown too, printing each module it sees, and removed. Written for gradsh.
import torch
import torch.nn as nn


class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, kernel_size=3, stride=1, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.fc = nn.Linear(32 * 14 * 14, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.pool(x)
        x = x.view(x.size(0), -1)
        x = self.fc(x)
        return x


def hook_fn(module, input, output):
    print(f"Inside {module.__class__.__name__}")
    print(f"Input shape: {input[0].shape}")
    print(f"Output shape: {output.shape}")


torch.manual_seed(0)
model = SimpleCNN()
hook = model.conv1.register_forward_hook(hook_fn)
input_tensor = torch.randn(2, 1, 28, 28)
output = model(input_tensor)
print(output.shape)
hook.remove()
output = model(input_tensor)
print("after remove:", output.shape)


def global_hook(module, input, output):
    print("global:", module.__class__.__name__, tuple(output.shape))


handle = nn.modules.module.register_module_forward_hook(global_hook)
out = model(input_tensor)
handle.remove()
print(out.argmax(1))
