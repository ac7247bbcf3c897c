# Corpus program, written for gradsh (no code copied). Modelled on TingsongYu's Chinese book
# "PyTorch实用教程（第二版）", chapter 4 section 3 (nn的网络层) companion notebook, as mirrored in
# https://github.com/huaiyuechusan/pytorch-tutorial-2nd (code/chapter-4/03_nn_layers.ipynb):
# an image tensor through Conv2d(3, 1, 3), MaxPool2d((2, 2), stride=(2, 2)) with and without
# return_indices, MaxUnpool2d(2, stride=2), AdaptiveMaxPool2d, ReflectionPad2d,
# ReplicationPad2d, ZeroPad2d and ConstantPad2d, printing the sizes before and after in the
# notebook's Chinese format; its transform_invert turning a CHW tensor back into an HWC uint8
# array; the BatchNorm2d demo on stacked constant feature maps (shapes of running_mean,
# running_var, weight, bias per iteration, outputs all zero); and the Dropout demo: a
# Linear(10000, 1) of ones behind Dropout(0.5), output in training and in eval mode.
# Differences: a seeded random 3x45x38 "image" instead of the COVID-19 JPEG (no PIL/
# torchvision), paddings scaled down to its size, no plotting; transform_invert keeps its
# NumPy steps but returns the array instead of a PIL image.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


def transform_invert(img_):
    img_ = img_.transpose(0, 2).transpose(0, 1)  # C*H*W --> H*W*C
    if img_.max() < 1:
        img_ = img_.detach().numpy() * 255
    else:
        img_ = img_.detach().numpy()
    return img_.astype("uint8")


img_tensor = torch.rand(3, 45, 38)
img_tensor.unsqueeze_(dim=0)

conv_layer = nn.Conv2d(3, 1, 3, stride=1, padding=0, dilation=1)
img_conv = conv_layer(img_tensor)
print("卷积前尺寸:{}\n卷积后尺寸:{}".format(img_tensor.shape, img_conv.shape))
arr = transform_invert(img_conv[0, 0:1, ...])
print(arr.shape, arr.dtype, arr[:2, :6, 0])
raw = transform_invert(img_tensor.squeeze())
print(raw.shape, raw[0, :5])

maxpool_layer = nn.MaxPool2d((2, 2), stride=(2, 2), return_indices=False, ceil_mode=False)
img_pool = maxpool_layer(img_tensor)
print("池化前尺寸:{}\n池化后尺寸:{}".format(img_tensor.shape, img_pool.shape))

maxpool_layer = nn.MaxPool2d((2, 2), stride=(2, 2), return_indices=True, ceil_mode=False)
img_pool, indices = maxpool_layer(img_tensor)
maxunpool_layer = nn.MaxUnpool2d(2, stride=2)
img_pool_unpool = maxunpool_layer(img_pool, indices)
print("原图尺寸:{}\n池化前尺寸:{}\n反池化后尺寸:{}".format(img_tensor.shape, img_pool.shape,
                                                 img_pool_unpool.shape))
print(indices[0, 0, :2, :4])
print(img_pool_unpool[0, 0, :4, :6])
print((img_pool_unpool != 0).sum().item(), img_pool.numel())

ada_maxpool_layer = nn.AdaptiveMaxPool2d((16, 16))
img_pool = ada_maxpool_layer(img_tensor)
print("原图尺寸:{}\n池化后尺寸:{}".format(img_tensor.shape, img_pool.shape))

for pad2d in (nn.ReflectionPad2d(10), nn.ReplicationPad2d(5), nn.ZeroPad2d(5),
              nn.ConstantPad2d(5, 128)):
    img_pad = pad2d(img_tensor)
    print(pad2d)
    print("原图尺寸:{}\n填充后尺寸:{}".format(img_tensor.shape, img_pad.shape))
    print(transform_invert(img_pad[0, 0:3, ...])[0, :4])

batch_size = 3
num_features = 6
momentum = 0.3
features_shape = (2, 2)
feature_map = torch.ones(features_shape)
feature_maps = torch.stack([feature_map * (i + 1) for i in range(num_features)], dim=0)
feature_maps_bs = torch.stack([feature_maps for i in range(batch_size)], dim=0)
print("input data:\n{} \nshape is {}".format(feature_maps_bs, feature_maps_bs.shape))
bn = nn.BatchNorm2d(num_features=num_features, momentum=momentum)
running_mean, running_var = 0, 1
for i in range(2):
    outputs = bn(feature_maps_bs)
    print("\niter:{}, running_mean.shape: {}".format(i, bn.running_mean.shape))
    print("iter:{}, running_var.shape: {}".format(i, bn.running_var.shape))
    print("iter:{}, weight.shape: {}".format(i, bn.weight.shape))
    print("iter:{}, bias.shape: {}".format(i, bn.bias.shape))
    print("\noutputs:{}".format(outputs[0]))
print(bn.running_mean, bn.running_var)


class Net(nn.Module):
    def __init__(self, neural_num, d_prob=0.5):
        super(Net, self).__init__()
        self.linears = nn.Sequential(
            nn.Dropout(d_prob),
            nn.Linear(neural_num, 1, bias=False),
            nn.ReLU(inplace=True))

    def forward(self, x):
        return self.linears(x)


input_num = 10000
x = torch.ones((input_num, ), dtype=torch.float32)
net = Net(input_num, d_prob=0.5)
net.linears[1].weight.detach().fill_(1.)
net.train()
y = net(x)
print("output in training mode", y)
net.eval()
y = net(x)
print("output in eval mode", y)
print(net)
