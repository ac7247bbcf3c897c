# Corpus program, written for gradsh (no code copied). Modelled on TingsongYu's PyTorch_Tutorial
# (Chinese "PyTorch 模型训练实用教程"), Code/3_optimizer/3_1_lossFunction: 1_L1Loss.py,
# 2_MSELoss.py, 3_CrossEntropyLoss.py, 4_NLLLoss.py, 5_PoissonNLLLoss.py, 6_KLDivLoss.py:
# https://github.com/TingsongYu/PyTorch_Tutorial/tree/master/Code/3_optimizer/3_1_lossFunction
# Like the sources: each loss built with the legacy size_average= / reduce= arguments (the
# deprecation warnings go to stderr), outputs made as torch.ones(..., requires_grad=True) * 0.5,
# targets from np.array(...).type(torch.LongTensor), the per-sample losses printed with
# '...{}'.format(...) lines (Chinese labels kept), the first cross-entropy and KL losses
# recomputed by hand with math / NumPy, class weights, ignore_index, PoissonNLLLoss on random
# log-rates.
# Differences: the six scripts in one program; a seed for PoissonNLLLoss's random inputs; each
# loss's gradient added after the printed values.
import math

import numpy as np
import torch
import torch.nn as nn

# L1Loss and MSELoss: reduce=False, size_average=True, size_average=False
for name, cls in (("L1Loss", nn.L1Loss), ("MSELoss", nn.MSELoss)):
    output = torch.ones(2, 2, requires_grad=True) * 0.5
    target = torch.ones(2, 2)
    reduce_False = cls(size_average=True, reduce=False)
    size_average_True = cls(size_average=True, reduce=True)
    size_average_False = cls(size_average=False, reduce=True)
    print(name, reduce_False.reduction, size_average_True.reduction, size_average_False.reduction)
    o_0 = reduce_False(output, target)
    o_1 = size_average_True(output, target)
    o_2 = size_average_False(output, target)
    print('\nreduce=False, 输出同维度的loss:\n{}\n'.format(o_0))
    print('size_average=True，\t求平均:\t{}'.format(o_1))
    print('size_average=False，\t求和:\t{}'.format(o_2))
    print(size_average_False)

# CrossEntropyLoss: base
loss_f = nn.CrossEntropyLoss(weight=None, size_average=True, reduce=False)
output = torch.ones(2, 3, requires_grad=True) * 0.5
target = torch.from_numpy(np.array([0, 1])).type(torch.LongTensor)
loss = loss_f(output, target)
print('--------------------------------------------------- CrossEntropy loss: base')
print('loss: ', loss)
print(target.dtype, target.type())
output_np = output[0].detach().numpy()
target_1 = target[0].numpy()
x_class = output_np[target_1]
exp = math.e
sigma_exp_x = pow(exp, output_np[0]) + pow(exp, output_np[1]) + pow(exp, output_np[2])
log_sigma_exp_x = math.log(sigma_exp_x)
loss_1 = -x_class + log_sigma_exp_x
print('---------------------------------------------------  手动计算')
print('第一个样本的loss：', loss_1)
print(type(x_class).__name__, type(target_1).__name__, target_1.shape)

# CrossEntropyLoss: weight
weight = torch.from_numpy(np.array([0.6, 0.2, 0.2])).float()
loss_f = nn.CrossEntropyLoss(weight=weight, size_average=True, reduce=False)
output = torch.ones(2, 3, requires_grad=True) * 0.5
loss = loss_f(output, target)
print('\n\n--------------------------------------------------- CrossEntropy loss: weight')
print('loss: ', loss)
print('原始loss值为1.0986, 第一个样本是第0类，weight=0.6,所以输出为1.0986*0.6 =', 1.0986 * 0.6)
mean_loss = nn.CrossEntropyLoss(weight=weight, size_average=True)(output, target)
print(mean_loss, loss.sum() / weight[target].sum())

# CrossEntropyLoss: ignore_index
loss_f_1 = nn.CrossEntropyLoss(weight=None, size_average=False, reduce=False, ignore_index=1)
loss_f_2 = nn.CrossEntropyLoss(weight=None, size_average=False, reduce=False, ignore_index=2)
output = torch.ones(3, 3, requires_grad=True) * 0.5
target = torch.from_numpy(np.array([0, 1, 2])).type(torch.LongTensor)
loss_1 = loss_f_1(output, target)
loss_2 = loss_f_2(output, target)
print('\n\n--------------------------------------------------- CrossEntropy loss: ignore_index')
print('ignore_index = 1: ', loss_1)
print('ignore_index = 2: ', loss_2)
loss_1.sum().backward()
print(loss_f_1.ignore_index, loss_f_1.reduction)

# NLLLoss with class weights
weight = torch.from_numpy(np.array([0.6, 0.2, 0.2])).float()
output = torch.from_numpy(np.array([[0.7, 0.2, 0.1], [0.4, 1.2, 0.4]])).float()
output.requires_grad = True
target = torch.from_numpy(np.array([0, 0])).type(torch.LongTensor)
loss_f = nn.NLLLoss(weight=weight, size_average=True, reduce=False)
loss = loss_f(output, target)
print('\nloss: \n', loss)
print('\n第一个样本是0类，loss = -(0.6*0.7)={}'.format(loss[0]))
print('\n第二个样本是0类，loss = -(0.6*0.4)={}'.format(loss[1]))
loss.sum().backward()
print(output.grad)

# PoissonNLLLoss
torch.manual_seed(0)
log_input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
loss_f = nn.PoissonNLLLoss()
loss = loss_f(log_input, target)
print('\nloss: \n', loss)
loss.backward()
print(log_input.grad)
print(nn.PoissonNLLLoss(log_input=False, full=True, size_average=False)(log_input.detach().exp(), target.abs()))

# KLDivLoss
loss_f = nn.KLDivLoss(size_average=False, reduce=False)
loss_f_mean = nn.KLDivLoss(size_average=True, reduce=True)
output = torch.from_numpy(np.array([[0.1132, 0.5477, 0.3390]])).float()
output.requires_grad = True
target = torch.from_numpy(np.array([[0.8541, 0.0511, 0.0947]])).float()
loss_1 = loss_f(output, target)
loss_mean = loss_f_mean(output, target)
print('\nloss: ', loss_1)
print('\nloss_mean: ', loss_mean)
print(loss_f.reduction, loss_f_mean.reduction)
output_np = output[0].detach().numpy()
output_1 = output_np[0]
target_1 = target[0][0].numpy()
loss_1 = target_1 * (np.log(target_1) - output_1)
print('\n第一个样本第一个元素的loss：', loss_1)
