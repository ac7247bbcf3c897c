# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# 《深入浅出PyTorch》 (thorough-pytorch), section 3.6 损失函数:
# https://github.com/datawhalechina/thorough-pytorch/blob/main/source/第三章/3.6%20损失函数.md
# Like the section, each loss built with its defaults, called on small random (or the
# section's literal) inputs, backward where the section calls it, and printed with the
# section's Chinese label: BCELoss after a Sigmoid, CrossEntropyLoss, L1Loss, MSELoss,
# SmoothL1Loss (and the reduction='none' curve against L1 on a linspace), PoissonNLLLoss,
# KLDivLoss, MarginRankingLoss, MultiLabelMarginLoss, SoftMarginLoss, MultiMarginLoss,
# TripletMarginLoss, HingeEmbeddingLoss, CosineEmbeddingLoss, CTCLoss (padded and unpadded
# targets).
# Differences: a manual seed; the plot is replaced by printing a few points of the two curves;
# the gradients of the inputs are printed too; TripletMarginLoss on 10 x 16 embeddings and
# CTCLoss with T=12, C=6, N=4 instead of 100 x 128 and 50 / 20 / 16; KLDivLoss's
# reduction='mean' warning goes to stderr and is not compared.
import warnings

import torch
import torch.nn as nn

warnings.simplefilter("ignore")
torch.manual_seed(36)

m = nn.Sigmoid()
loss = nn.BCELoss()
input = torch.randn(3, requires_grad=True)
target = torch.empty(3).random_(2)
output = loss(m(input), target)
output.backward()
print('BCELoss损失函数的计算结果为', output)
print(target, input.grad)

loss = nn.CrossEntropyLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, dtype=torch.long).random_(5)
output = loss(input, target)
output.backward()
print(output)
print(target, input.grad)

loss = nn.L1Loss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
output.backward()
print('L1损失函数的计算结果为', output)
print(input.grad)

loss = nn.MSELoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
output.backward()
print('MSE损失函数的计算结果为', output)
print(input.grad)

loss = nn.SmoothL1Loss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
output.backward()
print('SmoothL1Loss损失函数的计算结果为', output)
print(input.grad)

inputs = torch.linspace(-10, 10, steps=5000)
target = torch.zeros_like(inputs)
loss_f_smooth = nn.SmoothL1Loss(reduction='none')
loss_smooth = loss_f_smooth(inputs, target)
loss_f_l1 = nn.L1Loss(reduction='none')
loss_l1 = loss_f_l1(inputs, target)
for idx in (0, 2000, 2450, 2499, 2500, 2550, 4999):
    print(round(inputs[idx].item(), 4), round(loss_smooth[idx].item(), 4), round(loss_l1[idx].item(), 4))
print(loss_smooth.numpy()[::1000])

loss = nn.PoissonNLLLoss()
log_input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
output = loss(log_input, target)
output.backward()
print('PoissonNLLLoss损失函数的计算结果为', output)
print(log_input.grad)

inputs = torch.tensor([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]])
target = torch.tensor([[0.9, 0.05, 0.05], [0.1, 0.7, 0.2]], dtype=torch.float)
loss = nn.KLDivLoss()
output = loss(inputs, target)
print('KLDivLoss损失函数的计算结果为', output)

loss = nn.MarginRankingLoss()
input1 = torch.randn(3, requires_grad=True)
input2 = torch.randn(3, requires_grad=True)
target = torch.randn(3).sign()
output = loss(input1, input2, target)
output.backward()
print('MarginRankingLoss损失函数的计算结果为', output)
print(input1.grad, input2.grad)

loss = nn.MultiLabelMarginLoss()
x = torch.FloatTensor([[0.9, 0.2, 0.4, 0.8]])
y = torch.LongTensor([[3, 0, -1, 1]])
output = loss(x, y)
print('MultiLabelMarginLoss损失函数的计算结果为', output)

inputs = torch.tensor([[0.3, 0.7], [0.5, 0.5]])
target = torch.tensor([[-1, 1], [1, -1]], dtype=torch.float)
loss_f = nn.SoftMarginLoss()
output = loss_f(inputs, target)
print('SoftMarginLoss损失函数的计算结果为', output)

inputs = torch.tensor([[0.3, 0.7], [0.5, 0.5]])
target = torch.tensor([0, 1], dtype=torch.long)
loss_f = nn.MultiMarginLoss()
output = loss_f(inputs, target)
print('MultiMarginLoss损失函数的计算结果为', output)

triplet_loss = nn.TripletMarginLoss(margin=1.0, p=2)
anchor = torch.randn(10, 16, requires_grad=True)
positive = torch.randn(10, 16, requires_grad=True)
negative = torch.randn(10, 16, requires_grad=True)
output = triplet_loss(anchor, positive, negative)
output.backward()
print('TripletMarginLoss损失函数的计算结果为', output)
print(anchor.grad[0])

loss_f = nn.HingeEmbeddingLoss()
inputs = torch.tensor([[1., 0.8, 0.5]])
target = torch.tensor([[1, 1, -1]])
output = loss_f(inputs, target)
print('HingEmbeddingLoss损失函数的计算结果为', output)

loss_f = nn.CosineEmbeddingLoss()
inputs_1 = torch.tensor([[0.3, 0.5, 0.7], [0.3, 0.5, 0.7]])
inputs_2 = torch.tensor([[0.1, 0.3, 0.5], [0.1, 0.3, 0.5]])
target = torch.tensor([1, -1], dtype=torch.float)
output = loss_f(inputs_1, inputs_2, target)
print('CosineEmbeddingLoss损失函数的计算结果为', output)

T, C, N, S, S_min = 12, 6, 4, 5, 2
input = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
target = torch.randint(low=1, high=C, size=(N, S), dtype=torch.long)
input_lengths = torch.full(size=(N,), fill_value=T, dtype=torch.long)
target_lengths = torch.randint(low=S_min, high=S, size=(N,), dtype=torch.long)
ctc_loss = nn.CTCLoss()
loss = ctc_loss(input, target, input_lengths, target_lengths)
loss.backward()
print('CTCLoss (padded)', loss, target_lengths)
print(input.grad[0])

input = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
input_lengths = torch.full(size=(N,), fill_value=T, dtype=torch.long)
target_lengths = torch.randint(low=1, high=T // 2, size=(N,), dtype=torch.long)
target = torch.randint(low=1, high=C, size=(sum(target_lengths),), dtype=torch.long)
ctc_loss = nn.CTCLoss()
loss = ctc_loss(input, target, input_lengths, target_lengths)
loss.backward()
print('CTCLoss损失函数的计算结果为', loss)
print(input.grad[-1])
