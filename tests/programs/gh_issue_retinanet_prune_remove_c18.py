# Corpus program modelled on the issue "pruning" in NVIDIA/retinanet-examples
# (https://github.com/NVIDIA/retinanet-examples/issues/257), which follows PyTorch's pruning
# tutorial: prune.global_unstructured with prune.L1Unstructured and amount=0.2 over a list of
# (module, "weight") pairs, then prune.remove(model, "weight") on the whole model fails with
# "Parameter 'weight' of module ... has to be pruned before pruning can be removed"; the answer
# removes the reparametrisation module by module. The program prints the error, the masks, the
# weight_orig/weight_mask names, the forward pre-hooks and the sparsity before and after.
# Changed: a small convolutional model instead of RetinaNet, a seed; the error is caught and
# printed. Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.conv2 = nn.Conv2d(2, 2, 3)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        return self.fc(x.flatten(1))


torch.manual_seed(0)
model = Net()
parameters_to_prune = ((model.conv1, 'weight'), (model.conv2, 'weight'), (model.fc, 'weight'))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
print([n for n, _ in model.conv1.named_parameters()])
print([n for n, _ in model.conv1.named_buffers()])
print(model.conv1.weight_mask)
print(model.conv1._forward_pre_hooks)
for m, _ in parameters_to_prune:
    print(type(m).__name__, float(torch.sum(m.weight == 0)), m.weight.nelement())
total = sum(float(torch.sum(m.weight == 0)) for m, _ in parameters_to_prune)
print("Global sparsity: {:.2f}%".format(100.0 * total / sum(m.weight.nelement()
                                                              for m, _ in parameters_to_prune)))
try:
    prune.remove(model, 'weight')
except ValueError as e:
    print(e)
x = torch.randn(2, 1, 6, 6)
out = model(x)
out.sum().backward()
print(model.conv1.weight_orig.grad)
print(model.conv1.weight.grad)
prune.remove(model.conv1, 'weight')
prune.remove(model.conv2, 'weight')
print([n for n, _ in model.conv1.named_parameters()], list(model.conv1.named_buffers()))
print(model.conv1.weight)
print(prune.is_pruned(model), prune.is_pruned(model.conv1))
prune.l1_unstructured(model.fc, name='bias', amount=1)
print(model.fc.bias, model.fc.bias_mask)
prune.random_unstructured(model.conv2, name='weight', amount=0.5)
print(int((model.conv2.weight == 0).sum()))
print(list(model.state_dict().keys()))
