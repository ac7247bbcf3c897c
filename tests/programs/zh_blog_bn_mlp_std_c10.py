# Corpus program, written for gradsh (no code copied). Modelled on the Chinese study note
# "学习笔记|Pytorch使用教程25(Batch Normalization)" (from the 深度之眼 PyTorch course):
# https://superweb999.com/article/1765881.html
# Like the note: an MLP of `layers` bias-free Linear(neural_num, neural_num) layers, each
# followed (or not) by a BatchNorm1d and ReLU, printing "layers:{}, std:{}" after every layer
# and stopping with "output is nan in {} layers" once the std is nan; initialize() with
# normal_ (std 1) or kaiming_normal_; run without BN and normal init (the activations blow
# up), with kaiming init, and with BN; then the note's BatchNorm1d demo printing
# running_mean / running_var / weight / bias across two forward passes.
# Differences: 20 layers of 64 units on a batch of 16 instead of 100 x 256 (a few seconds);
# seeded with torch.manual_seed instead of the course's set_seed helper.
import torch
import torch.nn as nn

torch.manual_seed(1)


class MLP(nn.Module):
    def __init__(self, neural_num, layers=100, use_bn=False):
        super(MLP, self).__init__()
        self.linears = nn.ModuleList([nn.Linear(neural_num, neural_num, bias=False)
                                      for i in range(layers)])
        self.bns = nn.ModuleList([nn.BatchNorm1d(neural_num) for i in range(layers)])
        self.neural_num = neural_num
        self.use_bn = use_bn

    def forward(self, x):
        for (i, linear), bn in zip(enumerate(self.linears), self.bns):
            x = linear(x)
            if self.use_bn:
                x = bn(x)
            x = torch.relu(x)
            if torch.isnan(x.std()):
                print("output is nan in {} layers".format(i))
                break
            print("layers:{}, std:{}".format(i, x.std().item()))
        return x

    def initialize(self, mode="normal"):
        for m in self.modules():
            if isinstance(m, nn.Linear):
                if mode == "normal":
                    nn.init.normal_(m.weight.data, std=1)
                else:
                    nn.init.kaiming_normal_(m.weight.data)


neural_nums = 64
layer_nums = 20
batch_size = 16
inputs = torch.randn((batch_size, neural_nums))

for use_bn, mode in ((False, "normal"), (False, "kaiming"), (True, "normal")):
    print("use_bn={} init={}".format(use_bn, mode))
    net = MLP(neural_nums, layer_nums, use_bn)
    net.initialize(mode)
    output = net(inputs)
    print(output[0, :4])

batch_size = 3
num_features = 5
momentum = 0.3
features_shape = (1,)
feature_map = torch.ones(features_shape)
feature_maps = torch.stack([feature_map * (i + 1) for i in range(num_features)], dim=0)
feature_maps_bs = torch.stack([feature_maps for i in range(batch_size)], dim=0)
print("input data:\n{} shape is {}".format(feature_maps_bs, feature_maps_bs.shape))
bn = nn.BatchNorm1d(num_features=num_features, momentum=momentum)
running_mean, running_var = 0, 1
for i in range(2):
    outputs = bn(feature_maps_bs)
    print("\niteration:{}, running mean: {} ".format(i, bn.running_mean))
    print("iteration:{}, running var:{} ".format(i, bn.running_var))
    mean_t, var_t = 2, 0
    running_mean = (1 - momentum) * running_mean + momentum * mean_t
    running_var = (1 - momentum) * running_var + momentum * var_t
    print("iteration:{}, 第二个特征的running mean: {} ".format(i, running_mean))
    print("iteration:{}, 第二个特征的running var:{}".format(i, running_var))
print(bn.weight, bn.bias, bn.num_batches_tracked)
print(outputs.squeeze())
