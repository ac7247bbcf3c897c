# Corpus program, written for gradsh (no code copied). Modelled on TingsongYu's PyTorch_Tutorial
# (Chinese "PyTorch 模型训练实用教程"), Code/3_optimizer/3_2_optimizer: 1_param_groups.py,
# 2_zero_grad.py, 3_state_dict.py, 4_load_state_dict.py, 5_add_param_group.py:
# https://github.com/TingsongYu/PyTorch_Tutorial/tree/master/Code/3_optimizer/3_2_optimizer
# Like the sources: leaf tensors made by torch.randn then requires_grad = True; optimizers with
# one and with two parameter groups and their param_groups lists printed (tensors inside the
# dicts); a gradient set by hand through optimizer.param_groups[0]['params'][0].grad and
# zero_grad(); a small Net's state_dict type, keys and shapes; save, zero_param() (constant_
# on weight.data, bias.data.zero_()), and load_state_dict restoring the weights (the printed
# state_dict tensor shares storage, so it shows the restored values); add_param_group with
# its own lr and momentum. Chinese labels kept.
# Differences: the five scripts in one program; seeded; the checkpoint kept in memory
# (io.BytesIO) instead of net_params.pkl; an SGD step and the optimizer's state_dict added.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)
w1 = torch.randn(2, 2)
w1.requires_grad = True
w2 = torch.randn(2, 2)
w2.requires_grad = True
w3 = torch.randn(2, 2)
w3.requires_grad = True

optimizer_1 = optim.SGD([w1, w3], lr=0.1)
print('len(optimizer.param_groups): ', len(optimizer_1.param_groups))
print(optimizer_1.param_groups, '\n')
optimizer_2 = optim.SGD([{'params': w1, 'lr': 0.1},
                         {'params': w2, 'lr': 0.001}])
print('len(optimizer.param_groups): ', len(optimizer_2.param_groups))
print(optimizer_2.param_groups)
print(optimizer_2)

optimizer = optim.SGD([w1, w2], lr=0.001, momentum=0.9)
optimizer.param_groups[0]['params'][0].grad = torch.randn(2, 2)
print('参数w1的梯度：')
print(optimizer.param_groups[0]['params'][0].grad, '\n')
optimizer.step()
print(optimizer.state_dict())
optimizer.zero_grad()
print('执行zero_grad()之后，参数w1的梯度：')
print(optimizer.param_groups[0]['params'][0].grad)
optimizer.param_groups[0]['params'][0].grad = torch.ones(2, 2)
optimizer.zero_grad(set_to_none=False)
print(w1.grad)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 1, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(1 * 3 * 3, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = x.view(-1, 1 * 3 * 3)
        x = F.relu(self.fc1(x))
        return x

    def zero_param(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                torch.nn.init.constant_(m.weight.data, 0)
                if m.bias is not None:
                    m.bias.data.zero_()
            elif isinstance(m, nn.Linear):
                torch.nn.init.constant_(m.weight.data, 0)
                m.bias.data.zero_()


net = Net()
net_state_dict = net.state_dict()
print('net_state_dict类型：', type(net_state_dict))
print('net_state_dict管理的参数: ', net_state_dict.keys())
for key, value in net_state_dict.items():
    print('参数名: ', key, '\t大小: ', value.shape)

buffer = io.BytesIO()
torch.save(net.state_dict(), buffer)
buffer.seek(0)
pretrained_dict = torch.load(buffer)
net.zero_param()
net_state_dict = net.state_dict()
print('conv1层的权值为:\n', net_state_dict['conv1.weight'], '\n')
print(net.load_state_dict(pretrained_dict))
print('加载之后，conv1层的权值变为:\n', net_state_dict['conv1.weight'])
print(net(torch.ones(1, 3, 8, 8)))

optimizer_1 = optim.SGD([w1, w2], lr=0.1)
print('当前参数组个数: ', len(optimizer_1.param_groups))
print(optimizer_1.param_groups, '\n')
print('增加一组参数 w3\n')
optimizer_1.add_param_group({'params': w3, 'lr': 0.001, 'momentum': 0.8})
print('当前参数组个数: ', len(optimizer_1.param_groups))
print(optimizer_1.param_groups, '\n')
try:
    optimizer_1.add_param_group({'params': w3})
except ValueError as e:
    print('ValueError:', e)
(w1.sum() + w2.sum() + (w3 ** 2).sum()).backward()
optimizer_1.step()
optimizer_1.step()
print(optimizer_1.state_dict()['state'])
print(w3)
