# Corpus program, written for gradsh (no code copied). Modelled on Liu Er's Bilibili course
# "PyTorch深度学习实践" lecture 10 (卷积神经网络 基础篇), copied in many CSDN notes: the shape
# demo (in_channels 5, out_channels 10, a 100x100 input, kernel 3, printing input.shape,
# output.shape, conv_layer.weight.shape), the 5x5 input with the 1..9 kernel assigned through
# conv_layer.weight.data = kernel.data with padding=1 and with stride=2, the MaxPool2d(2) demo
# on a 4x4 input, and the small CNN's (conv 1->10 k5, pool, conv 10->20 k5, fc 320->10) shapes.
# See https://blog.cachecha.com/csdn/weixin_60214220/142373536.html for the weight.data idiom.
# Differences: a 28x28 random batch instead of MNIST, two training steps; seeded.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
in_channels, out_channels = 5, 10
width, height = 100, 100
kernel_size = 3
batch_size = 1
input = torch.randn(batch_size, in_channels, width, height)
conv_layer = torch.nn.Conv2d(in_channels, out_channels, kernel_size=kernel_size)
output = conv_layer(input)
print(input.shape)
print(output.shape)
print(conv_layer.weight.shape)
print(conv_layer)

input = [3, 4, 6, 5, 7,
         2, 4, 6, 8, 2,
         1, 6, 7, 8, 4,
         9, 7, 4, 6, 2,
         3, 7, 5, 4, 1]
input = torch.Tensor(input).view(1, 1, 5, 5)
conv_layer = torch.nn.Conv2d(1, 1, kernel_size=3, padding=1, bias=False)
kernel = torch.Tensor([1, 2, 3, 4, 5, 6, 7, 8, 9]).view(1, 1, 3, 3)
conv_layer.weight.data = kernel.data
output = conv_layer(input)
print(output)
conv_layer = torch.nn.Conv2d(1, 1, kernel_size=3, stride=2, bias=False)
conv_layer.weight.data = kernel.data
print(conv_layer(input))
print(conv_layer)

input = [3, 4, 6, 5,
         2, 4, 6, 8,
         1, 6, 7, 8,
         9, 7, 4, 6]
input = torch.Tensor(input).view(1, 1, 4, 4)
maxpooling_layer = torch.nn.MaxPool2d(kernel_size=2)
output = maxpooling_layer(input)
print(output)
print(maxpooling_layer)


class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = torch.nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = torch.nn.Conv2d(10, 20, kernel_size=5)
        self.pooling = torch.nn.MaxPool2d(2)
        self.fc = torch.nn.Linear(320, 10)

    def forward(self, x):
        batch_size = x.size(0)
        x = F.relu(self.pooling(self.conv1(x)))
        x = F.relu(self.pooling(self.conv2(x)))
        x = x.view(batch_size, -1)
        x = self.fc(x)
        return x


model = Net()
print(model)
x = torch.randn(8, 1, 28, 28)
target = torch.randint(0, 10, (8,))
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)
for step in range(2):
    optimizer.zero_grad()
    outputs = model(x)
    loss = criterion(outputs, target)
    loss.backward()
    optimizer.step()
    print(step, outputs.shape, loss.item())
print(model.conv1.weight.grad.shape, model.fc.bias.grad)
print(sum(p.numel() for p in model.parameters()))
