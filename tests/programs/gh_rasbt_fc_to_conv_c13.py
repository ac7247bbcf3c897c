# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# deeplearning-models notebook "Replacing Fully-Connected by Equivalent Convolutional Layers"
# (MIT): https://github.com/rasbt/deeplearning-models/blob/master/pytorch_ipynb/cnn/fc-to-conv.ipynb
# Like the original: a 1x1x2x2 input, a Linear(4, 2) with hand-set weights and bias written
# through .data, then the same computation as a Conv2d whose kernel covers the whole input
# (kernel_size taken from inputs.squeeze(dim=0).squeeze(dim=0).size()) and as a 1x1 Conv2d on
# the input viewed as (1, 4, 1, 1); each printed after torch.relu.
# Differences: a check that all three agree (torch.allclose / equal), the gradients of the
# three versions compared, and a batched random input added; seeded.
import torch

torch.manual_seed(123)
inputs = torch.tensor([[[[1., 2.],
                         [3., 4.]]]])
print(inputs.shape)

fc = torch.nn.Linear(4, 2)
weights = torch.tensor([[1.1, 1.2, 1.3, 1.4],
                        [1.5, 1.6, 1.7, 1.8]])
bias = torch.tensor([1.9, 2.0])
fc.weight.data = weights
fc.bias.data = bias
out_fc = torch.relu(fc(inputs.view(-1, 4)))
print(out_fc)

conv = torch.nn.Conv2d(in_channels=1, out_channels=2,
                       kernel_size=inputs.squeeze(dim=(0)).squeeze(dim=(0)).size())
print(conv)
print(conv.weight.size())
print(conv.bias.size())
conv.weight.data = weights.view(2, 1, 2, 2)
conv.bias.data = bias
out_conv = torch.relu(conv(inputs))
print(out_conv)

conv1 = torch.nn.Conv2d(in_channels=4, out_channels=2, kernel_size=(1, 1))
print(conv1)
conv1.weight.data = weights.view(2, 4, 1, 1)
conv1.bias.data = bias
out_conv1 = torch.relu(conv1(inputs.view(1, 4, 1, 1)))
print(out_conv1)

print(torch.equal(out_fc, out_conv.view(1, 2)), torch.allclose(out_fc, out_conv1.flatten(1)))

# gradients of the three equivalent layers
for layer, x in ((fc, inputs.view(-1, 4)), (conv, inputs), (conv1, inputs.view(1, 4, 1, 1))):
    layer.zero_grad()
    out = torch.relu(layer(x)).sum()
    out.backward()
    print(type(layer).__name__, out.item(), layer.weight.grad.flatten(), layer.bias.grad)

# a random batch through the fully connected and the convolutional version
xb = torch.randn(5, 1, 2, 2)
a = fc(xb.view(5, 4))
b = conv(xb).view(5, 2)
c = conv1(xb.view(5, 4, 1, 1)).view(5, 2)
print(a)
print((a - b).abs().max(), (a - c).abs().max())
