# Source: source article 003 (../shared/seeds/003_6834eb29daaed595.txt, "Pytorch 梯度、求导相关");
# ours: the article's two code blocks (torch.Tensor vs torch.tensor; four ways to create a
# leaf) written out as one program.
# Changes: the article's second block only creates tensors; the lines marked "# ours" print
# what the article says about them (dtype, is_leaf, requires_grad, grad_fn) and show its note
# "只有float类型的数才有梯度" (only floating point tensors can require grad) with the error
# caught and printed.
import torch

x = torch.Tensor([2, 3])
print(x.dtype)  # torch.float32

x = torch.tensor([2, 3])
print(x.dtype)  # torch.int64

# 叶子节点(tensor)的初始化
import torch
import numpy as np

# 方式一
x = torch.randn(2,2, requires_grad=True)  # 2*2随机矩阵
print(x.is_leaf, x.requires_grad, x.grad_fn, x.shape)  # ours

# 方式二
x = torch.autograd.Variable(torch.Tensor([2,3]), requires_grad=True)  # 向量[2, 3]
print(x, x.is_leaf, x.grad_fn)  # ours

#方式三
x = torch.tensor([2,3], requires_grad=True, dtype=torch.float64)
print(x, x.is_leaf, x.grad_fn)  # ours

# 方式四
x = np.array([1,2,3] ,dtype=np.float64)
x = torch.from_numpy(x)
x.requires_grad = True
# 或者 x.requires_grad_(True)
print(x, x.is_leaf, x.grad_fn)  # ours

# 说明：只有float类型的数才有梯度，故需要指明dtype为float
try:  # ours
    torch.tensor([2, 3], requires_grad=True)  # ours
except RuntimeError as e:  # ours
    print("RuntimeError:", e)  # ours
