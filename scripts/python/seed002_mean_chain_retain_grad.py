# Source article 002: the data_in.mean() * 20200910 chain, with retain_grad on data_2.
#
# Before backward every .grad is None. After loss.backward() only the leaf data_in and
# data_2 (which called retain_grad) hold gradients; the other intermediates stay None
# (and reading their .grad warns). d loss / d data_in = 20200910 * 15 / 15 elements.
import torch

torch.manual_seed(20200910)
data_in = torch.randn(3, 5, requires_grad=True)
print(data_in)
data_mean = data_in.mean()
print(data_mean)
print(data_in.requires_grad)
print(data_mean.requires_grad)
data_1 = data_mean * 20200910.0
print(data_1)
data_2 = data_1 * 15.0
print(data_2)
data_2.retain_grad()
data_3 = 2 * (data_2 + 55.0)
loss = data_3 / 2.0 + 89.2
print(loss)
print(data_in.grad, data_mean.grad, data_1.grad, data_2.grad, data_3.grad, loss.grad)
loss.backward()
print(data_in.grad)
print(data_2.grad)
print(data_in.grad, data_mean.grad, data_1.grad, data_2.grad, data_3.grad, loss.grad)
print(data_in.is_leaf, data_mean.is_leaf, data_1.is_leaf, data_2.is_leaf, data_3.is_leaf, loss.is_leaf)
