# Source: source article 002 (../shared/seeds/002_1416422fd84cfffe.txt): the torch.Tensor.is_leaf
# documentation example and the author's two REPL transcripts with
# torch.manual_seed(seed=20200910); ours: written out as one program.
# Changes: every `>>> expr` whose value the REPL displays is printed with print(...);
# expressions the REPL showed nothing for (a None .grad) stay bare expressions. On a machine
# without CUDA, `.cuda()` and device="cuda" raise: each such step is wrapped in try/except that
# prints the exception, as a CPU-only user sees it (the random numbers are drawn before the
# move fails, so the later values still match the article's).
import torch


def show_error(e):
    print(f"{type(e).__name__}: {e}")


torch.manual_seed(seed=20200910)

a = torch.rand(10, requires_grad=True)
print(a)
print(a.is_leaf)

a = torch.rand(10, requires_grad=False)
print(a)
print(a.is_leaf)

try:
    b = torch.rand(10, requires_grad=False).cuda()
    print(b.is_leaf)
except (AssertionError, RuntimeError) as e:
    show_error(e)
try:
    b = torch.rand(10, requires_grad=True).cuda()
    print(b.is_leaf)
except (AssertionError, RuntimeError) as e:
    show_error(e)

c = torch.rand(10, requires_grad=True) + 2
print(c.is_leaf)

c = torch.rand(10, requires_grad=False) + 2
print(c.is_leaf)

try:
    d = torch.rand(10).cuda()
    print(d.is_leaf)
except (AssertionError, RuntimeError) as e:
    show_error(e)

try:
    e = torch.rand(10).cuda().requires_grad_()
    print(e.is_leaf)
except (AssertionError, RuntimeError) as e:
    show_error(e)

try:
    f = torch.rand(10, requires_grad=True, device="cuda")
    print(f.is_leaf)
except (AssertionError, RuntimeError) as e:
    show_error(e)

# 实验代码:关于中间节点(非叶节点张量)保持梯度,不释放内存
torch.manual_seed(seed=20200910)
data_in = torch.randn(3,5,requires_grad=True)
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
loss = data_3 / 2.0 +89.2
print(loss)

data_in.grad
data_mean.grad
data_1.grad
data_2.grad
data_3.grad
loss.grad
print(data_in.grad, data_mean.grad, data_1.grad, data_2.grad, data_3.grad, loss.grad)

loss.backward()
print(data_in.grad)
data_mean.grad
data_mean.grad
data_1.grad
print(data_2.grad)
data_3.grad
loss.grad

print(data_in.grad, data_mean.grad, data_1.grad, data_2.grad, data_3.grad, loss.grad)

print(data_in.is_leaf, data_mean.is_leaf, data_1.is_leaf, data_2.is_leaf, data_3.is_leaf, loss.is_leaf)
